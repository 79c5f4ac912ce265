"""Checkers for the exercises of ``book/attention/``.

Each compares the student's function with :mod:`nlp_helpers.attention.self_attention`,
:mod:`nlp_helpers.attention.positional` or :mod:`nlp_helpers.attention.transformer` (label smoothing:
with ``torch.nn.functional.cross_entropy``) on fixed inputs, including the edge case the exercise
is about, and gives a hint in every message.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.attention.modern import grouped_query_attention
from nlp_helpers.attention.self_attention import split_heads
from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import rng as seeded_rng

__all__ = [
    "check_split_heads",
    "check_kv_cache_step",
    "check_label_smoothing",
]


def check_split_heads(fn) -> CheckResult:
    """``fn(X, n_heads)``: ``(B, T, n_heads * d_k)`` -> ``(B, n_heads, T, d_k)``."""
    X = np.arange(2 * 3 * 8, dtype=float).reshape(2, 3, 8)
    with Checker("Split into heads") as ex:
        got = np.asarray(ex.call(fn, X, 4))
        ex.expect(
            got.shape == (2, 4, 3, 2),
            f"split_heads(X of shape (2, 3, 8), 4) should have shape (2, 4, 3, 2), "
            f"got {got.shape}. Hint: reshape to (B, T, H, d_k), then swap T and H.",
        )
        wrong = X.reshape(2, 4, 3, 2)
        if np.array_equal(got, wrong):
            ex.fail(
                "you reshaped straight to (B, H, T, d_k): that mixes tokens into heads. Hint: first cut each "
                "token's vector into its H pieces (keeping the tokens apart), then move the head axis in front "
                "of the time axis."
            )
        ex.expect_close(
            got,
            split_heads(X, 4),
            what="split_heads(X, 4)",
            hint="head h must hold columns h*d_k .. (h+1)*d_k - 1 of every token.",
        )
        ex.expect_close(
            np.asarray(ex.call(fn, X, 1)),
            X[:, None],
            what="split_heads(X, 1)",
            hint="with one head the result is X with a head axis of size 1.",
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


def _torch_smoothed_ce(logits: np.ndarray, targets: np.ndarray, eps: float) -> float:
    """The reference: PyTorch's cross-entropy with label smoothing, in float64, ignoring targets of -100."""
    import torch
    import torch.nn.functional as F

    return F.cross_entropy(
        torch.from_numpy(logits), torch.from_numpy(targets), label_smoothing=eps, ignore_index=-100
    ).item()


def check_label_smoothing(fn) -> CheckResult:
    """``fn(logits, targets, eps)`` -> float: mean cross-entropy against ``(1 - eps) one-hot + eps / V``.

    ``logits (N, V)``, ``targets (N,)`` ints in ``[0, V)`` or -100 (ignored: left out of the sum and the
    count); stable for logits around 1000.
    """
    rng = seeded_rng(3)
    N, V = 6, 5
    logits, targets = rng.normal(size=(N, V)) * 2, np.array([0, 4, 2, 2, 1, 3])
    logp = logits - logits.max(1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(1, keepdims=True))
    nll, true = -logp[np.arange(N), targets], np.eye(V, dtype=bool)[targets]
    with Checker("Label smoothing") as ex:
        got = ex.call(fn, logits, targets, 0.0)
        ex.expect(np.ndim(got) == 0, f"return one number (the mean loss), got shape {np.shape(got)}.")
        if np.isclose(float(got), nll.sum()):
            ex.fail("with eps = 0 you returned the sum of the losses. Hint: return their mean over the positions.")
        ex.expect_close(
            got,
            nll.mean(),
            what="with eps = 0 (plain cross-entropy) the loss",
            hint="mean over positions of -log softmax(logits)[target]: with eps = 0 nothing is smoothed.",
        )
        got = float(np.asarray(ex.call(fn, logits, targets, 0.1)))
        others = np.mean(0.9 * nll - 0.1 / (V - 1) * np.where(true, 0, logp).sum(1))
        if np.isclose(got, others):
            ex.fail(
                "you spread eps over the V - 1 wrong classes only. Hint: as in the statement (and PyTorch), "
                "spread eps over all V classes: the true class gets 1 - eps + eps / V."
            )
        if np.isclose(got, 0.9 * nll.mean()):
            ex.fail("you scaled the loss by 1 - eps but left out the uniform part: add eps * mean(-log p) over V.")
        ex.expect_close(
            got,
            _torch_smoothed_ce(logits, targets, 0.1),
            what="with eps = 0.1 the loss",
            hint="the loss of one position is (1 - eps) * (-log p[target]) + eps * mean_c(-log p[c]).",
        )
        padded = np.array([0, -100, 2, -100, 1, 3])
        got, error = ex.try_call(fn, logits, padded, 0.1)
        if error is not None:
            ex.fail(
                f"with targets containing -100 your function raised {type(error).__name__}: {error}. Hint: -100 "
                "marks a position to ignore: keep only the rows whose target is not -100 before indexing."
            )
        kept = padded != -100
        want = _torch_smoothed_ce(logits, padded, 0.1)
        if np.isclose(float(np.asarray(got)), want * kept.sum() / N):
            ex.fail(
                "with ignored positions you divided by all N positions. Hint: the mean is over the positions "
                "whose target is not -100 (here 4 of 6)."
            )
        ex.expect_close(
            got,
            want,
            what="with targets [0, -100, 2, -100, 1, 3] and eps = 0.1 the loss",
            hint="leave the positions whose target is -100 out of the sum and out of the count.",
        )
        big = logits * 500  # logits of about 1000: exp overflows unless each row's maximum is subtracted
        got = ex.call(fn, big, targets, 0.1)
        ex.expect(
            np.isfinite(float(np.asarray(got))),
            "with logits around 1000 your loss is NaN or inf: exp(1000) overflows. Hint: log-softmax as "
            "(x - max) - log(sum(exp(x - max))) row by row.",
        )
        ex.expect_close(
            got,
            _torch_smoothed_ce(big, targets, 0.1),
            what="with logits around 1000 the loss",
            hint="compute log-softmax stably: subtract each row's maximum before exponentiating.",
        )
    return ex.result
