"""A fastText-style text classifier: the average of word and hashed n-gram embeddings, then softmax.

Follows Joulin, Grave, Bojanowski & Mikolov, "Bag of Tricks for Efficient Text Classification"
(EACL 2017). A document is the set of rows it picks from one embedding table: one row per word of
the training vocabulary and one per word n-gram (n = 2 ... ``ngrams``), the n-grams *hashed* into
``n_buckets`` shared rows so that the table has a fixed size however many n-grams the corpus holds.
The document vector is the mean of its rows (``torch.nn.EmbeddingBag(mode="mean")``), and a linear
layer with a softmax gives the class probabilities. Training minimises the cross-entropy on
mini-batches with a learning rate that decays linearly to 0 and the embeddings start uniform in
``[-1/dim, 1/dim]`` with the output layer at 0, as in fastText. fastText updates after every single
document with plain SGD, which is fast in C++ but slow in Python; we take mini-batches of 64 and
Adagrad (a step size per parameter, large for rarely seen rows), which reaches the same accuracy in
three epochs.

The hash is CRC-32 (``zlib.crc32``) of the n-gram's UTF-8 bytes (words joined by a space): stable
across runs and machines, unlike Python's ``hash`` of a str, which is salted per process. fastText
itself uses FNV-1a; any stable hash that spreads n-grams evenly over the buckets does the job.

Left out: character n-grams (the word2vec chapter's subword model), the hierarchical softmax,
pretrained vectors, quantisation and fastText's own tokenizer.
"""

from __future__ import annotations

import warnings
import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from nlp_helpers._checks import check_float, check_int
from nlp_helpers.classification.features import build_vocabulary, check_docs, check_labels
from nlp_helpers.seeds import manual_seed, torch_generator

__all__ = ["FastTextClassifier", "hashed_ngrams"]


def hashed_ngrams(tokens: Sequence[str], n_buckets: int, ngrams: int = 2) -> list[int]:
    """Bucket ids in ``[0, n_buckets)`` of the word n-grams (n = 2 ... ``ngrams``) of ``tokens``, in order.

    ``hashed_ngrams(["not", "good"], 10)`` is ``[zlib.crc32(b"not good") % 10]``; unigrams are not hashed
    (they have their own rows in :class:`FastTextClassifier`).
    """
    tokens = check_docs("tokens", [tokens], allow_empty=True)[0]
    n_buckets = check_int("n_buckets", n_buckets, minimum=1)
    ngrams = check_int("ngrams", ngrams, minimum=1)
    return _hashed(tokens, n_buckets, ngrams)


def _hashed(tokens: list[str], n_buckets: int, ngrams: int) -> list[int]:
    return [
        zlib.crc32(" ".join(tokens[i : i + n]).encode("utf-8")) % n_buckets
        for n in range(2, ngrams + 1)
        for i in range(len(tokens) - n + 1)
    ]


class FastTextClassifier:
    """Averaged word and hashed n-gram embeddings with a linear softmax layer, trained on mini-batches.

    Parameters: ``dim`` the embedding size, ``ngrams`` the longest word n-gram (1 = words only),
    ``n_buckets`` the rows shared by the hashed n-grams, ``epochs`` passes over the training set,
    ``lr`` the initial learning rate (decayed linearly to 0), ``batch_size`` documents per step and
    ``seed`` (through :mod:`nlp_helpers.seeds`) for the initialisation and the shuffling.

    Attributes after :meth:`fit`: ``classes_`` (K,), ``vocabulary_`` (word -> row) and ``model_``
    (the ``EmbeddingBag`` and ``Linear`` layers in a ``torch.nn.Sequential``-like module).
    """

    def __init__(
        self,
        dim: int = 10,
        ngrams: int = 2,
        n_buckets: int = 200_000,
        epochs: int = 3,
        lr: float = 0.5,
        batch_size: int = 64,
        seed: int = 0,
    ) -> None:
        self.dim = check_int("dim", dim, minimum=1)
        self.ngrams = check_int("ngrams", ngrams, minimum=1)
        self.n_buckets = check_int("n_buckets", n_buckets, minimum=1)
        self.epochs = check_int("epochs", epochs, minimum=1)
        self.lr = check_float("lr", lr, minimum=0.0, min_inclusive=False)
        self.batch_size = check_int("batch_size", batch_size, minimum=1)
        self.seed = check_int("seed", seed, minimum=0)

    def __repr__(self) -> str:
        return f"FastTextClassifier(dim={self.dim}, ngrams={self.ngrams}, n_buckets={self.n_buckets})"

    def rows(self, tokens: Sequence[str]) -> list[int]:
        """The embedding rows a document averages: known words, then its hashed n-grams (after fit)."""
        self._check_fitted()
        tokens = check_docs("tokens", [tokens], allow_empty=True)[0]
        return self._rows(tokens)

    def _rows(self, tokens: list[str]) -> list[int]:
        v = len(self.vocabulary_)
        words = [self.vocabulary_[t] for t in tokens if t in self.vocabulary_]
        return words + [v + b for b in _hashed(tokens, self.n_buckets, self.ngrams)]

    def _bags(self, docs: list[list[str]]) -> tuple[torch.Tensor, torch.Tensor]:
        """Flat row ids and per-document offsets, as ``EmbeddingBag`` takes them."""
        rows = [self._rows(d) for d in docs]
        offsets = np.cumsum([0] + [len(r) for r in rows[:-1]])
        flat = [i for r in rows for i in r]
        return torch.tensor(flat, dtype=torch.long), torch.tensor(offsets, dtype=torch.long)

    def fit(self, docs: Sequence[Sequence[str]], labels: Sequence[Any]) -> FastTextClassifier:
        """Train on token lists ``docs`` with one label per document."""
        docs = check_docs("docs", docs)
        labels = check_labels("labels", labels, len(docs))
        self.classes_, y = np.unique(labels, return_inverse=True)
        self.vocabulary_ = build_vocabulary(docs)
        n_rows = len(self.vocabulary_) + (self.n_buckets if self.ngrams > 1 else 0)
        manual_seed(self.seed)
        bag = torch.nn.EmbeddingBag(n_rows, self.dim, mode="mean", sparse=True)
        torch.nn.init.uniform_(bag.weight, -1 / self.dim, 1 / self.dim)
        out = torch.nn.Linear(self.dim, len(self.classes_))
        torch.nn.init.zeros_(out.weight)
        torch.nn.init.zeros_(out.bias)
        self.model_ = torch.nn.ModuleDict({"bag": bag, "out": out})
        with warnings.catch_warnings():  # torch's notice about sparse Adagrad states, not a problem here
            warnings.filterwarnings("ignore", message="Sparse invariant checks", category=UserWarning)
            self._train(docs, torch.tensor(y, dtype=torch.long))
        return self

    def _train(self, docs: list[list[str]], y: torch.Tensor) -> None:
        rows = [self._rows(d) for d in docs]
        opt = torch.optim.Adagrad(self.model_.parameters(), lr=self.lr)
        n = len(docs)
        total = self.epochs * -(-n // self.batch_size)
        gen, step = torch_generator(self.seed), 0
        for _ in range(self.epochs):
            for idx in torch.randperm(n, generator=gen).split(self.batch_size):
                for group in opt.param_groups:  # linear decay to 0, as fastText does
                    group["lr"] = self.lr * (1 - step / total)
                batch = [rows[i] for i in idx.tolist()]
                offsets = torch.tensor(np.cumsum([0] + [len(r) for r in batch[:-1]]))
                flat = torch.tensor([i for r in batch for i in r], dtype=torch.long)
                logits = self.model_["out"](self.model_["bag"](flat, offsets))
                loss = torch.nn.functional.cross_entropy(logits, y[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
                step += 1

    def _check_fitted(self) -> None:
        if not hasattr(self, "model_"):
            raise RuntimeError("call fit(docs, labels) before using the classifier")

    def document_vectors(self, docs: Sequence[Sequence[str]]) -> np.ndarray:
        """The averaged embeddings of ``docs``, shape (n_docs, dim); a document with no known row gets 0."""
        self._check_fitted()
        docs = check_docs("docs", docs, allow_empty=True)
        if not docs:
            return np.zeros((0, self.dim), dtype=np.float32)
        with torch.no_grad():
            return self.model_["bag"](*self._bags(docs)).numpy()

    def predict_proba(self, docs: Sequence[Sequence[str]]) -> np.ndarray:
        """Class probabilities, shape (n_docs, K), columns in the order of ``classes_``."""
        vectors = torch.from_numpy(self.document_vectors(docs))
        with torch.no_grad():
            return torch.softmax(self.model_["out"](vectors), dim=-1).numpy()

    def predict(self, docs: Sequence[Sequence[str]]) -> np.ndarray:
        """The most probable class of each document, shape (n_docs,)."""
        proba = self.predict_proba(docs)  # checks that the model is fitted
        return self.classes_[proba.argmax(axis=1)]
