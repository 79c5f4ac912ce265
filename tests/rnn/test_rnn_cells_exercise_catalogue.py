"""Catalogue of the exercise of ``book/rnn/cells.ipynb`` added with its cells_exercises module.

* ``truncated_bptt(x, W, U, b, y, tau)``: dE/dU for E = sum_t 0.5 ||h_t - y_t||^2 of a tanh Elman RNN from h_0 = 0;
  each error goes back through tau steps counting its own (k = t .. t - tau + 1); tanh' = 1 - h_k^2; U^T on the
  way back; outer(delta_k, h_(k-1)); tau >= T is full BPTT; ValueError for tau < 1; inputs unchanged.
"""

from __future__ import annotations

import numpy as np
import torch

from nlp_helpers.rnn.cells_exercises import bptt_grad_U, check_truncated_bptt
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def tbptt_loops(x, W, U, b, y, tau):
    if tau < 1:
        raise ValueError("tau must be at least 1")
    h = [np.zeros(len(U))]
    for x_t in x:
        h.append(np.tanh(W @ x_t + U @ h[-1] + b))
    dU = np.zeros(U.shape)
    for t in range(1, len(x) + 1):
        g = h[t] - y[t - 1]
        for k in range(t, max(0, t - tau), -1):
            delta = g * (1 - h[k] ** 2)
            dU += np.outer(delta, h[k - 1])
            g = U.T @ delta
    return dU


def tbptt_deltas(x, W, U, b, y, tau):  # store each step's delta, then sum the window
    if tau < 1:
        raise ValueError("tau must be at least 1")
    T = len(x)
    H = np.zeros((T + 1, len(U)))
    for t in range(T):
        H[t + 1] = np.tanh(W @ x[t] + U @ H[t] + b)
    total = np.zeros(U.shape)
    for t in range(T, 0, -1):
        grads = {t: (H[t] - y[t - 1]) * (1 - H[t] ** 2)}
        for k in range(t - 1, max(0, t - tau), -1):
            grads[k] = (U.T @ grads[k + 1]) * (1 - H[k] ** 2)
        total += sum(np.outer(d, H[k - 1]) for k, d in grads.items())
    return total


def _wrong(**kw):
    def answer(x, W, U, b, y, tau):
        if tau < 1:
            raise ValueError("tau must be at least 1")
        return bptt_grad_U(x, W, U, b, y, tau, **kw)

    return answer


def tbptt_no_check(x, W, U, b, y, tau):
    return bptt_grad_U(x, W, U, b, y, max(tau, 1))


def tbptt_wraps_around(x, W, U, b, y, tau):  # k = t, ..., t - tau + 1 without max(1, .): h[-1] is the last state
    if tau < 1:
        raise ValueError("tau must be at least 1")
    h = [np.zeros(len(U))]
    for x_t in x:
        h.append(np.tanh(W @ x_t + U @ h[-1] + b))
    dU = np.zeros(U.shape)
    for t in range(1, len(x) + 1):
        g = h[t] - y[t - 1]
        for k in range(t, t - tau, -1):
            delta = g * (1 - h[k] ** 2)
            dU += np.outer(delta, h[k - 1])
            g = U.T @ delta
    return dU


CATALOGUE = {
    check_truncated_bptt: Catalogue(
        correct=[tbptt_loops, tbptt_deltas],
        wrong=[
            Wrong(_wrong(shift=1), "tau steps counting its own"),
            Wrong(_wrong(no_tanh=True), "derivative of the tanh"),
            Wrong(_wrong(forward_U=True), "transposed matrix"),
            Wrong(_wrong(own_state=True), "the state before"),
            Wrong(tbptt_no_check, "tau >= 1"),
            Wrong(tbptt_wraps_around, ("tau=2", "max(1, t - tau + 1)")),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)


def test_the_reference_with_a_long_window_is_autograd() -> None:
    g = np.random.default_rng(3)
    x, y = g.normal(size=(5, 2)), g.normal(size=(5, 3))
    W, U, b = g.normal(size=(3, 2)), g.normal(size=(3, 3)) * 0.5, g.normal(size=3)
    Ut = torch.tensor(U, requires_grad=True)
    h, loss = torch.zeros(3, dtype=torch.float64), 0.0
    for x_t, y_t in zip(torch.tensor(x), torch.tensor(y)):
        h = torch.tanh(torch.tensor(W) @ x_t + Ut @ h + torch.tensor(b))
        loss = loss + 0.5 * ((h - y_t) ** 2).sum()
    loss.backward()
    np.testing.assert_allclose(bptt_grad_U(x, W, U, b, y, 5), Ut.grad.numpy(), rtol=1e-12)
    assert not np.allclose(bptt_grad_U(x, W, U, b, y, 2), Ut.grad.numpy())  # truncation changes it
