"""Word2vec with a full softmax: the lecture notes' CBOW and skip-gram objectives, by hand and in PyTorch.

Both models have two weight matrices: ``W1`` (V, d), whose row ``i`` is the
vector of word ``i`` when it is *given*, and ``W2`` (d, V), whose column ``j``
scores word ``j`` as the word to *predict*:

* CBOW: one-hot rows of the context words times ``W1``, summed, times ``W2``, softmax
  → a distribution over the missing centre word.
* Skip-gram: the centre word's one-hot row times ``W1`` times ``W2``, softmax → a
  distribution over each context word.

The numpy functions spell out the lecture notes' four steps (one-hot, ``× W1`` and sum,
``× W2``, softmax) so a reader can follow small numbers; :class:`SoftmaxWord2Vec`
is the same computation as an ``nn.Module`` trained with autograd. Every step
costs O(V) per example, which is why real word2vec uses negative sampling
(:mod:`nlp_helpers.word2vec.sgns`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
from torch import nn
from tqdm.auto import tqdm

from nlp_helpers._checks import check_array, check_float, check_int, check_nonempty
from nlp_helpers.display import hide_progress
from nlp_helpers.seeds import manual_seed, torch_generator

__all__ = [
    "one_hot",
    "softmax",
    "cbow_forward",
    "skipgram_forward",
    "SoftmaxWord2Vec",
    "context_windows",
    "train_softmax_word2vec",
]


def one_hot(ids: Sequence[int], vocab_size: int) -> np.ndarray:
    """One-hot rows for word ids, shape (len(ids), V)."""
    vocab_size = check_int("vocab_size", vocab_size, minimum=1)
    ids = _int_ids("ids", ids)
    if ids.size and (ids.min() < 0 or ids.max() >= vocab_size):
        raise ValueError(f"ids must lie in [0, {vocab_size}), got {ids.tolist()}")
    return np.eye(vocab_size)[ids]


def _int_ids(name: str, ids: Sequence[int]) -> np.ndarray:
    """``ids`` as a 1-D int64 array; floats such as 1.5 are an error, not silently truncated."""
    arr = np.asarray(ids)
    if arr.size and arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must be integer word ids, got dtype {arr.dtype}")
    return check_array(name, arr, ndim=1, dtype=np.int64)


def softmax(scores: np.ndarray) -> np.ndarray:
    """Softmax over the last axis, computed stably (the maximum is subtracted first)."""
    s = check_array("scores", scores, ndim=(1, 2))
    if s.shape[-1] == 0:
        raise ValueError(f"scores must have at least one entry in the last axis, got shape {s.shape}")
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _check_weights(W1: np.ndarray, W2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    W1 = check_array("W1", W1, ndim=2)
    W2 = check_array("W2", W2, ndim=2)
    if W2.shape != (W1.shape[1], W1.shape[0]):
        raise ValueError(
            f"W2 must have shape (d, V) = {(W1.shape[1], W1.shape[0])} to match W1 {W1.shape}, got {W2.shape}"
        )
    return W1, W2


def cbow_forward(context_ids: Sequence[int], W1: np.ndarray, W2: np.ndarray) -> dict[str, np.ndarray]:
    """The lecture notes' CBOW example calculation; returns every intermediate result.

    ``one_hot`` (C, V) → ``projected = one_hot @ W1`` (C, d) → ``hidden`` = their sum (d,)
    → ``scores = hidden @ W2`` (V,) → ``probs = softmax(scores)`` (V,).
    """
    W1, W2 = _check_weights(W1, W2)
    context_ids = check_nonempty("context_ids", context_ids)
    x = one_hot(context_ids, W1.shape[0])
    projected = x @ W1
    hidden = projected.sum(axis=0)
    scores = hidden @ W2
    return {"one_hot": x, "projected": projected, "hidden": hidden, "scores": scores, "probs": softmax(scores)}


def skipgram_forward(centre_id: int, W1: np.ndarray, W2: np.ndarray) -> dict[str, np.ndarray]:
    """The skip-gram example calculation: one word in, one distribution over its context words out.

    ``one_hot`` (V,) → ``hidden = one_hot @ W1`` (d,), i.e. row ``centre_id`` of ``W1``
    → ``scores = hidden @ W2`` (V,) → ``probs`` (V,).
    """
    W1, W2 = _check_weights(W1, W2)
    centre_id = check_int("centre_id", centre_id, minimum=0, maximum=W1.shape[0] - 1)
    x = one_hot([centre_id], W1.shape[0])[0]
    hidden = x @ W1
    scores = hidden @ W2
    return {"one_hot": x, "hidden": hidden, "scores": scores, "probs": softmax(scores)}


class SoftmaxWord2Vec(nn.Module):
    """Full-softmax CBOW (``cbow=True``: sum of the context rows of ``W1``) or skip-gram; returns logits (B, V).

    CBOW input: (B, C) context ids, ``-1`` marking padding. Skip-gram input: (B,) centre ids.
    """

    def __init__(self, vocab_size: int, dim: int, *, cbow: bool = True) -> None:
        super().__init__()
        self.vocab_size = check_int("vocab_size", vocab_size, minimum=2)
        self.dim = check_int("dim", dim, minimum=1)
        self.cbow = bool(cbow)
        self.W1 = nn.Parameter(torch.randn(vocab_size, dim) * 0.1)  # (V, d) given-word vectors
        self.W2 = nn.Parameter(torch.randn(dim, vocab_size) * 0.1)  # (d, V) predicted-word vectors

    def forward(self, given: torch.Tensor) -> torch.Tensor:
        if given.dtype != torch.long:
            raise TypeError(f"given must hold integer word ids (torch.long), got {given.dtype}")
        if given.numel() and int(given.max()) >= self.vocab_size:
            raise ValueError(
                f"given contains word id {int(given.max())} but the vocabulary has {self.vocab_size} words"
            )
        if self.cbow:
            if given.ndim != 2:
                raise ValueError(f"CBOW input must have shape (B, C), got {tuple(given.shape)}")
            present = (given >= 0).unsqueeze(-1)  # (B, C, 1)
            hidden = (self.W1[given.clamp(min=0)] * present).sum(1)  # (B, d): sum of context rows
        else:
            if given.ndim != 1 or int(given.min()) < 0:
                raise ValueError(
                    f"skip-gram input must be (B,) non-negative centre ids, got shape {tuple(given.shape)}"
                )
            hidden = self.W1[given]  # (B, d): selecting a row = one-hot @ W1
        return hidden @ self.W2  # (B, V)


def context_windows(ids: Sequence[int], window: int) -> tuple[np.ndarray, np.ndarray]:
    """(centre, padded context) examples of one sentence: contexts (T, 2*window) with -1 padding, centres (T,)."""
    window = check_int("window", window, minimum=1)
    ids = _int_ids("ids", ids)
    if ids.size and ids.min() < 0:
        raise ValueError(f"ids must be non-negative word ids (-1 marks padding in the result), got {ids.min()}")
    T = len(ids)
    ctx = np.full((T, 2 * window), -1, dtype=np.int64)
    for j, off in enumerate(range(1, window + 1)):
        ctx[: T - off, 2 * j] = ids[off:]  # right neighbour
        ctx[off:, 2 * j + 1] = ids[: T - off]  # left neighbour
    return ctx, ids


def train_softmax_word2vec(
    sentences: Sequence[Sequence[int]],
    vocab_size: int,
    *,
    dim: int = 10,
    window: int = 2,
    cbow: bool = True,
    epochs: int = 30,
    lr: float = 0.05,
    batch_size: int = 64,
    seed: int = 0,
    progress: bool = True,
) -> tuple[SoftmaxWord2Vec, list[float]]:
    """Train :class:`SoftmaxWord2Vec` with cross-entropy and Adam on sentences of word ids; returns (model, loss per epoch).

    ``seed`` (plus ``$NLP_SEED_OFFSET``, see :mod:`nlp_helpers.seeds`) fixes the initial weights and
    the order of the examples.
    """
    sentences = check_nonempty("sentences", sentences)
    epochs = check_int("epochs", epochs, minimum=1)
    lr = check_float("lr", lr, minimum=0.0, min_inclusive=False)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    vocab_size = check_int("vocab_size", vocab_size, minimum=2)
    for i, s in enumerate(sentences):
        ids = _int_ids(f"sentences[{i}]", s)
        if ids.size and (ids.min() < 0 or ids.max() >= vocab_size):
            raise ValueError(
                f"sentences[{i}] must hold word ids in [0, vocab_size={vocab_size}), got {ids.tolist()[:10]}"
            )
    ctx, centres = zip(*(context_windows(s, window) for s in sentences))
    ctx, centres = torch.from_numpy(np.concatenate(ctx)), torch.from_numpy(np.concatenate(centres))
    if cbow:
        given, target = ctx, centres
    else:  # one (centre -> context word) example per real context slot
        rows, cols = torch.nonzero(ctx >= 0, as_tuple=True)
        given, target = centres[rows], ctx[rows, cols]
    if len(target) == 0 or not (ctx >= 0).any():
        raise ValueError("sentences give no training example: every sentence is empty or a single word")
    seed = check_int("seed", seed, minimum=0)
    manual_seed(seed)  # seed + $NLP_SEED_OFFSET: the initial weights
    model = SoftmaxWord2Vec(vocab_size, dim, cbow=cbow)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    gen = torch_generator(seed)  # the order of the examples
    history = []
    for _ in tqdm(
        range(epochs), desc="softmax " + ("CBOW" if cbow else "skip-gram"), disable=not progress or hide_progress()
    ):
        order, total = torch.randperm(len(target), generator=gen), 0.0
        for lo in range(0, len(target), batch_size):
            idx = order[lo : lo + batch_size]
            loss = nn.functional.cross_entropy(model(given[idx]), target[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        history.append(total / len(target))
    return model, history
