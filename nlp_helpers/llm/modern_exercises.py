"""Checkers for the exercises of the page "From 2017 to today: the block of a modern LLM"
(``book/llm/modern.ipynb``).

* :func:`check_rope_interleaved`: rotary position embeddings in the RoFormer paper's convention (neighbouring
  dimensions ``2m, 2m+1`` rotated together), compared with :func:`nlp_helpers.llm.modern.apply_rope`
  (the half-split convention, tested against Hugging Face's Llama) on permuted dimensions.
* :func:`check_kv_cache_step`: one generation step of grouped-query attention with RoPE and a key/value cache,
  fed the tokens one at a time, compared with :func:`nlp_helpers.llm.modern.grouped_query_attention` run on
  the whole sequence.

The checkers also compute the answers of typical mistakes, so that a wrong answer gets a hint naming its mistake.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.llm.modern import apply_rope, grouped_query_attention
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["check_rope_interleaved", "check_kv_cache_step"]


def _interleaved(x, positions, base, sign=1.0, exponent=2.0):
    """The reference: pair (2m, 2m+1) turned by the angle p * base**(-exponent * m / d)."""
    T, d = x.shape
    m = np.arange(d // 2)
    angle = np.asarray(positions, dtype=float)[:, None] * base ** (-exponent * m / d) * sign
    even, odd = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x, dtype=float)
    out[:, 0::2] = even * np.cos(angle) - odd * np.sin(angle)
    out[:, 1::2] = even * np.sin(angle) + odd * np.cos(angle)
    return out


def check_rope_interleaved(fn: Callable) -> CheckResult:
    """``fn(x, positions, base)`` -> ``x`` with each pair ``(2m, 2m+1)`` of row ``t`` rotated by ``positions[t]``."""
    g = seeded_rng(53)
    cases = [(g.normal(size=(4, 8)), [0, 1, 2, 3], 10000.0), (g.normal(size=(3, 6)), [5, 0, 17], 100.0)]
    cases.append((g.normal(size=(2, 2)), [1, 2], 10000.0))
    with Checker("RoPE, interleaved") as ex:
        for x, positions, base in cases:
            what = f"rope_interleaved(x of shape {x.shape}, positions={positions}, base={base:g})"
            got = ex.call(fn, x, np.array(positions), base)
            want = _interleaved(x, positions, base)
            # the same rotation in the half-split convention, on permuted dimensions: the reference agrees with it
            d = x.shape[1]
            perm = np.r_[0:d:2, 1:d:2]
            assert np.allclose(apply_rope(x[:, perm], positions, base)[:, np.argsort(perm)], want)
            g_arr = np.asarray(got, dtype=float)
            if g_arr.shape == want.shape and not np.allclose(g_arr, want, atol=1e-9):
                mistakes = [
                    (
                        apply_rope(x, positions, base),
                        "you rotated the pairs (m, m + d/2) of the half-split "
                        "convention; here neighbouring dimensions 2m and 2m + 1 turn together.",
                    ),
                    (
                        _interleaved(x, positions, base, sign=-1.0),
                        "the rotation goes the wrong way: "
                        "x'_2m = x_2m cos a - x_2m+1 sin a, x'_2m+1 = x_2m sin a + x_2m+1 cos a.",
                    ),
                    (
                        _interleaved(x, positions, base, exponent=1.0),
                        "pair m turns with the frequency base^(-2m/d), the sinusoids' frequencies, not base^(-m/d).",
                    ),
                    (_interleaved(x, np.arange(len(x)), base), "use the given positions, not the row numbers."),
                ]
                for wrong, hint in mistakes:
                    if np.allclose(g_arr, wrong, atol=1e-9):
                        ex.fail(f"{what}: {hint}")
            ex.expect_close(
                got,
                want,
                what=what,
                hint="Turn each pair (x[2m], x[2m+1]) of row t by the angle positions[t] * base**(-2m/d).",
            )
        ex.expect_raises(
            ValueError,
            fn,
            g.normal(size=(2, 5)),
            np.array([0, 1]),
            10000.0,
            what="rope_interleaved(x of shape (2, 5), ...)",
            hint="Dimensions are rotated in pairs: an odd d is an error.",
        )
    return ex.result


def check_kv_cache_step(fn) -> CheckResult:
    """``fn(x_t, position, cache, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, base)`` -> ``(out_t, cache)``.

    One generation step of grouped-query attention with RoPE and a KV cache: ``x_t (d,)`` is the new
    token, ``cache`` is ``None`` or ``(K, V)`` of shape ``(n_kv_heads, t, d_h)`` (keys already rotated).
    Fed the tokens one at a time it must equal causal attention over the whole sequence.
    """
    rng = seeded_rng(12)
    T, d, H, H_kv, d_h, base = 5, 12, 6, 2, 4, 10000.0
    x = rng.normal(size=(T, d))
    W_q, W_o = rng.normal(size=(d, H * d_h)) / 3, rng.normal(size=(H * d_h, d)) / 3
    W_k, W_v = rng.normal(size=(d, H_kv * d_h)) / 3, rng.normal(size=(d, H_kv * d_h)) / 3
    want, _ = grouped_query_attention(x, W_q, W_k, W_v, W_o, H, H_kv, rope_base=base)
    with Checker("A KV cache for grouped-query attention") as ex:
        cache, outs = None, []
        for t in range(T):
            got = ex.call(fn, x[t], t, cache, W_q, W_k, W_v, W_o, H, H_kv, base)
            ex.expect(
                isinstance(got, tuple) and len(got) == 2,
                "the step should return a pair (out_t, cache). Hint: return the new cache too.",
            )
            out_t, cache = got
            ex.expect(
                np.shape(out_t) == (d,),
                f"out_t for token {t} should be a vector of shape ({d},), like x_t; got shape {np.shape(out_t)}.",
            )
            outs.append(np.asarray(out_t, dtype=float).reshape(-1))
            ex.expect(
                isinstance(cache, tuple) and len(cache) == 2,
                "the cache should be a pair (K, V). Hint: cache = (K, V) with K, V of shape (n_kv_heads, t, d_h).",
            )
            K, V = (np.asarray(c) for c in cache)
            if K.shape == (H, t + 1, d_h):
                ex.fail(
                    f"your cache holds {H} key heads: it stores the keys after sharing. Hint: cache the "
                    f"{H_kv} key/value heads and share them when attending; that is what saves GQA memory."
                )
            ex.expect(
                K.shape == (H_kv, t + 1, d_h) and V.shape == (H_kv, t + 1, d_h),
                f"after token {t} the cached K and V should have shape ({H_kv}, {t + 1}, {d_h}), got "
                f"{K.shape} and {V.shape}. Hint: append the new token's keys along axis 1.",
            )
        outs = np.array(outs)
        no_rope, _ = grouped_query_attention(x, W_q, W_k, W_v, W_o, H, H_kv, rope_base=None)
        if np.allclose(outs, no_rope, atol=1e-8):
            ex.fail("positions play no role. Hint: rotate the new query and key at `position` before q . k.")
        ex.expect_close(
            outs[0],
            want[0],
            what="the output for the first token",
            hint="with one token in the cache its weight is 1: the output is its value, per head, times W_o; "
            "query head i uses key/value head i // (n_heads // n_kv_heads) (heads 0-2 share kv head 0 here).",
        )
        ex.expect_close(
            outs,
            want,
            what="the outputs of five steps",
            hint="rotate the new query and the new key at `position` (the key before caching it; never re-rotate "
            "cached keys); query head i uses key/value head i // (n_heads // n_kv_heads); divide the scores by "
            "sqrt(d_h).",
        )
    return ex.result
