"""Checkers for the exercises of ``book/attention/``.

* :func:`check_split_heads` (the transformer page): compared with
  :func:`nlp_helpers.attention.self_attention.split_heads` on fixed inputs, including the edge case of one
  head, with a hint in every message.

The other pages' checkers are in ``self_attention_exercises``, ``transformer_exercises`` and ``positions_exercises``.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.attention.self_attention import split_heads
from nlp_helpers.exercises.checker import Checker, CheckResult

__all__ = ["check_split_heads"]


def check_split_heads(fn) -> CheckResult:
    """``fn(X, n_heads)``: ``(B, T, n_heads * d_k)`` -> ``(B, n_heads, T, d_k)``."""
    X = np.arange(2 * 3 * 8, dtype=float).reshape(2, 3, 8)
    with Checker("Split into heads") as ex:
        got = np.asarray(ex.call(fn, X, 4))
        ex.expect(
            got.shape == (2, 4, 3, 2),
            f"split_heads(X of shape (2, 3, 8), 4) should have shape (2, 4, 3, 2), "
            f"got {got.shape}. Hint: reshape to (B, T, H, d_k), then swap T and H.",
        )
        wrong = X.reshape(2, 4, 3, 2)
        if np.array_equal(got, wrong):
            ex.fail(
                "you reshaped straight to (B, H, T, d_k): that mixes tokens into heads. Hint: first cut each "
                "token's vector into its H pieces (keeping the tokens apart), then move the head axis in front "
                "of the time axis."
            )
        ex.expect_close(
            got,
            split_heads(X, 4),
            what="split_heads(X, 4)",
            hint="head h must hold columns h*d_k .. (h+1)*d_k - 1 of every token.",
        )
        ex.expect_close(
            np.asarray(ex.call(fn, X, 1)),
            X[:, None],
            what="split_heads(X, 1)",
            hint="with one head the result is X with a head axis of size 1.",
        )
    return ex.result
