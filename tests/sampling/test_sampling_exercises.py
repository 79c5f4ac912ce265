"""The sampling chapter's checkers accept correct answers and reject the typical wrong ones."""

from __future__ import annotations

import numpy as np
import pytest

from nlp_helpers.exercises.checker import STRICT_ENV
from nlp_helpers.sampling import exercises as ex
from tests.exercise_helpers import stub

# ---- reference answers (independent of nlp_helpers.sampling.distributions) -------------------------------------


def good_by_hand():
    return 3, 2, 0.881  # worked on paper: e^4 / (e^4 + e^2)


def good_rank(hyps, alpha):
    if alpha < 0 or min(n for _, n in hyps) < 1:
        raise ValueError("bad input")
    return sorted(range(len(hyps)), key=lambda i: -hyps[i][0] / ((5 + hyps[i][1]) / 6) ** alpha)


def good_distinct(seqs, n):
    grams = [tuple(s[i : i + n]) for s in seqs for i in range(len(s) - n + 1)]
    if not grams:
        raise ValueError("no n-grams")
    return len(set(grams)) / len(grams)


# ---- the checks -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "checker, good",
    [
        (ex.check_sampling_by_hand, good_by_hand),
        (ex.check_rank_hypotheses, good_rank),
        (ex.check_distinct_n, good_distinct),
    ],
)
def test_reference_answers_pass_and_stubs_are_not_yet(checker, good):
    assert checker(good).status == "correct"
    assert checker(stub).status == "not yet"


def test_by_hand_answers_are_the_hand_worked_numbers():
    # T = 1: 0.644 + 0.237 < 0.9 -> 3 tokens; T = 0.5: 0.865 + 0.117 >= 0.9 -> 2 tokens; e^4 / (e^4 + e^2)
    assert ex.check_sampling_by_hand(lambda: (3, 2, np.exp(4) / (np.exp(4) + np.exp(2)))).status == "correct"
    assert abs(np.exp(4) / (np.exp(4) + np.exp(2)) - 0.881) < 5e-4


def test_distinct_checker_rejects_averaging_per_sequence_and_crashing_on_short_sequences():
    def per_sequence(seqs, n):
        vals = [len(set(tuple(s[i : i + n]) for i in range(len(s) - n + 1))) / max(1, len(s) - n + 1) for s in seqs]
        return float(np.mean(vals))

    def crashes_on_short(seqs, n):
        for s in seqs:
            if len(s) < n:
                raise IndexError("sequence too short")
        return good_distinct(seqs, n)

    assert ex.check_distinct_n(per_sequence).status == "wrong"
    r = ex.check_distinct_n(crashes_on_short)
    assert r.status == "wrong" and "IndexError" in r.message


def test_strict_mode_turns_a_wrong_answer_into_an_assertion(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(AssertionError, match="Distinct-n"):
        ex.check_distinct_n(lambda seqs, n: 0.5)


# ---- the hard tier: greedy decoding of TinyGPT with a key/value cache -------------------------------------------


def _cached(model, ids, max_new_tokens, position_of_new=None, recompute=False, check_length=True, causal_prefill=True):
    """A reference KV-cache loop written against torch ops (with switches for typical mistakes)."""
    import math

    import torch

    if check_length and ids.shape[1] + max_new_tokens > model.block_size:
        raise ValueError("prompt + max_new_tokens > block_size")
    cache, out, new = [None] * len(model.blocks), ids, ids
    with torch.no_grad():
        for _ in range(max_new_tokens):
            if recompute:
                cache, new = [None] * len(model.blocks), out
            t0 = out.shape[1] - new.shape[1]
            pos = torch.arange(t0, out.shape[1]) if position_of_new is None or t0 == 0 else torch.zeros(1, dtype=int)
            x = model.tok_emb(new) + model.pos_emb(pos)
            for i, block in enumerate(model.blocks):
                h = block.ln1(x)
                B, T, C = h.shape
                q, k, v = (z.view(B, T, block.attn.n_heads, -1).transpose(1, 2) for z in block.attn.qkv(h).split(C, 2))
                if cache[i] is not None:
                    k, v = torch.cat([cache[i][0], k], 2), torch.cat([cache[i][1], v], 2)
                cache[i] = (k, v)
                s = q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1])
                allowed = torch.arange(k.shape[2])[None, :] <= (t0 + torch.arange(T))[:, None]
                if not causal_prefill:
                    allowed = torch.ones_like(allowed)  # the mistake: every prompt position sees the whole prompt
                y = torch.softmax(s.masked_fill(~allowed, float("-inf")), -1) @ v
                x = x + block.attn.proj(y.transpose(1, 2).reshape(B, T, C))
                x = x + block.mlp(block.ln2(x))
            nxt = model.lm_head(model.ln_f(x[:, -1])).argmax(-1, keepdim=True)
            out, new = torch.cat([out, nxt], 1), nxt
    return out


def test_kv_cache_checker_accepts_a_correct_cache_and_says_not_yet_to_the_stub():
    assert ex.check_generate_cached(_cached).status == "correct"
    assert ex.check_generate_cached(stub).status == "not yet"


def test_kv_cache_checker_model_has_no_near_ties():
    """The checker's reference tokens must not depend on float32 rounding: top-2 logit gaps are large."""
    import torch

    model = ex._scaled_tinygpt()
    gaps, new_tokens = [], set()
    for prompt, n in (([3, 1, 4, 1, 5], 8), ([2], 6), ([7, 0, 9, 2, 6, 5, 3, 5, 8, 9], 6)):
        ids = torch.tensor([prompt])
        with torch.no_grad():
            for _ in range(n):
                top2 = model(ids)[0, -1].topk(2)
                gaps.append(float(top2.values[0] - top2.values[1]))
                new_tokens.add(int(top2.indices[0]))
                ids = torch.cat([ids, top2.indices[:1].view(1, 1)], 1)
    # measured: smallest gap 0.0064, float32 differences between loops ~1e-6
    assert min(gaps) > 1e-3
    assert len(new_tokens) >= 2  # the outputs are not one token repeated, so a wrong cache shows


def test_kv_cache_checker_rejects_typical_mistakes():
    import functools

    r = ex.check_generate_cached(functools.partial(_cached, position_of_new=0))
    assert r.status == "wrong" and "absolute position" in r.message
    r = ex.check_generate_cached(functools.partial(_cached, recompute=True))
    assert r.status == "wrong" and "re-run the whole sequence" in r.message
    r = ex.check_generate_cached(functools.partial(_cached, check_length=False))
    assert r.status == "wrong" and "block_size" in r.message
    # No causal mask in the prefill: the last prompt position sees the whole prompt either way, so the
    # first new token is right and only the cached keys and values of the deeper layers are wrong.
    r = ex.check_generate_cached(functools.partial(_cached, causal_prefill=False))
    assert r.status == "wrong" and "causal mask" in r.message and "first step" in r.message

    def no_prompt(model, ids, n):
        return _cached(model, ids, n)[:, ids.shape[1] :]

    r = ex.check_generate_cached(no_prompt)
    assert r.status == "wrong" and "prompt followed by the new tokens" in r.message
