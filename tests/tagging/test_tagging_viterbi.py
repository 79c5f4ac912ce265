"""Viterbi against brute-force enumeration of every path, and its input checks."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from nlp_helpers.tagging.viterbi import viterbi, viterbi_trellis


def _path_score(log_start, log_trans, log_em, path):
    score = log_start[path[0]] + log_em[0, path[0]]
    for t in range(1, len(path)):
        score += log_trans[path[t - 1], path[t]] + log_em[t, path[t]]
    return score


def _brute_force(log_start, log_trans, log_em):
    T, K = log_em.shape
    scored = [(_path_score(log_start, log_trans, log_em, p), p) for p in itertools.product(range(K), repeat=T)]
    return max(scored, key=lambda sp: sp[0])


@pytest.mark.parametrize("seed", range(30))
def test_viterbi_equals_brute_force_on_random_problems(seed):
    rng = np.random.default_rng(seed)
    T, K = rng.integers(1, 6), rng.integers(1, 5)
    log_start, log_trans, log_em = rng.normal(size=K), rng.normal(size=(K, K)), rng.normal(size=(T, K))
    best_score, best_path = _brute_force(log_start, log_trans, log_em)
    path, score = viterbi(log_start, log_trans, log_em)
    assert path == list(best_path)
    assert score == pytest.approx(best_score, rel=1e-12, abs=1e-12)
    v, back = viterbi_trellis(log_start, log_trans, log_em)
    assert v.shape == (T, K) and back.shape == (T, K) and (back[0] == -1).all()
    assert v[-1].max() == pytest.approx(best_score)


def test_viterbi_on_normalised_hmm_probabilities_with_impossible_transitions():
    # Hand-worked: tags N(oun), V(erb); "fish swim". P(start) = (.8, .2); N->N .1, N->V .9, V->N .8, V->V .2
    # P(fish|N) = .6, P(fish|V) = .4, P(swim|N) = .1, P(swim|V) = .9.
    # Paths: NN .8*.6*.1*.1 = .0048; NV .8*.6*.9*.9 = .3888; VN .2*.4*.8*.1 = .0064; VV .2*.4*.2*.9 = .0144
    start, trans = np.log([0.8, 0.2]), np.log([[0.1, 0.9], [0.8, 0.2]])
    em = np.log([[0.6, 0.4], [0.1, 0.9]])
    path, score = viterbi(start, trans, em)
    assert path == [0, 1] and np.exp(score) == pytest.approx(0.3888)
    with np.errstate(divide="ignore"):
        trans0 = np.log([[0.0, 1.0], [1.0, 0.0]])  # -inf entries are legal
    assert viterbi(start, trans0, em)[0] == [0, 1]


def test_viterbi_rejects_bad_input_naming_the_argument():
    with pytest.raises(ValueError, match="log_trans"):
        viterbi(np.zeros(3), np.zeros((2, 2)), np.zeros((4, 3)))
    with pytest.raises(ValueError, match="log_start"):
        viterbi(np.zeros(2), np.zeros((3, 3)), np.zeros((4, 3)))
    with pytest.raises(ValueError, match="log_emissions"):
        viterbi(np.zeros(3), np.zeros((3, 3)), np.zeros(3))
    with pytest.raises(ValueError, match="log_emissions"):
        viterbi(np.zeros(3), np.zeros((3, 3)), np.zeros((0, 3)))
    with pytest.raises(ValueError, match="log_trans"):
        viterbi(np.zeros(2), np.array([[0.0, np.nan], [0.0, 0.0]]), np.zeros((2, 2)))
    with pytest.raises(TypeError, match="log_start"):
        viterbi(["a", "b"], np.zeros((2, 2)), np.zeros((2, 2)))
