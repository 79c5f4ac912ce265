"""Fine-tuning the whole encoder: every weight of MiniLM trained, with warm-up and linear decay.

Devlin et al. (2019) fine-tune all of BERT's layers on each task with Adam at a small learning
rate; the fine-tuning script released with their code also warms the rate up linearly over the
first 10 % of the steps and then lets it decay linearly to 0. This module does the same for the
chapter's small encoder (all-MiniLM-L6-v2) on sentence classification:

* :func:`linear_warmup_factor`: the schedule, as a multiplier of the peak rate at each step
  (the same numbers as ``transformers.get_linear_schedule_with_warmup``);
* :class:`EncoderClassifier`: a trainable copy of the whole encoder (by default with its table of
  WordPiece vectors frozen), mean pooling, dropout and a linear head, reading token ids;
* :func:`finetune_encoder`: mini-batch AdamW on every weight with that schedule (the pretrained
  weights with a small rate, the new head with a larger one); :func:`predict_texts` classifies;
* :func:`full_finetuning_study`: the stored seed study of ``benchmarks/bert_full_finetuning_study.py``
  (a few hundred steps per seed, too long for a page), frozen encoder against full fine-tuning on
  the same split.

Left out: layer-wise learning-rate decay, gradient clipping and mixed precision.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import torch
from torch import nn

from nlp_helpers._checks import check_float, check_int, check_type
from nlp_helpers.bert.minilm import check_texts, load_minilm
from nlp_helpers.finetuning.classifier import fit_minibatches

__all__ = [
    "FULL_STUDY_FILE",
    "linear_warmup_factor",
    "EncoderClassifier",
    "finetune_encoder",
    "predict_texts",
    "full_finetuning_study",
]

FULL_STUDY_FILE = Path(__file__).with_name("full_finetuning_study.json")  # benchmarks/bert_full_finetuning_study.py


def linear_warmup_factor(step: int, total_steps: int, warmup_steps: int) -> float:
    """The multiplier of the peak learning rate at optimiser step ``step`` (counted from 0).

    It rises linearly from 0 to 1 over the first ``warmup_steps`` steps, then falls linearly to 0 at
    ``total_steps``; past the end it stays 0. ``warmup_steps = 0`` starts at the peak.

    >>> [linear_warmup_factor(t, 5, 2) for t in range(6)]
    [0.0, 0.5, 1.0, 0.6666666666666666, 0.3333333333333333, 0.0]
    """
    step = check_int("step", step, minimum=0)
    total_steps = check_int("total_steps", total_steps, minimum=1)
    warmup_steps = check_int("warmup_steps", warmup_steps, minimum=0, maximum=total_steps)
    return _linear_warmup_factor(step, total_steps, warmup_steps)


def _linear_warmup_factor(step: int, total_steps: int, warmup_steps: int) -> float:
    if step < warmup_steps:
        return step / warmup_steps
    return max(0.0, (total_steps - step) / max(1, total_steps - warmup_steps))


class EncoderClassifier(nn.Module):
    """A trainable copy of the whole encoder, mean pooling and a linear head: ids (B, T) -> logits (B, n_classes).

    With ``freeze_word_embeddings`` (the default) the table of WordPiece vectors (30,522 x 384, half of
    MiniLM's weights) stays as pretrained and every other weight trains: the six layers, the position and
    segment embeddings and their layer norm. A few thousand sentences touch few of the table's rows, and
    updating all of it would cost about a third of each step. AdamW skips a weight without a gradient, so
    an optimiser may be given all of ``encoder.parameters()``.
    """

    def __init__(
        self,
        n_classes: int = 2,
        encoder: nn.Module | None = None,
        *,
        dropout: float = 0.1,
        freeze_word_embeddings: bool = True,
    ) -> None:
        super().__init__()
        n_classes = check_int("n_classes", n_classes, minimum=2)
        encoder = load_minilm()[1] if encoder is None else encoder
        check_type("encoder", encoder, nn.Module)
        check_type("freeze_word_embeddings", freeze_word_embeddings, bool)
        self.encoder = copy.deepcopy(encoder)  # fine-tuning must not change the shared pretrained model
        self.encoder.requires_grad_(True)
        if freeze_word_embeddings:
            self.encoder.get_input_embeddings().requires_grad_(False)
        self.dropout = nn.Dropout(check_float("dropout", dropout, minimum=0.0, maximum=1.0, max_inclusive=False))
        self.head = nn.Linear(self.encoder.config.hidden_size, n_classes)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        check_type("input_ids", input_ids, torch.Tensor)
        check_type("attention_mask", attention_mask, torch.Tensor)
        if input_ids.ndim != 2 or attention_mask.shape != input_ids.shape:
            raise ValueError(
                f"input_ids and attention_mask must both be (B, T), got {tuple(input_ids.shape)} and "
                f"{tuple(attention_mask.shape)}"
            )
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        m = attention_mask[..., None].to(hidden.dtype)  # (B, T, 1)
        pooled = (hidden * m).sum(1) / m.sum(1).clamp(min=1.0)  # (B, d_model): mean over real tokens
        return self.head(self.dropout(pooled))


def _encode(texts: list[str], max_length: int) -> tuple[torch.Tensor, torch.Tensor]:
    tokenizer, _ = load_minilm()
    enc = tokenizer(texts, padding=True, truncation=True, max_length=max_length, return_tensors="pt")
    return enc["input_ids"], enc["attention_mask"]


def finetune_encoder(
    model: EncoderClassifier,
    texts: Sequence[str],
    labels: Sequence[int],
    *,
    epochs: int = 2,
    batch_size: int = 16,
    lr: float = 5e-5,
    head_lr: float = 1e-3,
    warmup_fraction: float = 0.1,
    max_length: int = 64,
    seed: int = 0,
    progress: bool = True,
) -> dict[str, list[float]]:
    """Fine-tune every weight of ``model`` on labelled texts; return each step's ``loss`` and ``lr`` (the encoder's).

    AdamW (weight decay 0.01) with ``lr`` for the pretrained encoder and ``head_lr`` for the new head,
    both scaled at every step by :func:`linear_warmup_factor` with the first ``warmup_fraction`` of the
    steps (rounded) as warm-up. Each mini-batch is cut to its longest text (at most ``max_length`` tokens).
    """
    check_type("model", model, EncoderClassifier)
    texts = check_texts("texts", texts)
    y = np.asarray(labels)
    if y.shape != (len(texts),) or y.dtype.kind not in "iu":
        raise ValueError(f"labels must be one integer class index per text, shape ({len(texts)},), got {y.shape}")
    n_classes = model.head.out_features
    if y.min() < 0 or y.max() >= n_classes:
        raise ValueError(f"labels must be class indices in [0, {n_classes}), got {int(y.min())}..{int(y.max())}")
    epochs = check_int("epochs", epochs, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    warmup_fraction = check_float("warmup_fraction", warmup_fraction, minimum=0.0, maximum=1.0)
    max_length = check_int("max_length", max_length, minimum=3, maximum=512)
    groups = [
        {"params": model.encoder.parameters(), "lr": check_float("lr", lr, minimum=0.0, min_inclusive=False)},
        {"params": model.head.parameters(), "lr": check_float("head_lr", head_lr, minimum=0.0, min_inclusive=False)},
    ]
    total = epochs * -(-len(texts) // batch_size)
    warmup = round(warmup_fraction * total)
    ids, mask = _encode(texts, max_length)
    target = torch.tensor(y, dtype=torch.long)  # a copy: y may be a read-only view

    def batch_loss(idx: torch.Tensor) -> torch.Tensor:
        T = int(mask[idx].sum(1).max())  # right padding: later columns are all padding
        return nn.functional.cross_entropy(model(ids[idx, :T], mask[idx, :T]), target[idx])

    losses = fit_minibatches(
        model,
        len(texts),
        batch_loss,
        groups=groups,
        epochs=epochs,
        batch_size=batch_size,
        seed=check_int("seed", seed, minimum=0),
        progress=progress,
        lr_factor=lambda step: _linear_warmup_factor(step, total, warmup),
    )
    rates = [lr * _linear_warmup_factor(t, total, warmup) for t in range(total)]
    return {"loss": losses, "lr": rates}


@torch.no_grad()
def predict_texts(
    model: EncoderClassifier, texts: Sequence[str], *, max_length: int = 64, batch_size: int = 64
) -> np.ndarray:
    """The predicted class index of every text, shape (N,)."""
    check_type("model", model, EncoderClassifier)
    texts = check_texts("texts", texts)
    max_length = check_int("max_length", max_length, minimum=3, maximum=512)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    model.eval()
    out = []
    for i in range(0, len(texts), batch_size):
        ids, mask = _encode(texts[i : i + batch_size], max_length)
        out.append(model(ids, mask).argmax(-1))
    return torch.cat(out).numpy()


def full_finetuning_study(path: Path | None = None) -> pd.DataFrame:
    """The stored seed study of ``benchmarks/bert_full_finetuning_study.py``: one row per (model, seed), test accuracy."""
    path = FULL_STUDY_FILE if path is None else Path(path)
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} is missing: run `python -m benchmarks.bert_full_finetuning_study 5` to create it"
        )
    data = json.loads(path.read_text())
    frame = pd.DataFrame(data["runs"])
    expected = {"model", "seed", "accuracy", "n_train", "n_test", "steps", "seconds"}
    if not expected <= set(frame.columns):
        raise ValueError(f"{path} must have runs with the fields {sorted(expected)}, got {sorted(frame.columns)}")
    frame.attrs.update({k: v for k, v in data.items() if k != "runs"})
    return frame
