"""Checkers for the exercises of the page "What BERT learns" (``book/bert/representations.ipynb``).

* :func:`check_offset_attention`: the mean attention of every head to the token a fixed number of places
  away, over many sentences (the generalisation of the page's previous-token and next-token scores;
  compared with :func:`nlp_helpers.bert.minilm.head_pattern_scores` for offsets -1, 0 and +1).
* :func:`check_all_but_the_top`: "all-but-the-top" post-processing of contextual vectors (Mu and
  Viswanath, 2018): centre, then remove the projections on the top principal directions.

Each checker computes the right answer with a reference of its own, and the answers of typical mistakes,
so that a wrong answer gets a hint naming the mistake it matches.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.bert.minilm import head_pattern_scores
from nlp_helpers.exercises.checker import Checker, CheckResult

__all__ = ["check_all_but_the_top", "check_offset_attention"]


def _matches(got: object, want: np.ndarray, wrong: np.ndarray) -> bool:
    """True if ``got`` is the answer of a typical mistake that differs from the right answer ``want``."""
    try:
        g = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return False
    return g.shape == wrong.shape and not np.allclose(wrong, want, atol=1e-8) and np.allclose(g, wrong, atol=1e-8)


# --------------------------------------------------------------------------- offset attention
def _random_maps(rng: np.random.Generator, lengths: list[int], layers: int = 2, heads: int = 3) -> list:
    """Attention maps of random sentences: ``[(tokens, (L, H, n, n) rows summing to 1), ...]``."""
    maps = []
    for n in lengths:
        scores = rng.normal(size=(layers, heads, n, n)) * 2
        w = np.exp(scores)
        w /= w.sum(-1, keepdims=True)
        tokens = ["[CLS]"] + [f"w{i}" for i in range(n - 2)] + ["[SEP]"]
        maps.append((tokens, w))
    return maps


def _offset_scores(maps: list, offset: int, *, pooled: bool = False, transposed: bool = False, wrap: bool = False):
    """The reference (and, with a flag, a typical mistake): ``(L, H)`` mean weight to position ``i + offset``."""
    per_sentence, counts = [], []
    for _, w in maps:
        n = w.shape[-1]
        i = np.arange(n)
        j = i + offset
        if wrap:
            j = j % n
        keep = (j >= 0) & (j < n)
        if not keep.any():
            continue
        q, k = i[keep], j[keep]
        vals = w[..., k, q] if transposed else w[..., q, k]  # (L, H, m)
        per_sentence.append(vals.sum(-1) if pooled else vals.mean(-1))
        counts.append(len(q))
    if not per_sentence:
        raise ValueError("no sentence has a token at that offset")
    if pooled:
        return np.sum(per_sentence, axis=0) / sum(counts)
    return np.mean(per_sentence, axis=0)


def check_offset_attention(fn: Callable) -> CheckResult:
    """``fn(maps, offset)`` -> ``(L, H)`` array: each head's mean attention to the token ``offset`` places away."""
    with Checker("Attention to the token k places away") as ex:
        rng = np.random.default_rng(7)
        maps = _random_maps(rng, [5, 9, 4])
        patterns = head_pattern_scores(maps)
        for offset, name in [(-1, "previous"), (1, "next"), (0, "self")]:
            got = ex.call(fn, maps, offset)
            ex.expect(
                isinstance(got, np.ndarray) and got.shape == (2, 3),
                f"offset_attention(maps, {offset}) should return a numpy array of shape (layers, heads) = (2, 3), "
                f"got {type(got).__name__} {getattr(got, 'shape', '')}.",
            )
            want = patterns[name]
            if _matches(got, want, _offset_scores(maps, offset, transposed=True)):
                ex.fail(
                    f"offset_attention(maps, {offset}) reads the weights the wrong way round: row i of a map is "
                    "the query token i and column j the key it attends to: you read the query's weight from the "
                    "key's row instead of the key's weight in the query's row."
                )
            if _matches(got, want, _offset_scores(maps, offset, pooled=True)):
                ex.fail(
                    f"offset_attention(maps, {offset}) pools every query token of every sentence into one mean: "
                    "average within each sentence first, then over the sentences, so a long sentence counts "
                    "as much as a short one."
                )
            if _matches(got, want, _offset_scores(maps, offset, wrap=True)):
                ex.fail(
                    f"offset_attention(maps, {offset}) wraps around the sentence: a query token whose partner "
                    "i + offset falls outside the sentence has no partner and is left out."
                )
            ex.expect_close(
                got,
                want,
                what=f"offset_attention(maps, {offset}) (the page's '{name}' score)",
                hint="For each sentence take the mean, over the query tokens i that have a partner, of "
                "weights[..., i, i + offset]; then average over the sentences.",
            )
        # a larger offset: the 4-token sentence has no partner 4 places back and must be skipped, not counted
        got = ex.call(fn, maps, -4)
        zero_counted = _offset_scores(maps[:2], -4) * 2 / 3  # the mean with a 0 for the short sentence
        if _matches(got, _offset_scores(maps, -4), zero_counted):
            ex.fail(
                "offset_attention(maps, -4) counts the 4-token sentence, which has no token 4 places back, as 0: "
                "skip a sentence with no partner at that offset."
            )
        ex.expect_close(
            got,
            _offset_scores(maps, -4),
            what="offset_attention(maps, -4)",
            hint="Query tokens i with 0 <= i + offset < n only; a sentence where none has a partner is skipped.",
        )
        ex.expect_close(ex.call(fn, maps, 3), _offset_scores(maps, 3), what="offset_attention(maps, 3)")
        for args, what, hint in [
            (([], 1), "offset_attention([], 1)", "no sentences: raise ValueError."),
            ((maps, 9), "offset_attention(maps, 9)", "no sentence has a token 9 places on: raise ValueError."),
            (
                ([(["[CLS]", "a", "[SEP]"], np.ones((3, 3)) / 3)], 1),
                "offset_attention with (n, n) weights",
                "the weights must be a 4-D array (layers, heads, n, n): raise ValueError for other shapes.",
            ),
        ]:
            ex.expect_raises(ValueError, fn, *args, what=what, hint=hint)
    return ex.result


# --------------------------------------------------------------------------- all-but-the-top
def _abtt(x: np.ndarray, k: int, *, centre: bool = True, smallest: bool = False, pca_raw: bool = False):
    """The reference (and, with a flag, a typical mistake)."""
    xc = x - x.mean(0) if centre else x
    basis = x if pca_raw else xc
    _, _, vt = np.linalg.svd(basis, full_matrices=False)
    v = vt[::-1][:k] if smallest else vt[:k]
    return xc - xc @ v.T @ v


def _cone(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    """Vectors in a narrow cone: a common offset plus two dominant directions plus noise."""
    x = rng.normal(size=(n, d))
    x[:, 0] *= 6
    x[:, 1] *= 3
    return x @ np.linalg.qr(rng.normal(size=(d, d)))[0] + 4.0


def check_all_but_the_top(fn: Callable) -> CheckResult:
    """``fn(X, k)`` -> ``(N, d)`` array: ``X`` centred, its top ``k`` principal directions projected out."""
    with Checker("All-but-the-top") as ex:
        rng = np.random.default_rng(3)
        for n, d, k in [(60, 8, 1), (60, 8, 3), (6, 10, 2), (40, 5, 0)]:
            x = _cone(rng, n, d)
            what = f"all_but_the_top(X, {k}) with X of shape ({n}, {d})"
            got = ex.call(fn, x, k)
            ex.expect(
                isinstance(got, np.ndarray) and got.shape == (n, d),
                f"{what} should return a numpy array of shape ({n}, {d}), got {type(got).__name__} "
                f"{getattr(got, 'shape', '')}.",
            )
            for flags, hint in [
                (
                    {"centre": False},
                    "you did not centre: subtract the mean of each dimension (over the N rows) first.",
                ),
                ({"smallest": True}, "you removed the directions of SMALLEST variance; remove the largest."),
                (
                    {"pca_raw": True},
                    "your directions come from the uncentred vectors: find the principal directions of the "
                    "centred data.",
                ),
            ]:
                if _matches(got, _abtt(x, k), _abtt(x, k, **flags)):
                    ex.fail(f"{what}: {hint}")
            ex.expect_close(
                got,
                _abtt(x, k),
                what=what,
                hint="The result has mean 0 in every dimension and is orthogonal to the k right singular "
                "vectors of the centred X with the largest singular values (rows of Vt from np.linalg.svd).",
                rtol=1e-6,
                atol=1e-8,
            )
        x = _cone(rng, 20, 4)
        for args, what, hint in [
            ((x, -1), "all_but_the_top(X, -1)", "k must be at least 0: raise ValueError."),
            ((x, 4), "all_but_the_top(X, 4) with d = 4", "k must be below the dimension d: raise ValueError."),
            ((x[0], 1), "all_but_the_top of a 1-D array", "X must be 2-D (N, d): raise ValueError."),
        ]:
            ex.expect_raises(ValueError, fn, *args, what=what, hint=hint)
    return ex.result
