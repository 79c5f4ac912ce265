"""The attention chapter's checkers accept reference answers and reject typical wrong ones."""

from __future__ import annotations

import numpy as np
import pytest

from nlp_helpers.attention.exercises import (
    check_causal_mask,
    check_grouped_query_attention,
    check_positional_encoding,
    check_rope,
    check_scaled_dot_product_attention,
    check_slide_layer_norm,
    check_split_heads,
)
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
        (check_causal_mask, causal_ok),
        (check_scaled_dot_product_attention, sdpa_ok),
        (check_positional_encoding, pe_ok),
        (check_split_heads, split_ok),
        (check_slide_layer_norm, slide_ln_ok),
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
        (check_causal_mask, lambda n: np.triu(np.ones((n, n), dtype=bool)), "future"),
        (check_causal_mask, lambda n: np.tril(np.ones((n, n))), "boolean"),
        (check_causal_mask, lambda n: np.tril(np.ones((n, n), dtype=bool), -1), "diagonal"),
        (check_scaled_dot_product_attention, sdpa_unscaled, "sqrt(d_k)"),
        (check_scaled_dot_product_attention, sdpa_nan_rows, "NaN"),
        (check_scaled_dot_product_attention, sdpa_softmax_over_queries, "over the keys"),
        (check_scaled_dot_product_attention, lambda Q, K, V, mask=None: sdpa_ok(Q, K, V, mask)[0], "pair"),
        (
            check_positional_encoding,
            lambda n, d: pe_ok(n, d)[:, [1, 0, 3, 2, 5, 4] if d == 6 else slice(None)],
            "swapped",
        ),
        (
            check_positional_encoding,
            lambda n, d: np.array(
                [
                    [np.sin(p / 10000 ** (x / d)) if x % 2 == 0 else np.cos(p / 10000 ** (x / d)) for x in range(d)]
                    for p in range(n)
                ]
            ),
            "(x-1)",
        ),
        (check_split_heads, lambda X, h: X.reshape(X.shape[0], h, X.shape[1], -1), "mixes tokens"),
        (check_split_heads, lambda X, h: X.reshape(X.shape[0], X.shape[1], h, -1), "shape"),
        (
            check_slide_layer_norm,
            lambda x, eps=1e-4: (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + eps),
            "population variance",
        ),
        (check_slide_layer_norm, lambda x, eps=1e-4: (x - x.mean()) / (x.std(ddof=1) + eps), "each row"),
    ],
)
def test_typical_mistakes_are_rejected_with_a_hint(checker, wrong, needle):
    result = checker(wrong)
    assert result.status == "wrong"
    assert needle in result.message


def test_strict_mode_raises_on_a_wrong_answer(monkeypatch):
    monkeypatch.setenv("NLP_EXERCISES_STRICT", "1")
    with pytest.raises(AssertionError, match="Causal mask"):
        check_causal_mask(lambda n: np.ones((n, n), dtype=bool))


# ---- the modern-block exercises: references written with plain numpy loops -----------------


def rope_ok(x, positions, base=10000.0):
    T, d = x.shape
    out = np.empty_like(x)
    for t in range(T):
        for m in range(d // 2):
            a = positions[t] * base ** (-2 * m / d)
            x1, x2 = x[t, m], x[t, m + d // 2]
            out[t, m], out[t, m + d // 2] = x1 * np.cos(a) - x2 * np.sin(a), x1 * np.sin(a) + x2 * np.cos(a)
    return out


def rope_interleaved(x, positions, base=10000.0):
    T, d = x.shape
    out = np.empty_like(x)
    for t in range(T):
        for m in range(d // 2):
            a = positions[t] * base ** (-2 * m / d)
            x1, x2 = x[t, 2 * m], x[t, 2 * m + 1]
            out[t, 2 * m], out[t, 2 * m + 1] = x1 * np.cos(a) - x2 * np.sin(a), x1 * np.sin(a) + x2 * np.cos(a)
    return out


def gqa_ok(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, base, causal=True, rope=True, share="repeat"):
    T = x.shape[0]
    d_h = W_q.shape[1] // n_heads
    pos = np.arange(T)
    outs = []
    for i in range(n_heads):
        g = i // (n_heads // n_kv_heads) if share == "repeat" else i % n_kv_heads
        q = x @ W_q[:, i * d_h : (i + 1) * d_h]
        k = x @ W_k[:, g * d_h : (g + 1) * d_h]
        v = x @ W_v[:, g * d_h : (g + 1) * d_h]
        if rope:
            q, k = rope_ok(q, pos, base), rope_ok(k, pos, base)
        s = q @ k.T / np.sqrt(d_h)
        if causal:
            s = np.where(np.tril(np.ones((T, T), bool)), s, -np.inf)
        w = np.exp(s - s.max(axis=1, keepdims=True))
        outs.append((w / w.sum(axis=1, keepdims=True)) @ v)
    return np.concatenate(outs, axis=1) @ W_o


def test_rope_checker():
    assert check_rope(rope_ok).passed
    assert "half-split" in check_rope(rope_interleaved).message
    assert not check_rope(lambda x, p, base=10000.0: x).passed
    assert check_rope(stub).status == "not yet"


def test_gqa_checker():
    assert check_grouped_query_attention(gqa_ok).passed
    assert "np.repeat" in check_grouped_query_attention(lambda *a: gqa_ok(*a, share="tile")).message
    assert "causal" in check_grouped_query_attention(lambda *a: gqa_ok(*a, causal=False)).message
    assert "RoPE" in check_grouped_query_attention(lambda *a: gqa_ok(*a, rope=False)).message
    assert check_grouped_query_attention(stub).status == "not yet"
