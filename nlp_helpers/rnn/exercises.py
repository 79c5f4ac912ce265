"""Checkers for the exercises of the chapter *RNNs, GRUs and LSTMs* (``book/rnn/``).

Each ``check_*`` calls the student's function on small inputs, compares it with an
independent reference (``torch.nn`` modules or a direct formula) and tries the edge case students forget.
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
    "check_rnn_params",
    "check_jordan_run",
    "check_perplexity",
    "check_decode",
    "check_bi_gru",
]


def _rng_arrays(seed: int, *shapes: tuple[int, ...]) -> list[np.ndarray]:
    rng = seeded_rng(seed)
    return [rng.normal(scale=0.8, size=s) for s in shapes]


_CELLS = {"rnn": torch.nn.RNN, "gru": torch.nn.GRU, "lstm": torch.nn.LSTM}


def _torch_count(cell: str, d_in: int, hidden: int) -> int:
    return sum(p.numel() for p in _CELLS[cell](d_in, hidden).parameters())


def check_rnn_params(rnn_params: Callable) -> CheckResult:
    """``rnn_params(cell, d_in, hidden)``: the number of parameters of one PyTorch recurrent layer.

    Counted by ``torch.nn.RNN``/``GRU``/``LSTM``: per gate block ``hidden * d_in + hidden * hidden``
    and two biases of ``hidden``; ValueError for an unknown cell or a size below 1.
    """
    with Checker("Counting a recurrent layer's parameters") as ex:
        for cell, d_in, hidden in [("lstm", 3, 4), ("gru", 3, 4), ("rnn", 3, 4), ("lstm", 10, 32), ("gru", 7, 2)]:
            want = _torch_count(cell, d_in, hidden)
            got = ex.call(rnn_params, cell, d_in, hidden)
            blocks = {"rnn": 1, "gru": 3, "lstm": 4}[cell]
            per = hidden * d_in + hidden * hidden
            hints = {
                blocks * (per + hidden): "You counted one bias per gate block; PyTorch keeps two, bias_ih and bias_hh.",
                blocks * per: "You left out the biases: each gate block has two of length hidden.",
                blocks * (hidden * d_in + 2 * hidden): "You left out the recurrent matrix U (hidden x hidden).",
                blocks * (d_in * d_in + hidden * hidden + 2 * hidden): "The input matrix W is hidden x d_in, "
                "not d_in x d_in.",
                per + 2 * hidden: f"A {cell.upper()} has {blocks} gate blocks, each with its own W, U and biases.",
            }
            if cell == "lstm":
                hints[3 * (per + 2 * hidden)] = "An LSTM has four blocks (input, forget, output gates and new memory)."
            if cell == "gru":
                hints[4 * (per + 2 * hidden)] = "A GRU has three blocks (update gate, reset gate, new memory)."
            try:
                got_int = int(got)
            except (TypeError, ValueError):
                got_int = None
            if got_int is not None and got_int != want and got_int in hints:
                ex.fail(
                    f"rnn_params({cell!r}, {d_in}, {hidden}) returned {got_int}, not PyTorch's count. " + hints[got_int]
                )
            ex.expect_equal(
                got_int,
                want,
                reveal=False,
                what=f"rnn_params({cell!r}, {d_in}, {hidden})",
                hint="Count, per gate block, W (hidden x d_in), U (hidden x hidden) and two biases of length hidden.",
            )
            ex.expect(
                isinstance(got, (int, np.integer)) and not isinstance(got, bool),
                f"rnn_params({cell!r}, {d_in}, {hidden}) should return an int, got {type(got).__name__} {got!r}.",
            )
        ex.expect_raises(
            ValueError,
            rnn_params,
            "transformer",
            3,
            4,
            what="rnn_params('transformer', 3, 4)",
            hint="cell must be 'rnn', 'gru' or 'lstm': raise ValueError for anything else.",
        )
        ex.expect_raises(
            ValueError,
            rnn_params,
            "gru",
            0,
            4,
            what="rnn_params('gru', 0, 4)",
            hint="d_in below 1 is an error too, not only hidden: a layer needs at least one input feature.",
        )
        ex.expect_raises(
            ValueError,
            rnn_params,
            "lstm",
            3,
            0,
            what="rnn_params('lstm', 3, 0)",
            hint="A layer needs at least one input feature and one hidden unit: raise ValueError for sizes below 1.",
        )
    return ex.result


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    return e / e.sum()


def _reference_jordan(x, W, U, b, V, c):
    y = np.zeros(V.shape[0])
    out = np.zeros((len(x), V.shape[0]))
    for t, x_t in enumerate(x):
        h = np.tanh(W @ x_t + U @ y + b)
        y = _softmax(V @ h + c)
        out[t] = y
    return out


def _jordan_case(seed: int, T: int, d_in: int, H: int, K: int) -> list[np.ndarray]:
    rng = seeded_rng(seed)
    return [
        rng.normal(size=(T, d_in)),
        rng.normal(scale=0.8, size=(H, d_in)),
        rng.normal(scale=2.0, size=(H, K)),
        rng.normal(scale=0.5, size=H),
        rng.normal(scale=1.5, size=(K, H)),
        rng.normal(scale=0.5, size=K),
    ]


def check_jordan_run(jordan_run: Callable) -> CheckResult:
    """``jordan_run(x, W, U, b, V, c)`` -> ``(T, K)`` outputs of a Jordan network started from ``y_0 = 0``.

    ``h_t = tanh(W x_t + U y_{t-1} + b)``, ``y_t = softmax(V h_t + c)``; stable for huge scores;
    ``(0, K)`` for an empty sequence.
    """
    with Checker("A Jordan network") as ex:
        for seed, (T, d_in, H, K) in enumerate([(4, 2, 3, 3), (5, 3, 4, 6)]):  # K == H first: an Elman answer runs
            x, W, U, b, V, c = _jordan_case(seed, T, d_in, H, K)
            want = _reference_jordan(x, W, U, b, V, c)
            got = np.asarray(ex.call(jordan_run, x, W, U, b, V, c), dtype=float)
            ex.expect(
                got.shape == want.shape,
                f"for T = {T} and K = {K} outputs the result should have shape {want.shape} (T, K), got {got.shape}.",
            )
            ex.expect(
                bool(np.allclose(got.sum(axis=1), 1.0)),
                "Each row y_t should be a probability distribution summing to 1: apply softmax to V h_t + c.",
            )
            uniform = np.full(K, 1.0 / K)
            y, alt = uniform, np.zeros((T, K))
            for t, x_t in enumerate(x):
                y = _softmax(V @ np.tanh(W @ x_t + U @ y + b) + c)
                alt[t] = y
            if not np.allclose(got, want, atol=1e-6) and np.allclose(got, alt, atol=1e-6):
                ex.fail("You started from the uniform distribution; the statement starts from y_0 = 0 (a zero vector).")
            no_feedback = np.array([_softmax(V @ np.tanh(W @ x_t + b) + c) for x_t in x])
            if not np.allclose(got, want, atol=1e-6) and np.allclose(got, no_feedback, atol=1e-6):
                ex.fail("Your outputs ignore the previous output: feed y_{t-1} back through U at every step.")
            if K == H:
                h, hid = np.zeros(H), np.zeros((T, K))
                for t, x_t in enumerate(x):
                    h = np.tanh(W @ x_t + U @ h + b)
                    hid[t] = _softmax(V @ h + c)
                if not np.allclose(got, want, atol=1e-6) and np.allclose(got, hid, atol=1e-6):
                    ex.fail(
                        "You fed back the hidden state h_{t-1} (an Elman network); a Jordan network feeds "
                        "back the previous output y_{t-1}."
                    )
            ex.expect_close(
                got,
                want,
                what=f"jordan_run with T={T}, d_in={d_in}, H={H}, K={K}",
                hint="h_t = tanh(W x_t + U y_{t-1} + b), y_t = softmax(V h_t + c), from y_0 = 0.",
                rtol=1e-5,
                atol=1e-8,
            )
        x, W, U, b, V, c = _jordan_case(5, 3, 2, 3, 4)
        c = c + np.array([1000.0, 0.0, 0.0, 0.0])
        got = np.asarray(ex.call(jordan_run, x, W, U, b, V, c), dtype=float)
        ex.expect(
            got.shape == (3, 4) and bool(np.all(np.isfinite(got))),
            "With an output bias of 1000 your softmax returns inf or NaN: subtract the largest score before exp.",
        )
        ex.expect_close(
            got,
            _reference_jordan(x, W, U, b, V, c),
            what="jordan_run with a huge output bias",
            hint="Subtract the largest score before exp.",
            rtol=1e-5,
            atol=1e-8,
        )
        x0 = np.zeros((0, 2))
        got = np.asarray(ex.call(jordan_run, x0, W, U, b, V, c), dtype=float)
        ex.expect(
            got.shape == (0, 4),
            f"For an empty sequence (T = 0) return an array of shape (0, K) = (0, 4), got shape {got.shape}.",
        )
    return ex.result


def _perplexity_value(ex: Checker, perplexity: Callable, probs, what: str) -> None:
    """Call ``perplexity(probs)`` and compare with exp(-mean ln p), naming the sign, base and underflow slips."""
    want = math.exp(-np.mean(np.log(probs)))
    got, error = ex.try_call(perplexity, probs)
    if isinstance(error, (ZeroDivisionError, OverflowError, FloatingPointError)) or (
        error is None and isinstance(got, (int, float, np.floating)) and not math.isfinite(float(got))
    ):
        ex.fail(
            f"{what} gave {got if error is None else repr(error)} instead of about {want:.4g}: the product of "
            f"{len(probs)} probabilities "
            "underflows to 0 (or its inverse overflows). Work with the logarithms of the probabilities, not "
            "their product, as the exercise asks."
        )
    if error is not None:
        ex.fail(f"calling {what} raised {type(error).__name__}: {error}.")
    value = float(np.asarray(got, dtype=float).reshape(-1)[0]) if np.size(got) == 1 else None
    if (
        value is not None
        and not math.isclose(value, want, rel_tol=1e-6)
        and math.isclose(value, 1 / want, rel_tol=1e-6)
    ):
        ex.fail(
            f"{what} = {value:.4g}, below 1: a perplexity is never below 1 (it is the effective number of "
            "equally likely choices). Check the sign of the exponent in the definition."
        )
    mixed = {2 ** math.log(want), math.exp(math.log2(want))}
    if value is not None and any(math.isclose(value, m, rel_tol=1e-6) for m in mixed) and want != 1:
        ex.fail(
            f"{what} = {value:.4g}: the logarithm and the exponential have different bases. Pair them as the "
            "exercise says."
        )
    ex.expect_close(got, want, what=what, hint="Compare your formula with the definition in the exercise.")


def check_perplexity(perplexity: Callable) -> CheckResult:
    """``perplexity(probs)``: ``(∏ p)^(−1/N) = exp(−mean ln p)``; ValueError for no probabilities or p outside (0, 1]."""
    with Checker("Perplexity from probabilities") as ex:
        _perplexity_value(ex, perplexity, [0.25, 0.25, 0.25, 0.25], "perplexity([0.25] * 4)")
        _perplexity_value(ex, perplexity, [0.5, 0.1, 0.9, 0.3, 0.05], "perplexity([0.5, 0.1, 0.9, 0.3, 0.05])")
        _perplexity_value(ex, perplexity, np.array([1.0]), "perplexity(np.array([1.0]))")
        _perplexity_value(ex, perplexity, [0.01] * 200, "perplexity([0.01] * 200)")
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
        ex.expect_raises(
            ValueError,
            perplexity,
            [0.5, 1.5],
            what="perplexity([0.5, 1.5])",
            hint="1.5 is not a probability: the range (0, 1] has an upper end too.",
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
            hint="Teacher forcing needs one target per step: raise ValueError if there are fewer.",
        )
        ex.expect_raises(
            ValueError,
            decode,
            _toy_step,
            1,
            0,
            6,
            [3, 0, 4, 4, 1, 2, 0, 1],
            what="decode(..., 6, targets of length 8)",
            hint="Teacher forcing needs exactly one target per step: more targets than steps is an error too.",
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
            if np.allclose(got[..., :H], want[..., H:], rtol=1e-4, atol=1e-6) and not np.allclose(
                want[..., :H], want[..., H:], rtol=1e-4, atol=1e-6
            ):
                ex.fail(
                    "The halves are the other way round: position t holds [forward state ; backward state], the "
                    "forward states first, as nn.GRU(bidirectional=True) returns them."
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
