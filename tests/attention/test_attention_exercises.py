"""The attention chapter's checkers accept reference answers and reject typical wrong ones."""

from __future__ import annotations

import numpy as np
import pytest

from nlp_helpers.attention.exercises import check_split_heads
from tests.exercise_helpers import stub

# ---- reference answers, written independently of nlp_helpers -------------------------------


def causal_ok(n):
    i, j = np.indices((n, n))
    return j <= i


def sdpa_ok(Q, K, V, mask=None):
    s = Q @ K.T / np.sqrt(K.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    m = s.max(axis=1, keepdims=True)
    e = np.exp(s - np.where(np.isfinite(m), m, 0))
    tot = e.sum(axis=1, keepdims=True)
    w = np.divide(e, tot, out=np.zeros_like(e), where=tot > 0)
    return w @ V, w


def pe_ok(n, d):
    pe = np.zeros((n, d))
    for pos in range(n):
        for x in range(d):
            a = pos / 10000 ** ((x - x % 2) / d)
            pe[pos, x] = np.sin(a) if x % 2 == 0 else np.cos(a)
    return pe


def split_ok(X, n_heads):
    B, T, W = X.shape
    return X.reshape(B, T, n_heads, W // n_heads).transpose(0, 2, 1, 3)


def slide_ln_ok(x, eps=1e-4):
    return (x - x.mean(axis=-1, keepdims=True)) / (x.std(axis=-1, ddof=1, keepdims=True) + eps)


@pytest.mark.parametrize(
    ("checker", "answer"),
    [
        (check_split_heads, split_ok),
    ],
)
def test_reference_answers_pass_and_stubs_are_not_yet(checker, answer):
    assert checker(answer).status == "correct", checker(answer).message
    assert checker(stub).status == "not yet"


# ---- typical mistakes ------------------------------------------------------------------------


def sdpa_unscaled(Q, K, V, mask=None):
    return sdpa_ok(Q * np.sqrt(K.shape[1]), K, V, mask)


def sdpa_nan_rows(Q, K, V, mask=None):
    s = Q @ K.T / np.sqrt(K.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(s - s.max(axis=1, keepdims=True))
        w = e / e.sum(axis=1, keepdims=True)
    return w @ V, w


def sdpa_softmax_over_queries(Q, K, V, mask=None):
    s = Q @ K.T / np.sqrt(K.shape[1])
    e = np.exp(s - s.max())
    w = e / e.sum(axis=0, keepdims=True)
    return w @ V, w


@pytest.mark.parametrize(
    ("checker", "wrong", "needle"),
    [
        (check_split_heads, lambda X, h: X.reshape(X.shape[0], h, X.shape[1], -1), "mixes tokens"),
        (check_split_heads, lambda X, h: X.reshape(X.shape[0], X.shape[1], h, -1), "shape"),
    ],
)
def test_typical_mistakes_are_rejected_with_a_hint(checker, wrong, needle):
    result = checker(wrong)
    assert result.status == "wrong"
    assert needle in result.message


def test_strict_mode_raises_on_a_wrong_answer(monkeypatch):
    monkeypatch.setenv("NLP_EXERCISES_STRICT", "1")
    with pytest.raises(AssertionError, match="Split into heads"):
        check_split_heads(lambda X, h: X.reshape(X.shape[0], h, X.shape[1], -1))
