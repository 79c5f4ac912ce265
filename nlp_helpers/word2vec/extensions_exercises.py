"""Checkers for the exercises of ``book/word2vec/extensions.ipynb``: fastText's character n-grams, the
gradients of hierarchical softmax, and the vector of a word fastText never saw.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import rng as seeded_rng
from nlp_helpers.word2vec.fasttext import char_ngrams, subword_vector

__all__ = ["check_char_ngrams", "check_hs_grads", "check_oov_vector"]


def check_char_ngrams(student_char_ngrams: Callable) -> CheckResult:
    """``char_ngrams(word, minn, maxn)`` -> the n-grams of ``<word>``, shortest first, left to right."""
    with Checker("fastText's character n-grams") as ex:
        for word, minn, maxn in [("where", 3, 4), ("naïve", 2, 5), ("ox", 3, 6)]:
            call = f"char_ngrams({word!r}, {minn}, {maxn})"
            got = ex.call(student_char_ngrams, word, minn, maxn)
            want = char_ngrams(word, minn, maxn)
            ex.expect(isinstance(got, list), f"{call} should return a list of strings, got {type(got).__name__}.")
            if got == want:
                continue
            plain = [word[i : i + n] for n in range(minn, maxn + 1) for i in range(len(word) - n + 1)]
            if got == plain:
                ex.fail(f"{call}: mark the word's start and end with < and > before cutting it into n-grams.")
            if sorted(got) == sorted(want):
                ex.fail(f"{call} has the right n-grams in the wrong order: shortest first, then left to right.")
            if maxn > minn and got == char_ngrams(word, minn, maxn - 1):
                ex.fail(f"{call}: n goes from minn to maxn, both included.")
            if set(got) == set(want):
                ex.fail(f"{call}: every n-gram at every position, once per position (keep repeats, in order).")
            ex.fail(f"{call} is not the list of every substring of length minn..maxn of the word with its two marks.")
        got, error = ex.try_call(student_char_ngrams, "a", 4, 6)
        if error is not None:
            ex.fail(
                f"char_ngrams('a', 4, 6) raised {type(error).__name__}: {error}. '<a>' is too short for n-grams "
                "of 4 to 6 characters, which is not an error: a word too short for minn gives an empty list."
            )
        ex.expect(
            isinstance(got, list) and got == [],
            f"char_ngrams('a', 4, 6) should be an empty list, got {got!r}: '<a>' has 3 characters, so it has no "
            "n-gram of 4 to 6 characters (a word too short for minn gives an empty list).",
        )
        ex.expect_raises(
            ValueError,
            student_char_ngrams,
            "where",
            4,
            3,
            what="char_ngrams('where', 4, 3)",
            hint="minn larger than maxn asks for nothing sensible: raise ValueError.",
        )
    return ex.result


# -------------------------------------------------------------------------------- hierarchical softmax
def _hs_reference(
    v: np.ndarray, U: np.ndarray, nodes: list[int], bits: list[int]
) -> tuple[float, np.ndarray, np.ndarray]:
    tv = torch.tensor(np.asarray(v, dtype=float), requires_grad=True)
    tU = torch.tensor(np.asarray(U, dtype=float), requires_grad=True)
    signs = torch.tensor([1.0 if b == 0 else -1.0 for b in bits], dtype=torch.float64)
    loss = -torch.nn.functional.logsigmoid(signs * (tU[list(nodes)] @ tv)).sum()
    loss.backward()
    return loss.item(), tv.grad.numpy(), tU.grad.numpy()


def _hs_case(seed: int) -> tuple[np.ndarray, np.ndarray, list[int], list[int]]:
    rng = seeded_rng(seed)
    U = rng.normal(size=(6, 4))
    return rng.normal(size=4), U, [0, 2, 5], [0, 1, 1]


def check_hs_grads(hs_grads: Callable) -> CheckResult:
    """``hs_grads(v, U, nodes, bits)`` -> ``(loss, dL/dv, dL/dU)`` for L = -log p(w | v) along one path."""
    with Checker("Hierarchical softmax gradients") as ex:
        for seed in (0, 1):
            v, U, nodes, bits = _hs_case(seed)
            got = ex.call(hs_grads, v, U, nodes, bits)
            call = f"hs_grads(v, U, nodes={nodes}, bits={bits})"
            ex.expect(
                isinstance(got, tuple) and len(got) == 3,
                f"{call} should return a tuple (loss, grad_v, grad_U), got {type(got).__name__}.",
            )
            loss, grad_v, grad_U = (np.asarray(x, dtype=float) for x in got)
            want_loss, want_v, want_U = _hs_reference(v, U, nodes, bits)
            swapped = _hs_reference(v, U, nodes, [1 - b for b in bits])
            if np.isclose(loss, swapped[0]) and not np.isclose(loss, want_loss):
                ex.fail(f"{call}: the loss takes the wrong branch at each node: bit 0 goes left, with σ(u·v).")
            if np.isclose(loss, -want_loss):
                ex.fail(f"{call}: the loss is -log p(w | v), a positive number to be minimised, not log p.")
            if np.isclose(loss, want_loss / np.log(2)):
                ex.fail(f"{call}: your loss is in bits (log base 2): the exercise asks for the natural log.")
            ex.expect(
                loss.shape == () and np.isclose(loss, want_loss, rtol=1e-6),
                f"{call}: the loss should be -log p(w | v), the sum over the path of -log σ(±u·v).",
            )
            ex.expect(
                grad_U.shape == U.shape,
                f"{call}: grad_U should have the shape of U, {U.shape}, with zeros in the rows of nodes off the path.",
            )
            if np.allclose(grad_v, -want_v) or np.allclose(grad_U, -want_U):
                ex.fail(f"{call}: the gradients have the wrong sign: they are those of the loss, which we minimise.")
            ex.expect(
                np.allclose(grad_v, want_v, rtol=1e-6, atol=1e-9),
                f"{call}: grad_v is wrong. Differentiate -log σ(s u·v) for each node, s = ±1, and sum over the path.",
            )
            ex.expect(
                np.allclose(grad_U, want_U, rtol=1e-6, atol=1e-9),
                f"{call}: grad_U is wrong. Only the rows of the nodes on the path get a gradient, each from its own "
                "term of the loss.",
            )
    return ex.result


# ------------------------------------------------------------------------------- an unseen word's vector
def check_oov_vector(oov_vector: Callable) -> CheckResult:
    """``oov_vector(word, ngram_vectors, minn=3, maxn=6)`` -> the mean of the word's hashed n-gram rows."""
    table = seeded_rng(4).normal(size=(97, 5)).astype(np.float32)
    with Checker("A vector for an unseen word") as ex:
        for word, minn, maxn in [("televisions", 3, 6), ("naïve", 3, 5), ("cat", 2, 4)]:
            call = f"oov_vector({word!r}, ngram_vectors, {minn}, {maxn})"
            got = np.asarray(ex.call(oov_vector, word, table, minn, maxn), dtype=float)
            want = subword_vector(word, table, minn, maxn)
            if got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-6):
                continue
            ex.expect(got.shape == want.shape, f"{call} should return a 1-D array of length {table.shape[1]}.")
            grams = char_ngrams(word, minn, maxn)
            if np.allclose(got, want * len(grams), rtol=1e-5, atol=1e-5):
                ex.fail(f"{call}: fastText averages the n-gram rows; you summed them.")
            unsigned = np.mean([table[_fnv_unsigned(g.encode()) % len(table)] for g in grams], axis=0)
            if not word.isascii() and np.allclose(got, unsigned, rtol=1e-5, atol=1e-6):
                ex.fail(
                    f"{call}: bytes of 128 and above must be read as signed (byte - 256), as fastText's C++ code "
                    "does, before the xor."
                )
            ex.fail(
                f"{call} is not the mean of the rows fnv1a(n-gram as UTF-8) % len(ngram_vectors) over the n-grams "
                "of <word> from minn to maxn."
            )
        ex.expect_raises(
            ValueError,
            oov_vector,
            "a",
            table,
            5,
            6,
            what="oov_vector('a', ngram_vectors, 5, 6)",
            hint="<a> has no n-gram of 5 or 6 characters, so there is nothing to average: raise ValueError.",
        )
    return ex.result


def _fnv_unsigned(data: bytes) -> int:
    """FNV-1a without fastText's sign extension: the typical mistake, to name it in a hint."""
    h = 2166136261
    for byte in data:
        h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
    return h
