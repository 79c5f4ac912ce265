"""The checkers of the RNN chapter accept correct answers and reject the typical wrong ones."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from nlp_helpers.rnn.exercises import (
    check_bi_gru,
    check_decode,
    check_jordan_run,
    check_perplexity,
    check_rnn_params,
)
from tests.exercise_helpers import stub


# --------------------------------------------------------------------------- one RNN step
def perplexity_ok(probs):
    p = np.asarray(probs, dtype=float)
    if p.size == 0 or np.any(p <= 0) or np.any(p > 1):
        raise ValueError("bad probabilities")
    return math.exp(-np.mean(np.log(p)))


def perplexity_two_to_the_nats(probs):
    p = np.asarray(probs, dtype=float)
    if p.size == 0 or np.any(p <= 0):
        raise ValueError("bad")
    return 2 ** (-np.mean(np.log(p)))  # the seed's formula with natural logs


def perplexity_no_checks(probs):
    with np.errstate(divide="ignore"):
        return float(np.exp(-np.mean(np.log(np.asarray(probs, dtype=float)))))


@pytest.mark.filterwarnings("ignore:Mean of empty slice:RuntimeWarning", "ignore:invalid value:RuntimeWarning")
def test_perplexity_checker():
    assert check_perplexity(perplexity_ok).passed
    assert check_perplexity(stub).status == "not yet"
    wrong_base = check_perplexity(perplexity_two_to_the_nats)
    assert wrong_base.status == "wrong" and "different bases" in wrong_base.message
    assert "ValueError" in check_perplexity(perplexity_no_checks).message


# --------------------------------------------------------------------------- LSTM step
# --------------------------------------------------------------------------- decoding
def decode_ok(step, state, first_token, n_steps, targets=None):
    if targets is not None and len(targets) != n_steps:
        raise ValueError("targets")
    token, out = first_token, []
    for t in range(n_steps):
        scores, state = step(token, state)
        out.append(int(np.argmax(scores)))
        token = out[-1] if targets is None else targets[t]
    return out


def decode_ignores_targets(step, state, first_token, n_steps, targets=None):
    if targets is not None and len(targets) != n_steps:
        raise ValueError("targets")
    return decode_ok(step, state, first_token, n_steps)


def decode_returns_targets(step, state, first_token, n_steps, targets=None):
    if targets is not None:
        if len(targets) != n_steps:
            raise ValueError("targets")
        return list(targets)
    return decode_ok(step, state, first_token, n_steps)


def decode_off_by_one(step, state, first_token, n_steps, targets=None):
    if targets is not None and len(targets) != n_steps:
        raise ValueError("targets")
    token, out = first_token, []
    for t in range(n_steps):
        scores, state = step(token, state)
        out.append(int(np.argmax(scores)))
        token = out[-1] if targets is None else targets[max(t - 1, 0)]
    return out


def test_decode_checker():
    assert check_decode(decode_ok).passed
    assert check_decode(stub).status == "not yet"
    for wrong in (decode_ignores_targets, decode_returns_targets, decode_off_by_one):
        result = check_decode(wrong)
        assert result.status == "wrong" and "teacher forcing" in result.message, wrong.__name__
    no_check = check_decode(
        lambda step, state, first, n, targets=None: (
            decode_ok(step, state, first, n, None)
            if targets is None
            else decode_ok(step, state, first, min(n, len(targets)), targets[:n])
        )
    )
    assert not no_check.passed


# --------------------------------------------------------------------------- bidirectional GRU (hard)
def _run(cell, x, reverse):
    B, T, _ = x.shape
    order = range(T - 1, -1, -1) if reverse else range(T)
    h, states = None, {}
    for t in order:
        h = cell(x[:, t], h)
        states[t] = h
    return torch.stack([states[t] for t in range(T)], dim=1)


def bi_gru_ok(x, fwd, bwd):
    with torch.no_grad():
        return torch.cat([_run(fwd, x, False), _run(bwd, x, True)], dim=-1)


def bi_gru_not_flipped_back(x, fwd, bwd):
    with torch.no_grad():
        back = _run(bwd, x, True).flip(1)
        return torch.cat([_run(fwd, x, False), back], dim=-1)


def bi_gru_forward_twice(x, fwd, bwd):
    with torch.no_grad():
        return torch.cat([_run(fwd, x, False), _run(fwd, x, False)], dim=-1)


def bi_gru_forward_only(x, fwd, bwd):
    with torch.no_grad():
        return _run(fwd, x, False)


def test_bi_gru_checker():
    # the reference is torch.nn.GRU(bidirectional=True) with the same weights (tolerance rtol 1e-4)
    assert check_bi_gru(bi_gru_ok).passed
    assert check_bi_gru(stub).status == "not yet"
    flipped = check_bi_gru(bi_gru_not_flipped_back)
    assert flipped.status == "wrong" and "reverse order" in flipped.message
    twice = check_bi_gru(bi_gru_forward_twice)
    assert twice.status == "wrong" and "bwd cell" in twice.message
    only = check_bi_gru(bi_gru_forward_only)
    assert only.status == "wrong" and "2H" in only.message


# --------------------------------------------------------------------------- parameter count
def rnn_params_ok(cell, d_in, hidden):
    blocks = {"rnn": 1, "gru": 3, "lstm": 4}
    if cell not in blocks:
        raise ValueError(f"unknown cell {cell!r}")
    if d_in < 1 or hidden < 1:
        raise ValueError("sizes must be at least 1")
    return blocks[cell] * (hidden * d_in + hidden * hidden + 2 * hidden)


def rnn_params_one_bias(cell, d_in, hidden):
    return rnn_params_ok(cell, d_in, hidden) - {"rnn": 1, "gru": 3, "lstm": 4}[cell] * hidden


def test_rnn_params_checker():
    assert check_rnn_params(rnn_params_ok).passed
    assert check_rnn_params(stub).status == "not yet"
    # by hand, independently of the checker's own formula: the LSTM of the statement has 144
    assert rnn_params_ok("lstm", 3, 4) == 144 == sum(p.numel() for p in torch.nn.LSTM(3, 4).parameters())
    assert "two, bias_ih and bias_hh" in check_rnn_params(rnn_params_one_bias).message


# --------------------------------------------------------------------------- Jordan network
def jordan_ok(x, W, U, b, V, c):
    y = np.zeros(V.shape[0])
    out = np.zeros((len(x), V.shape[0]))
    for t, x_t in enumerate(x):
        z = V @ np.tanh(W @ x_t + U @ y + b) + c
        y = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
        out[t] = y
    return out


def jordan_elman(x, W, U, b, V, c):
    h = np.zeros(W.shape[0])
    out = np.zeros((len(x), V.shape[0]))
    for t, x_t in enumerate(x):
        h = np.tanh(W @ x_t + U @ h + b)  # the hidden state fed back (needs K == H)
        z = V @ h + c
        out[t] = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
    return out


def test_jordan_checker_by_hand():
    # one unit, one output class would be trivial; two outputs, worked by hand:
    # y_0 = 0, h_1 = tanh(1 * 1 + 0) = 0.7616, y_1 = softmax([0.7616, -0.7616]) = 1 / (1 + e^-1.5232) = [0.8210, 0.1790]
    x = np.array([[1.0]])
    W, U, b = np.array([[1.0]]), np.array([[3.0, -3.0]]), np.array([0.0])
    V, c = np.array([[1.0], [-1.0]]), np.zeros(2)
    np.testing.assert_allclose(jordan_ok(x, W, U, b, V, c)[0], [0.8210, 0.1790], atol=1e-4)
    assert check_jordan_run(jordan_ok).passed
    assert check_jordan_run(stub).status == "not yet"
    assert "Elman" in check_jordan_run(jordan_elman).message
