"""The checkers of the RNN chapter accept correct answers and reject the typical wrong ones."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from nlp_helpers.rnn.exercises import (
    check_bi_gru,
    check_clip_by_norm,
    check_decode,
    check_lstm_step,
    check_perplexity,
    check_rnn_step,
)
from tests.exercise_helpers import stub


# --------------------------------------------------------------------------- one RNN step
def rnn_step_ok(x, h, W, U, b):
    return np.tanh(W @ x + U @ h + b)


def rnn_step_no_tanh(x, h, W, U, b):
    return W @ x + U @ h + b


def rnn_step_swapped(x, h, W, U, b):
    return np.tanh(U @ x + W @ h + b)


def test_rnn_step_checker():
    assert check_rnn_step(rnn_step_ok).passed
    assert check_rnn_step(stub).status == "not yet"
    assert "tanh" in check_rnn_step(rnn_step_no_tanh).message
    swapped = check_rnn_step(rnn_step_swapped)
    assert swapped.status == "wrong" and "matmul" in swapped.message  # the shapes do not fit


# --------------------------------------------------------------------------- perplexity
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
    assert wrong_base.status == "wrong" and "2**J" in wrong_base.message
    assert "ValueError" in check_perplexity(perplexity_no_checks).message


# --------------------------------------------------------------------------- LSTM step
def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


def lstm_ok(x, h, c, W, U, b):
    g = {k: W[k] @ x + U[k] @ h + b[k] for k in "ifco"}
    c_new = _sigmoid(g["f"]) * c + _sigmoid(g["i"]) * np.tanh(g["c"])
    return _sigmoid(g["o"]) * np.tanh(c_new), c_new


def lstm_no_tanh_on_c(x, h, c, W, U, b):
    g = {k: W[k] @ x + U[k] @ h + b[k] for k in "ifco"}
    c_new = _sigmoid(g["f"]) * c + _sigmoid(g["i"]) * np.tanh(g["c"])
    return _sigmoid(g["o"]) * c_new, c_new


def lstm_tanh_gates(x, h, c, W, U, b):
    g = {k: W[k] @ x + U[k] @ h + b[k] for k in "ifco"}
    c_new = np.tanh(g["f"]) * c + np.tanh(g["i"]) * np.tanh(g["c"])
    return np.tanh(g["o"]) * np.tanh(c_new), c_new


def lstm_only_h(x, h, c, W, U, b):
    return lstm_ok(x, h, c, W, U, b)[0]


def test_lstm_checker():
    assert check_lstm_step(lstm_ok).passed
    assert check_lstm_step(stub).status == "not yet"
    assert "h_t = o ∘ tanh(c_t)" in check_lstm_step(lstm_no_tanh_on_c).message
    assert "sigmoid gates" in check_lstm_step(lstm_tanh_gates).message
    assert "pair (h_t, c_t)" in check_lstm_step(lstm_only_h).message


# --------------------------------------------------------------------------- clipping
def clip_ok(grads, threshold):
    if threshold <= 0:
        raise ValueError("threshold")
    norm = math.sqrt(sum(float(np.sum(g**2)) for g in grads))
    return [g * (threshold / norm) if norm > threshold else g for g in grads]


def clip_each_array(grads, threshold):
    if threshold <= 0:
        raise ValueError("threshold")
    return [g * min(1.0, threshold / np.linalg.norm(g)) for g in grads]


def clip_always(grads, threshold):
    if threshold <= 0:
        raise ValueError("threshold")
    norm = math.sqrt(sum(float(np.sum(g**2)) for g in grads))
    return [g * threshold / norm for g in grads]


def clip_no_check(grads, threshold):
    norm = math.sqrt(sum(float(np.sum(g**2)) for g in grads))
    return [g * min(1.0, threshold / norm) for g in grads]


def test_clip_checker():
    assert check_clip_by_norm(clip_ok).passed
    assert check_clip_by_norm(stub).status == "not yet"
    assert "ONE norm over all arrays" in check_clip_by_norm(clip_each_array).message
    assert "only when norm > threshold" in check_clip_by_norm(clip_always).message
    assert "threshold must be positive" in check_clip_by_norm(clip_no_check).message


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
