"""Catalogue of the exercise of ``book/attention/modern.ipynb`` added with its modern_exercises module.

* ``rope_interleaved(x, positions, base)``: neighbouring pairs (2m, 2m+1), not the half-split (m, m + d/2); the
  rotation's sign; the frequency base**(-2m/d); the given positions, not the row numbers; ValueError for odd d;
  x unchanged.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.attention.modern import apply_rope
from nlp_helpers.attention.modern_exercises import check_rope_interleaved
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def rope_slices(x, positions, base, sign=1.0, exponent=2.0, rows=False):
    T, d = x.shape
    if d % 2:
        raise ValueError("d must be even")
    pos = np.arange(T) if rows else np.asarray(positions, dtype=float)
    angle = sign * pos[:, None] * base ** (-exponent * np.arange(d // 2) / d)
    out = np.empty_like(x, dtype=float)
    out[:, 0::2] = x[:, 0::2] * np.cos(angle) - x[:, 1::2] * np.sin(angle)
    out[:, 1::2] = x[:, 0::2] * np.sin(angle) + x[:, 1::2] * np.cos(angle)
    return out


def rope_matrices(x, positions, base):
    T, d = x.shape
    if d % 2:
        raise ValueError("d must be even")
    out = np.zeros((T, d))
    for t, p in enumerate(positions):
        for m in range(d // 2):
            a = p * base ** (-2 * m / d)
            rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            out[t, 2 * m : 2 * m + 2] = rot @ x[t, 2 * m : 2 * m + 2]
    return out


def rope_half_split(x, positions, base):
    if x.shape[1] % 2:
        raise ValueError("d must be even")
    return apply_rope(x, positions, base)


def rope_no_check(x, positions, base):
    d = x.shape[1] - x.shape[1] % 2
    out = x.astype(float).copy()
    out[:, :d] = rope_slices(x[:, :d], positions, base)
    return out


def rope_in_place(x, positions, base):  # "returning a new array": turns the caller's x
    x[:] = rope_slices(x, positions, base)
    return x


CATALOGUE = {
    check_rope_interleaved: Catalogue(
        correct=[rope_slices, rope_matrices],
        wrong=[
            Wrong(rope_half_split, "half-split"),
            Wrong(lambda x, p, b: rope_slices(x, p, b, sign=-1.0), "wrong way"),
            Wrong(lambda x, p, b: rope_slices(x, p, b, exponent=1.0), "base^(-2m/d)"),
            Wrong(lambda x, p, b: rope_slices(x, p, b, rows=True), "given positions"),
            Wrong(rope_no_check, "odd d"),
            Wrong(rope_in_place, ("modified its input", "`x`")),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
