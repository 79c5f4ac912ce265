"""Catalogue of the exercise of ``book/attention/positions.ipynb`` (its positions_exercises module).

* ``shift_matrix(k, d)``: (d, d) block-diagonal; PE(pos + k) = PE(pos) @ M for row vectors (not the transpose,
  which shifts by -k); pair i turns with 10000^(-2i/d); any sign of k; ValueError for odd d.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.attention.positional import offset_matrix
from nlp_helpers.attention.positions_exercises import check_shift_matrix
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def shift_blocks(k, d, transpose=False, exponent=2):
    if d % 2:
        raise ValueError("d must be even")
    M = np.zeros((d, d))
    for i in range(d // 2):
        w = 10000.0 ** (-exponent * i / d)
        c, s = np.cos(k * w), np.sin(k * w)
        block = np.array([[c, -s], [s, c]])
        M[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = block.T if transpose else block
    return M


def shift_vectorised(k, d):  # the four diagonals at once
    if d % 2:
        raise ValueError("d must be even")
    w = 10000.0 ** (-np.arange(0, d, 2) / d)
    c, s = np.cos(k * w), np.sin(k * w)
    M = np.zeros((d, d))
    even, odd = np.arange(0, d, 2), np.arange(1, d, 2)
    M[even, even], M[even, odd], M[odd, even], M[odd, odd] = c, -s, s, c
    return M


def shift_no_check(k, d):
    return offset_matrix(k, d - d % 2) if d % 2 == 0 else np.eye(d)


def shift_abs_k(k, d):  # "an int k (any sign)": the size of k only
    return shift_blocks(abs(k), d)


CATALOGUE = {
    check_shift_matrix: Catalogue(
        correct=[shift_blocks, shift_vectorised],
        wrong=[
            Wrong(lambda k, d: shift_blocks(k, d, transpose=True), "shifts backwards"),
            Wrong(lambda k, d: shift_blocks(k, d, exponent=1), "10000^(-2i/d)"),
            Wrong(shift_no_check, "odd d"),
            Wrong(shift_abs_k, ("k may be negative", "other way")),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
