"""Catalogue of the exercises of ``book/word2vec/bias.ipynb`` (checkers in ``nlp_helpers/word2vec/bias_exercises.py``).

* ``neutralise(vectors, direction)``: the direction is scaled to length 1 first; each row loses its component
  along it and is scaled back to length 1; a zero direction, or a row that lies along the direction, raises
  ``ValueError``; the inputs are unchanged.
* ``pca_direction(A, B)``: each pair is centred on its midpoint (no other mean to subtract: the stacked rows'
  mean is zero already); the first principal component (first right
  singular vector) of the 2n centred rows; unit length; its sign makes the mean projection of a - b positive;
  A and B of different shapes raise ``ValueError``.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.word2vec import bias_exercises as ex
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


# ------------------------------------------------------------------------------------------- neutralise
def neutralise(vectors, direction):
    g = np.asarray(direction, dtype=float)
    if np.linalg.norm(g) == 0:
        raise ValueError("direction has length 0")
    g = g / np.linalg.norm(g)
    rest = np.asarray(vectors, dtype=float) - np.outer(vectors @ g, g)
    norms = np.linalg.norm(rest, axis=1, keepdims=True)
    if (norms < 1e-12).any():
        raise ValueError("a row lies along the direction")
    return rest / norms


def neutralise_rows(vectors, direction):
    norm = float(np.sqrt(np.sum(np.square(direction))))
    if norm == 0.0:
        raise ValueError("zero direction")
    g = [x / norm for x in direction]
    out = []
    for row in vectors:
        dot = sum(a * b for a, b in zip(row, g))
        rest = np.array([a - dot * b for a, b in zip(row, g)])
        length = np.linalg.norm(rest)
        if length < 1e-12:
            raise ValueError("row along the direction")
        out.append(rest / length)
    return np.array(out)


def neutralise_unit_assumed(vectors, direction):
    rest = vectors - np.outer(vectors @ direction, direction)
    return rest / np.linalg.norm(rest, axis=1, keepdims=True)


def neutralise_not_rescaled(vectors, direction):
    g = np.asarray(direction, dtype=float)
    if np.linalg.norm(g) == 0:
        raise ValueError("zero")
    g = g / np.linalg.norm(g)
    return vectors - np.outer(vectors @ g, g)


def neutralise_no_projection(vectors, direction):
    if np.linalg.norm(direction) == 0:
        raise ValueError("zero")
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def neutralise_no_zero_check(vectors, direction):
    g = np.asarray(direction, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        g = g / np.linalg.norm(g)
        rest = vectors - np.outer(vectors @ g, g)
        return rest / np.linalg.norm(rest, axis=1, keepdims=True)


def neutralise_no_row_check(vectors, direction):
    g = np.asarray(direction, dtype=float)
    if np.linalg.norm(g) == 0:
        raise ValueError("zero")
    g = g / np.linalg.norm(g)
    rest = vectors - np.outer(vectors @ g, g)
    with np.errstate(divide="ignore", invalid="ignore"):
        return rest / np.linalg.norm(rest, axis=1, keepdims=True)


def neutralise_in_place(vectors, direction):
    g = np.asarray(direction, dtype=float)
    if np.linalg.norm(g) == 0:
        raise ValueError("zero")
    g = g / np.linalg.norm(g)
    vectors -= np.outer(vectors @ g, g)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    if (norms < 1e-12).any():
        raise ValueError("row along the direction")
    vectors /= norms
    return vectors


# ---------------------------------------------------------------------------------------- pca_direction
def pca_direction(A, B):
    A, B = np.asarray(A, dtype=float), np.asarray(B, dtype=float)
    if A.shape != B.shape:
        raise ValueError("A and B must have the same shape")
    mid = (A + B) / 2
    rows = np.vstack([A - mid, B - mid])  # (2n, d)
    g = np.linalg.svd(rows, full_matrices=False)[2][0]
    return g if ((A - B) @ g).mean() > 0 else -g


def pca_direction_eigh(A, B):
    A, B = np.asarray(A, dtype=float), np.asarray(B, dtype=float)
    if A.shape != B.shape:
        raise ValueError("shapes differ")
    half = (A - B) / 2  # a - m; b - m is its negative
    cov = 2 * half.T @ half
    vals, vecs = np.linalg.eigh(cov)
    g = vecs[:, np.argmax(vals)]
    return g * np.sign((A - B).sum(axis=0) @ g)


def pca_mean_direction(A, B):
    if np.shape(A) != np.shape(B):
        raise ValueError("shapes")
    g = (np.asarray(A) - np.asarray(B)).mean(axis=0)
    return g / np.linalg.norm(g)


def pca_wrong_sign(A, B):
    return -pca_direction(A, B)


def pca_uncentred(A, B):
    A, B = np.asarray(A, dtype=float), np.asarray(B, dtype=float)
    if A.shape != B.shape:
        raise ValueError("shapes")
    g = np.linalg.svd(np.vstack([A, B]), full_matrices=False)[2][0]
    return g if ((A - B) @ g).mean() > 0 else -g


def pca_not_unit(A, B):
    return 2 * pca_direction(A, B)


def pca_no_shape_check(A, B):
    n = min(len(A), len(B))
    return pca_direction(np.asarray(A)[:n], np.asarray(B)[:n])


CATALOGUE = {
    ex.check_neutralise: Catalogue(
        correct=[neutralise, neutralise_rows],
        wrong=[
            Wrong(neutralise_unit_assumed, "length 1 before projecting"),
            Wrong(neutralise_not_rescaled, "back to length 1"),
            Wrong(neutralise_no_projection, "still have a component"),
            Wrong(neutralise_no_zero_check, "ValueError"),
            Wrong(neutralise_no_row_check, "ValueError"),
            Wrong(neutralise_in_place, ("modified its input", "`vectors`")),
        ],
    ),
    ex.check_pca_direction: Catalogue(
        correct=[pca_direction, pca_direction_eigh],
        wrong=[
            Wrong(pca_mean_direction, "first principal component"),
            Wrong(pca_wrong_sign, "flip its sign"),
            Wrong(pca_uncentred, "midpoint"),
            Wrong(pca_not_unit, "length 1"),
            Wrong(pca_no_shape_check, "ValueError"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
