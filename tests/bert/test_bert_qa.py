"""Extractive QA span selection (nlp_helpers.bert.qa.best_span).

References: a brute-force double loop over all spans (the definition), on random logits, and a
hand-worked example where the best start and the best end taken separately form no valid span.
"""

from __future__ import annotations

import numpy as np
import pytest

from nlp_helpers.bert.qa import best_span


def brute_force(s, e, max_len, ok):
    best, arg = -np.inf, None
    for i in range(len(s)):
        for j in range(i, min(len(s), i + max_len)):
            if ok[i] and ok[j] and s[i] + e[j] > best:
                best, arg = s[i] + e[j], (i, j)
    return arg


def test_hand_worked_end_before_start():
    # argmax(start) = 3 and argmax(end) = 0 would be a backwards span; the best valid one is (3, 3).
    assert best_span(np.array([0.0, 0.0, 0.0, 9.0]), np.array([9.0, 0.0, 1.0, 0.5])) == (3, 3)
    # [CLS] at 0 is not allowed: the answer must come from positions 1..4.
    allowed = np.array([False, True, True, True, True])
    start, end = np.array([5.0, 0.0, 3.0, 1.0, 0.0]), np.array([5.0, 0.0, 0.5, 2.0, 9.0])
    assert best_span(start, end, 5, allowed) == (2, 4)
    assert best_span(start, end, 2, allowed) == (3, 4)


@pytest.mark.parametrize("seed", range(20))
def test_equals_brute_force(seed):
    rng = np.random.default_rng(seed)
    T = int(rng.integers(1, 25))
    s, e = rng.normal(size=T), rng.normal(size=T)
    ok = rng.random(T) < 0.7
    ok[rng.integers(T)] = True
    max_len = int(rng.integers(1, 8))
    assert best_span(s, e, max_len, ok) == brute_force(s, e, max_len, ok)


def test_bad_inputs_name_the_argument():
    with pytest.raises(ValueError, match="end_logits"):
        best_span(np.zeros(3), np.zeros(4))
    with pytest.raises((TypeError, ValueError), match="start_logits"):
        best_span(np.zeros((2, 2)), np.zeros(4))
    with pytest.raises(ValueError, match="max_len"):
        best_span(np.zeros(3), np.zeros(3), 0)
    with pytest.raises(ValueError, match="allowed"):
        best_span(np.zeros(3), np.zeros(3), 2, np.array([1, 0, 1]))
    with pytest.raises(ValueError, match="allowed"):
        best_span(np.zeros(3), np.zeros(3), 2, np.zeros(3, bool))
    with pytest.raises(ValueError, match="start_logits"):
        best_span(np.array([np.nan, 0.0]), np.zeros(2))
