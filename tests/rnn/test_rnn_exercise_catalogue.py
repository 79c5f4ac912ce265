"""Catalogue of the RNN chapter's exercises: requirements, correct answers in several styles (accepted)
and typical wrong answers (rejected with a hint naming the mistake).

* ``rnn_step``: tanh(W x + U h + b): W on the input, U on the state, b added; arguments unchanged.
* ``perplexity``: exp of the mean negative natural log (or 2 ** with log2: the same base); ValueError for an
  empty list and for p outside (0, 1].
* ``lstm_step``: sigmoid gates, tanh new memory, c_t = f c + i c~, h_t = o tanh(c_t); returns (h_t, c_t).
* ``clip_by_norm``: one joint norm over all arrays; unchanged below the threshold; ValueError for
  threshold <= 0; the given arrays unchanged.
* ``decode``: arg-max predictions; feeds predictions without targets and targets[t] with them; ValueError
  for a wrong number of targets.
* ``bi_gru``: forward states, then backward states read from the end and flipped back into place.
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
    clip_each_array,
    clip_no_check,
    clip_ok,
    decode_ignores_targets,
    decode_ok,
    decode_returns_targets,
    lstm_no_tanh_on_c,
    lstm_ok,
    lstm_tanh_gates,
    perplexity_no_checks,
    perplexity_ok,
    perplexity_two_to_the_nats,
    rnn_step_no_tanh,
    rnn_step_ok,
)


def rnn_step_loops(x, h, W, U, b):
    out = np.empty(len(b))
    for i in range(len(b)):
        out[i] = np.tanh(sum(W[i, j] * x[j] for j in range(len(x))) + sum(U[i, k] * h[k] for k in range(len(h))) + b[i])
    return out


def rnn_step_no_bias(x, h, W, U, b):
    return np.tanh(W @ x + U @ h)


def rnn_step_adds_in_place(x, h, W, U, b):
    h += W @ x + b  # reuses the caller's state array
    return np.tanh(U @ (h - W @ x - b) + W @ x + b)


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


def lstm_stacked(x, h, c, W, U, b):
    order = "ifco"
    z = np.concatenate([W[g] for g in order]) @ x + np.concatenate([U[g] for g in order]) @ h
    z = z + np.concatenate([b[g] for g in order])
    i, f, g, o = np.split(z, 4)
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    c_t = sig(f) * c + sig(i) * np.tanh(g)
    return sig(o) * np.tanh(c_t), c_t


def lstm_no_forget(x, h, c, W, U, b):
    h_t, c_t = lstm_ok(x, h, c, W, U, b)
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    f = sig(W["f"] @ x + U["f"] @ h + b["f"])
    c_new = c_t - f * c + c  # keeps all of c_{t-1}
    o = sig(W["o"] @ x + U["o"] @ h + b["o"])
    return o * np.tanh(c_new), c_new


def clip_loop(grads, threshold):
    if threshold <= 0:
        raise ValueError(f"threshold must be positive, got {threshold}")
    total = 0.0
    for g in grads:
        total += float((g**2).sum())
    norm = total**0.5
    scale = threshold / norm if norm > threshold else 1.0
    return [g * scale for g in grads]


def clip_in_place(grads, threshold):
    if threshold <= 0:
        raise ValueError("threshold")
    norm = np.sqrt(sum((g**2).sum() for g in grads))
    if norm > threshold:
        for g in grads:
            g *= threshold / norm
    return grads


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


CATALOGUE = {
    ex.check_rnn_step: Catalogue(
        correct=[rnn_step_ok, rnn_step_loops],
        wrong=[
            Wrong(rnn_step_no_tanh, "apply tanh"),
            Wrong(rnn_step_no_bias, "add b"),
            Wrong(rnn_step_adds_in_place, ("modified its input", "`h`")),
        ],
    ),
    ex.check_perplexity: Catalogue(
        correct=[perplexity_ok, perplexity_log2],
        wrong=[
            Wrong(perplexity_two_to_the_nats, "not 2**J"),
            Wrong(perplexity_no_checks, "ValueError"),
            Wrong(perplexity_allows_zero, ("perplexity([0.5, 0.0])", "ValueError")),
        ],
    ),
    ex.check_lstm_step: Catalogue(
        correct=[lstm_ok, lstm_stacked],
        wrong=[
            Wrong(lstm_no_tanh_on_c, "o ∘ tanh(c_t)"),
            Wrong(lstm_tanh_gates, "sigmoid gates"),
            Wrong(lstm_no_forget, "f ∘ c_{t-1}"),
        ],
    ),
    ex.check_clip_by_norm: Catalogue(
        correct=[clip_ok, clip_loop],
        wrong=[
            Wrong(clip_each_array, "ONE norm"),
            Wrong(clip_no_check, "positive"),
            Wrong(clip_in_place, ("modified its input", "`grads`")),
        ],
    ),
    ex.check_decode: Catalogue(
        correct=[decode_ok, decode_while],
        wrong=[
            Wrong(decode_ignores_targets, "feed targets[t]"),
            Wrong(decode_returns_targets, "return the model's predictions"),
            Wrong(decode_no_check, "len(targets) != n_steps"),
        ],
    ),
    ex.check_bi_gru: Catalogue(
        correct=[bi_gru_ok, bi_gru_reversed_loop],
        wrong=[
            Wrong(bi_gru_not_flipped_back, "reverse order"),
            Wrong(bi_gru_forward_twice, "bwd cell"),
            Wrong(bi_gru_forward_only, "concatenate the forward and backward states"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
