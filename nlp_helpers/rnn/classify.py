"""Sequence classification with a recurrent encoder: last state vs mean/max pooling.

Follows the lecture notes (section 7): embed the tokens, run an RNN/GRU/LSTM
(optionally stacked and bidirectional), turn the hidden states ``h_1..h_T`` into one
vector — the last state ``h_T`` (for a bidirectional RNN ``[h→_T ; h←_1]``), or the
element-wise mean or max over time — and apply a linear layer and softmax.

Also here: :func:`token_ids` and :func:`pad_sequences` (words to a padded id tensor),
:func:`presence_task` (a synthetic task where the position of the evidence is known,
so we can see the last state's bias towards the end of the sequence) and
:func:`train_classifier` (Adam or SGD, optional gradient clipping by norm, a progress
bar, and a clean stop with ``diverged=True`` when the loss becomes NaN/inf). Against overfitting:
dropout on the embedded inputs and on the summary (``SequenceClassifier(dropout=...)``; with
``variational=True`` one input mask per sequence, see :mod:`nlp_helpers.rnn.regularize`), weight
decay (AdamW) and early stopping on a validation set (``train_classifier(valid=...)``).
Left out: attention pooling, pretrained embeddings.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import torch
from torch import Tensor, nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from nlp_helpers._checks import check_choice, check_float, check_int, check_nonempty, check_type
from nlp_helpers.display import hide_progress
from nlp_helpers.rnn.gradients import clip_grad_norm
from nlp_helpers.rnn.regularize import variational_dropout
from nlp_helpers.seeds import rng as seeded_rng
from nlp_helpers.seeds import torch_generator

__all__ = [
    "PAD",
    "UNK",
    "SequenceClassifier",
    "token_ids",
    "pad_sequences",
    "presence_task",
    "train_classifier",
    "accuracy",
]

PAD, UNK = 0, 1  # token ids reserved for padding and for words outside the vocabulary


def token_ids(token_lists: Sequence[Sequence[str]], vocabulary: Sequence[str]) -> list[list[int]]:
    """Map words to ids: ``vocabulary[k]`` -> ``k + 2``; any other word -> ``UNK`` (1); 0 stays for padding."""
    token_lists = check_nonempty("token_lists", token_lists)
    index = {w: k + 2 for k, w in enumerate(check_nonempty("vocabulary", vocabulary))}
    return [[index.get(w, UNK) for w in tokens] for tokens in token_lists]


def pad_sequences(sequences: Sequence[Sequence[int]]) -> tuple[Tensor, Tensor]:
    """Pad lists of token ids (ids >= 1; 0 is padding) to ``tokens (B, T_max)`` and return ``lengths (B,)``."""
    seqs = check_nonempty("sequences", sequences)
    lengths = [len(s) for s in seqs]
    if min(lengths) == 0:
        raise ValueError(f"sequences[{lengths.index(0)}] is empty: every sequence needs at least one token")
    tokens = torch.zeros(len(seqs), max(lengths), dtype=torch.long)
    for i, s in enumerate(seqs):
        tokens[i, : len(s)] = torch.as_tensor(list(s), dtype=torch.long)
    if (tokens[:, 0] < 1).any() or tokens.min() < 0:
        raise ValueError("sequences must contain token ids >= 1 (0 is reserved for padding)")
    return tokens, torch.tensor(lengths)


def presence_task(n: int, length: int, vocab_size: int = 20, seed: int = 0) -> tuple[Tensor, Tensor, Tensor]:
    """Synthetic task: does token 1 (the "signal") occur in the sequence?

    Half of the ``n`` sequences contain the signal exactly once, at a uniformly random
    position; the other tokens are drawn uniformly from ``2..vocab_size−1``.
    Returns ``tokens (n, length)``, ``labels (n,)`` (1 = signal present) and
    ``positions (n,)`` (where the signal is, −1 if absent).
    """
    n = check_int("n", n, minimum=2)
    length = check_int("length", length, minimum=1)
    vocab_size = check_int("vocab_size", vocab_size, minimum=4)
    rng = seeded_rng(check_int("seed", seed, minimum=0))
    tokens = rng.integers(2, vocab_size, size=(n, length))
    labels = np.arange(n) % 2
    rng.shuffle(labels)
    positions = np.where(labels == 1, rng.integers(0, length, size=n), -1)
    tokens[labels == 1, positions[labels == 1]] = 1
    return torch.as_tensor(tokens), torch.as_tensor(labels), torch.as_tensor(positions)


class SequenceClassifier(nn.Module):
    """Embedding → RNN/GRU/LSTM (stacked, optionally bidirectional) → pooling → linear layer.

    ``pooling``: ``"last"`` (final state of each direction), ``"mean"`` or ``"max"`` over the
    real (non-padding) time steps. Token id 0 is padding. ``dropout`` (in ``[0, 1)``, active only in
    training mode) drops embedded input features and summary features; with ``variational=True``
    the input mask is drawn once per sequence and reused at every time step.
    """

    def __init__(
        self,
        vocab_size: int,
        n_classes: int = 2,
        *,
        embedding_dim: int = 32,
        hidden_size: int = 32,
        cell: str = "gru",
        pooling: str = "last",
        bidirectional: bool = False,
        num_layers: int = 1,
        nonlinearity: str = "tanh",
        dropout: float = 0.0,
        variational: bool = False,
    ) -> None:
        super().__init__()
        self.dropout = check_float("dropout", dropout, minimum=0.0, maximum=1.0, max_inclusive=False)
        check_type("variational", variational, bool)
        self.variational = variational
        self.vocab_size = check_int("vocab_size", vocab_size, minimum=2)
        n_classes = check_int("n_classes", n_classes, minimum=2)
        self.pooling = check_choice("pooling", pooling, ["last", "mean", "max"])
        cell = check_choice("cell", cell, ["rnn", "gru", "lstm"])
        check_type("bidirectional", bidirectional, bool)
        embedding_dim = check_int("embedding_dim", embedding_dim, minimum=1)
        hidden_size = check_int("hidden_size", hidden_size, minimum=1)
        num_layers = check_int("num_layers", num_layers, minimum=1)
        self.embedding = nn.Embedding(self.vocab_size, embedding_dim, padding_idx=PAD)
        kwargs = {"nonlinearity": check_choice("nonlinearity", nonlinearity, ["tanh", "relu"])} if cell == "rnn" else {}
        rnn_class = {"rnn": nn.RNN, "gru": nn.GRU, "lstm": nn.LSTM}[cell]
        self.rnn = rnn_class(
            embedding_dim, hidden_size, num_layers=num_layers, batch_first=True, bidirectional=bidirectional, **kwargs
        )
        self.directions = 2 if bidirectional else 1
        self.out = nn.Linear(self.directions * hidden_size, n_classes)

    def encode(self, tokens: Tensor, lengths: Tensor | None = None) -> Tensor:
        """tokens (B, T) (+ lengths (B,), default: all T) -> pooled vector (B, directions·H)."""
        check_type("tokens", tokens, Tensor)
        if tokens.dim() != 2 or tokens.dtype != torch.long:
            raise ValueError(
                f"tokens must be a (B, T) tensor of token ids (torch.long), got {tuple(tokens.shape)} {tokens.dtype}"
            )
        if tokens.shape[1] == 0:
            raise ValueError("tokens is empty along time (T = 0): each sequence needs at least one token")
        if tokens.min() < 0 or tokens.max() >= self.vocab_size:
            raise ValueError(
                f"tokens must be ids in [0, {self.vocab_size - 1}], got range "
                f"[{tokens.min().item()}, {tokens.max().item()}]"
            )
        B, T = tokens.shape
        lengths = torch.full((B,), T) if lengths is None else lengths
        if lengths.shape != (B,) or lengths.min() < 1 or lengths.max() > T:
            raise ValueError(f"lengths must be {B} integers in [1, {T}], got {lengths.tolist()}")
        embedded = self.embedding(tokens)  # (B, T, E)
        if self.dropout > 0 and self.training:
            if self.variational:  # the same features of a sequence dropped at every step
                embedded = variational_dropout(embedded, self.dropout)
            else:  # a new mask at every step
                embedded = nn.functional.dropout(embedded, self.dropout)
        packed = pack_padded_sequence(embedded, lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, final = self.rnn(packed)
        h_n = final[0] if isinstance(final, tuple) else final  # (layers·directions, B, H)
        if self.pooling == "last":  # top layer: forward h_T (and backward h_1)
            return torch.cat(list(h_n[-self.directions :]), dim=-1)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=T)  # (B, T, directions·H)
        mask = (torch.arange(T)[None, :] < lengths[:, None]).unsqueeze(-1)  # (B, T, 1)
        if self.pooling == "mean":
            return (out * mask).sum(1) / lengths[:, None]
        return out.masked_fill(~mask, float("-inf")).max(dim=1).values

    def forward(self, tokens: Tensor, lengths: Tensor | None = None) -> Tensor:
        """tokens (B, T) -> class logits (B, n_classes)."""
        summary = self.encode(tokens, lengths)
        if self.dropout > 0 and self.training:
            summary = nn.functional.dropout(summary, self.dropout)
        return self.out(summary)


def accuracy(model: SequenceClassifier, tokens: Tensor, labels: Tensor, lengths: Tensor | None = None) -> float:
    """Fraction of sequences whose arg-max class equals the label."""
    with torch.no_grad():
        return (model(tokens, lengths).argmax(-1) == labels).float().mean().item()


def train_classifier(
    model: SequenceClassifier,
    tokens: Tensor,
    labels: Tensor,
    lengths: Tensor | None = None,
    *,
    steps: int = 300,
    batch_size: int = 32,
    lr: float = 1e-2,
    optimizer: str = "adam",
    clip: float | None = None,
    weight_decay: float = 0.0,
    valid: tuple[Tensor, Tensor, Tensor | None] | None = None,
    eval_every: int = 5,
    patience: int | None = None,
    seed: int = 0,
    progress: bool = True,
) -> pd.DataFrame:
    """Train with cross-entropy on random mini-batches; return the history.

    The history has one row per step: ``step``, ``loss`` and ``grad_norm`` (before clipping).
    ``clip``: if given, the gradients are rescaled to this norm (:func:`clip_grad_norm`).
    ``weight_decay``: decoupled weight decay (AdamW; for SGD the usual L2 term); 0 = plain Adam.
    ``valid = (tokens, labels, lengths)``: **early stopping**. Every ``eval_every`` steps the
    validation accuracy and mean cross-entropy are recorded (columns ``valid_acc`` and
    ``valid_loss``); training stops after ``patience``
    evaluations without improvement (``None``: runs all ``steps``; the row of step ``s`` holds the
    accuracy after ``s`` updates), and the model returns to the
    weights of its best evaluation (the earliest on ties), whose step is ``attrs["best_step"]``.
    Training stops early if the loss or the gradients become NaN/inf; the returned frame then
    has ``attrs["diverged"] = True``.
    """
    check_type("model", model, SequenceClassifier)
    steps = check_int("steps", steps, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    lr = check_float("lr", lr, minimum=0.0, min_inclusive=False)
    optimizer = check_choice("optimizer", optimizer, ["adam", "sgd"])
    if clip is not None:
        clip = check_float("clip", clip, minimum=0.0, min_inclusive=False)
    if labels.shape != (tokens.shape[0],):
        raise ValueError(f"labels must have shape ({tokens.shape[0]},) to match tokens, got {tuple(labels.shape)}")
    from tqdm.auto import tqdm

    weight_decay = check_float("weight_decay", weight_decay, minimum=0.0)
    eval_every = check_int("eval_every", eval_every, minimum=1)
    if patience is not None:
        patience = check_int("patience", patience, minimum=1)
    if valid is not None:
        check_type("valid", valid, tuple)
        if len(valid) != 3 or valid[1].shape != (valid[0].shape[0],):
            raise ValueError("valid must be (tokens (N, T), labels (N,), lengths (N,) or None)")
    gen = torch_generator(check_int("seed", seed, minimum=0))
    if optimizer == "sgd":
        opt = torch.optim.SGD(model.parameters(), lr=lr, weight_decay=weight_decay)
    elif weight_decay > 0:
        opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
    else:
        opt = torch.optim.Adam(model.parameters(), lr=lr)
    rows, diverged = [], False
    best = {"acc": -1.0, "step": 0, "state": None, "waited": 0}
    model.train()
    for step in tqdm(range(steps), desc="training", disable=not progress or hide_progress(), leave=False):
        if valid is not None and step % eval_every == 0 and _early_stop(model, valid, step, best, patience):
            break
        idx = torch.randint(0, tokens.shape[0], (batch_size,), generator=gen)
        logits = model(tokens[idx], None if lengths is None else lengths[idx])
        loss = nn.functional.cross_entropy(logits, labels[idx])
        opt.zero_grad()
        loss.backward()
        norm = torch.sqrt(sum((p.grad**2).sum() for p in model.parameters() if p.grad is not None)).item()
        if not (np.isfinite(loss.item()) and np.isfinite(norm)):
            diverged = True
            rows.append({"step": step, "loss": loss.item(), "grad_norm": norm})
            break
        if clip is not None:
            clip_grad_norm(model.parameters(), clip)
        opt.step()
        rows.append({"step": step, "loss": loss.item(), "grad_norm": norm})
    else:
        if valid is not None and not diverged:
            _early_stop(model, valid, steps, best, patience)
    model.eval()
    history = pd.DataFrame(rows)
    if valid is not None:
        log = pd.DataFrame(best["log"], columns=["step", "valid_acc", "valid_loss"])
        history = history.merge(log, on="step", how="outer")
        model.load_state_dict(best["state"])
        history.attrs["best_step"] = best["step"]
    history.attrs["diverged"] = diverged
    return history


def _early_stop(model: SequenceClassifier, valid: tuple, step: int, best: dict, patience: int | None) -> bool:
    """Score the validation set after ``step`` steps; keep the best weights; True = stop now."""
    model.eval()  # no dropout while scoring
    tokens, labels, lengths = valid
    with torch.no_grad():
        logits = model(tokens, lengths)
    acc = (logits.argmax(-1) == labels).float().mean().item()
    loss = nn.functional.cross_entropy(logits, labels).item()
    model.train()
    best.setdefault("log", []).append((step, acc, loss))
    if acc > best["acc"]:
        best.update(acc=acc, step=step, waited=0, state={k: v.clone() for k, v in model.state_dict().items()})
        return False
    best["waited"] += 1
    return patience is not None and best["waited"] >= patience
