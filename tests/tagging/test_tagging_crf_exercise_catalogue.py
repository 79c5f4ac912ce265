"""Catalogue of the exercises of ``book/tagging/crf.ipynb`` added with its crf_exercises module.

* ``forward_by_hand`` (a value): alpha_2 sums over the previous tag (log-sum-exp, not max); it includes the
  second word's emission; T[i, j] goes from the previous tag i; log Z sums the last column; P(s_1 = A | w) is a
  probability from alpha_1 + beta_1 - log Z.
* ``crf_marginals(emissions, transitions, start, end)``: start and end scores in every path; log Z a float and the
  marginals as probabilities (not logs) of shape (n, K); path marginals, not a per-word softmax; finite for scores
  of a few hundred; inputs unchanged.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from nlp_helpers.tagging.crf_exercises import check_crf_marginals, check_forward_by_hand
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def _lse(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return (m + np.log(np.exp(x - m).sum(axis=axis, keepdims=True))).squeeze(axis)


def marg_forward_backward(E, T, start, end, use_start=True, use_end=True, logs=False):
    n, K = E.shape
    start = start if use_start else np.zeros(K)
    end = end if use_end else np.zeros(K)
    alpha, beta = np.zeros((n, K)), np.zeros((n, K))
    alpha[0] = start + E[0]
    for t in range(1, n):
        alpha[t] = _lse(alpha[t - 1][:, None] + T, 0) + E[t]
    beta[-1] = end
    for t in range(n - 2, -1, -1):
        beta[t] = _lse(T + E[t + 1] + beta[t + 1], 1)
    log_z = float(_lse(alpha[-1] + end, 0))
    return log_z, (alpha + beta - log_z) if logs else np.exp(alpha + beta - log_z)


def marg_brute(E, T, start, end):
    n, K = E.shape
    paths = list(itertools.product(range(K), repeat=n))
    scores = np.array(
        [start[p[0]] + end[p[-1]] + E[range(n), p].sum() + sum(T[a, b] for a, b in zip(p, p[1:])) for p in paths]
    )
    log_z = float(_lse(scores, 0))
    marg = np.zeros((n, K))
    for p, s in zip(paths, scores):
        marg[range(n), p] += np.exp(s - log_z)
    return log_z, marg


def marg_local_softmax(E, T, start, end):
    log_z, _ = marg_forward_backward(E, T, start, end)
    return log_z, np.exp(E - _lse(E, 1)[:, None])


def marg_naive_exp(E, T, start, end):  # probabilities, not logs: overflows for large scores
    n, K = E.shape
    with np.errstate(over="ignore", invalid="ignore"):
        a = np.exp(start + E[0])
        for t in range(1, n):
            a = (a @ np.exp(T)) * np.exp(E[t])
    log_z, marg = marg_forward_backward(E, T, start, end)
    return float(np.log((a * np.exp(end)).sum())), marg * np.nan if not np.isfinite(a).all() else marg


CATALOGUE = {
    check_crf_marginals: Catalogue(
        correct=[marg_forward_backward, marg_brute],
        wrong=[
            Wrong(lambda *a: marg_forward_backward(*a, use_start=False), "start scores"),
            Wrong(lambda *a: marg_forward_backward(*a, use_end=False), "end scores"),
            Wrong(lambda *a: marg_forward_backward(*a, logs=True), "not log probabilities"),
            Wrong(marg_local_softmax, "ignores the transitions"),
            Wrong(marg_naive_exp, "log-sum-exp"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)

RIGHT = {
    "alpha2_A": 1 + math.log(2),
    "alpha2_B": 2 + math.log(2),
    "log_z": math.log(2 * (math.e + math.e**2)),
    "p1_A": 0.5,
}


def test_forward_by_hand_accepts_the_right_values_in_two_styles() -> None:
    assert check_forward_by_hand(RIGHT).status == "correct"
    rounded = {k: round(v, 3) for k, v in RIGHT.items()}
    assert check_forward_by_hand(rounded).status == "correct"


def test_forward_by_hand_names_each_typical_mistake() -> None:
    for wrong, words in [
        ({**RIGHT, "alpha2_A": 1.0, "alpha2_B": 2.0}, "Viterbi"),
        ({**RIGHT, "alpha2_B": math.log(2)}, "left it out"),
        (
            {**RIGHT, "alpha2_A": math.log(math.e + 1 / math.e), "alpha2_B": 2 + math.log(math.e**2 + 1) - 2 + 2},
            "row i",
        ),
        ({**RIGHT, "log_z": 2 + math.log(2)}, "summed"),
        ({**RIGHT, "p1_A": math.log(0.5)}, "probability between 0 and 1"),
        ({k: v for k, v in RIGHT.items() if k != "p1_A"}, "missing"),
    ]:
        result = check_forward_by_hand(wrong)
        assert result.status == "wrong" and words in result.message, (words, result.message)
