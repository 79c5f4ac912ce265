"""What an LSTM's gates do over a sequence: every gate activation and memory value, step by step.

:func:`lstm_gate_trace` recomputes the first layer of a trained ``torch.nn.LSTM`` from its weights,
keeping what the fused layer throws away: at every step t, for every unit,

    i_t, f_t, o_t = σ(W x_t + U h_{t-1} + b)    (input, forget and output gates)
    g_t = tanh(W_g x_t + U_g h_{t-1} + b_g)      (new memory, c̃ in the chapter)
    c_t = f_t ∘ c_{t-1} + i_t ∘ g_t,   h_t = o_t ∘ tanh(c_t)

with PyTorch's stacking order (i, f, g, o) of ``weight_ih_l0``/``weight_hh_l0`` and both biases
summed. The chapter's gate viewer (``nlp_helpers.widgets.lstm_gates``) shows the result.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import Tensor, nn

from nlp_helpers._checks import check_type

__all__ = ["GATE_NAMES", "lstm_gate_trace"]

GATE_NAMES = ("i", "f", "g", "o")  # PyTorch's order in weight_ih / weight_hh


def lstm_gate_trace(lstm: nn.LSTM, x: Tensor) -> dict[str, np.ndarray]:
    """Gates and states of the first (forward) layer of ``lstm`` along one sequence, from h_0 = c_0 = 0.

    Parameters
    ----------
    lstm:
        A ``torch.nn.LSTM`` without projections (``proj_size=0``); only layer 0's forward
        direction is traced.
    x:
        The inputs of that layer, shape ``(T, input_size)``, T >= 1 (for a language model: the
        embeddings of the tokens).

    Returns
    -------
    dict
        ``"i"``, ``"f"``, ``"g"``, ``"o"``, ``"c"``, ``"h"``: float64 arrays of shape ``(T, hidden_size)``.
    """
    check_type("lstm", lstm, nn.LSTM)
    if lstm.proj_size:
        raise ValueError(f"lstm must have no projection (proj_size=0), got proj_size={lstm.proj_size}")
    check_type("x", x, Tensor)
    if x.ndim != 2 or x.shape[0] < 1 or x.shape[1] != lstm.input_size:
        raise ValueError(f"x must have shape (T, {lstm.input_size}) with T >= 1, got {tuple(x.shape)}")
    if not torch.isfinite(x).all():
        raise ValueError("x must contain only finite numbers")
    return _trace(lstm, x.detach().double())


def _trace(lstm: nn.LSTM, x: Tensor) -> dict[str, np.ndarray]:
    W, U = lstm.weight_ih_l0.detach().double(), lstm.weight_hh_l0.detach().double()
    b = torch.zeros(4 * lstm.hidden_size, dtype=torch.float64)
    if lstm.bias:
        b = (lstm.bias_ih_l0 + lstm.bias_hh_l0).detach().double()
    H = lstm.hidden_size
    h, c = torch.zeros(H, dtype=torch.float64), torch.zeros(H, dtype=torch.float64)
    out = {k: [] for k in (*GATE_NAMES, "c", "h")}
    for x_t in x:
        pre = (W @ x_t + U @ h + b).split(H)  # i, f, g, o
        i, f, g, o = torch.sigmoid(pre[0]), torch.sigmoid(pre[1]), torch.tanh(pre[2]), torch.sigmoid(pre[3])
        c = f * c + i * g
        h = o * torch.tanh(c)
        for k, v in zip(out, (i, f, g, o, c, h)):
            out[k].append(v)
    return {k: torch.stack(v).numpy() for k, v in out.items()}
