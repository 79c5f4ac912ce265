"""Gradient norms through time against autograd Jacobians, the seed's bound, and clipping against torch."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch import nn

from nlp_helpers.rnn.cells import GRUCell, LSTMCell, RNNCell, load_from_torch
from nlp_helpers.rnn.gradients import (
    clip_grad_norm,
    gradient_norms_through_time,
    recurrent_bound,
    step_jacobians,
)
from nlp_helpers.seeds import manual_seed


def _reference_norm(torch_cell: nn.Module, x: torch.Tensor, k: int, lstm: bool) -> float:
    """‖∂h_T/∂s_k‖₂ with torch.autograd.functional.jacobian through the *PyTorch* cell."""
    H = torch_cell.hidden_size
    with torch.no_grad():  # the state at step k
        state = (
            (torch.zeros(H, dtype=x.dtype), torch.zeros(H, dtype=x.dtype)) if lstm else torch.zeros(H, dtype=x.dtype)
        )
        for t in range(k):
            state = torch_cell(x[t], state)
    s_k = torch.cat(state) if lstm else state

    def h_T(s):
        st_ = (s[:H], s[H:]) if lstm else s
        for t in range(k, x.shape[0]):
            st_ = torch_cell(x[t], st_)
        return st_[0] if lstm else st_

    J = torch.autograd.functional.jacobian(h_T, s_k)  # (H, S)
    return torch.linalg.matrix_norm(J, ord=2).item()


@pytest.mark.parametrize("kind", ["rnn", "gru", "lstm"])
def test_norms_equal_autograd_jacobians_of_torch_cells(kind):
    manual_seed(0)
    ref = {"rnn": nn.RNNCell, "gru": nn.GRUCell, "lstm": nn.LSTMCell}[kind](3, 6).double()
    cell = load_from_torch(ref)
    x = torch.randn(9, 3, dtype=torch.float64)
    norms = gradient_norms_through_time(cell, x)
    assert norms.shape == (10,)
    assert norms[0] == pytest.approx(1.0)
    for k in range(9):
        want = _reference_norm(ref, x, k, kind == "lstm")
        assert norms[9 - k] == pytest.approx(want, rel=1e-8, abs=1e-14), (k, norms[9 - k], want)


def test_step_jacobians_match_torch_cell():
    manual_seed(1)
    ref = nn.LSTMCell(2, 3).double()
    x = torch.randn(4, 2, dtype=torch.float64)
    jac = step_jacobians(load_from_torch(ref), x)
    assert len(jac) == 4 and jac[0].shape == (6, 6)
    # step 1 from the zero state, by autograd through PyTorch's cell
    want = torch.autograd.functional.jacobian(
        lambda s: torch.cat(ref(x[0], (s[:3], s[3:]))), torch.zeros(6, dtype=torch.float64)
    )
    torch.testing.assert_close(jac[0], want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("gain", [0.5, 1.0, 1.7])
def test_linear_regime_gives_exactly_the_bound(gain):
    """Zero input, zero bias, zero state: tanh'(0) = 1 at every step, so ∂h_T/∂h_k = U^(T−k) and the
    norm of an orthogonal U scaled by ``gain`` is gain^(T−k): the seed's bound holds with equality."""
    manual_seed(2)
    cell = RNNCell(4, 8).double()
    with torch.no_grad():
        nn.init.orthogonal_(cell.U["h"], gain=gain)
        cell.b["h"].zero_()
    norms = gradient_norms_through_time(cell, torch.zeros(12, 4, dtype=torch.float64))
    np.testing.assert_allclose(norms, gain ** np.arange(13), rtol=1e-10)
    assert recurrent_bound(cell) == pytest.approx(gain, rel=1e-10)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), gain=st.floats(0.2, 3.0), relu=st.booleans())
def test_measured_norms_never_exceed_the_bound(seed, gain, relu):
    manual_seed(seed)
    cell = RNNCell(3, 5, nonlinearity="relu" if relu else "tanh").double()
    with torch.no_grad():
        cell.U["h"].mul_(gain)
    norms = gradient_norms_through_time(cell, torch.randn(8, 3, dtype=torch.float64))
    assert np.all(norms <= recurrent_bound(cell) ** np.arange(9) * (1 + 1e-9) + 1e-12)


def test_frobenius_option():
    cell = GRUCell(2, 3).double()
    norms = gradient_norms_through_time(cell, torch.randn(3, 2, dtype=torch.float64), ord="fro")
    assert norms[0] == pytest.approx(np.sqrt(3))  # ‖I_3‖_F


@pytest.mark.parametrize("max_norm", [0.1, 1.0, 1000.0])
def test_clip_grad_norm_equals_torch(max_norm):
    manual_seed(0)
    ours = [
        nn.Parameter(torch.randn(3, 4, dtype=torch.float64)),
        nn.Parameter(torch.randn(5, dtype=torch.float64)),
        nn.Parameter(torch.randn(2, dtype=torch.float64)),
    ]
    theirs = [nn.Parameter(p.detach().clone()) for p in ours]
    for a, b in zip(ours[:2], theirs[:2]):  # the third parameter has no gradient
        a.grad = torch.randn_like(a) * 3
        b.grad = a.grad.clone()
    total = clip_grad_norm(ours, max_norm)
    want_total = torch.nn.utils.clip_grad_norm_(theirs, max_norm).item()
    assert total == pytest.approx(want_total, rel=1e-12)
    for a, b in zip(ours[:2], theirs[:2]):
        torch.testing.assert_close(a.grad, b.grad, rtol=1e-5, atol=0)  # torch adds 1e-6 to the norm
    assert ours[2].grad is None
    new_norm = torch.sqrt(sum((p.grad**2).sum() for p in ours[:2])).item()
    assert new_norm == pytest.approx(min(total, max_norm), rel=1e-9)


def test_clip_grad_norm_bad_input():
    p = nn.Parameter(torch.zeros(3))
    p.grad = torch.tensor([1.0, float("nan"), 0.0])
    with pytest.raises(ValueError, match="NaN or inf"):
        clip_grad_norm([p], 1.0)
    with pytest.raises(ValueError, match="max_norm must be > 0"):
        clip_grad_norm([p], 0.0)
    assert clip_grad_norm([nn.Parameter(torch.zeros(2))], 1.0) == 0.0  # no gradients: nothing to do


def test_bad_input_to_gradient_norms():
    with pytest.raises(ValueError, match="empty sequence"):
        gradient_norms_through_time(LSTMCell(2, 3), torch.zeros(0, 2))
    with pytest.raises(ValueError, match=r"one sequence of shape \(T, 2\)"):
        gradient_norms_through_time(LSTMCell(2, 3), torch.zeros(4, 3))
    with pytest.raises(ValueError, match="state must describe one sequence"):
        gradient_norms_through_time(RNNCell(2, 3), torch.zeros(4, 2), torch.zeros(5))
    with pytest.raises(ValueError, match="ord must be one of"):
        gradient_norms_through_time(RNNCell(2, 3), torch.zeros(4, 2), ord=1)
    with pytest.raises(TypeError, match="cell must be RNNCell"):
        recurrent_bound(GRUCell(2, 3))
