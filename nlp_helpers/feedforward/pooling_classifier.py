"""A pooling classifier over word embeddings (Jurafsky & Martin, SLP3 ch. 6; the lecture notes).

A text of ``n`` tokens becomes one vector by pooling its word embeddings, then goes through a
two-layer network::

    x = pool(E[w_1], ..., E[w_n])     # (d,)  mean, sum or max over the tokens
    h = relu(W x + b)                 # (H,)
    z = U h + c                       # (K,)  class scores; softmax(z) are the probabilities

The embedding matrix ``E`` can start random, or from pretrained word vectors (word2vec) and then
either stay fixed ("static", ``freeze=True``) or be updated with the rest ("fine-tuned").
:func:`train_classifier` keeps the parameters of the epoch with the best development accuracy
(early stopping). Unknown words map to ``<UNK>``; texts are padded with ``<PAD>``, which the
pooling skips. Left out: attention pooling, dropout on the embeddings.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np
import torch
from torch import nn
from tqdm.auto import tqdm

from nlp_helpers._checks import (
    check_array,
    check_choice,
    check_float,
    check_int,
    check_nonempty,
    check_type,
)
from nlp_helpers.display import hide_progress
from nlp_helpers.seeds import manual_seed, rng, torch_generator

__all__ = [
    "PAD",
    "POOLINGS",
    "UNK",
    "PoolingClassifier",
    "accuracy",
    "encode_texts",
    "pretrained_matrix",
    "train_classifier",
]

POOLINGS = ("mean", "sum", "max")
PAD, UNK = "<PAD>", "<UNK>"


def encode_texts(texts: Sequence[Sequence[str]], vocabulary: Sequence[str]) -> torch.Tensor:
    """Token ids ``(N, L)`` of tokenised ``texts``, padded with 0 to the longest text's length ``L``.

    ``vocabulary`` must start with ``<PAD>`` (id 0) and ``<UNK>`` (id 1, for words not in it).
    An empty text becomes one ``<UNK>``.
    """
    texts = check_nonempty("texts", texts)
    vocabulary = check_nonempty("vocabulary", vocabulary)
    if vocabulary[:2] != [PAD, UNK]:
        raise ValueError(f"vocabulary must start with {PAD!r}, {UNK!r}, got {vocabulary[:2]!r}")
    stoi = {w: i for i, w in enumerate(vocabulary)}
    rows = []
    for i, t in enumerate(texts):
        if isinstance(t, str):
            raise TypeError(f"texts[{i}] must be a list of tokens, got a str; use text.split()")
        rows.append([stoi.get(w, 1) for w in t] or [1])
    ids = torch.zeros(len(rows), max(map(len, rows)), dtype=torch.int64)
    for i, r in enumerate(rows):
        ids[i, : len(r)] = torch.tensor(r)
    return ids


class PoolingClassifier(nn.Module):
    """``EmbeddingBag`` pooling -> ``Linear`` -> ReLU -> ``Linear``; ``forward(ids)``: ``(B, L)`` -> ``(B, K)`` logits."""

    def __init__(
        self,
        vocab_size: int,
        dim: int = 50,
        hidden: int = 32,
        n_classes: int = 2,
        *,
        pooling: str = "mean",
        embeddings=None,
        freeze: bool = False,
        seed: int = 0,
    ) -> None:
        super().__init__()
        vocab_size = check_int("vocab_size", vocab_size, minimum=1)
        dim = check_int("dim", dim, minimum=1)
        check_choice("pooling", pooling, POOLINGS)
        check_type("freeze", freeze, bool)
        manual_seed(check_int("seed", seed, minimum=0))
        self.embed = nn.EmbeddingBag(vocab_size, dim, mode=pooling, padding_idx=0)  # <PAD> is skipped
        if embeddings is not None:
            E = check_array("embeddings", embeddings, shape=(vocab_size, dim))
            self.embed.weight.data.copy_(torch.from_numpy(E))
        elif freeze:
            raise ValueError("freeze=True needs pretrained embeddings (random frozen vectors teach nothing)")
        self.embed.weight.requires_grad_(not freeze)
        self.hid = nn.Linear(dim, check_int("hidden", hidden, minimum=1))
        self.out = nn.Linear(hidden, check_int("n_classes", n_classes, minimum=2))

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        check_type("ids", ids, torch.Tensor)
        if ids.ndim != 2 or ids.dtype != torch.int64:
            raise ValueError(
                f"ids must be an int64 tensor of shape (B, L) from encode_texts, got {tuple(ids.shape)} {ids.dtype}"
            )
        x = self.embed(ids)  # (B, d): pooled embeddings of the non-padding tokens
        return self.out(torch.relu(self.hid(x)))  # (B, K)


def pretrained_matrix(
    vocabulary: Sequence[str], words: Sequence[str], vectors, *, seed: int = 0, scale: float | None = None
) -> tuple[np.ndarray, float]:
    """An embedding matrix ``(len(vocabulary), d)``: the pretrained vector of every word that has one.

    ``words``/``vectors`` ``(n, d)`` are the pretrained table (e.g. a ``Word2Vec``'s ``words`` and
    ``vectors``). Words without a vector get random normal rows with the pretrained vectors' standard
    deviation (or ``scale``). Returns the matrix and the fraction of ``vocabulary`` covered.
    """
    vocabulary = check_nonempty("vocabulary", vocabulary)
    words = check_nonempty("words", words)
    vectors = check_array("vectors", vectors, ndim=2)
    if len(words) != len(vectors):
        raise ValueError(f"words has {len(words)} entries but vectors has {len(vectors)} rows")
    sd = float(vectors.std()) if scale is None else check_float("scale", scale, minimum=0.0, min_inclusive=False)
    index = {w: i for i, w in enumerate(words)}
    E = rng(check_int("seed", seed, minimum=0)).normal(0.0, sd, size=(len(vocabulary), vectors.shape[1]))
    found = [(r, index[w]) for r, w in enumerate(vocabulary) if w in index]
    if found:
        rows, src = map(list, zip(*found))
        E[rows] = vectors[src]
    return E.astype(np.float32), len(found) / len(vocabulary)


def _check_data(name, data):
    check_type(name, data, tuple)
    if len(data) != 2:
        raise ValueError(f"{name} must be a pair (ids, labels): encode_texts(...) and a label tensor")
    ids, labels = data
    check_type(f"{name}[0]", ids, torch.Tensor)
    check_type(f"{name}[1]", labels, torch.Tensor)
    if ids.ndim != 2 or len(ids) != len(labels):
        raise ValueError(
            f"{name}: ids must be (N, L) with one label per row; got {tuple(ids.shape)} and {len(labels)} labels"
        )
    return ids, labels


@torch.no_grad()
def accuracy(model: PoolingClassifier, data: tuple) -> float:
    """Share of texts whose highest-scoring class is the label; ``data = (ids, labels)``."""
    check_type("model", model, PoolingClassifier)
    ids, labels = _check_data("data", data)
    model.eval()
    return float((model(ids).argmax(1) == labels).float().mean())


def train_classifier(
    model: PoolingClassifier,
    train: tuple,
    dev: tuple,
    *,
    epochs: int = 5,
    lr: float = 5e-3,
    batch_size: int = 64,
    seed: int = 0,
    progress: bool = False,
) -> list[dict]:
    """Adam on the cross-entropy; after every epoch record the dev accuracy; keep the best epoch's weights.

    ``train``/``dev`` are ``(ids, labels)``. Returns one dict per epoch
    (``epoch``, ``train_loss``, ``dev_accuracy``); ``model`` ends with the best epoch's parameters.
    """
    check_type("model", model, PoolingClassifier)
    ids, labels = _check_data("train", train)
    _check_data("dev", dev)
    epochs = check_int("epochs", epochs, minimum=1)
    lr = check_float("lr", lr, minimum=0.0, min_inclusive=False)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    gen = torch_generator(check_int("seed", seed, minimum=0))
    return _train(model, (ids, labels), dev, epochs, lr, batch_size, gen, progress)


def _train(model, train, dev, epochs, lr, batch_size, gen, progress):
    ids, labels = train
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=lr)
    history, best = [], (-1.0, None)
    for epoch in tqdm(range(1, epochs + 1), disable=not progress or hide_progress(), desc="classifier"):
        model.train()
        total = 0.0
        order = torch.randperm(len(labels), generator=gen)
        for lo in range(0, len(order), batch_size):
            rows = order[lo : lo + batch_size]
            loss = nn.functional.cross_entropy(model(ids[rows]), labels[rows])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(rows)
        dev_acc = accuracy(model, dev)
        history.append({"epoch": epoch, "train_loss": total / len(labels), "dev_accuracy": dev_acc})
        if dev_acc > best[0]:  # early stopping: remember the best epoch on the dev set
            best = (dev_acc, copy.deepcopy(model.state_dict()))
    model.load_state_dict(best[1])
    return history
