"""The checkers of the fine-tuning chapter accept correct answers and reject the typical wrong ones."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nlp_helpers.exercises.checker import STRICT_ENV
from nlp_helpers.finetuning.sentences_exercises import check_c_tf_idf, check_masked_max
from nlp_helpers.finetuning.token_tasks_exercises import check_answer_or_abstain
from tests.exercise_helpers import stub


# --------------------------------------------------------------------------- c-TF-IDF
def ctfidf_ok(counts):
    counts = np.asarray(counts, dtype=float)
    size = counts.sum(1, keepdims=True)
    return counts / size * np.log(1 + size.mean() / counts.sum(0))


def ctfidf_log10(counts):
    counts = np.asarray(counts, dtype=float)
    size = counts.sum(1, keepdims=True)
    return counts / size * np.log10(1 + size.mean() / counts.sum(0))


def ctfidf_raw_tf(counts):
    counts = np.asarray(counts, dtype=float)
    return counts * np.log(1 + counts.sum(1).mean() / counts.sum(0))


def ctfidf_global_normalisation(counts):
    counts = np.asarray(counts, dtype=float)
    return counts / counts.sum() * np.log(1 + counts.sum(1).mean() / counts.sum(0))


def test_c_tf_idf_checker():
    # the checker's hand-worked first entry
    assert ctfidf_ok([[4, 0, 1], [1, 3, 1]])[0, 0] == pytest.approx(0.8 * math.log(2))
    assert check_c_tf_idf(ctfidf_ok).passed
    assert check_c_tf_idf(stub).status == "not yet"
    assert "natural logarithm" in check_c_tf_idf(ctfidf_log10).message
    assert check_c_tf_idf(ctfidf_raw_tf).status == "wrong"
    assert check_c_tf_idf(ctfidf_global_normalisation).status == "wrong"


def test_strict_mode_raises_on_a_wrong_answer(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(AssertionError, match="c-TF-IDF"):
        check_c_tf_idf(ctfidf_log10)
    assert check_c_tf_idf(ctfidf_ok).passed


# --------------------------------------------------------------------------- masked max
def max_ok(hidden, mask):
    m = np.asarray(mask, dtype=bool)
    if not m.any(axis=1).all():
        raise ValueError("attention_mask: every sentence needs a real token")
    return np.where(m[..., None], hidden, -np.inf).max(axis=1)


def max_ignores_mask(hidden, mask):
    return np.asarray(hidden).max(axis=1)


def max_multiplies_by_mask(hidden, mask):
    m = np.asarray(mask, dtype=float)[..., None]
    with np.errstate(invalid="ignore"):
        return np.nan_to_num(hidden * m).max(axis=1)


def max_no_empty_check(hidden, mask):
    return np.where(np.asarray(mask, bool)[..., None], hidden, -np.inf).max(axis=1)


def test_masked_max_checker():
    assert check_masked_max(max_ok).passed
    assert check_masked_max(stub).status == "not yet"
    assert "padding position won" in check_masked_max(max_ignores_mask).message
    assert "never win" in check_masked_max(max_multiplies_by_mask).message
    assert "ValueError" in check_masked_max(max_no_empty_check).message


# --------------------------------------------------------------------------- answer or abstain
def span_loops(start, end, allowed, max_len):
    best, arg = -np.inf, None
    for i in range(len(start)):
        for j in range(i, min(len(start), i + max_len)):
            if allowed[i] and allowed[j] and start[i] + end[j] > best:
                best, arg = start[i] + end[j], (i, j)
    return arg, best


def abstain_ok(start, end, allowed, max_len, threshold):
    span, score = span_loops(start, end, allowed, max_len)
    return None if start[0] + end[0] > score + threshold else span


def abstain_ignores_threshold(start, end, allowed, max_len, threshold):
    return abstain_ok(start, end, allowed, max_len, 0.0)


def abstain_on_tie(start, end, allowed, max_len, threshold):
    span, score = span_loops(start, end, allowed, max_len)
    return None if start[0] + end[0] >= score + threshold else span


def test_answer_or_abstain_checker():
    assert check_answer_or_abstain(abstain_ok).passed
    assert check_answer_or_abstain(stub).status == "not yet"
    assert "threshold" in check_answer_or_abstain(abstain_ignores_threshold).message
    assert "tie" in check_answer_or_abstain(abstain_on_tie).message
