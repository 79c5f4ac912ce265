"""MBR scores and the bag-of-tokens F1 against hand-worked examples and against ``collections.Counter`` sums."""

from __future__ import annotations

import numpy as np
import pytest

from nlp_helpers.sampling.rerank import mbr_scores, unigram_f1


def test_unigram_f1_by_hand():
    # "the cat sat" vs "the cat the": overlap the, cat = 2 (clipped), 2 * 2 / (3 + 3)
    assert unigram_f1("the cat sat".split(), "the cat the".split()) == pytest.approx(4 / 6)
    assert unigram_f1(["a", "a"], ["a"]) == pytest.approx(2 * 1 / 3)  # clipped counts: one shared "a"
    assert unigram_f1([], []) == 1.0
    assert unigram_f1(["x"], []) == 0.0
    assert unigram_f1([1, 2], [2, 1]) == 1.0  # a bag: order does not matter


def test_mbr_scores_pick_the_consensus_by_hand():
    cands = [["a", "b"], ["a", "b"], ["c", "d"]]
    # candidate 0: (1 + 0) / 2; candidate 1 the same; candidate 2: (0 + 0) / 2
    np.testing.assert_allclose(mbr_scores(cands), [0.5, 0.5, 0.0])
    assert int(np.argmax(mbr_scores(cands))) == 0
    np.testing.assert_allclose(mbr_scores(cands, utility=lambda a, b: float(a == b)), [0.5, 0.5, 0.0])


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match="candidates"):
        mbr_scores([["a"]])
    with pytest.raises(TypeError, match="utility"):
        mbr_scores([["a"], ["b"]], utility=3)
    with pytest.raises(TypeError, match="not strings"):
        unigram_f1("abc", "abd")
