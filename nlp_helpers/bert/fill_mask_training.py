"""Training the word-level fill-mask model of :mod:`nlp_helpers.bert.fill_mask`, with early stopping.

:func:`train_fill_mask` retrains MiniLM's top layers and a BERT masked-LM head on sentences, with
BERT's 80/10/10 masking; :func:`masked_lm_loss` scores a model on fixed (seeded) blanks, the measure
that decides when training stops. ``python -m tools.train_mlm`` runs it and stores the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import torch

from nlp_helpers._checks import check_float, check_int
from nlp_helpers.bert.fill_mask import (
    length_batches,
    masked_logits,
    new_fill_mask_model,
    trained_parameter_names,
    wordpiece_counts,
)
from nlp_helpers.bert.minilm import check_texts
from nlp_helpers.bert.mlm import IGNORE_INDEX, mask_tokens
from nlp_helpers.display import hide_progress
from nlp_helpers.seeds import manual_seed
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["FillMaskRun", "train_fill_mask", "masked_lm_loss"]


class FillMaskRun(NamedTuple):
    """What :func:`train_fill_mask` returns."""

    tokenizer: Any
    model: Any
    losses: list[float]  # training loss of every step
    valid_losses: list[float]  # validation loss before training (index 0) and after every pass
    best_pass: int  # the pass whose parameters the model holds (0: no pass improved on the start)


def train_fill_mask(
    sentences: Sequence[str],
    *,
    epochs: int = 1,
    batch_size: int = 32,
    lr: float = 3e-4,
    head_lr: float = 2e-3,
    max_length: int = 64,
    seed: int = 0,
    valid_sentences: Sequence[str] | None = None,
    patience: int = 2,
    max_steps: int | None = None,
    progress: bool = True,
) -> FillMaskRun:
    """Train the top layers and the MLM head on ``sentences`` with fresh 80/10/10 masks every pass.

    The learning rate warms up over 50 steps. Without ``valid_sentences`` it then decays linearly to
    zero over the ``epochs`` passes. With them it stays constant, :func:`masked_lm_loss` is measured on
    them before training and after every pass, training stops once it has not improved for ``patience``
    passes (or after ``epochs``), and the model is given back with the parameters of its best pass.
    The head's bias starts at the log unigram probabilities, so step 0 already equals the unigram baseline.
    ``max_steps`` stops after that many optimizer steps, with the parameters of that moment and no
    validation of the unfinished pass (the provenance tests retrain a stored run's first steps this way).
    """
    sentences = check_texts("sentences", sentences)
    if valid_sentences is not None:
        valid_sentences = check_texts("valid_sentences", valid_sentences)
    epochs = check_int("epochs", epochs, minimum=1)
    patience = check_int("patience", patience, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    lr = check_float("lr", lr, minimum=0.0, min_inclusive=False)
    head_lr = check_float("head_lr", head_lr, minimum=0.0, min_inclusive=False)
    max_length = check_int("max_length", max_length, minimum=3, maximum=512)
    seed = check_int("seed", seed, minimum=0)
    if max_steps is not None:
        max_steps = check_int("max_steps", max_steps, minimum=1)
    hyper = (epochs, patience, batch_size, lr, head_lr, max_length, seed, max_steps)
    return _train(sentences, valid_sentences, *hyper, progress)


def _train(
    sentences, valid, epochs, patience, batch_size, lr, head_lr, max_length, seed, max_steps, progress
) -> FillMaskRun:
    from tqdm.auto import tqdm

    manual_seed(seed)
    tokenizer, model = new_fill_mask_model()
    batches = length_batches(tokenizer, sentences, batch_size, max_length)
    counts = wordpiece_counts(tokenizer, sentences) + 0.1
    with torch.no_grad():
        model.cls.predictions.bias.copy_(torch.from_numpy(np.log(counts / counts.sum())).float())
    names = trained_parameter_names(model)
    named = dict(model.named_parameters())
    layers = [named[n] for n in names if n.startswith("bert.")]
    head = [named[n] for n in names if n.startswith("cls.")]
    opt = torch.optim.AdamW([{"params": layers, "lr": lr}, {"params": head, "lr": head_lr}], weight_decay=0.01)
    total = epochs * len(batches)
    decay = (lambda step: 1 - step / total) if valid is None else (lambda step: 1.0)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: min(1.0, (step + 1) / 50) * decay(step))
    rng = seeded_rng(seed)
    special = tokenizer.all_special_ids
    losses: list[float] = []
    valid_losses = [] if valid is None else [masked_lm_loss(model, tokenizer, valid, max_length=max_length)]
    best = (0, {n: named[n].detach().clone() for n in names})
    bar = tqdm(total=total, desc="fill-mask model", disable=not progress or hide_progress())
    for epoch in range(1, epochs + 1):
        model.train()
        for b in rng.permutation(len(batches)):
            enc = batches[b]
            inputs, labels = mask_tokens(enc["input_ids"], len(tokenizer), tokenizer.mask_token_id, special, rng)
            where = torch.from_numpy(labels != IGNORE_INDEX)
            if where.any():
                logits = masked_logits(model, torch.from_numpy(inputs), torch.from_numpy(enc["attention_mask"]), where)
                loss = torch.nn.functional.cross_entropy(logits, torch.from_numpy(labels)[where])
                opt.zero_grad()
                loss.backward()
                opt.step()
                losses.append(loss.item())
            sched.step()
            bar.update()
            if max_steps is not None and len(losses) >= max_steps:
                break
        model.eval()
        if max_steps is not None and len(losses) >= max_steps:
            best = (epoch, None)
            break
        if valid is None:
            best = (epoch, None)
            continue
        valid_losses.append(masked_lm_loss(model, tokenizer, valid, max_length=max_length))
        if valid_losses[-1] < min(valid_losses[:-1]):
            best = (epoch, {n: named[n].detach().clone() for n in names})
        elif epoch - best[0] >= patience:
            break
    bar.close()
    if best[1] is not None:
        with torch.no_grad():
            for n, value in best[1].items():
                named[n].copy_(value)
    model.eval()
    return FillMaskRun(tokenizer, model, losses, valid_losses, best[0])


@torch.no_grad()
def masked_lm_loss(model: Any, tokenizer: Any, texts: Sequence[str], *, seed: int = 0, max_length: int = 64) -> float:
    """Mean cross-entropy (nats) at the positions BERT's recipe selects in ``texts``, with masks seeded by ``seed``
    (the same masks every call, so two models or two passes are compared on the same blanks)."""
    texts = check_texts("texts", texts)
    seed = check_int("seed", seed, minimum=0)
    was_training = model.training
    model.eval()
    rng = seeded_rng(seed)
    total, n = 0.0, 0
    for enc in length_batches(tokenizer, texts, 64, max_length):
        inputs, labels = mask_tokens(enc["input_ids"], len(tokenizer), tokenizer.mask_token_id,
                                     tokenizer.all_special_ids, rng)  # fmt: skip
        where = torch.from_numpy(labels != IGNORE_INDEX)
        if where.any():
            logits = masked_logits(model, torch.from_numpy(inputs), torch.from_numpy(enc["attention_mask"]), where)
            target = torch.from_numpy(labels)[where]
            total += float(torch.nn.functional.cross_entropy(logits, target, reduction="sum"))
            n += int(where.sum())
    model.train(was_training)
    if n == 0:
        raise ValueError("texts must contain enough WordPieces for at least one masked position")
    return total / n
