"""The LLM chapter's checkers (label smoothing, the KV cache) accept reference answers and reject wrong ones."""

from __future__ import annotations

import numpy as np

from nlp_helpers.llm.gpt_exercises import check_label_smoothing
from nlp_helpers.llm.modern_exercises import check_kv_cache_step
from tests.exercise_helpers import stub

# ---- the label-smoothing exercise: a reference written with torch's one-hot and log-softmax -----------------


def smoothed_ce_torch(logits, targets, eps):
    import torch
    import torch.nn.functional as F

    keep = torch.from_numpy(targets) != -100
    z = torch.from_numpy(logits)[keep]
    q = F.one_hot(torch.from_numpy(targets)[keep], z.shape[1]) * (1 - eps) + eps / z.shape[1]
    return float(-(q * z.log_softmax(-1)).sum(-1).mean())


def test_label_smoothing_reference_answer_passes_and_a_stub_is_not_yet():
    result = check_label_smoothing(smoothed_ce_torch)
    assert result.status == "correct", result.message
    assert check_label_smoothing(stub).status == "not yet"


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
