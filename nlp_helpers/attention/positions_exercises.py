"""Checkers for the exercises of the page "Where is each token? Positions in a transformer"
(``book/attention/positions.ipynb``).

* :func:`check_shift_matrix`: the matrix ``M_k`` with ``PE(pos + k) = PE(pos) @ M_k`` for the sinusoidal
  encoding, compared with :func:`nlp_helpers.attention.positional.offset_matrix` and with the encoding itself.

The checker also computes the answers of typical mistakes, so that a wrong answer gets a hint naming its mistake.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.attention.positional import offset_matrix, positional_encoding
from nlp_helpers.exercises.checker import Checker, CheckResult

__all__ = ["check_shift_matrix"]


def _pair_index_frequency(k: int, d: int) -> np.ndarray:
    """The mistake of using the pair's index i, not its first dimension 2i, in the exponent."""
    M = np.zeros((d, d))
    for i in range(d // 2):
        w = 10000.0 ** (-i / d)
        c, s = np.cos(k * w), np.sin(k * w)
        M[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, -s], [s, c]]
    return M


def check_shift_matrix(fn: Callable) -> CheckResult:
    """``fn(k, d)`` -> the ``(d, d)`` matrix ``M_k`` with ``PE(pos + k) = PE(pos) @ M_k`` for every ``pos``."""
    with Checker("The shift matrix of the sinusoids") as ex:
        for k, d in [(3, 6), (1, 4), (-2, 8), (0, 6), (7, 2), (40, 16)]:
            what = f"shift_matrix({k}, {d})"
            got = ex.call(fn, k, d)
            want = offset_matrix(k, d)
            arr = np.asarray(got, dtype=float)
            if arr.shape == want.shape and not np.allclose(arr, want, atol=1e-9):
                if k < 0 and np.allclose(arr, offset_matrix(-k, d), atol=1e-9):
                    ex.fail(
                        f"{what} shifts by {-k}, not by {k}: k may be negative, and a negative k turns each pair the "
                        "other way. Use k itself in the angle, not its size."
                    )
                if np.allclose(arr, want.T, atol=1e-9):
                    ex.fail(
                        f"{what} shifts backwards, by -k: the positions' encodings are rows, multiplied on the left "
                        "(PE(pos) @ M), so each 2 x 2 block is the transpose of the one for column vectors."
                    )
                if np.allclose(arr, _pair_index_frequency(k, d), atol=1e-9):
                    ex.fail(
                        f"{what}: the pair starting at dimension x = 2i turns with omega_i = 10000^(-2i/d), the "
                        "frequency of its sine; you used 10000^(-i/d)."
                    )
            ex.expect_close(
                got,
                want,
                what=what,
                hint="Block i (rows and columns 2i, 2i+1) is the 2 x 2 rotation by k * omega_i that maps the row "
                "[sin(pos omega_i), cos(pos omega_i)] to [sin((pos+k) omega_i), cos((pos+k) omega_i)].",
            )
            pe = positional_encoding(60, d)
            lo, hi = max(0, -k), min(60, 60 - k)
            ex.expect(
                np.allclose(pe[lo:hi] @ arr, pe[lo + k : hi + k], atol=1e-9),
                f"{what}: PE(pos) @ M should equal PE(pos + {k}) for every pos.",
            )
        ex.expect_raises(
            ValueError,
            fn,
            3,
            5,
            what="shift_matrix(3, 5)",
            hint="An odd d leaves a last sine without its cosine partner: check that d is even.",
        )
    return ex.result
