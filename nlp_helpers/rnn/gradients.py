"""Backpropagation through time: how gradients shrink or grow with distance, and clipping them.

Follows the lecture notes' analysis of the Elman RNN ``h_t = f(U h_{t-1} + W x_t + b)``:

    ∂h_t/∂h_k = ∏_{j=k+1}^{t} ∂h_j/∂h_{j-1} = ∏_{j=k+1}^{t} diag(f'(a_j)) U
    ‖∂h_t/∂h_k‖ ≤ (β_U β_f)^{t−k}      with  β_U = ‖U‖₂,  β_f = sup |f'| (1 for tanh and ReLU)

(the notes write the recurrent matrix as ``W^{(hh)}`` and its bound as ``β_W β_h``).
:func:`gradient_norms_through_time` measures the left-hand side for any of the
from-scratch cells, :func:`recurrent_bound` gives ``β_U β_f`` for an Elman cell,
and :func:`clip_grad_norm` is the notes' remedy for explosion (equal to
``torch.nn.utils.clip_grad_norm_``).

For gated cells the recurrent state is ``s_t = h_t`` (GRU) or ``s_t = (h_t, c_t)``
(LSTM); we measure ``‖∂h_t/∂s_k‖``, how much the output at step ``t`` depends on the
*whole* memory at step ``k``. Norms are spectral (largest singular value) unless
``ord="fro"``. Not covered: second-order effects, or how the norms evolve during training.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import torch
from torch import Tensor, nn

from nlp_helpers._checks import check_choice, check_float, check_type
from nlp_helpers.rnn.cells import LSTMCell, RecurrentCell, RNNCell

__all__ = ["step_jacobians", "gradient_norms_through_time", "recurrent_bound", "clip_grad_norm"]


def _flat_step(cell: RecurrentCell, x_t: Tensor, s: Tensor) -> Tensor:
    """One step on a flat state vector s (S,) -> (S,), so that one Jacobian covers h and c."""
    H = cell.hidden_size
    if isinstance(cell, LSTMCell):
        h, c = cell(x_t, (s[:H], s[H:]))
        return torch.cat([h, c])
    return cell(x_t, s)


def _states(cell: RecurrentCell, x: Tensor, state: Tensor | tuple[Tensor, Tensor] | None) -> list[Tensor]:
    """Flat states s_0, ..., s_T of one sequence (no gradients needed)."""
    check_type("cell", cell, RecurrentCell)
    check_type("x", x, Tensor)
    if x.dim() != 2 or x.shape[1] != cell.input_size:
        raise ValueError(f"x must be one sequence of shape (T, {cell.input_size}), got {tuple(x.shape)}")
    if x.shape[0] == 0:
        raise ValueError("x is an empty sequence (T = 0): there is nothing to backpropagate through")
    if state is None:
        state = cell.initial_state(1, dtype=x.dtype)
        state = tuple(s[0] for s in state) if isinstance(state, tuple) else state[0]
    s = torch.cat(list(state)) if isinstance(state, tuple) else state
    S = 2 * cell.hidden_size if isinstance(cell, LSTMCell) else cell.hidden_size
    if s.shape != (S,):
        raise ValueError(f"state must describe one sequence ({S} numbers in all), got shape {tuple(s.shape)}")
    states = [s.detach()]
    with torch.no_grad():
        for t in range(x.shape[0]):
            states.append(_flat_step(cell, x[t], states[-1]))
    return states


def step_jacobians(cell: RecurrentCell, x: Tensor, state: Tensor | tuple[Tensor, Tensor] | None = None) -> list[Tensor]:
    """The one-step Jacobians ``∂s_t/∂s_{t-1}`` for ``t = 1..T`` along one sequence ``x`` ``(T, d_in)``.

    Each is ``(S, S)`` with ``S = H`` (RNN, GRU) or ``2H`` (LSTM, state ``[h; c]``).
    """
    states = _states(cell, x, state)
    jac = []
    for t in range(x.shape[0]):
        J = torch.func.jacrev(lambda s, t=t: _flat_step(cell, x[t].detach(), s))(states[t])
        jac.append(J.detach())
    return jac


def gradient_norms_through_time(
    cell: RecurrentCell, x: Tensor, state: Tensor | tuple[Tensor, Tensor] | None = None, *, ord: int | str = 2
) -> np.ndarray:
    """``norms[d] = ‖∂h_T/∂s_{T−d}‖`` for ``d = 0..T``: how strongly the last output depends on the state ``d`` steps back.

    ``x``: one sequence ``(T, d_in)``; ``state``: the initial state (zeros if ``None``);
    ``ord``: ``2`` (spectral norm) or ``"fro"``. ``norms[0]`` is 1 (``∂h_T/∂h_T = I``).
    One batched backward pass gives every Jacobian ``∂h_T/∂s_k`` (the chain rule through all
    steps from ``k`` to ``T``); :func:`step_jacobians` gives the one-step factors.
    """
    ord = check_choice("ord", ord, [2, "fro"])
    s0 = _states(cell, x, state)[0].clone().requires_grad_()
    states = [s0]
    for t in range(x.shape[0]):
        states.append(_flat_step(cell, x[t].detach(), states[-1]))
    H = cell.hidden_size
    h_T = states[-1][:H]
    rows = torch.eye(H, dtype=h_T.dtype)  # one backward pass per output unit, batched
    grads = torch.autograd.grad(h_T, states[:-1], grad_outputs=rows, is_grads_batched=True)  # each (H, S)
    jac = [*grads, torch.eye(states[-1].shape[0], dtype=h_T.dtype)[:H]]  # k = 0..T
    return np.array([torch.linalg.matrix_norm(J, ord=ord).item() for J in reversed(jac)])


def recurrent_bound(cell: RNNCell) -> float:
    """``β_U β_f`` of the notes' bound for an Elman cell: ``‖U‖₂`` times ``sup|f'|`` (1 for tanh and ReLU)."""
    check_type("cell", cell, RNNCell)
    beta_u = torch.linalg.matrix_norm(cell.U["h"].detach(), ord=2).item()
    beta_f = 1.0  # tanh'(0) = 1 and ReLU' ∈ {0, 1}
    return beta_u * beta_f


def clip_grad_norm(parameters: Iterable[nn.Parameter] | nn.Parameter, max_norm: float) -> float:
    """Rescale the gradients so that their joint L2 norm is at most ``max_norm``, in place.

    As in the notes: ``ĝ ← (threshold / ‖ĝ‖) ĝ`` if ``‖ĝ‖ ≥ threshold``. Parameters without a
    gradient are skipped. Returns the norm *before* clipping (what you would log).
    Equals ``torch.nn.utils.clip_grad_norm_`` (which adds 1e-6 to the denominator).
    """
    max_norm = check_float("max_norm", max_norm, minimum=0.0, min_inclusive=False)
    params = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return 0.0
    total = torch.sqrt(sum((g.detach() ** 2).sum() for g in grads)).item()
    if not np.isfinite(total):
        raise ValueError("the gradients contain NaN or inf; clipping cannot rescale them (lower the learning rate)")
    if total > max_norm:
        scale = max_norm / total
        for g in grads:
            g.detach().mul_(scale)
    return total
