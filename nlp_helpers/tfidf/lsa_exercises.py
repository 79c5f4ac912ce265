"""Checker for the exercise of ``book/tfidf/lsa``: a document vector as the IDF-weighted centroid of its
word vectors.

``idf_centroid(tokens, vectors, index, idf)`` = sum over the known tokens t of idf[t] * vectors[index[t]],
divided by the sum of their weights; a token without a vector or an IDF is skipped, every occurrence counts,
and a document with no known token raises ``ValueError``. The checker compares with a numpy reference and
names the typical slip it recognises (the plain mean, dividing by the number of tokens, counting each word
once, not skipping unknown tokens).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult

__all__ = ["check_idf_centroid"]

VOCAB = ["fire", "blaze", "yacht", "race", "the", "wind", "sydney"]  # sydney has a vector but no IDF
INDEX = {w: i for i, w in enumerate(VOCAB)}
IDF = {"fire": 2.0, "blaze": 3.0, "yacht": 4.0, "race": 1.5, "the": 0.1, "wind": 1.0}


def _reference(tokens, vectors, index, idf, *, weighted=True, by_count=False, unique=False):
    known = [t for t in tokens if t in index and t in idf]
    if unique:
        known = list(dict.fromkeys(known))
    if not known:
        raise ValueError("no known token")
    w = np.array([idf[t] if weighted else 1.0 for t in known])
    rows = np.asarray(vectors, dtype=float)[[index[t] for t in known]]
    return (w[:, None] * rows).sum(axis=0) / (len(known) if by_count else w.sum())


_SLIPS = [
    ({"weighted": False}, "This is the plain mean of the word vectors: weight each vector by its word's IDF."),
    (
        {"by_count": True},
        "You divided by the number of tokens: divide by the sum of the weights, so that the result is a weighted mean.",
    ),
    ({"unique": True}, "You counted each word once: a word that occurs twice in the document counts twice."),
]


def check_idf_centroid(idf_centroid: Callable) -> CheckResult:
    """``idf_centroid(tokens, vectors, index, idf)`` -> 1-D numpy array of shape (d,)."""
    vectors = np.random.default_rng(0).normal(size=(len(VOCAB), 3))
    with Checker("IDF-weighted centroid") as ex:
        cases = [
            ["fire", "blaze", "the", "wind"],
            ["the", "yacht", "race", "yacht", "the"],
            ["qantas", "fire", "the"],  # qantas has no vector
            ["sydney", "wind", "race"],  # sydney has no IDF
        ]
        for tokens in cases:
            what = f"idf_centroid({tokens}, vectors, index, idf)"
            got, err = ex.try_call(idf_centroid, tokens, vectors, INDEX, IDF)
            if isinstance(err, KeyError):
                ex.fail(
                    f"{what} raised KeyError {err}: skip the tokens that lack a vector or an IDF (a token needs "
                    "both to count)."
                )
            if err is not None:
                ex.call(idf_centroid, tokens, vectors, INDEX, IDF)  # reports the error as usual
            got = np.asarray(got, dtype=float)
            ex.expect(got.shape == (3,), f"{what} should return a 1-D array of 3 numbers, got shape {got.shape}.")
            want = _reference(tokens, vectors, INDEX, IDF)
            if np.allclose(got, want, rtol=1e-9, atol=1e-12):
                continue
            for kwargs, hint in _SLIPS:
                if np.allclose(got, _reference(tokens, vectors, INDEX, IDF, **kwargs), rtol=1e-9, atol=1e-12):
                    ex.fail(f"{what}: {hint}")
            ex.fail(f"{what} is not the IDF-weighted mean of the vectors of its known tokens.")
        ex.expect_raises(
            ValueError,
            idf_centroid,
            ["qantas", "hobart"],
            vectors,
            INDEX,
            IDF,
            what="idf_centroid(['qantas', 'hobart'], ...) (no token has a vector)",
            hint="A document with no known token has no centroid: raise ValueError instead of returning nan.",
        )
    return ex.result
