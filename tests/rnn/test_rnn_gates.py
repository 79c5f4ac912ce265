"""lstm_gate_trace against torch.nn.LSTM: its h and c equal the fused layer's outputs, and its gates equal
the gates recomputed here from the layer's stacked weights (float32 reference, relative 1e-4)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch import nn

from nlp_helpers.rnn.gates import GATE_NAMES, lstm_gate_trace
from nlp_helpers.seeds import manual_seed


def reference_gates(lstm: nn.LSTM, x: torch.Tensor) -> dict[str, np.ndarray]:
    """Gates from the weights, with the states fed back from torch's own nn.LSTM outputs."""
    with torch.no_grad():
        out, _ = lstm(x[None])  # (1, T, H)
        h_prev = torch.cat([torch.zeros(1, lstm.hidden_size), out[0, :-1]])
        pre = x @ lstm.weight_ih_l0.T + h_prev @ lstm.weight_hh_l0.T
        if lstm.bias:
            pre = pre + lstm.bias_ih_l0 + lstm.bias_hh_l0
        i, f, g, o = pre.chunk(4, dim=1)  # PyTorch's documented order
    return {"i": i.sigmoid(), "f": f.sigmoid(), "g": g.tanh(), "o": o.sigmoid(), "h": out[0]}


@pytest.mark.parametrize("d, H, T, bias", [(1, 1, 1, True), (4, 6, 9, True), (8, 16, 25, False), (16, 32, 40, True)])
def test_trace_equals_torch_lstm(d, H, T, bias):
    manual_seed(3)
    lstm = nn.LSTM(d, H, bias=bias, batch_first=True)
    x = torch.randn(T, d)
    trace = lstm_gate_trace(lstm, x)
    ref = reference_gates(lstm, x)
    with torch.no_grad():
        _, (h_n, c_n) = lstm(x[None])
    for k in (*GATE_NAMES, "h"):
        assert trace[k].shape == (T, H)
        np.testing.assert_allclose(trace[k], ref[k].numpy(), rtol=1e-4, atol=1e-6, err_msg=k)
    np.testing.assert_allclose(trace["c"][-1], c_n[0, 0].numpy(), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(trace["h"][-1], h_n[0, 0].numpy(), rtol=1e-4, atol=1e-6)
    # the memory update, hand-checked from the traced gates
    c_prev = np.vstack([np.zeros(H), trace["c"][:-1]])
    np.testing.assert_allclose(trace["c"], trace["f"] * c_prev + trace["i"] * trace["g"], rtol=1e-12)


def test_trace_of_a_multilayer_lstm_reads_layer_zero():
    manual_seed(0)
    deep = nn.LSTM(3, 5, num_layers=2)
    single = nn.LSTM(3, 5)
    single.load_state_dict({k: v for k, v in deep.state_dict().items() if k.endswith("_l0")})
    x = torch.randn(7, 3)
    a, b = lstm_gate_trace(deep, x), lstm_gate_trace(single, x)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])


@pytest.mark.parametrize(
    "lstm, x, error, match",
    [
        (nn.GRU(3, 4), torch.zeros(2, 3), TypeError, "lstm"),
        (nn.LSTM(3, 4, proj_size=2), torch.zeros(2, 3), ValueError, "lstm must have no projection"),
        (nn.LSTM(3, 4), np.zeros((2, 3)), TypeError, "x"),
        (nn.LSTM(3, 4), torch.zeros(2, 5), ValueError, r"x must have shape \(T, 3\)"),
        (nn.LSTM(3, 4), torch.zeros(0, 3), ValueError, "x must have shape"),
        (nn.LSTM(3, 4), torch.full((2, 3), float("nan")), ValueError, "x must contain only finite"),
    ],
)
def test_bad_input_names_the_argument(lstm, x, error, match):
    with pytest.raises(error, match=match):
        lstm_gate_trace(lstm, x)
