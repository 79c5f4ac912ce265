"""Catalogue of the exercises of ``book/llm/modern.ipynb`` (the checkers of its modern_exercises module).

* ``rope_interleaved(x, positions, base)``: neighbouring pairs (2m, 2m+1), not the half-split (m, m + d/2); the
  rotation's sign; the frequency base**(-2m/d); the given positions, not the row numbers; ValueError for odd d;
  x unchanged.
* ``kv_step(...)``: RoPE at ``position`` on the query and the key (not the key alone); cache of n_kv_heads (not
  n_heads) heads; query head i uses kv head i // (n_heads // n_kv_heads); scores divided by sqrt(d_h); out_t of
  shape (d,).
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.llm.modern import apply_rope
from nlp_helpers.llm.modern_exercises import check_kv_cache_step, check_rope_interleaved
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test
from tests.llm.test_llm_exercises import kv_step_ok


def rope_slices(x, positions, base, sign=1.0, exponent=2.0, rows=False):
    T, d = x.shape
    if d % 2:
        raise ValueError("d must be even")
    pos = np.arange(T) if rows else np.asarray(positions, dtype=float)
    angle = sign * pos[:, None] * base ** (-exponent * np.arange(d // 2) / d)
    out = np.empty_like(x, dtype=float)
    out[:, 0::2] = x[:, 0::2] * np.cos(angle) - x[:, 1::2] * np.sin(angle)
    out[:, 1::2] = x[:, 0::2] * np.sin(angle) + x[:, 1::2] * np.cos(angle)
    return out


def rope_matrices(x, positions, base):
    T, d = x.shape
    if d % 2:
        raise ValueError("d must be even")
    out = np.zeros((T, d))
    for t, p in enumerate(positions):
        for m in range(d // 2):
            a = p * base ** (-2 * m / d)
            rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            out[t, 2 * m : 2 * m + 2] = rot @ x[t, 2 * m : 2 * m + 2]
    return out


def rope_half_split(x, positions, base):
    if x.shape[1] % 2:
        raise ValueError("d must be even")
    return apply_rope(x, positions, base)


def rope_no_check(x, positions, base):
    d = x.shape[1] - x.shape[1] % 2
    out = x.astype(float).copy()
    out[:, :d] = rope_slices(x[:, :d], positions, base)
    return out


def rope_in_place(x, positions, base):  # "returning a new array": turns the caller's x
    x[:] = rope_slices(x, positions, base)
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


CATALOGUE = {
    check_rope_interleaved: Catalogue(
        correct=[rope_slices, rope_matrices],
        wrong=[
            Wrong(rope_half_split, "half-split"),
            Wrong(lambda x, p, b: rope_slices(x, p, b, sign=-1.0), "wrong way"),
            Wrong(lambda x, p, b: rope_slices(x, p, b, exponent=1.0), "base^(-2m/d)"),
            Wrong(lambda x, p, b: rope_slices(x, p, b, rows=True), "given positions"),
            Wrong(rope_no_check, "odd d"),
            Wrong(rope_in_place, ("modified its input", "`x`")),
        ],
    ),
    check_kv_cache_step: Catalogue(
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
}

test_catalogue = catalogue_test(CATALOGUE)
