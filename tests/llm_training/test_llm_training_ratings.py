"""Tests of nlp_helpers.llm_training.ratings (Elo, Bradley–Terry) and the intervals of nlp_helpers.llm_training.evaluation.

References: hand-worked Elo updates; the Bradley–Terry likelihood maximised by scikit-learn's unpenalised
logistic regression on ±1 indicator rows (the same model: logit P(i beats j) = s_i - s_j) and the closed
form of two systems; scipy's Wilson interval (``binomtest(...).proportion_ci(method="wilson")``); the
exact bootstrap distribution of a tiny sample, enumerated.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.stats import binomtest
from sklearn.linear_model import LogisticRegression

from nlp_helpers.llm_training import evaluation as ev
from nlp_helpers.llm_training import ratings as rt


# ------------------------------------------------------------------------ Elo
def test_elo_one_battle_by_hand():
    # equal ratings: expected score 0.5, the winner gains K * 0.5 = 16
    r = rt.elo_ratings([("a", "b", 1.0)], k=32, initial=1000)
    assert r == {"a": 1016.0, "b": 984.0}


def test_elo_two_battles_by_hand():
    # second battle: b (984) beats a (1016); E_b = 1 / (1 + 10^0.08) = 1 / 2.20226 = 0.45408, b gains 32 * 0.54592
    r = rt.elo_ratings([("a", "b", 1.0), ("a", "b", 0.0)], k=32, initial=1000)
    e_b = 1 / (1 + 10 ** (32 / 400))
    assert r["b"] == pytest.approx(984 + 32 * (1 - e_b), abs=1e-12)
    assert r["b"] == pytest.approx(1001.4695, abs=1e-4)
    assert r["a"] + r["b"] == pytest.approx(2000)


def test_elo_tie_between_unequal_ratings_moves_them_together():
    r = rt.elo_ratings([("a", "b", 1.0), ("a", "b", 0.5)], k=32)
    assert r["a"] < 1016 and r["b"] > 984


def test_elo_depends_on_the_order_of_battles():
    battles = [("a", "b", 1.0), ("a", "b", 0.0)]
    assert rt.elo_ratings(battles)["a"] != rt.elo_ratings(battles[::-1])["a"]


# ------------------------------------------------------------------------ Bradley–Terry
def test_win_matrix_counts_wins_and_half_ties():
    names, w = rt.win_matrix([("x", "y", 1.0), ("y", "x", 1.0), ("x", "z", 0.5), ("x", "y", 1.0)])
    assert names == ["x", "y", "z"]
    np.testing.assert_array_equal(w, [[0, 2, 0.5], [1, 0, 0], [0.5, 0, 0]])


def test_bradley_terry_two_systems_closed_form():
    # p_a / p_b = w_ab / w_ba = 3, so the rating gap is 400 * log10(3)
    r = rt.bradley_terry(np.array([[0.0, 3.0], [1.0, 0.0]]))
    assert r[0] - r[1] == pytest.approx(400 * np.log10(3), abs=1e-8)
    assert r.mean() == pytest.approx(1000)


def test_bradley_terry_equals_unpenalised_logistic_regression():
    wins = np.array([[0, 7, 5, 9], [3, 0, 6, 4], [5, 4, 0, 8], [1, 6, 2, 0]], dtype=float)
    rows, ys, weights = [], [], []
    for i, j in itertools.permutations(range(4), 2):
        x = np.zeros(4)
        x[i], x[j] = 1, -1
        rows.append(x)
        ys.append(1)
        weights.append(wins[i, j])
        rows.append(x)
        ys.append(0)
        weights.append(wins[j, i])
    clf = LogisticRegression(C=np.inf, fit_intercept=False, tol=1e-12, max_iter=10_000)
    clf.fit(np.array(rows), ys, sample_weight=weights)
    s = clf.coef_[0]
    want = 1000 + 400 * (s - s.mean()) / np.log(10)
    np.testing.assert_allclose(rt.bradley_terry(wins), want, atol=1e-3)


def test_bradley_terry_ignores_order_and_ranks_by_strength():
    battles = [("a", "b", 1.0)] * 6 + [("b", "a", 1.0)] * 2 + [("b", "c", 1.0)] * 5 + [("c", "b", 1.0)] * 3
    battles += [("a", "c", 1.0)] * 4 + [("c", "a", 1.0)]
    names, w = rt.win_matrix(battles)
    r = rt.bradley_terry(w)
    assert names == ["a", "b", "c"] and r[0] > r[1] > r[2]
    _, w_rev = rt.win_matrix(battles[::-1])
    np.testing.assert_allclose(rt.bradley_terry(w_rev), r)


# ------------------------------------------------------------------------ intervals
@pytest.mark.parametrize(
    ("k", "n", "level"), [(7, 20, 0.95), (0, 10, 0.95), (10, 10, 0.9), (38, 60, 0.99), (1, 1, 0.95)]
)
def test_wilson_equals_scipy(k, n, level):
    want = binomtest(k, n).proportion_ci(confidence_level=level, method="wilson")
    np.testing.assert_allclose(ev.wilson_interval(k, n, level), (want.low, want.high), atol=1e-12)


def test_bootstrap_matches_the_exact_bootstrap_distribution():
    values = np.array([0.0, 1.0, 1.0])
    # all 27 equally likely resamples: the mean is 0, 1/3, 2/3 or 1 with probabilities 1, 6, 12, 8 (/27)
    means = [np.mean(c) for c in itertools.product(values, repeat=3)]
    exact = np.quantile(means, [0.1, 0.9])
    got = ev.bootstrap_interval(values, np.random.default_rng(0), n_resamples=20_000, level=0.8)
    np.testing.assert_allclose(got, exact)


def test_bootstrap_of_an_accuracy_is_close_to_wilson():
    correct = np.array([1] * 30 + [0] * 20, dtype=float)
    boot = ev.bootstrap_interval(correct, np.random.default_rng(1), n_resamples=4000)
    wil = ev.wilson_interval(30, 50)
    np.testing.assert_allclose(boot, wil, atol=0.03)


def test_pick_option_normalisations():
    ll, tok = [-4.0, -9.0], [1, 6]
    assert ev.pick_option(ll) == 0
    assert ev.pick_option(ll, tok, "tokens") == 1  # -4 per token against -1.5
    assert ev.pick_option([-2.0, -2.0]) == 0  # ties go to the first


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (lambda: rt.elo_ratings([]), ValueError, "battles must not be empty"),
        (lambda: rt.elo_ratings([("a", "a", 1.0)]), ValueError, "against itself"),
        (lambda: rt.elo_ratings([("a", "b", 0.3)]), ValueError, r"battles\[0\]\[2\]"),
        (lambda: rt.elo_ratings([("a", "b")]), TypeError, r"battles\[0\]"),
        (lambda: rt.elo_ratings([("a", "b", 1.0)], k=0), ValueError, "k must be > 0"),
        (lambda: rt.bradley_terry(np.zeros((2, 3))), ValueError, "wins must be a square"),
        (lambda: rt.bradley_terry(np.array([[0.0, 2.0], [0.0, 0.0]])), ValueError, "won and lost"),
        (lambda: rt.bradley_terry(np.array([[1.0, 2.0], [1.0, 0.0]])), ValueError, "zero diagonal"),
        (lambda: ev.wilson_interval(5, 4), ValueError, "successes must be <= 4"),
        (lambda: ev.wilson_interval(1, 4, level=1.0), ValueError, "level must be < 1"),
        (lambda: ev.bootstrap_interval([], np.random.default_rng(0)), ValueError, "values must not be empty"),
        (lambda: ev.bootstrap_interval([1.0], 0), TypeError, "rng must be a numpy Generator"),
        (lambda: ev.pick_option([-1.0, -2.0], None, "tokens"), ValueError, "lengths is needed"),
        (lambda: ev.pick_option([-1.0, -2.0], [1, 0], "chars"), ValueError, "lengths must all be > 0"),
        (lambda: ev.pick_option([-1.0], normalise="bytes"), ValueError, "normalise must be one of"),
    ],
)
def test_bad_inputs_name_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
