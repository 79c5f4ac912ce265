"""Catalogue of the exercise of ``book/tfidf/lsa``: requirements, correct answers in two styles (accepted) and
typical wrong answers (rejected with a hint naming the mistake).

* ``idf_centroid(tokens, vectors, index, idf)``: the IDF-weighted mean of the vectors of the known tokens
  (not the plain mean; divided by the sum of the weights, not the number of tokens); every occurrence counts;
  tokens without a vector or without an IDF are skipped (no KeyError); no known token raises ValueError; a 1-D array (d,).
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.tfidf import lsa_exercises as ex
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def centroid_numpy(tokens, vectors, index, idf):
    known = [t for t in tokens if t in index and t in idf]
    if not known:
        raise ValueError("no known token")
    w = np.array([idf[t] for t in known])
    return w @ vectors[[index[t] for t in known]] / w.sum()


def centroid_loop(tokens, vectors, index, idf):
    total, weight = np.zeros(vectors.shape[1]), 0.0
    for t in tokens:
        if t in index and t in idf:
            total = total + idf[t] * vectors[index[t]]
            weight += idf[t]
    if weight == 0:
        raise ValueError("empty")
    return total / weight


def centroid_plain_mean(tokens, vectors, index, idf):
    rows = [index[t] for t in tokens if t in index]
    if not rows:
        raise ValueError("empty")
    return vectors[rows].mean(axis=0)


def centroid_by_count(tokens, vectors, index, idf):
    known = [t for t in tokens if t in index]
    if not known:
        raise ValueError("empty")
    return sum(idf[t] * vectors[index[t]] for t in known) / len(known)


def centroid_unique(tokens, vectors, index, idf):
    return centroid_numpy(list(dict.fromkeys(tokens)), vectors, index, idf)


def centroid_keyerror(tokens, vectors, index, idf):
    w = np.array([idf[t] for t in tokens])
    return w @ vectors[[index[t] for t in tokens]] / w.sum()


def centroid_needs_only_a_vector(tokens, vectors, index, idf):  # skips tokens without a vector, not without an IDF
    known = [t for t in tokens if t in index]
    if not known:
        raise ValueError("no known token")
    w = np.array([idf[t] for t in known])
    return w @ vectors[[index[t] for t in known]] / w.sum()


def centroid_nan(tokens, vectors, index, idf):
    known = [t for t in tokens if t in index and t in idf]
    w = np.array([idf[t] for t in known], dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        rows = vectors[[index[t] for t in known]] if known else np.zeros((0, vectors.shape[1]))
        return w @ rows / w.sum()  # 0 / 0 = nan for a document with no known token


def centroid_2d(tokens, vectors, index, idf):
    return centroid_numpy(tokens, vectors, index, idf)[None, :]


CATALOGUE = {
    ex.check_idf_centroid: Catalogue(
        correct=[centroid_numpy, centroid_loop],
        wrong=[
            Wrong(centroid_plain_mean, "plain mean"),
            Wrong(centroid_by_count, "sum of the weights"),
            Wrong(centroid_unique, "counts twice"),
            Wrong(centroid_keyerror, "KeyError"),
            Wrong(centroid_needs_only_a_vector, ("KeyError", "an IDF")),
            Wrong(centroid_nan, "ValueError"),
            Wrong(centroid_2d, "1-D array"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
