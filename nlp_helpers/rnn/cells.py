"""Recurrent cells from their equations: Elman RNN, GRU and LSTM, and how to run them.

Each cell is written exactly as in the lecture notes (one weight matrix per gate,
``W`` for the input, ``U`` for the previous hidden state) and can copy its weights
from the matching PyTorch cell (:func:`load_from_torch`), so the tests check that
the equations below *are* what ``torch.nn.RNNCell``/``GRUCell``/``LSTMCell`` compute.

Elman RNN:  h_t = f(W x_t + U h_{t-1} + b),  f = tanh (or ReLU)
GRU:        z_t = σ(W_z x_t + U_z h_{t-1} + b_z)                    update gate
            r_t = σ(W_r x_t + U_r h_{t-1} + b_r)                    reset gate
            h̃_t = tanh(W_h x_t + b_h + r_t ∘ (U_h h_{t-1} + b_Uh))  new memory
            h_t = (1 − z_t) ∘ h̃_t + z_t ∘ h_{t-1}
LSTM:       i, f, o = σ(W_g x_t + U_g h_{t-1} + b_g)                input, forget, output gates
            c̃_t = tanh(W_c x_t + U_c h_{t-1} + b_c)                 new memory
            c_t = f_t ∘ c_{t-1} + i_t ∘ c̃_t,   h_t = o_t ∘ tanh(c_t)

PyTorch's conventions, which :func:`load_from_torch` translates: the gate matrices
are stacked into one ``weight_ih``/``weight_hh`` in the order (r, z, n) for the GRU
and (i, f, g, o) for the LSTM, and every gate has *two* biases (``bias_ih`` and
``bias_hh``). They only ever appear summed, except in the GRU's new memory, where
the hidden-side bias sits inside the reset gate's product; so the GRU keeps a
separate ``b_Uh``.

Shapes: ``x`` is ``(B, d_in)`` for one step or ``(B, T, d_in)`` for a sequence
(batch first; an unbatched ``(d_in,)``/``(T, d_in)`` also works), hidden states are
``(B, H)``. The sequence runner is a plain Python loop: clear, and fast enough for
the book's demonstrations; for training, the chapter switches to ``torch.nn.LSTM``
once these cells are checked against it. Gradient measurements (BPTT) are in
:mod:`nlp_helpers.rnn.gradients`. Left out: peephole connections, LSTM projections
(``proj_size``) and dropout between stacked layers.
"""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn

from nlp_helpers._checks import check_choice, check_int, check_type
from nlp_helpers.seeds import manual_seed

__all__ = ["RNNCell", "GRUCell", "LSTMCell", "load_from_torch", "torch_parity", "run_cell", "StackedRNN"]

State = Tensor | tuple[Tensor, Tensor]


class RecurrentCell(nn.Module):
    """Shared machinery: one ``W``/``U``/``b`` per gate, input checks, PyTorch's initialisation."""

    gates: tuple[str, ...] = ()  # in PyTorch's stacking order

    def __init__(self, input_size: int, hidden_size: int) -> None:
        super().__init__()
        self.input_size = check_int("input_size", input_size, minimum=1)
        self.hidden_size = check_int("hidden_size", hidden_size, minimum=1)
        H, d = self.hidden_size, self.input_size
        self.W = nn.ParameterDict({g: nn.Parameter(torch.empty(H, d)) for g in self.gates})  # (H, d_in)
        self.U = nn.ParameterDict({g: nn.Parameter(torch.empty(H, H)) for g in self.gates})  # (H, H)
        self.b = nn.ParameterDict({g: nn.Parameter(torch.empty(H)) for g in self.gates})  # (H,)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Uniform(−1/√H, 1/√H), PyTorch's default for recurrent cells."""
        bound = 1.0 / math.sqrt(self.hidden_size)
        for p in self.parameters():
            nn.init.uniform_(p, -bound, bound)

    def _lin(self, gate: str, x: Tensor, h: Tensor) -> Tensor:
        """W_g x + U_g h + b_g for a batch: x (B, d_in), h (B, H) -> (B, H)."""
        return x @ self.W[gate].T + h @ self.U[gate].T + self.b[gate]

    def _prepare(self, x: Tensor, state: State | None) -> tuple[Tensor, State, bool]:
        """Check shapes, add a batch axis to unbatched input, create a zero state if none is given."""
        check_type("x", x, Tensor)
        if x.dim() not in (1, 2):
            raise ValueError(
                f"x must have shape (B, {self.input_size}) or ({self.input_size},) for one step, "
                f"got {tuple(x.shape)}; use run_cell for a whole sequence"
            )
        if x.shape[-1] != self.input_size:
            raise ValueError(f"x has {x.shape[-1]} features but the cell expects input_size={self.input_size}")
        unbatched = x.dim() == 1
        x = x.unsqueeze(0) if unbatched else x
        if state is None:
            state = self.initial_state(x.shape[0], dtype=x.dtype)
        else:
            state = self._check_state(state, x.shape[0], unbatched)
        return x, state, unbatched

    def _check_hidden(self, name: str, h: Tensor, batch: int, unbatched: bool) -> Tensor:
        check_type(name, h, Tensor)
        h = h.unsqueeze(0) if unbatched and h.dim() == 1 else h
        if tuple(h.shape) != (batch, self.hidden_size):
            raise ValueError(f"{name} must have shape ({batch}, {self.hidden_size}), got {tuple(h.shape)}")
        return h

    def _check_state(self, state: State, batch: int, unbatched: bool) -> State:
        return self._check_hidden("state", state, batch, unbatched)

    def initial_state(self, batch_size: int, dtype: torch.dtype = torch.float32) -> State:
        """The zero state for ``batch_size`` sequences: ``(B, H)`` (a pair for the LSTM)."""
        return torch.zeros(batch_size, self.hidden_size, dtype=dtype)

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}"


class RNNCell(RecurrentCell):
    """Elman cell ``h_t = f(W x_t + U h_{t-1} + b)`` with ``f`` = tanh or ReLU; equals ``torch.nn.RNNCell``."""

    gates = ("h",)

    def __init__(self, input_size: int, hidden_size: int, nonlinearity: str = "tanh") -> None:
        self.nonlinearity = check_choice("nonlinearity", nonlinearity, ["tanh", "relu"])
        super().__init__(input_size, hidden_size)

    def forward(self, x: Tensor, state: Tensor | None = None) -> Tensor:
        """One step: x (B, d_in), state h_{t-1} (B, H) or None (zeros) -> h_t (B, H)."""
        x, h, unbatched = self._prepare(x, state)
        pre = self._lin("h", x, h)
        h = torch.tanh(pre) if self.nonlinearity == "tanh" else torch.relu(pre)
        return h.squeeze(0) if unbatched else h


class GRUCell(RecurrentCell):
    """Gated recurrent unit (update gate z, reset gate r); equals ``torch.nn.GRUCell``."""

    gates = ("r", "z", "h")

    def __init__(self, input_size: int, hidden_size: int) -> None:
        super().__init__(input_size, hidden_size)
        # PyTorch's b_hn: the hidden-side bias of the new memory, inside r ∘ (...).
        self.b_Uh = nn.Parameter(torch.empty(self.hidden_size))
        self.reset_parameters()

    def forward(self, x: Tensor, state: Tensor | None = None) -> Tensor:
        """One step: x (B, d_in), state h_{t-1} (B, H) or None (zeros) -> h_t (B, H)."""
        x, h, unbatched = self._prepare(x, state)
        z = torch.sigmoid(self._lin("z", x, h))  # how much of the old state to keep
        r = torch.sigmoid(self._lin("r", x, h))  # how much of the old state the new memory may see
        h_new = torch.tanh(x @ self.W["h"].T + self.b["h"] + r * (h @ self.U["h"].T + self.b_Uh))
        h = (1 - z) * h_new + z * h
        return h.squeeze(0) if unbatched else h


class LSTMCell(RecurrentCell):
    """Long short-term memory cell (input, forget, output gates and a memory cell c); equals ``torch.nn.LSTMCell``.

    The state is the pair ``(h, c)``, each ``(B, H)``.
    """

    gates = ("i", "f", "c", "o")

    def initial_state(self, batch_size: int, dtype: torch.dtype = torch.float32) -> tuple[Tensor, Tensor]:
        zeros = torch.zeros(batch_size, self.hidden_size, dtype=dtype)
        return zeros, zeros.clone()

    def _check_state(self, state: State, batch: int, unbatched: bool) -> State:
        if not (isinstance(state, tuple) and len(state) == 2):
            raise TypeError("state of an LSTM cell must be a pair (h, c) of tensors")
        return (
            self._check_hidden("state[0] (h)", state[0], batch, unbatched),
            self._check_hidden("state[1] (c)", state[1], batch, unbatched),
        )

    def forward(self, x: Tensor, state: tuple[Tensor, Tensor] | None = None) -> tuple[Tensor, Tensor]:
        """One step: x (B, d_in), state (h_{t-1}, c_{t-1}) or None (zeros) -> (h_t, c_t)."""
        x, (h, c), unbatched = self._prepare(x, state)
        i = torch.sigmoid(self._lin("i", x, h))  # how much new memory to write
        f = torch.sigmoid(self._lin("f", x, h))  # how much old memory to keep
        o = torch.sigmoid(self._lin("o", x, h))  # how much memory to expose as h
        c_new = torch.tanh(self._lin("c", x, h))
        c = f * c + i * c_new
        h = o * torch.tanh(c)
        return (h.squeeze(0), c.squeeze(0)) if unbatched else (h, c)


_CELL_FOR = {
    nn.RNNCell: RNNCell,
    nn.GRUCell: GRUCell,
    nn.LSTMCell: LSTMCell,
    nn.RNN: RNNCell,
    nn.GRU: GRUCell,
    nn.LSTM: LSTMCell,
}


def load_from_torch(module: nn.Module, layer: int = 0, reverse: bool = False) -> RecurrentCell:
    """A from-scratch cell holding a copy of the weights of a PyTorch cell (or of one layer of a PyTorch RNN).

    ``module``: ``nn.RNNCell``/``GRUCell``/``LSTMCell``, or ``nn.RNN``/``GRU``/``LSTM`` together
    with ``layer`` and ``reverse`` (the backward direction of a bidirectional layer).
    PyTorch's stacked gate matrices are cut into per-gate ``W``/``U`` and its two biases summed
    (the GRU's new-memory hidden bias is kept apart, see the module docstring).
    """
    kind = next((cls for cls in _CELL_FOR if type(module) is cls), None)
    if kind is None:
        raise TypeError(f"module must be one of {[c.__name__ for c in _CELL_FOR]}, got {type(module).__name__}")
    is_layer = kind in (nn.RNN, nn.GRU, nn.LSTM)
    if is_layer:
        layer = check_int("layer", layer, minimum=0, maximum=module.num_layers - 1)
        if reverse and not module.bidirectional:
            raise ValueError("reverse=True needs a bidirectional module")
        if getattr(module, "proj_size", 0):
            raise ValueError("LSTMs with proj_size > 0 are not supported")
        suffix = f"_l{layer}" + ("_reverse" if reverse else "")
    else:
        suffix = ""
    get = lambda name: getattr(module, name + suffix, None)  # noqa: E731
    w_ih, w_hh = get("weight_ih").detach(), get("weight_hh").detach()
    H = module.hidden_size
    zeros = torch.zeros(len(_CELL_FOR[kind].gates) * H, dtype=w_ih.dtype)
    b_ih = get("bias_ih").detach() if get("bias_ih") is not None else zeros
    b_hh = get("bias_hh").detach() if get("bias_hh") is not None else zeros
    if kind in (nn.RNNCell, nn.RNN):
        cell: RecurrentCell = RNNCell(w_ih.shape[1], H, nonlinearity=module.nonlinearity)
    else:
        cell = _CELL_FOR[kind](w_ih.shape[1], H)
    cell = cell.to(w_ih.dtype)
    with torch.no_grad():
        for k, gate in enumerate(cell.gates):
            rows = slice(k * H, (k + 1) * H)
            cell.W[gate].copy_(w_ih[rows])
            cell.U[gate].copy_(w_hh[rows])
            if isinstance(cell, GRUCell) and gate == "h":
                cell.b[gate].copy_(b_ih[rows])
                cell.b_Uh.copy_(b_hh[rows])
            else:
                cell.b[gate].copy_(b_ih[rows] + b_hh[rows])
    return cell


def torch_parity(kind: str, input_size: int, hidden_size: int, batch_size: int = 8, seed: int = 0) -> dict[str, float]:
    """Largest absolute differences between a from-scratch cell and the PyTorch cell it copied.

    ``kind``: ``"rnn"``, ``"gru"`` or ``"lstm"``. A random PyTorch cell, its copy, one random
    batch and state; ``output`` compares the new states, ``grad_input`` and ``grad_state`` the
    gradients of a random linear function of them, ``grad_weights`` every weight and bias
    gradient (each of PyTorch's two biases receives the gradient of our summed bias).
    """
    kind = check_choice("kind", kind, ["rnn", "gru", "lstm"])
    manual_seed(check_int("seed", seed, minimum=0))
    ref = {"rnn": nn.RNNCell, "gru": nn.GRUCell, "lstm": nn.LSTMCell}[kind](input_size, hidden_size)
    ours = load_from_torch(ref)
    B, H = check_int("batch_size", batch_size, minimum=1), hidden_size
    x = torch.randn(B, input_size)
    state = (torch.randn(B, H), torch.randn(B, H)) if kind == "lstm" else torch.randn(B, H)
    probe = torch.randn(2 if kind == "lstm" else 1, B, H)  # the loss: a random linear function of the state
    results = []
    for cell in (ref, ours):
        xi = x.clone().requires_grad_()
        si = tuple(s.clone().requires_grad_() for s in state) if kind == "lstm" else state.clone().requires_grad_()
        out = cell(xi, si)
        out = torch.stack(out) if kind == "lstm" else out[None]
        (out * probe).sum().backward()
        results.append((out.detach(), xi.grad, torch.cat([s.grad for s in si]) if kind == "lstm" else si.grad))
    diffs = {
        key: (a - b).abs().max().item()
        for key, a, b in zip(("output", "grad_input", "grad_state"), results[0], results[1])
    }
    w_diffs = []
    for k, gate in enumerate(ours.gates):
        rows = slice(k * H, (k + 1) * H)
        w_diffs.append((ref.weight_ih.grad[rows] - ours.W[gate].grad).abs().max().item())
        w_diffs.append((ref.weight_hh.grad[rows] - ours.U[gate].grad).abs().max().item())
        hidden_bias = ours.b_Uh.grad if isinstance(ours, GRUCell) and gate == "h" else ours.b[gate].grad
        w_diffs.append((ref.bias_ih.grad[rows] - ours.b[gate].grad).abs().max().item())
        w_diffs.append((ref.bias_hh.grad[rows] - hidden_bias).abs().max().item())
    return diffs | {"grad_weights": max(w_diffs)}


def run_cell(
    cell: RecurrentCell, x: Tensor, state: State | None = None, *, reverse: bool = False
) -> tuple[Tensor, State]:
    """Unroll ``cell`` over a sequence.

    ``x``: ``(B, T, d_in)`` (or unbatched ``(T, d_in)``) with ``T >= 1``; ``state``: the initial
    state (zeros if ``None``); ``reverse=True`` reads the sequence from the last step to the first.
    Returns ``(outputs, final_state)`` where ``outputs[:, t]`` is the hidden state ``h_t``
    (``(B, T, H)``, aligned with the input positions also when ``reverse``).
    """
    check_type("cell", cell, RecurrentCell)
    check_type("x", x, Tensor)
    if x.dim() not in (2, 3):
        raise ValueError(f"x must have shape (B, T, {cell.input_size}) or (T, {cell.input_size}), got {tuple(x.shape)}")
    if x.shape[-2] == 0:
        raise ValueError("x is an empty sequence (T = 0): a recurrent network needs at least one time step")
    unbatched = x.dim() == 2
    xb = x.unsqueeze(0) if unbatched else x
    if state is not None and unbatched:
        state = tuple(s.unsqueeze(0) for s in state) if isinstance(state, tuple) else state.unsqueeze(0)
    steps = range(xb.shape[1] - 1, -1, -1) if reverse else range(xb.shape[1])
    outputs: list[Tensor] = [None] * xb.shape[1]  # type: ignore[list-item]
    for t in steps:
        state = cell(xb[:, t], state)
        outputs[t] = state[0] if isinstance(state, tuple) else state
    out = torch.stack(outputs, dim=1)  # (B, T, H)
    if unbatched:
        out = out.squeeze(0)
        state = tuple(s.squeeze(0) for s in state) if isinstance(state, tuple) else state.squeeze(0)
    return out, state


class StackedRNN(nn.Module):
    """A deep (``num_layers``) and optionally bidirectional RNN built from the from-scratch cells.

    Layer ``l`` reads the outputs of layer ``l − 1``; a bidirectional layer runs one cell left to
    right and another right to left and concatenates their states, ``[h→_t ; h←_t]``. Equals
    ``torch.nn.RNN``/``GRU``/``LSTM(batch_first=True)`` with copied weights (:meth:`from_torch`).
    """

    def __init__(
        self, cell: str, input_size: int, hidden_size: int, num_layers: int = 1, bidirectional: bool = False
    ) -> None:
        super().__init__()
        cls = {"rnn": RNNCell, "gru": GRUCell, "lstm": LSTMCell}[check_choice("cell", cell, ["rnn", "gru", "lstm"])]
        self.num_layers = check_int("num_layers", num_layers, minimum=1)
        check_type("bidirectional", bidirectional, bool)
        self.directions = 2 if bidirectional else 1
        self.hidden_size = check_int("hidden_size", hidden_size, minimum=1)
        self.input_size = check_int("input_size", input_size, minimum=1)
        self.cells = nn.ModuleList(
            cls(input_size if layer == 0 else hidden_size * self.directions, hidden_size)
            for layer in range(self.num_layers)
            for _ in range(self.directions)
        )

    @classmethod
    def from_torch(cls, module: nn.Module) -> StackedRNN:
        """A copy of an ``nn.RNN``/``GRU``/``LSTM`` (any depth, uni- or bidirectional)."""
        if type(module) not in (nn.RNN, nn.GRU, nn.LSTM):
            raise TypeError(f"module must be nn.RNN, nn.GRU or nn.LSTM, got {type(module).__name__}")
        if not module.batch_first:
            raise ValueError("module must be created with batch_first=True (the book's convention)")
        kind = {nn.RNN: "rnn", nn.GRU: "gru", nn.LSTM: "lstm"}[type(module)]
        model = cls(kind, module.input_size, module.hidden_size, module.num_layers, module.bidirectional)
        model.cells = nn.ModuleList(
            load_from_torch(module, layer, reverse=bool(d))
            for layer in range(module.num_layers)
            for d in range(model.directions)
        )
        return model

    def forward(self, x: Tensor) -> tuple[Tensor, list[State]]:
        """x (B, T, d_in) -> (outputs of the top layer (B, T, directions·H), final state of every cell)."""
        check_type("x", x, Tensor)
        if x.dim() != 3 or x.shape[-1] != self.input_size:
            raise ValueError(f"x must have shape (B, T, {self.input_size}), got {tuple(x.shape)}")
        finals: list[State] = []
        for layer in range(self.num_layers):
            outs = []
            for d in range(self.directions):
                out, final = run_cell(self.cells[layer * self.directions + d], x, reverse=bool(d))
                outs.append(out)
                finals.append(final)
            x = torch.cat(outs, dim=-1)  # (B, T, directions·H): next layer's input
        return x, finals
