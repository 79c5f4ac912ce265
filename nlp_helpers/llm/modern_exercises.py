"""Checkers for the exercises of the page "From 2017 to today: the block of a modern LLM"
(``book/attention/modern.ipynb``).

* :func:`check_rope_interleaved`: rotary position embeddings in the RoFormer paper's convention (neighbouring
  dimensions ``2m, 2m+1`` rotated together), compared with :func:`nlp_helpers.attention.modern.apply_rope`
  (the half-split convention, tested against Hugging Face's Llama) on permuted dimensions.

The checker also computes the answers of typical mistakes, so that a wrong answer gets a hint naming its mistake.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.attention.modern import apply_rope
from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["check_rope_interleaved"]


def _interleaved(x, positions, base, sign=1.0, exponent=2.0):
    """The reference: pair (2m, 2m+1) turned by the angle p * base**(-exponent * m / d)."""
    T, d = x.shape
    m = np.arange(d // 2)
    angle = np.asarray(positions, dtype=float)[:, None] * base ** (-exponent * m / d) * sign
    even, odd = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x, dtype=float)
    out[:, 0::2] = even * np.cos(angle) - odd * np.sin(angle)
    out[:, 1::2] = even * np.sin(angle) + odd * np.cos(angle)
    return out


def check_rope_interleaved(fn: Callable) -> CheckResult:
    """``fn(x, positions, base)`` -> ``x`` with each pair ``(2m, 2m+1)`` of row ``t`` rotated by ``positions[t]``."""
    g = seeded_rng(53)
    cases = [(g.normal(size=(4, 8)), [0, 1, 2, 3], 10000.0), (g.normal(size=(3, 6)), [5, 0, 17], 100.0)]
    cases.append((g.normal(size=(2, 2)), [1, 2], 10000.0))
    with Checker("RoPE, interleaved") as ex:
        for x, positions, base in cases:
            what = f"rope_interleaved(x of shape {x.shape}, positions={positions}, base={base:g})"
            got = ex.call(fn, x, np.array(positions), base)
            want = _interleaved(x, positions, base)
            # the same rotation in the half-split convention, on permuted dimensions: the reference agrees with it
            d = x.shape[1]
            perm = np.r_[0:d:2, 1:d:2]
            assert np.allclose(apply_rope(x[:, perm], positions, base)[:, np.argsort(perm)], want)
            g_arr = np.asarray(got, dtype=float)
            if g_arr.shape == want.shape and not np.allclose(g_arr, want, atol=1e-9):
                mistakes = [
                    (
                        apply_rope(x, positions, base),
                        "you rotated the pairs (m, m + d/2) of the half-split "
                        "convention; here neighbouring dimensions 2m and 2m + 1 turn together.",
                    ),
                    (
                        _interleaved(x, positions, base, sign=-1.0),
                        "the rotation goes the wrong way: "
                        "x'_2m = x_2m cos a - x_2m+1 sin a, x'_2m+1 = x_2m sin a + x_2m+1 cos a.",
                    ),
                    (
                        _interleaved(x, positions, base, exponent=1.0),
                        "pair m turns with the frequency base^(-2m/d), the sinusoids' frequencies, not base^(-m/d).",
                    ),
                    (_interleaved(x, np.arange(len(x)), base), "use the given positions, not the row numbers."),
                ]
                for wrong, hint in mistakes:
                    if np.allclose(g_arr, wrong, atol=1e-9):
                        ex.fail(f"{what}: {hint}")
            ex.expect_close(
                got,
                want,
                what=what,
                hint="Turn each pair (x[2m], x[2m+1]) of row t by the angle positions[t] * base**(-2m/d).",
            )
        ex.expect_raises(
            ValueError,
            fn,
            g.normal(size=(2, 5)),
            np.array([0, 1]),
            10000.0,
            what="rope_interleaved(x of shape (2, 5), ...)",
            hint="Dimensions are rotated in pairs: an odd d is an error.",
        )
    return ex.result
