"""The bias measures of ``nlp_helpers.word2vec.bias`` against hand-worked examples."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nlp_helpers.word2vec.bias import association, bias_direction, in_vocabulary, projections, weat, weat_effect_size
from nlp_helpers.word2vec.evaluation import WordVectors

# A (a) = east, B (b) = north; X = {east, (3, 4)}, Y = {north, (4, 3)} in two dimensions.
# By hand: s(x) = cos(x, a) - cos(x, b): X -> 1, 0.6 - 0.8 = -0.2; Y -> -1, 0.8 - 0.6 = 0.2.
TOY = WordVectors(
    ["x1", "x2", "y1", "y2", "a", "b"],
    np.array([[1, 0], [3, 4], [0, 1], [4, 3], [2, 0], [0, 5]], dtype=float),
)


def test_association_by_hand():
    s = association(TOY.vectors[:4], TOY.vectors[[4]], TOY.vectors[[5]])
    np.testing.assert_allclose(s, [1.0, -0.2, -1.0, 0.2], atol=1e-7)


def test_effect_size_by_hand():
    # mean_x s - mean_y s = 0.4 - (-0.4) = 0.8; s over X ∪ Y has mean 0 and sample variance 2.08 / 3
    expected = 0.8 / math.sqrt(2.08 / 3)
    got = weat_effect_size(TOY.vectors[:2], TOY.vectors[2:4], TOY.vectors[[4]], TOY.vectors[[5]])
    assert got == pytest.approx(expected, abs=1e-6)


def test_weat_by_hand():
    # The 6 splits of {1, -0.2, -1, 0.2} into two pairs have statistics 1.6, 0, 2.4, -2.4, 0, -1.6:
    # two are >= the observed 1.6, so p = 2/6.
    r = weat(TOY, ["x1", "x2"], ["y1", "y2"], ["a", "a"], ["b", "b"])
    assert r["statistic"] == pytest.approx(1.6, abs=1e-6)
    assert r["effect_size"] == pytest.approx(0.8 / math.sqrt(2.08 / 3), abs=1e-6)
    assert r["p_value"] == pytest.approx(1 / 3, abs=1e-12)


def test_weat_sampled_p_value_agrees_with_exact():
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(20)]
    wv = WordVectors(words, rng.normal(size=(20, 6)) + np.r_[1.0, np.zeros(5)])
    x, y, a, b = words[:6], words[6:12], words[12:16], words[16:]
    exact = weat(wv, x, y, a, b, n_permutations=10_000)  # C(12, 6) = 924 splits: enumerated
    sampled = weat(wv, x, y, a, b, n_permutations=500, seed=3)  # 500 < 924: sampled
    assert exact["effect_size"] == sampled["effect_size"]
    # binomial sd of a sampled p with 500 draws is at most 0.023
    assert abs(exact["p_value"] - sampled["p_value"]) < 0.07


def test_weat_swapping_targets_flips_the_sign():
    r1 = weat(TOY, ["x1", "x2"], ["y1", "y2"], ["a"] * 2, ["b"] * 2)
    r2 = weat(TOY, ["y1", "y2"], ["x1", "x2"], ["a"] * 2, ["b"] * 2)
    assert r2["effect_size"] == pytest.approx(-r1["effect_size"])


def test_weat_drops_and_reports_unknown_words():
    r = weat(TOY, ["x1", "x2", "zebra"], ["y1", "y2"], ["a", "a"], ["b", "b", "ghost"])
    assert r["dropped"] == {"x": ["zebra"], "y": [], "a": [], "b": ["ghost"]}
    assert r["words"]["x"] == ["x1", "x2"]
    assert r["p_value"] == pytest.approx(1 / 3)


def test_bias_direction_by_hand():
    wv = WordVectors(
        ["he", "she", "man", "woman", "nurse"], np.array([[1, 0, 0], [0, 1, 0], [2, 0, 0], [0, 0, 3], [0, 1, 0]])
    )
    g, dropped = bias_direction(wv, [("he", "she"), ("man", "woman"), ("king", "queen")])
    # unit differences (1, -1, 0) and (1, 0, -1); mean (1, -0.5, -0.5), length sqrt(1.5)
    np.testing.assert_allclose(g, np.array([1, -0.5, -0.5]) / math.sqrt(1.5), atol=1e-7)
    assert dropped == [("king", "queen")]
    p = projections(wv, ["nurse", "he", "pilot"], g)
    assert list(p.index) == ["nurse", "he"]
    np.testing.assert_allclose(p.values, [-0.5 / math.sqrt(1.5), 1 / math.sqrt(1.5)], atol=1e-7)


def test_in_vocabulary_keeps_order():
    assert in_vocabulary(TOY, ["b", "zz", "a"]) == (["b", "a"], ["zz"])


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: weat(TOY, ["x1"], ["y1", "y2"], ["a", "a"], ["b", "b"]), ValueError, "x: at least two"),
        (
            lambda: weat(TOY, ["x1", "x2"], ["y1", "y2"], ["a", "a"], ["b", "b"], n_permutations=0),
            ValueError,
            "n_permutations",
        ),
        (lambda: weat(TOY, "x1", ["y1", "y2"], ["a", "a"], ["b", "b"]), TypeError, "x must be a sequence"),
        (lambda: weat([1, 2], ["x1"], ["y1"], ["a"], ["b"]), TypeError, "wv must be"),
        (lambda: bias_direction(TOY, [("ghost", "a")]), ValueError, "no pair has both words"),
        (lambda: bias_direction(TOY, [("a", "a")]), ValueError, "cancel out"),
        (lambda: bias_direction(TOY, ["ab"]), TypeError, r"pairs\[0\] must be a pair"),
        (lambda: bias_direction(TOY, []), ValueError, "pairs must not be empty"),
        (lambda: projections(TOY, ["a"], np.zeros(2)), ValueError, "zero vector"),
        (lambda: projections(TOY, ["a"], np.ones(3)), ValueError, "direction must have shape"),
        (lambda: projections(TOY, ["ghost"], np.ones(2)), ValueError, "none of them"),
        (
            lambda: association(np.zeros((1, 2)), np.ones((1, 2)), np.ones((1, 2))),
            ValueError,
            "targets contains a zero",
        ),
        (lambda: association(np.ones((1, 2)), np.ones((1, 3)), np.ones((1, 2))), ValueError, "same width"),
        (
            lambda: weat_effect_size(np.ones((1, 2)), np.ones((1, 2)), np.ones((1, 2)), np.ones((1, 2))),
            ValueError,
            "at least three",
        ),
    ],
)
def test_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()
