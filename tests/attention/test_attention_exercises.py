"""The attention chapter's checkers accept reference answers and reject typical wrong ones."""

from __future__ import annotations

import numpy as np
import pytest

from nlp_helpers.attention.exercises import (
    check_kv_cache_step,
    check_label_smoothing,
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


def smoothed_ce_torch(logits, targets, eps):
    import torch
    import torch.nn.functional as F

    keep = torch.from_numpy(targets) != -100
    z = torch.from_numpy(logits)[keep]
    q = F.one_hot(torch.from_numpy(targets)[keep], z.shape[1]) * (1 - eps) + eps / z.shape[1]
    return float(-(q * z.log_softmax(-1)).sum(-1).mean())


@pytest.mark.parametrize(
    ("checker", "answer"),
    [
        (check_split_heads, split_ok),
        (check_label_smoothing, smoothed_ce_torch),
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


# ---- the KV-cache exercise: a reference written with plain numpy loops -----------------------


def rope_ok(x, position, base):
    d = len(x)
    out = np.empty_like(x)
    for m in range(d // 2):
        a = position * base ** (-2 * m / d)
        x1, x2 = x[m], x[m + d // 2]
        out[m], out[m + d // 2] = x1 * np.cos(a) - x2 * np.sin(a), x1 * np.sin(a) + x2 * np.cos(a)
    return out


def kv_step_ok(x_t, position, cache, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, base, rope=True, share_after=False):
    d_h = W_q.shape[1] // n_heads
    rot = (lambda v: rope_ok(v, position, base)) if rope else (lambda v: v)
    k_new = np.stack([rot(x_t @ W_k[:, g * d_h : (g + 1) * d_h]) for g in range(n_kv_heads)])[:, None]
    v_new = np.stack([x_t @ W_v[:, g * d_h : (g + 1) * d_h] for g in range(n_kv_heads)])[:, None]
    K, V = (
        (k_new, v_new)
        if cache is None
        else (np.concatenate([cache[0], k_new], 1), np.concatenate([cache[1], v_new], 1))
    )
    outs = []
    for i in range(n_heads):
        g = i // (n_heads // n_kv_heads)
        q = rot(x_t @ W_q[:, i * d_h : (i + 1) * d_h])
        s = K[g] @ q / np.sqrt(d_h)
        w = np.exp(s - s.max())
        outs.append((w / w.sum()) @ V[g])
    if share_after:
        K, V = np.repeat(K, n_heads // n_kv_heads, 0), np.repeat(V, n_heads // n_kv_heads, 0)
    return np.concatenate(outs) @ W_o, (K, V)


def test_kv_cache_checker():
    assert check_kv_cache_step(kv_step_ok).passed, check_kv_cache_step(kv_step_ok).message
    assert "positions play no role" in check_kv_cache_step(lambda *a: kv_step_ok(*a, rope=False)).message

    def shared_cache(x_t, position, cache, *rest):
        if cache is not None:  # undo the sharing the previous step stored
            n_heads, n_kv = rest[4], rest[5]
            cache = (cache[0][:: n_heads // n_kv], cache[1][:: n_heads // n_kv])
        return kv_step_ok(x_t, position, cache, *rest, share_after=True)

    assert "key heads" in check_kv_cache_step(shared_cache).message
    assert check_kv_cache_step(stub).status == "not yet"
