"""Checkers for the exercises of the chapter *RNNs, GRUs and LSTMs* (``book/rnn.ipynb``).

Each ``check_*`` calls the student's function on small inputs, compares it with an
independent reference (``torch.nn.RNNCell``/``LSTMCell``, ``torch.nn.utils.clip_grad_norm_``,
or a direct formula) and tries the edge case students forget.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import torch

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.rnn.cells import load_from_torch
from nlp_helpers.seeds import manual_seed
from nlp_helpers.seeds import rng as seeded_rng

__all__ = [
    "check_rnn_step",
    "check_perplexity",
    "check_lstm_step",
    "check_clip_by_norm",
    "check_decode",
    "check_bi_gru",
]


def _rng_arrays(seed: int, *shapes: tuple[int, ...]) -> list[np.ndarray]:
    rng = seeded_rng(seed)
    return [rng.normal(scale=0.8, size=s) for s in shapes]


def check_rnn_step(rnn_step: Callable) -> CheckResult:
    """``rnn_step(x, h, W, U, b)`` -> ``tanh(W x + U h + b)`` (numpy), compared with ``torch.nn.RNNCell``."""
    with Checker("One RNN step by hand") as ex:
        for seed, (d_in, H) in enumerate([(3, 4), (5, 2)]):  # d_in != H catches W and U swapped
            x, h, W, U, b = _rng_arrays(seed, (d_in,), (H,), (H, d_in), (H, H), (H,))
            cell = torch.nn.RNNCell(d_in, H).double()
            with torch.no_grad():
                cell.weight_ih.copy_(torch.from_numpy(W))
                cell.weight_hh.copy_(torch.from_numpy(U))
                cell.bias_ih.copy_(torch.from_numpy(b))
                cell.bias_hh.zero_()
                want = cell(torch.from_numpy(x), torch.from_numpy(h)).numpy()
            got = ex.call(rnn_step, x, h, W, U, b)
            ex.expect_close(
                got,
                want,
                what=f"rnn_step with d_in={d_in}, H={H}",
                hint="W multiplies the input x, U the previous state h; add b and apply tanh.",
            )
        x, h, W, U, b = _rng_arrays(7, (3,), (4,), (4, 3), (4, 4), (4,))
        got = ex.call(rnn_step, 100 * x, h, W, U, b)
        ex.expect(
            np.all(np.abs(np.asarray(got)) <= 1.0),
            "with a large input every entry of h_t must still lie in [-1, 1]: did you apply tanh?",
        )
    return ex.result


def check_perplexity(perplexity: Callable) -> CheckResult:
    """``perplexity(probs)``: ``(∏ p)^(−1/N) = exp(−mean ln p)``; ValueError for no probabilities or p outside (0, 1]."""
    with Checker("Perplexity from probabilities") as ex:
        ex.expect_close(
            ex.call(perplexity, [0.25, 0.25, 0.25, 0.25]),
            4.0,
            what="perplexity([0.25] * 4)",
            hint="A model that always gives 1/4 is as unsure as a fair choice among 4: perplexity 4. "
            "With natural logarithms the perplexity is exp(J), not 2**J.",
        )
        probs = [0.5, 0.1, 0.9, 0.3, 0.05]
        want = math.exp(-np.mean(np.log(probs)))
        ex.expect_close(
            ex.call(perplexity, probs),
            want,
            what=f"perplexity({probs})",
            hint="With natural logarithms the perplexity is exp(J), not 2**J; 2**J needs log base 2.",
        )
        ex.expect_close(
            ex.call(perplexity, np.array([1.0])),
            1.0,
            what="perplexity([1.0])",
            hint="A model that is always certain and right has perplexity 1.",
        )
        ex.expect_raises(
            ValueError,
            perplexity,
            [],
            what="perplexity([])",
            hint="The mean over no tokens is undefined: raise ValueError.",
        )
        ex.expect_raises(
            ValueError,
            perplexity,
            [0.5, 0.0],
            what="perplexity([0.5, 0.0])",
            hint="A zero probability gives infinite perplexity; raise ValueError for p outside (0, 1].",
        )
    return ex.result


def check_lstm_step(lstm_step: Callable) -> CheckResult:
    """``lstm_step(x, h, c, W, U, b)`` with dicts keyed ``"i", "f", "c", "o"`` -> ``(h_t, c_t)``; vs ``torch.nn.LSTMCell``."""
    with Checker("The LSTM gates") as ex:
        d_in, H = 3, 4
        rng = seeded_rng(0)
        x, h, c = rng.normal(size=d_in), rng.normal(size=H), rng.normal(size=H)
        W = {g: rng.normal(scale=0.7, size=(H, d_in)) for g in "ifco"}
        U = {g: rng.normal(scale=0.7, size=(H, H)) for g in "ifco"}
        b = {g: rng.normal(scale=0.5, size=H) for g in "ifco"}
        cell = torch.nn.LSTMCell(d_in, H).double()
        with torch.no_grad():  # PyTorch stacks the gates in the order i, f, g (= new memory c̃), o
            cell.weight_ih.copy_(torch.from_numpy(np.concatenate([W[g] for g in "ifco"])))
            cell.weight_hh.copy_(torch.from_numpy(np.concatenate([U[g] for g in "ifco"])))
            cell.bias_ih.copy_(torch.from_numpy(np.concatenate([b[g] for g in "ifco"])))
            cell.bias_hh.zero_()
            h_want, c_want = (t.numpy() for t in cell(torch.from_numpy(x), (torch.from_numpy(h), torch.from_numpy(c))))
        got = ex.call(lstm_step, x, h, c, W, U, b)
        ex.expect(isinstance(got, tuple) and len(got) == 2, "lstm_step should return the pair (h_t, c_t).")
        h_got, c_got = got
        ex.expect_close(
            c_got,
            c_want,
            what="c_t",
            hint="c_t = f ∘ c_{t-1} + i ∘ c̃ with sigmoid gates i, f and c̃ = tanh(W_c x + U_c h + b_c).",
        )
        ex.expect_close(
            h_got, h_want, what="h_t", hint="h_t = o ∘ tanh(c_t): the output gate times the squashed memory."
        )
    return ex.result


def check_clip_by_norm(clip_by_norm: Callable) -> CheckResult:
    """``clip_by_norm(grads, threshold)``: rescale the list of arrays jointly so their global L2 norm <= threshold."""
    with Checker("Gradient clipping by norm") as ex:
        grads = _rng_arrays(3, (3, 4), (4,), (2, 2))
        for threshold in (0.5, 2.0, 100.0):
            params = [torch.nn.Parameter(torch.zeros(g.shape, dtype=torch.float64)) for g in grads]
            for p, g in zip(params, grads):
                p.grad = torch.from_numpy(g.copy())
            torch.nn.utils.clip_grad_norm_(params, threshold)
            got = ex.call(clip_by_norm, [g.copy() for g in grads], threshold)
            ex.expect(
                isinstance(got, (list, tuple)) and len(got) == len(grads),
                f"clip_by_norm should return a list of {len(grads)} arrays, one per gradient.",
            )
            for k, (g_got, p) in enumerate(zip(got, params)):
                ex.expect_close(
                    g_got,
                    p.grad.numpy(),
                    what=f"clipped gradient {k} (threshold {threshold})",
                    rtol=1e-5,
                    hint="Use ONE norm over all arrays together (sqrt of the sum of all squares), "
                    "rescale every array by threshold / norm, and only when norm > threshold.",
                )
        ex.expect_raises(
            ValueError,
            clip_by_norm,
            [g.copy() for g in grads],
            0.0,
            what="clip_by_norm(grads, 0.0)",
            hint="A threshold must be positive: raise ValueError otherwise.",
        )
    return ex.result


def _toy_step(token: int, state: int) -> tuple[np.ndarray, int]:
    """A deterministic 'decoder' over 5 tokens: scores peak at (token + state) % 5; the state counts steps."""
    scores = np.full(5, -1.0)
    scores[(token + state) % 5] = 1.0
    return scores, state + 1


def _reference_decode(step, state, first_token, n_steps, targets=None):
    token, out = first_token, []
    for t in range(n_steps):
        scores, state = step(token, state)
        pred = int(np.argmax(scores))
        out.append(pred)
        token = targets[t] if targets is not None else pred
    return out


def check_decode(decode: Callable) -> CheckResult:
    """``decode(step, state, first_token, n_steps, targets=None)``: teacher forcing when ``targets`` is given."""
    with Checker("Teacher forcing vs feeding predictions") as ex:
        free = ex.call(decode, _toy_step, 1, 0, 6)
        ex.expect_equal(
            list(map(int, free)),
            _reference_decode(_toy_step, 1, 0, 6),
            what="decode(step, 1, 0, 6) (free running)",
            hint="Without targets, the next input is the arg-max of the scores you just predicted.",
        )
        targets = [3, 0, 4, 4, 1, 2]
        forced = ex.call(decode, _toy_step, 1, 0, 6, targets)
        ex.expect_equal(
            list(map(int, forced)),
            _reference_decode(_toy_step, 1, 0, 6, targets),
            what=f"decode(step, 1, 0, 6, targets={targets}) (teacher forcing)",
            hint="With targets, return the model's predictions but feed targets[t] as the next input.",
        )
        ex.expect_raises(
            ValueError,
            decode,
            _toy_step,
            1,
            0,
            6,
            [3, 0],
            what="decode(..., 6, targets of length 2)",
            hint="Teacher forcing needs one target per step: raise ValueError if len(targets) != n_steps.",
        )
    return ex.result


def _as_array(value: object) -> np.ndarray:
    return value.detach().numpy() if isinstance(value, torch.Tensor) else np.asarray(value)


def check_bi_gru(bi_gru: Callable) -> CheckResult:
    """``bi_gru(x, fwd, bwd)`` -> ``(B, T, 2H)`` states of a bidirectional GRU layer; vs ``torch.nn.GRU``.

    ``fwd`` and ``bwd`` are the package's ``GRUCell`` objects holding the two directions' weights
    of a bidirectional ``nn.GRU`` (copied with ``load_from_torch``); ``x`` is ``(B, T, d_in)``.
    """
    with Checker("A bidirectional GRU layer") as ex:
        for seed, (B, T, d_in, H) in enumerate([(2, 5, 3, 4), (1, 1, 2, 3)]):  # T = 1: the edge case
            manual_seed(100 + seed)
            ref = torch.nn.GRU(d_in, H, batch_first=True, bidirectional=True)
            fwd, bwd = load_from_torch(ref, reverse=False), load_from_torch(ref, reverse=True)
            x = torch.randn(B, T, d_in)
            with torch.no_grad():
                want = ref(x)[0].numpy()  # (B, T, 2H)
            got = _as_array(ex.call(bi_gru, x, fwd, bwd))
            ex.expect(
                got.shape == want.shape,
                f"for x of shape {(B, T, d_in)} the result should have shape {want.shape} (B, T, 2H), "
                f"got {got.shape}: concatenate the forward and backward states along the last axis.",
            )
            ex.expect_close(
                got[..., :H],
                want[..., :H],
                what=f"the forward half (first H = {H} features), T = {T}",
                hint="The forward cell reads x[:, 0], x[:, 1], ... starting from the zero state (cell(x_t, None)).",
                rtol=1e-4,
                atol=1e-6,
            )
            back = got[..., H:]
            if T > 1 and np.allclose(back[:, ::-1], want[..., H:], rtol=1e-4, atol=1e-6):
                ex.fail(
                    "The backward states are right but in reverse order: position t must hold the backward "
                    "cell's state after reading x_T, ..., x_t, so flip the list of backward states back."
                )
            if T > 1 and np.allclose(back, want[..., :H], rtol=1e-4, atol=1e-6):
                ex.fail("The second half repeats the forward states: use the bwd cell for the backward direction.")
            ex.expect_close(
                back,
                want[..., H:],
                what=f"the backward half (last H = {H} features), T = {T}",
                hint="Run the bwd cell over x[:, T-1], x[:, T-2], ..., x[:, 0] from the zero state, then "
                "reverse the list of states so that position t holds the state after reading x_t.",
                rtol=1e-4,
                atol=1e-6,
            )
    return ex.result
