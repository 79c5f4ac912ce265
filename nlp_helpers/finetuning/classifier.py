"""Fine-tuning a BERT encoder for sentence classification, sized for a laptop CPU.

A classifier on top of BERT reads one vector per sentence (the ``[CLS]`` vector or,
as here and in Sentence-BERT, the mean of the token vectors) and applies a linear
layer and a softmax: :math:`y = \\mathrm{softmax}(W\\,\\bar h + b)`. *Fine-tuning*
trains that head together with (some of) the encoder's weights.

This module offers the two cheap ends of the spectrum, with one code path (every
weight fine-tuned, which costs minutes, is ``nlp_helpers.finetuning.full_finetuning``):

* **frozen encoder**: the head alone, on the last layer's mean-pooled vectors
  (logistic regression trained by gradient descent);
* **last layer fine-tuned**: a trainable copy of the encoder's top layer plus the
  head. The frozen lower layers are run once (:func:`encoder_features`) and their
  output is cached, so each training step costs one layer, not six.

Token-level heads are in ``nlp_helpers.finetuning.token_labels`` (trained with :func:`fit_minibatches`) and pair
inputs (cross- and bi-encoders) in ``nlp_helpers.finetuning.pairs`` (trained by its own loop, the one its page
writes out).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence

import numpy as np
import torch
from torch import nn

from nlp_helpers._checks import check_float, check_int, check_type
from nlp_helpers.bert.minilm import check_texts, encoder_batches, load_minilm
from nlp_helpers.display import hide_progress
from nlp_helpers.seeds import manual_seed, torch_generator

__all__ = [
    "encoder_features",
    "run_bert_layer",
    "SentenceClassifier",
    "train_classifier",
    "training_settings",
    "fit_minibatches",
    "predict",
]


@torch.no_grad()
def encoder_features(texts: Sequence[str], *, max_length: int = 64, batch_size: int = 32) -> dict[str, torch.Tensor]:
    """Run MiniLM once on ``texts``: ``penultimate`` and ``last`` hidden states (B, T, d_model), ``attention_mask`` (B, T).

    Rows are in the order of ``texts``, right-padded with zeros (mask 0) to the longest text.
    """
    texts = check_texts("texts", texts)
    _, model = load_minilm()
    batches = list(encoder_batches(texts, max_length=max_length, batch_size=batch_size, all_layers=True))
    T = max(enc["input_ids"].shape[1] for _, enc, _ in batches)
    d = model.config.hidden_size
    feats = {
        "penultimate": torch.zeros(len(texts), T, d),
        "last": torch.zeros(len(texts), T, d),
        "attention_mask": torch.zeros(len(texts), T, dtype=torch.long),
    }
    for idx, enc, out in batches:
        t, rows = enc["input_ids"].shape[1], torch.as_tensor(idx)
        real = enc["attention_mask"][..., None]  # the model also computes vectors at padding: zero them
        feats["penultimate"][rows, :t] = out.hidden_states[-2] * real
        feats["last"][rows, :t] = out.last_hidden_state * real
        feats["attention_mask"][rows, :t] = enc["attention_mask"]
    return feats


def run_bert_layer(layer: nn.Module, hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """Apply one ``BertLayer`` to hidden states (B, T, d_model), ignoring padded keys (mask 0)."""
    check_type("layer", layer, nn.Module)
    _check_batch(hidden, attention_mask)
    # BERT adds a large negative number to the scores of padded keys before the softmax.
    additive = (1.0 - attention_mask[:, None, None, :].to(hidden.dtype)) * torch.finfo(hidden.dtype).min
    out = layer(hidden, attention_mask=additive)
    return out[0] if isinstance(out, tuple) else out


def _check_batch(hidden: torch.Tensor, attention_mask: torch.Tensor, d_model: int | None = None) -> None:
    check_type("hidden", hidden, torch.Tensor)
    check_type("attention_mask", attention_mask, torch.Tensor)
    if hidden.ndim != 3 or attention_mask.shape != hidden.shape[:2]:
        raise ValueError(
            f"hidden must be (B, T, d) and attention_mask (B, T); got {tuple(hidden.shape)}, "
            f"{tuple(attention_mask.shape)}"
        )
    if d_model is not None and hidden.shape[-1] != d_model:
        raise ValueError(f"hidden must have d_model = {d_model} features in its last axis, got {hidden.shape[-1]}")


class SentenceClassifier(nn.Module):
    """Mean pooling + linear head (B, T, d_model) -> logits (B, n_classes), optionally after a trainable top layer."""

    def __init__(self, d_model: int, n_classes: int, top_layer: nn.Module | None = None) -> None:
        super().__init__()
        d_model = check_int("d_model", d_model, minimum=1)
        n_classes = check_int("n_classes", n_classes, minimum=2)
        # A copy: training it must not change the pretrained model that other cells use.
        self.top_layer = None if top_layer is None else copy.deepcopy(top_layer)
        self.head = nn.Linear(d_model, n_classes)

    def forward(self, hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        _check_batch(hidden, attention_mask, self.head.in_features)
        if self.top_layer is not None:
            hidden = run_bert_layer(self.top_layer, hidden, attention_mask)
        m = attention_mask.to(hidden.dtype)[..., None]  # (B, T, 1)
        pooled = (hidden * m).sum(1) / m.sum(1).clamp(min=1.0)  # (B, d_model)
        return self.head(pooled)


def train_classifier(
    model: SentenceClassifier,
    hidden: torch.Tensor,
    attention_mask: torch.Tensor,
    labels: np.ndarray,
    *,
    epochs: int = 5,
    batch_size: int = 16,
    lr: float = 1e-2,
    layer_lr: float = 1e-4,
    seed: int = 0,
    progress: bool = True,
) -> list[float]:
    """Train with AdamW and cross-entropy on mini-batches; return the loss of every step.

    The head learns with ``lr``; the top layer (if any) with the smaller ``layer_lr``, as
    pretrained weights need only a nudge. Each batch is cut to its longest sentence.
    """
    _check_batch(hidden, attention_mask, model.head.in_features)
    labels = np.asarray(labels)
    if labels.size == 0:
        raise ValueError("labels must not be empty: there is nothing to train on")
    if labels.dtype.kind not in "iu":
        raise TypeError(f"labels must be integer class indices, got dtype {labels.dtype}")
    y = torch.tensor(labels, dtype=torch.long)  # a copy: labels may be a read-only view
    if y.ndim != 1 or len(y) != len(hidden) or len(hidden) != len(attention_mask):
        raise ValueError(
            f"labels ({tuple(y.shape)}), hidden ({len(hidden)}) and attention_mask "
            f"({len(attention_mask)}) must describe the same number of sentences"
        )
    n_classes = model.head.out_features
    if y.min() < 0 or y.max() >= n_classes:
        raise ValueError(
            f"labels must be class indices in [0, {n_classes}), got values in [{int(y.min())}, {int(y.max())}]"
        )
    groups, epochs, batch_size, seed = training_settings(
        model, epochs=epochs, batch_size=batch_size, lr=lr, layer_lr=layer_lr, seed=seed
    )

    def batch_loss(idx: torch.Tensor) -> torch.Tensor:
        T = int(attention_mask[idx].sum(1).max())  # right padding: columns past T are all padding
        return nn.functional.cross_entropy(model(hidden[idx, :T], attention_mask[idx, :T]), y[idx])

    return fit_minibatches(
        model, len(y), batch_loss, groups=groups, epochs=epochs, batch_size=batch_size, seed=seed, progress=progress
    )


def training_settings(
    model: nn.Module, *, epochs: int, batch_size: int, lr: float, layer_lr: float, seed: int
) -> tuple[list[dict], int, int, int]:
    """Check and normalise the training arguments shared by this chapter's heads.

    ``model`` must have a ``head`` (learning with ``lr``) and may have a ``top_layer`` that is not
    ``None`` (learning with the smaller ``layer_lr``). Returns ``(groups, epochs, batch_size, seed)``:
    AdamW's parameter groups and the three integers, each checked (errors name the argument).
    """
    check_type("model", model, nn.Module)
    head = getattr(model, "head", None)
    if not isinstance(head, nn.Module):
        raise TypeError(f"model must have a `head` module to train, got {type(model).__name__}")
    epochs = check_int("epochs", epochs, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    groups = [{"params": head.parameters(), "lr": check_float("lr", lr, minimum=0.0, min_inclusive=False)}]
    top = getattr(model, "top_layer", None)
    if top is not None:
        layer_lr = check_float("layer_lr", layer_lr, minimum=0.0, min_inclusive=False)
        groups.append({"params": top.parameters(), "lr": layer_lr})
    return groups, epochs, batch_size, check_int("seed", seed, minimum=0)


def fit_minibatches(
    model: nn.Module,
    n: int,
    batch_loss,
    *,
    groups: list[dict],
    epochs: int,
    batch_size: int,
    seed: int,
    progress: bool = True,
    weight_decay: float = 0.01,
    lr_factor: Callable[[int], float] | None = None,
) -> list[float]:
    """AdamW over ``epochs`` shuffled passes of ``n`` examples in mini-batches; return every step's loss.

    ``batch_loss(idx)`` gets a tensor of example indices and returns the batch's scalar loss.
    ``seed`` (through ``nlp_helpers.seeds``) fixes the shuffling and dropout. ``lr_factor(step)``, if given,
    scales every group's learning rate at step ``step`` (from 0; ``torch.optim.lr_scheduler.LambdaLR``).
    The model is left in eval mode.
    """
    from tqdm.auto import tqdm

    check_type("model", model, nn.Module)
    n = check_int("n", n, minimum=1)
    if not callable(batch_loss):
        raise TypeError(f"batch_loss must be a function of the batch's indices, got {type(batch_loss).__name__}")
    epochs = check_int("epochs", epochs, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    opt = torch.optim.AdamW(groups, weight_decay=check_float("weight_decay", weight_decay, minimum=0.0))
    if lr_factor is not None and not callable(lr_factor):
        raise TypeError(f"lr_factor must be a function of the step, got {type(lr_factor).__name__}")
    schedule = None if lr_factor is None else torch.optim.lr_scheduler.LambdaLR(opt, lr_factor)
    gen = torch_generator(check_int("seed", seed, minimum=0))
    manual_seed(seed)  # dropout inside trainable layers
    losses: list[float] = []
    model.train()
    bar = tqdm(total=epochs * -(-n // batch_size), desc="fine-tuning", disable=not progress or hide_progress())
    for _ in range(epochs):
        for idx in torch.randperm(n, generator=gen).split(batch_size):
            loss = batch_loss(idx)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if schedule is not None:
                schedule.step()
            losses.append(loss.item())
            bar.update()
    bar.close()
    model.eval()
    return losses


@torch.no_grad()
def predict(model: SentenceClassifier, hidden: torch.Tensor, attention_mask: torch.Tensor) -> np.ndarray:
    """Predicted class index of every sentence, shape (B,)."""
    model.eval()
    return model(hidden, attention_mask).argmax(-1).numpy()
