"""Checkers for the exercises of the page "Recurrent cells and their gradients" (``book/rnn/cells.ipynb``).

* :func:`check_truncated_bptt`: the gradient of an Elman RNN's loss with respect to its recurrent matrix ``U``,
  by backpropagation through time truncated to ``tau`` steps, compared with a reference written here (which,
  with ``tau >= T``, equals torch's autograd in the chapter's tests).

The checker also computes the answers of typical mistakes, so that a wrong answer gets a hint naming its mistake.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["bptt_grad_U", "check_truncated_bptt"]


def bptt_grad_U(x, W, U, b, y, tau, *, shift=0, no_tanh=False, forward_U=False, own_state=False) -> np.ndarray:
    """dE/dU for E = sum_t 0.5 ||h_t - y_t||^2, each error sent back through at most ``tau`` steps.

    The keyword arguments make the typical mistakes the checker recognises (all off gives the right answer).
    """
    h = [np.zeros(U.shape[0])]
    for x_t in x:
        h.append(np.tanh(W @ x_t + U @ h[-1] + b))
    dU = np.zeros_like(U, dtype=float)
    for t in range(1, len(x) + 1):
        g = h[t] - y[t - 1]
        for k in range(t, max(0, t - tau - shift), -1):
            delta = g if no_tanh else g * (1 - h[k] ** 2)
            dU += np.outer(delta, h[k] if own_state else h[k - 1])
            g = (U if forward_U else U.T) @ delta
    return dU


def check_truncated_bptt(fn: Callable) -> CheckResult:
    """``fn(x, W, U, b, y, tau)`` -> ``dE/dU`` of shape ``(H, H)``, errors sent back at most ``tau`` steps."""
    g = seeded_rng(61)
    T, H, d_in = 6, 3, 2
    x, y = g.normal(size=(T, d_in)), g.normal(size=(T, H)) * 0.5
    W, U, b = g.normal(size=(H, d_in)) * 0.7, g.normal(size=(H, H)) * 0.6, g.normal(size=H) * 0.1
    mistakes = {
        "shift": "Each error goes back tau steps counting its own: k = t, t-1, ..., t - tau + 1, not one more.",
        "no_tanh": "Going back through a step you forgot the derivative of the tanh at that step (write it with h_k).",
        "forward_U": "The gradient goes back through the transposed matrix: dE/dh_(k-1) = U^T delta_k, not U delta_k.",
        "own_state": "a_k = W x_k + U h_(k-1) + b, so step k contributes outer(delta_k, h_(k-1)), the state before.",
    }
    with Checker("Truncated backpropagation through time") as ex:
        for tau in (1, 2, 4, T, T + 3):
            what = f"truncated_bptt(x of {T} steps, ..., tau={tau})"
            got = ex.call(fn, x, W, U, b, y, tau)
            want = bptt_grad_U(x, W, U, b, y, tau)
            arr = np.asarray(got, dtype=float)
            if arr.shape == want.shape and not np.allclose(arr, want, rtol=1e-6, atol=1e-9):
                for key, hint in mistakes.items():
                    wrong = bptt_grad_U(x, W, U, b, y, tau, **{key: -1 if key == "shift" else True})
                    other = bptt_grad_U(x, W, U, b, y, tau, **{key: 1} if key == "shift" else {})
                    if np.allclose(arr, wrong, rtol=1e-6, atol=1e-9) or (
                        key == "shift" and np.allclose(arr, other, rtol=1e-6, atol=1e-9)
                    ):
                        ex.fail(f"{what}: {hint}")
            ex.expect_close(
                got,
                want,
                what=what,
                hint="Each error E_t goes back through the steps k = t, t - 1, ..., max(1, t - tau + 1) and no "
                "further (never to k = 0 or below, and tau may exceed t). Check the loop's bounds on a small T by hand, "
                "then each step's factors: the tanh's derivative at step k, the state that U multiplies at step k, "
                "and the matrix the error goes back through.",
            )
        ex.expect_raises(
            ValueError,
            fn,
            x,
            W,
            U,
            b,
            y,
            0,
            what="truncated_bptt(..., tau=0)",
            hint="An error must reach at least its own step: check that tau >= 1.",
        )
    return ex.result
