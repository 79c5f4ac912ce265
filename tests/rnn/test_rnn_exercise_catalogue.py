"""Catalogue of the RNN chapter's exercises: requirements, correct answers in several styles (accepted)
and typical wrong answers (rejected with a hint naming the mistake).

* ``rnn_params``: an int; per gate block W (hidden x d_in), U (hidden x hidden) and two biases; 1/3/4 blocks
  for rnn/gru/lstm; ValueError for an unknown cell and for sizes below 1.
* ``jordan_run``: h_t = tanh(W x_t + U y_{t-1} + b), y_t = softmax(V h_t + c) from y_0 = 0 (not uniform); the
  previous output is fed back (not the hidden state); shape (T, K), rows sum to 1; stable softmax for huge
  scores; shape (0, K) for T = 0; arguments unchanged.
* ``perplexity``: exp of the mean negative natural log (or 2 ** with log2: the same base); ValueError for an
  empty list and for p outside (0, 1].
* ``decode``: arg-max predictions; feeds predictions without targets and targets[t] with them; ValueError
  for a wrong number of targets (fewer or more); targets unchanged.
* ``bi_gru``: forward states, then backward states (in that order) read from the end and flipped back into place;
  sequences of length 1.
"""

from __future__ import annotations

import numpy as np
import torch

from nlp_helpers.rnn import exercises as ex
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test
from tests.rnn.test_rnn_exercises import (
    bi_gru_forward_only,
    bi_gru_forward_twice,
    bi_gru_not_flipped_back,
    bi_gru_ok,
    decode_ignores_targets,
    decode_ok,
    decode_returns_targets,
    jordan_elman,
    jordan_ok,
    perplexity_no_checks,
    perplexity_ok,
    perplexity_two_to_the_nats,
    rnn_params_ok,
    rnn_params_one_bias,
)


def perplexity_log2(probs):
    p = np.asarray(probs, dtype=float)
    if p.size == 0 or np.any(p <= 0) or np.any(p > 1):
        raise ValueError("probabilities must be in (0, 1] and non-empty")
    return float(2 ** (-np.mean(np.log2(p))))


def perplexity_allows_zero(probs):
    p = np.asarray(probs, dtype=float)
    if p.size == 0:
        raise ValueError("empty")
    with np.errstate(divide="ignore"):
        return float(np.exp(-np.mean(np.log(p))))


def rnn_params_table(cell, d_in, hidden):
    if not isinstance(cell, str) or cell.lower() not in ("rnn", "gru", "lstm") or cell != cell.lower():
        raise ValueError("cell must be 'rnn', 'gru' or 'lstm'")
    if min(d_in, hidden) < 1:
        raise ValueError("d_in and hidden must be positive")
    n_blocks = 1 if cell == "rnn" else 3 if cell == "gru" else 4
    weights = n_blocks * hidden * (d_in + hidden)
    biases = n_blocks * 2 * hidden
    return int(weights + biases)


def rnn_params_no_bias(cell, d_in, hidden):
    return rnn_params_ok(cell, d_in, hidden) - 2 * {"rnn": 1, "gru": 3, "lstm": 4}[cell] * hidden


def rnn_params_lstm_three(cell, d_in, hidden):
    n = rnn_params_ok(cell, d_in, hidden)
    return n * 3 // 4 if cell == "lstm" else n


def rnn_params_no_u(cell, d_in, hidden):
    return rnn_params_ok(cell, d_in, hidden) - {"rnn": 1, "gru": 3, "lstm": 4}[cell] * hidden * hidden


def rnn_params_no_checks(cell, d_in, hidden):
    blocks = {"rnn": 1, "gru": 3, "lstm": 4}.get(cell, 1)
    return blocks * (hidden * d_in + hidden * hidden + 2 * hidden)


def rnn_params_size_unchecked(cell, d_in, hidden):
    blocks = {"rnn": 1, "gru": 3, "lstm": 4}[cell]  # KeyError, not ValueError, would also be wrong
    return blocks * (hidden * d_in + hidden * hidden + 2 * hidden)


def _softmax_rows(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def jordan_vectorised_inputs(x, W, U, b, V, c):
    T, K = x.shape[0], V.shape[0]
    pre = x @ W.T + b  # every W x_t + b at once
    ys, y = [], np.zeros(K)
    for t in range(T):
        y = _softmax_rows(V @ np.tanh(pre[t] + U @ y) + c)
        ys.append(y)
    return np.array(ys).reshape(T, K)


def jordan_uniform_start(x, W, U, b, V, c):
    K = V.shape[0]
    y, out = np.full(K, 1.0 / K), np.zeros((len(x), K))
    for t, x_t in enumerate(x):
        y = _softmax_rows(V @ np.tanh(W @ x_t + U @ y + b) + c)
        out[t] = y
    return out


def jordan_no_feedback(x, W, U, b, V, c):
    return np.array([_softmax_rows(V @ np.tanh(W @ x_t + b) + c) for x_t in x]).reshape(len(x), V.shape[0])


def jordan_naive_softmax(x, W, U, b, V, c):
    y, out = np.zeros(V.shape[0]), np.zeros((len(x), V.shape[0]))
    for t, x_t in enumerate(x):
        with np.errstate(over="ignore", invalid="ignore"):
            e = np.exp(V @ np.tanh(W @ x_t + U @ y + b) + c)
            y = e / e.sum()
        out[t] = y
    return out


def jordan_no_softmax(x, W, U, b, V, c):
    y, out = np.zeros(V.shape[0]), np.zeros((len(x), V.shape[0]))
    for t, x_t in enumerate(x):
        y = V @ np.tanh(W @ x_t + U @ y + b) + c
        out[t] = y
    return out


def jordan_empty_list(x, W, U, b, V, c):
    if len(x) == 0:
        return []
    return jordan_ok(x, W, U, b, V, c)


def jordan_mutates(x, W, U, b, V, c):
    c -= c.max()  # "stabilises" the caller's bias in place
    return jordan_ok(x, W, U, b, V, c)


def decode_while(step, state, first_token, n_steps, targets=None):
    if targets is not None and len(targets) != n_steps:
        raise ValueError(f"need {n_steps} targets, got {len(targets)}")
    preds, token = [], first_token
    while len(preds) < n_steps:
        scores, state = step(token, state)
        preds.append(int(np.argmax(scores)))
        token = preds[-1] if targets is None else targets[len(preds) - 1]
    return preds


def decode_no_check(step, state, first_token, n_steps, targets=None):
    preds, token = [], first_token
    for t in range(n_steps):
        scores, state = step(token, state)
        preds.append(int(np.argmax(scores)))
        token = targets[t] if targets is not None and t < len(targets) else preds[-1]
    return preds


def bi_gru_reversed_loop(x, fwd, bwd):
    B, T, _ = x.shape
    h_f, h_b, outs_f, outs_b = None, None, [], [None] * T
    for t in range(T):
        h_f = fwd(x[:, t], h_f)
        outs_f.append(h_f)
    for t in reversed(range(T)):
        h_b = bwd(x[:, t], h_b)
        outs_b[t] = h_b
    return torch.stack([torch.cat([f, b], -1) for f, b in zip(outs_f, outs_b)], 1)


# ----- requirements the first catalogue missed: more targets than steps, d_in = 0, an int, the product of
# probabilities (underflows), probabilities above 1, the sign of the exponent
def decode_accepts_more_targets(step, state, first_token, n_steps, targets=None):
    if targets is not None and len(targets) < n_steps:
        raise ValueError("targets: fewer than n_steps")
    return decode_ok(step, state, first_token, n_steps, None if targets is None else targets[:n_steps])


def rnn_params_checks_hidden_only(cell, d_in, hidden):
    if hidden < 1:
        raise ValueError("hidden must be at least 1")
    return rnn_params_ok(cell, max(d_in, 1), hidden)


def rnn_params_float(cell, d_in, hidden):
    return float(rnn_params_ok(cell, d_in, hidden))


def perplexity_product(probs):
    probs = np.asarray(probs, dtype=float)
    if probs.size == 0 or np.any((probs <= 0) | (probs > 1)):
        raise ValueError("probs: need probabilities in (0, 1]")
    with np.errstate(divide="ignore", over="ignore"):
        return float(np.prod(probs) ** (-1 / probs.size))


def perplexity_no_upper_bound(probs):
    probs = np.asarray(probs, dtype=float)
    if probs.size == 0 or np.any(probs <= 0):
        raise ValueError("probs: need positive probabilities")
    return float(np.exp(-np.mean(np.log(probs))))


def perplexity_no_minus(probs):
    probs = np.asarray(probs, dtype=float)
    if probs.size == 0 or np.any((probs <= 0) | (probs > 1)):
        raise ValueError("probs: need probabilities in (0, 1]")
    return float(np.exp(np.mean(np.log(probs))))


# ----- second pass over the statements: each stated requirement broken alone
def bi_gru_backward_first(x, fwd, bwd):  # "[forward ; backward]": the halves the other way round
    both = bi_gru_ok(x, fwd, bwd)
    H = both.shape[-1] // 2
    return torch.cat([both[..., H:], both[..., :H]], dim=-1)


def decode_pops_targets(step, state, first_token, n_steps, targets=None):  # empties the caller's targets list
    if targets is not None and len(targets) != n_steps:
        raise ValueError("targets")
    token, out = first_token, []
    for _ in range(n_steps):
        scores, state = step(token, state)
        out.append(int(np.argmax(scores)))
        token = out[-1] if targets is None else targets.pop(0)
    return out


CATALOGUE = {
    ex.check_rnn_params: Catalogue(
        correct=[rnn_params_ok, rnn_params_table],
        wrong=[
            Wrong(rnn_params_one_bias, "two, bias_ih and bias_hh"),
            Wrong(rnn_params_no_bias, "left out the biases"),
            Wrong(rnn_params_lstm_three, "four blocks"),
            Wrong(rnn_params_no_u, "recurrent matrix U"),
            Wrong(rnn_params_no_checks, "'rnn', 'gru' or 'lstm'"),
            Wrong(rnn_params_size_unchecked, "'rnn', 'gru' or 'lstm'"),
            Wrong(rnn_params_checks_hidden_only, "d_in below 1"),
            Wrong(rnn_params_float, "should return an int"),
        ],
    ),
    ex.check_jordan_run: Catalogue(
        correct=[jordan_ok, jordan_vectorised_inputs],
        wrong=[
            Wrong(jordan_uniform_start, "y_0 = 0"),
            Wrong(jordan_no_feedback, "feed y_{t-1} back"),
            Wrong(jordan_elman, "Elman"),
            Wrong(jordan_naive_softmax, "subtract the largest score"),
            Wrong(jordan_no_softmax, "summing to 1"),
            Wrong(jordan_empty_list, "(0, K)"),
            Wrong(jordan_mutates, "modified its input"),
        ],
    ),
    ex.check_perplexity: Catalogue(
        correct=[perplexity_ok, perplexity_log2],
        wrong=[
            Wrong(perplexity_two_to_the_nats, "different bases"),
            Wrong(perplexity_no_checks, "ValueError"),
            Wrong(perplexity_allows_zero, ("perplexity([0.5, 0.0])", "ValueError")),
            Wrong(perplexity_product, ("underflows", "logarithms")),
            Wrong(perplexity_no_upper_bound, ("perplexity([0.5, 1.5])", "not a probability")),
            Wrong(perplexity_no_minus, ("never below 1", "sign of the exponent")),
        ],
    ),
    ex.check_decode: Catalogue(
        correct=[decode_ok, decode_while],
        wrong=[
            Wrong(decode_ignores_targets, "feed targets[t]"),
            Wrong(decode_returns_targets, "return the model's predictions"),
            Wrong(decode_no_check, "one target per step"),
            Wrong(decode_accepts_more_targets, "more targets than steps"),
            Wrong(decode_pops_targets, ("modified its input", "`targets`")),
        ],
    ),
    ex.check_bi_gru: Catalogue(
        correct=[bi_gru_ok, bi_gru_reversed_loop],
        wrong=[
            Wrong(bi_gru_not_flipped_back, "reverse order"),
            Wrong(bi_gru_forward_twice, "bwd cell"),
            Wrong(bi_gru_forward_only, "concatenate the forward and backward states"),
            Wrong(bi_gru_backward_first, "forward states first"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
