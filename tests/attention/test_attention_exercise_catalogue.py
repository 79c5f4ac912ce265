"""Catalogue of the attention chapter's exercises: requirements, correct answers in several styles (accepted)
and typical wrong answers (rejected with a hint naming the mistake).

* ``heads(X, n_heads)``: (B, T, H*d_k) -> (B, H, T, d_k), head h holds columns h*d_k .. (h+1)*d_k - 1.
* ``kv_step(...)``: RoPE at ``position`` on the query and the key (not the key alone); cache of n_kv_heads (not
  n_heads) heads; query head i uses kv head i // (n_heads // n_kv_heads); scores divided by sqrt(d_h); out_t of
  shape (d,).
* ``smoothed_ce(logits, targets, eps)``: one number, the mean over positions; eps spread over all V classes;
  targets of -100 left out of the sum and the count; stable for logits ~1e3; inputs unchanged.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.attention import exercises as ex
from tests.attention.test_attention_exercises import (
    kv_step_ok,
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


# ---------------------------------------------------------------- KV cache step
def kv_loops(*args):
    return kv_step_ok(*args)


def kv_vectorised(x_t, position, cache, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, base):
    d_h = W_q.shape[1] // n_heads
    half = d_h // 2
    angle = position * base ** (-2 * np.arange(half) / d_h)
    cos, sin = np.cos(angle), np.sin(angle)

    def rope(v):
        a, b = v[..., :half], v[..., half:]
        return np.concatenate([a * cos - b * sin, a * sin + b * cos], axis=-1)

    q = rope((x_t @ W_q).reshape(n_heads, d_h))
    k = rope((x_t @ W_k).reshape(n_kv_heads, d_h))[:, None]
    v = (x_t @ W_v).reshape(n_kv_heads, d_h)[:, None]
    K = k if cache is None else np.concatenate([cache[0], k], axis=1)
    V = v if cache is None else np.concatenate([cache[1], v], axis=1)
    group = n_heads // n_kv_heads
    Kh, Vh = np.repeat(K, group, axis=0), np.repeat(V, group, axis=0)
    s = np.einsum("hd,htd->ht", q, Kh) / np.sqrt(d_h)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return np.einsum("ht,htd->hd", w, Vh).reshape(-1) @ W_o, (K, V)


def kv_no_rope(*args):
    return kv_step_ok(*args, rope=False)


def kv_shared_cache(x_t, position, cache, *rest):
    if cache is not None:
        n_heads, n_kv = rest[4], rest[5]
        cache = (cache[0][:: n_heads // n_kv], cache[1][:: n_heads // n_kv])
    return kv_step_ok(x_t, position, cache, *rest, share_after=True)


def kv_modulo_groups(x_t, position, cache, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, base):
    """Query head i uses kv head i % n_kv_heads instead of i // group."""
    perm = [h for g in range(n_kv_heads) for h in range(g, n_heads, n_kv_heads)]
    d_h = W_q.shape[1] // n_heads
    cols = np.concatenate([np.arange(h * d_h, (h + 1) * d_h) for h in perm])
    return kv_vectorised(x_t, position, cache, W_q[:, cols], W_k, W_v, W_o[cols], n_heads, n_kv_heads, base)


def kv_unscaled(x_t, position, cache, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, base):
    d_h = W_q.shape[1] // n_heads
    return kv_vectorised(x_t, position, cache, W_q * np.sqrt(d_h), W_k, W_v, W_o, n_heads, n_kv_heads, base)


def kv_query_unrotated(x_t, position, cache, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, base):
    """Rotates the key at its position but not the query: the scores then depend on absolute positions."""
    d_h = W_q.shape[1] // n_heads
    half = d_h // 2
    angle = position * base ** (-2 * np.arange(half) / d_h)
    cos, sin = np.cos(angle), np.sin(angle)
    k = (x_t @ W_k).reshape(n_kv_heads, d_h)
    k = np.concatenate([k[:, :half] * cos - k[:, half:] * sin, k[:, :half] * sin + k[:, half:] * cos], axis=-1)
    v = (x_t @ W_v).reshape(n_kv_heads, d_h)
    K = k[:, None] if cache is None else np.concatenate([cache[0], k[:, None]], axis=1)
    V = v[:, None] if cache is None else np.concatenate([cache[1], v[:, None]], axis=1)
    q = (x_t @ W_q).reshape(n_heads, d_h)
    out = []
    for i in range(n_heads):
        j = i // (n_heads // n_kv_heads)
        s = K[j] @ q[i] / np.sqrt(d_h)
        w = np.exp(s - s.max())
        out.append((w / w.sum()) @ V[j])
    return np.concatenate(out) @ W_o, (K, V)


def kv_row_output(*args):  # "out_t of shape (d,)": a (1, d) row instead
    out_t, cache = kv_step_ok(*args)
    return np.asarray(out_t)[None, :], cache


# ---------------------------------------------------------------- label smoothing
def _log_softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def ls_vectorised(logits, targets, eps):
    keep = targets != -100
    logp = _log_softmax(np.asarray(logits, dtype=float)[keep])
    nll = -logp[np.arange(len(logp)), targets[keep]]
    return float(np.mean((1 - eps) * nll - eps * logp.mean(axis=1)))


def ls_per_position(logits, targets, eps):  # "return one float": the kept positions' losses, not their mean
    keep = targets != -100
    logp = _log_softmax(np.asarray(logits, dtype=float)[keep])
    nll = -logp[np.arange(len(logp)), targets[keep]]
    return (1 - eps) * nll - eps * logp.mean(axis=1)


def ls_target_matrix(logits, targets, eps):
    total, count = 0.0, 0
    V = logits.shape[1]
    for row, t in zip(logits, targets):
        if t == -100:
            continue
        q = np.full(V, eps / V)
        q[t] += 1 - eps
        m = row.max()
        logp = row - m - np.log(np.sum(np.exp(row - m)))
        total += -(q * logp).sum()
        count += 1
    return total / count


def ls_sum(logits, targets, eps):
    return ls_vectorised(logits, targets, eps) * np.sum(targets != -100)


def ls_other_classes(logits, targets, eps):
    keep = targets != -100
    logp = _log_softmax(logits[keep])
    n, V = logp.shape
    q = np.full((n, V), eps / (V - 1))
    q[np.arange(n), targets[keep]] = 1 - eps
    return float(np.mean(-(q * logp).sum(1)))


def ls_no_uniform(logits, targets, eps):
    keep = targets != -100
    logp = _log_softmax(logits[keep])
    return float(np.mean((1 - eps) * -logp[np.arange(len(logp)), targets[keep]]))


def ls_no_ignore(logits, targets, eps):
    logp = _log_softmax(logits)
    nll = -logp[np.arange(len(logp)), targets]
    return float(np.mean((1 - eps) * nll - eps * logp.mean(axis=1)))


def ls_divides_by_all(logits, targets, eps):
    keep = targets != -100
    return ls_vectorised(logits, targets, eps) * keep.sum() / len(targets)


def ls_unstable(logits, targets, eps):
    keep = targets != -100
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        p = np.exp(logits[keep])
        logp = np.log(p / p.sum(axis=1, keepdims=True))
    nll = -logp[np.arange(len(logp)), targets[keep]]
    return float(np.mean((1 - eps) * nll - eps * logp.mean(axis=1)))


def ls_in_place(logits, targets, eps):
    logits -= logits.max(axis=1, keepdims=True)
    return ls_vectorised(logits, targets, eps)


CATALOGUE = {
    ex.check_split_heads: Catalogue(
        correct=[split_ok, heads_stack],
        wrong=[
            Wrong(heads_direct_reshape, "mixes tokens"),
            Wrong(heads_interleaved, "head h must hold columns"),
            Wrong(heads_no_transpose, "swap T and H"),
        ],
    ),
    ex.check_kv_cache_step: Catalogue(
        correct=[kv_loops, kv_vectorised],
        wrong=[
            Wrong(kv_no_rope, "positions play no role"),
            Wrong(kv_shared_cache, "key heads"),
            Wrong(kv_modulo_groups, "i // (n_heads // n_kv_heads)"),
            Wrong(kv_unscaled, "sqrt(d_h)"),
            Wrong(kv_query_unrotated, ("rotate the new query", "and the new key")),
            Wrong(kv_row_output, "vector of shape (12,)"),
        ],
    ),
    ex.check_label_smoothing: Catalogue(
        correct=[ls_vectorised, ls_target_matrix],
        wrong=[
            Wrong(ls_sum, "mean"),
            Wrong(ls_per_position, ("one number", "mean loss")),
            Wrong(ls_other_classes, "all V classes"),
            Wrong(ls_no_uniform, "uniform part"),
            Wrong(ls_no_ignore, "-100"),
            Wrong(ls_divides_by_all, "divided by all N"),
            Wrong(ls_unstable, ("around 1000", "overflows")),
            Wrong(ls_in_place, ("modified its input", "`logits`")),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
