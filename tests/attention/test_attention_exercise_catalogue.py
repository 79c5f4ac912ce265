"""Catalogue of the attention chapter's exercises: requirements, correct answers in several styles (accepted)
and typical wrong answers (rejected with a hint naming the mistake).

* ``heads(X, n_heads)``: (B, T, H*d_k) -> (B, H, T, d_k), head h holds columns h*d_k .. (h+1)*d_k - 1.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.attention import exercises as ex
from tests.attention.test_attention_exercises import (
    pe_ok,
    sdpa_ok,
    split_ok,
)
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


# ---------------------------------------------------------------- causal mask
def mask_tril(n):
    return np.tril(np.ones((n, n), dtype=bool))


def mask_future(n):
    return np.triu(np.ones((n, n), dtype=bool))


def mask_ints(n):
    return np.tril(np.ones((n, n)))


def mask_strict(n):
    return np.tril(np.ones((n, n), dtype=bool), k=-1)


# ---------------------------------------------------------------- scaled dot-product attention
def sdpa_rows(Q, K, V, mask=None):
    n_q, n_k = Q.shape[0], K.shape[0]
    allowed = np.ones((n_q, n_k), dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
    w = np.zeros((n_q, n_k))
    for i in range(n_q):
        if allowed[i].any():
            s = (K[allowed[i]] @ Q[i]) / np.sqrt(Q.shape[1])
            e = np.exp(s - s.max())
            w[i, allowed[i]] = e / e.sum()
    return w @ V, w


def sdpa_no_max(Q, K, V, mask=None):  # the answer: NaN once scores reach ~1e3
    s = Q @ K.T / np.sqrt(K.shape[1])
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(s)
        if mask is not None:
            e = np.where(mask, e, 0.0)
        tot = e.sum(axis=1, keepdims=True)
        w = np.divide(e, tot, out=np.zeros_like(e), where=tot > 0)
    return w @ V, w


def sdpa_mask_times_scores(Q, K, V, mask=None):  # a masked score of 0 still gets weight
    s = Q @ K.T / np.sqrt(K.shape[1])
    if mask is not None:
        s = s * mask
    e = np.exp(s - s.max(axis=1, keepdims=True))
    w = e / e.sum(axis=1, keepdims=True)
    return w @ V, w


def sdpa_axis0(Q, K, V, mask=None):
    s = Q @ K.T / np.sqrt(K.shape[1])
    e = np.exp(s - s.max(axis=0, keepdims=True))
    w = e / e.sum(axis=0, keepdims=True)
    return w @ V, w


def sdpa_scales_q_in_place(Q, K, V, mask=None):
    Q /= np.sqrt(K.shape[1])
    return sdpa_ok(Q * np.sqrt(K.shape[1]), K, V, mask)


# ---------------------------------------------------------------- positional encoding
def pe_slices(n, d):
    pe = np.zeros((n, d))
    pos = np.arange(n)[:, None]
    freq = 10000.0 ** (-np.arange(0, d, 2) / d)
    pe[:, 0::2] = np.sin(pos * freq)
    pe[:, 1::2] = np.cos(pos * freq[: d // 2])
    return pe


def pe_swapped(n, d):
    return pe_ok(n, d)[:, [x + 1 if x % 2 == 0 else x - 1 for x in range(d)]]


def pe_odd_own_frequency(n, d):
    pos, x = np.arange(n)[:, None], np.arange(d)[None, :]
    a = pos / 10000 ** (x / d)
    return np.where(x % 2 == 0, np.sin(a), np.cos(a))


def pe_transposed(n, d):
    return pe_ok(n, d).T


# ---------------------------------------------------------------- split heads
def heads_stack(X, n_heads):
    d_k = X.shape[-1] // n_heads
    return np.stack([X[:, :, h * d_k : (h + 1) * d_k] for h in range(n_heads)], axis=1)


def heads_direct_reshape(X, n_heads):
    B, T, W = X.shape
    return X.reshape(B, n_heads, T, W // n_heads)


def heads_interleaved(X, n_heads):  # head h takes every n_heads-th column
    B, T, W = X.shape
    return X.reshape(B, T, W // n_heads, n_heads).transpose(0, 3, 1, 2)


def heads_no_transpose(X, n_heads):
    B, T, W = X.shape
    return X.reshape(B, T, n_heads, W // n_heads)


# ---------------------------------------------------------------- slide norm
def slide_by_hand(x, eps=1e-4):
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    mean = x.sum(-1, keepdims=True) / d
    s = np.sqrt(((x - mean) ** 2).sum(-1, keepdims=True) / (d - 1))
    return (x - mean) / (s + eps)


def slide_eps_inside_sqrt(x, eps=1e-4):  # the answer
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, ddof=1, keepdims=True) + eps)


def slide_torch(x, eps=1e-4):
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + eps)


def slide_population_std(x, eps=1e-4):
    return (x - x.mean(-1, keepdims=True)) / (x.std(-1, keepdims=True) + eps)


def slide_whole_matrix(x, eps=1e-4):
    return (x - x.mean()) / (x.std(ddof=1) + eps)


def slide_in_place(x, eps=1e-4):  # the answer: changes the caller's matrix
    x -= x.mean(axis=-1, keepdims=True)
    x /= x.std(axis=-1, ddof=1, keepdims=True) + eps
    return x


CATALOGUE = {
    ex.check_split_heads: Catalogue(
        correct=[split_ok, heads_stack],
        wrong=[
            Wrong(heads_direct_reshape, "mixes tokens"),
            Wrong(heads_interleaved, "head h must hold columns"),
            Wrong(heads_no_transpose, "swap T and H"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
