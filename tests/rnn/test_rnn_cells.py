"""From-scratch RNN/GRU/LSTM cells against torch.nn, forwards and backwards, plus bad input."""

from __future__ import annotations

import math

import pytest
import torch
from torch import nn

from nlp_helpers.rnn.cells import (
    GRUCell,
    LSTMCell,
    RecurrentCell,
    RNNCell,
    StackedRNN,
    load_from_torch,
    run_cell,
    torch_parity,
)
from nlp_helpers.seeds import manual_seed

SIZES = [(1, 1, 1), (3, 5, 4), (10, 7, 2), (16, 32, 8)]  # (input_size, hidden_size, batch)
TORCH_CELLS = {
    "rnn_tanh": lambda d, h, bias=True: nn.RNNCell(d, h, bias=bias),
    "rnn_relu": lambda d, h, bias=True: nn.RNNCell(d, h, bias=bias, nonlinearity="relu"),
    "gru": lambda d, h, bias=True: nn.GRUCell(d, h, bias=bias),
    "lstm": lambda d, h, bias=True: nn.LSTMCell(d, h, bias=bias),
}


def _random_state(kind: str, batch: int, hidden: int, dtype=torch.float64):
    if kind == "lstm":
        return torch.randn(batch, hidden, dtype=dtype), torch.randn(batch, hidden, dtype=dtype)
    return torch.randn(batch, hidden, dtype=dtype)


def _as_tuple(out):
    return out if isinstance(out, tuple) else (out,)


@pytest.mark.parametrize("kind", list(TORCH_CELLS))
@pytest.mark.parametrize("d_in,hidden,batch", SIZES)
@pytest.mark.parametrize("bias", [True, False])
def test_cell_equals_torch_cell(kind, d_in, hidden, batch, bias):
    manual_seed(d_in * 100 + hidden)
    ref = TORCH_CELLS[kind](d_in, hidden, bias).double()
    ours = load_from_torch(ref)
    x = torch.randn(batch, d_in, dtype=torch.float64)
    state = _random_state(kind, batch, hidden)
    for got, want in zip(_as_tuple(ours(x, state)), _as_tuple(ref(x, state))):
        torch.testing.assert_close(got, want, rtol=1e-12, atol=1e-12)
    # zero initial state by default, and unbatched input
    for got, want in zip(_as_tuple(ours(x)), _as_tuple(ref(x))):
        torch.testing.assert_close(got, want, rtol=1e-12, atol=1e-12)
    for got, want in zip(_as_tuple(ours(x[0])), _as_tuple(ref(x[0]))):
        assert got.shape == (hidden,)
        torch.testing.assert_close(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind", list(TORCH_CELLS))
@pytest.mark.parametrize("d_in,hidden,batch", SIZES[1:])
def test_gradients_equal_autograd_of_torch_cell(kind, d_in, hidden, batch):
    """Unroll both cells over 4 steps; every gradient (input, initial state, weights) must agree."""
    manual_seed(7)
    ref = TORCH_CELLS[kind](d_in, hidden).double()
    ours = load_from_torch(ref)
    xs = torch.randn(4, batch, d_in, dtype=torch.float64)
    state0 = _random_state(kind, batch, hidden)
    probe = torch.randn(4, batch, hidden, dtype=torch.float64)
    grads = []
    for cell in (ref, ours):
        x = xs.clone().requires_grad_()
        s0 = tuple(s.clone().requires_grad_() for s in _as_tuple(state0))
        state = s0 if kind == "lstm" else s0[0]
        loss = 0.0
        for t in range(4):
            state = cell(x[t], state)
            h = state[0] if kind == "lstm" else state
            loss = loss + (h * probe[t]).sum() + (state[1].sum() if kind == "lstm" else 0.0)
        loss.backward()
        grads.append((x.grad, *[s.grad for s in s0]))
    for got, want in zip(grads[1], grads[0]):
        torch.testing.assert_close(got, want, rtol=1e-10, atol=1e-12)
    H = hidden
    for k, gate in enumerate(ours.gates):
        rows = slice(k * H, (k + 1) * H)
        torch.testing.assert_close(ours.W[gate].grad, ref.weight_ih.grad[rows], rtol=1e-10, atol=1e-12)
        torch.testing.assert_close(ours.U[gate].grad, ref.weight_hh.grad[rows], rtol=1e-10, atol=1e-12)
        torch.testing.assert_close(ours.b[gate].grad, ref.bias_ih.grad[rows], rtol=1e-10, atol=1e-12)
        hidden_bias = ours.b_Uh.grad if kind == "gru" and gate == "h" else ours.b[gate].grad
        torch.testing.assert_close(hidden_bias, ref.bias_hh.grad[rows], rtol=1e-10, atol=1e-12)


def test_torch_parity_reports_float32_rounding_only():
    for kind in ("rnn", "gru", "lstm"):
        diffs = torch_parity(kind, 6, 9, batch_size=3, seed=1)
        assert set(diffs) == {"output", "grad_input", "grad_state", "grad_weights"}
        assert all(0 <= v < 1e-5 for v in diffs.values()), (kind, diffs)


def test_gru_keeps_the_hidden_bias_of_the_new_memory_apart():
    """With r = 0 PyTorch's b_hn must vanish from the new memory; a summed bias would not."""
    ref = nn.GRUCell(1, 1).double()
    with torch.no_grad():
        ref.weight_ih.zero_()
        ref.weight_hh.zero_()
        ref.bias_ih.copy_(torch.tensor([-50.0, 0.0, 0.3], dtype=torch.float64))  # r ≈ 0, z = 0.5, b_in = 0.3
        ref.bias_hh.copy_(torch.tensor([0.0, 0.0, 2.0], dtype=torch.float64))  # b_hn = 2 (masked by r)
    ours = load_from_torch(ref)
    x, h = torch.zeros(1, 1, dtype=torch.float64), torch.full((1, 1), 0.4, dtype=torch.float64)
    want = 0.5 * math.tanh(0.3) + 0.5 * 0.4  # computed by hand from the GRU equations
    assert ours(x, h).item() == pytest.approx(want, abs=1e-12)
    assert ref(x, h).item() == pytest.approx(want, abs=1e-12)


def test_lstm_step_by_hand():
    """All weights 0 and biases 0: every gate is σ(0) = 1/2 and the new memory tanh(0) = 0."""
    cell = LSTMCell(2, 3).double()
    with torch.no_grad():
        for p in cell.parameters():
            p.zero_()
    h, c = cell(
        torch.ones(2, dtype=torch.float64),
        (torch.ones(3, dtype=torch.float64), torch.full((3,), 2.0, dtype=torch.float64)),
    )
    assert torch.allclose(c, torch.full((3,), 1.0, dtype=torch.float64))  # c = 0.5 * 2 + 0.5 * 0
    assert torch.allclose(h, torch.full((3,), 0.5 * math.tanh(1.0), dtype=torch.float64))


def test_elman_step_by_hand():
    cell = RNNCell(2, 1).double()
    with torch.no_grad():
        cell.W["h"].copy_(torch.tensor([[0.5, -1.0]], dtype=torch.float64))
        cell.U["h"].copy_(torch.tensor([[2.0]], dtype=torch.float64))
        cell.b["h"].copy_(torch.tensor([0.1], dtype=torch.float64))
    h = cell(torch.tensor([1.0, 0.5], dtype=torch.float64), torch.tensor([0.25], dtype=torch.float64))
    assert h.item() == pytest.approx(math.tanh(0.5 - 0.5 + 0.5 + 0.1), abs=1e-12)


@pytest.mark.parametrize("module_cls", [nn.RNN, nn.GRU, nn.LSTM])
@pytest.mark.parametrize("num_layers,bidirectional", [(1, False), (1, True), (2, False), (3, True)])
def test_stacked_rnn_equals_torch_module(module_cls, num_layers, bidirectional):
    manual_seed(3)
    ref = module_cls(5, 6, num_layers=num_layers, bidirectional=bidirectional, batch_first=True).double()
    ours = StackedRNN.from_torch(ref)
    x = torch.randn(3, 7, 5, dtype=torch.float64)
    out, finals = ours(x)
    ref_out, ref_final = ref(x)
    torch.testing.assert_close(out, ref_out, rtol=1e-12, atol=1e-12)
    ref_h = ref_final[0] if module_cls is nn.LSTM else ref_final  # (layers·directions, B, H)
    for k, final in enumerate(finals):
        torch.testing.assert_close(final[0] if module_cls is nn.LSTM else final, ref_h[k], rtol=1e-12, atol=1e-12)


def test_run_cell_equals_nn_lstm_and_reverse_reads_backwards():
    manual_seed(0)
    ref = nn.LSTM(4, 5, batch_first=True, bidirectional=True).double()
    fwd, bwd = load_from_torch(ref, 0), load_from_torch(ref, 0, reverse=True)
    x = torch.randn(2, 6, 4, dtype=torch.float64)
    ref_out, _ = ref(x)
    out_f, _ = run_cell(fwd, x)
    out_b, _ = run_cell(bwd, x, reverse=True)
    torch.testing.assert_close(torch.cat([out_f, out_b], -1), ref_out, rtol=1e-12, atol=1e-12)
    out_unbatched, (h, c) = run_cell(fwd, x[0])
    torch.testing.assert_close(out_unbatched, out_f[0])
    assert h.shape == c.shape == (5,)


def test_load_from_torch_copies_not_shares():
    ref = nn.GRUCell(3, 4)
    ours = load_from_torch(ref)
    with torch.no_grad():
        ref.weight_ih.add_(1.0)
    assert not torch.allclose(ours.W["r"], ref.weight_ih[:4])


# ----------------------------------------------------------------------------- bad input
def test_wrong_input_size_names_input_size():
    cell = GRUCell(3, 4)
    with pytest.raises(ValueError, match="input_size=3"):
        cell(torch.randn(2, 5))
    with pytest.raises(ValueError, match="input_size"):
        run_cell(cell, torch.randn(2, 6, 5))


def test_empty_sequence_is_rejected():
    with pytest.raises(ValueError, match="empty sequence"):
        run_cell(LSTMCell(3, 4), torch.randn(2, 0, 3))
    with pytest.raises(ValueError, match="empty sequence"):
        run_cell(RNNCell(3, 4), torch.randn(0, 3))


def test_bad_state_and_arguments():
    with pytest.raises(ValueError, match="state must have shape"):
        RNNCell(3, 4)(torch.randn(2, 3), torch.randn(2, 5))
    with pytest.raises(TypeError, match=r"pair \(h, c\)"):
        LSTMCell(3, 4)(torch.randn(2, 3), torch.randn(2, 4))
    with pytest.raises(ValueError, match=r"state\[1\] \(c\)"):
        LSTMCell(3, 4)(torch.randn(2, 3), (torch.randn(2, 4), torch.randn(3, 4)))
    with pytest.raises(ValueError, match="nonlinearity"):
        RNNCell(3, 4, nonlinearity="sigmoid")
    with pytest.raises(ValueError, match="hidden_size"):
        GRUCell(3, 0)
    with pytest.raises(TypeError, match="x must be Tensor"):
        RNNCell(3, 4)([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="run_cell"):
        RNNCell(3, 4)(torch.randn(2, 5, 3))
    with pytest.raises(TypeError, match="module must be one of"):
        load_from_torch(nn.Linear(3, 4))
    with pytest.raises(ValueError, match="reverse=True needs a bidirectional"):
        load_from_torch(nn.GRU(3, 4), reverse=True)
    with pytest.raises(ValueError, match="layer must be <= 0"):
        load_from_torch(nn.GRU(3, 4), layer=1)
    with pytest.raises(ValueError, match="batch_first=True"):
        StackedRNN.from_torch(nn.LSTM(3, 4))
    with pytest.raises(ValueError, match=r"x must have shape \(B, T, 3\)"):
        StackedRNN("gru", 3, 4)(torch.randn(2, 5, 4))
    with pytest.raises(ValueError, match="cell must be one of"):
        StackedRNN("transformer", 3, 4)


def test_every_cell_is_a_recurrent_cell_with_its_gates_in_torch_order() -> None:
    cells = {"rnn": RNNCell(3, 4), "gru": GRUCell(3, 4), "lstm": LSTMCell(3, 4)}
    assert all(isinstance(c, RecurrentCell) for c in cells.values())
    # PyTorch stacks the gates of nn.GRUCell as (r, z, n) and of nn.LSTMCell as (i, f, g, o)
    assert len(cells["gru"].gates) == 3 and len(cells["lstm"].gates) == 4
