"""Catalogue of the sampling chapter's exercises: what each statement requires, correct answers in several
styles (all accepted) and the typical wrong answers (each rejected with a hint naming its mistake).

Requirements (one wrong answer or more each):

* ``by_hand_sampling()``: the crossing token is in the nucleus; the temperature before top-p (both nuclei and
  P(top)); P(top) renormalised over the nucleus; a tuple of three numbers, the two sizes ints.
* ``rank_hypotheses(hyps, alpha)``: GNMT's ((5 + |y|) / 6)^alpha, not |y|^alpha; best first; divided, not
  multiplied; stable on ties; ValueError for a length < 1 and for alpha < 0; the input list not sorted; indices,
  not scores.
* ``distinct_n(sequences, n)``: pooled over sequences; short sequences add nothing; n-grams are tuples
  (joined strings collide); ValueError when there is no n-gram at all.
* ``generate_cached(model, ids, n)``: absolute positions; the causal mask in the prefill; only the newest token after
  the prefill; prompt kept;
  ValueError beyond block_size.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.sampling import exercises as ex
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test
from tests.sampling.test_sampling_exercises import _cached


# ---------------------------------------------------------------- temperature and top-p by hand
def by_hand_exact():
    return 3, 2, 0.881


def by_hand_computed():
    e = np.exp(np.array([4.0, 2.0]))
    return (3, 2, float(e[0] / e.sum()))


def by_hand_drops_crossing():  # the token that reaches p left out of both nuclei
    return 2, 1, 1.0


def by_hand_no_temperature_on_nucleus():  # nucleus at T = 0.5 counted on the T = 1 distribution
    return 3, 3, 0.881


def by_hand_not_renormalised():  # P(top) at T = 0.5 before top-p
    return 3, 2, 0.865


def by_hand_top_p_first():  # nucleus of T = 1 (3 tokens), then T = 0.5 over it
    return 3, 2, float(np.exp(4) / (np.exp(4) + np.exp(2) + 1))


def by_hand_forgot_temperature():  # P(top) after top-p at T = 1
    return 3, 2, float(np.exp(2) / (np.exp(2) + np.e + 1))


def by_hand_one_number():
    return 0.881


def by_hand_float_counts():  # "two ints and a float": the sizes as floats
    return 3.0, 2.0, 0.881


# ---------------------------------------------------------------- ranking with a length penalty
def rank_sorted(hyps, alpha):
    if alpha < 0:
        raise ValueError("alpha must be >= 0")
    if any(n < 1 for _, n in hyps):
        raise ValueError("length must be >= 1")
    score = [lp / ((5 + n) / 6) ** alpha for lp, n in hyps]
    return sorted(range(len(hyps)), key=lambda i: -score[i])


def rank_numpy(hyps, alpha):
    arr = np.array(hyps, dtype=float)
    if alpha < 0 or (arr[:, 1] < 1).any():
        raise ValueError(f"bad alpha {alpha} or length")
    score = arr[:, 0] / ((5 + arr[:, 1]) / 6) ** alpha
    return [int(i) for i in np.argsort(-score, kind="stable")]


def rank_hf_penalty(hyps, alpha):  # length ** alpha, the transformers penalty
    if alpha < 0 or any(n < 1 for _, n in hyps):
        raise ValueError("bad input")
    return sorted(range(len(hyps)), key=lambda i: -hyps[i][0] / hyps[i][1] ** alpha)


def rank_worst_first(hyps, alpha):
    return rank_sorted(hyps, alpha)[::-1]


def rank_multiplies(hyps, alpha):
    if alpha < 0 or any(n < 1 for _, n in hyps):
        raise ValueError("bad input")
    return sorted(range(len(hyps)), key=lambda i: -hyps[i][0] * ((5 + hyps[i][1]) / 6) ** alpha)


def rank_unstable(hyps, alpha):  # ties broken by the larger index
    if alpha < 0 or any(n < 1 for _, n in hyps):
        raise ValueError("bad input")
    score = [lp / ((5 + n) / 6) ** alpha for lp, n in hyps]
    return sorted(range(len(hyps)), key=lambda i: (-score[i], -i))


def rank_no_length_check(hyps, alpha):
    if alpha < 0:
        raise ValueError("alpha must be >= 0")
    score = [lp / ((5 + n) / 6) ** alpha if n > 0 else lp for lp, n in hyps]
    return sorted(range(len(hyps)), key=lambda i: -score[i])


def rank_negative_alpha_allowed(hyps, alpha):
    if any(n < 1 for _, n in hyps):
        raise ValueError("length must be >= 1")
    score = [lp / ((5 + n) / 6) ** alpha for lp, n in hyps]
    return sorted(range(len(hyps)), key=lambda i: -score[i])


def rank_sorts_input(hyps, alpha):  # sorts the caller's list in place
    order = rank_sorted(hyps, alpha)
    hyps.sort()
    return order


def rank_returns_scores(hyps, alpha):
    return [lp / ((5 + n) / 6) ** alpha for lp, n in hyps]


# ---------------------------------------------------------------- distinct-n
def distinct_tuples(sequences, n):
    grams = [tuple(s[i : i + n]) for s in sequences for i in range(len(s) - n + 1)]
    if not grams:
        raise ValueError(f"no {n}-grams")
    return len(set(grams)) / len(grams)


def distinct_zip(sequences, n):
    seen, total = set(), 0
    for s in sequences:
        for gram in zip(*(s[i:] for i in range(n))):
            seen.add(gram)
            total += 1
    if total == 0:
        raise ValueError("every sequence is shorter than n")
    return len(seen) / total


def distinct_per_sequence(sequences, n):
    vals = [len({tuple(s[i : i + n]) for i in range(len(s) - n + 1)}) / max(1, len(s) - n + 1) for s in sequences]
    return float(np.mean(vals))


def distinct_joined_with_space(sequences, n):
    grams = [" ".join(s[i : i + n]) for s in sequences for i in range(len(s) - n + 1)]
    if not grams:
        raise ValueError("no n-grams")
    return len(set(grams)) / len(grams)


def distinct_joined(sequences, n):
    grams = ["".join(s[i : i + n]) for s in sequences for i in range(len(s) - n + 1)]
    if not grams:
        raise ValueError("no n-grams")
    return len(set(grams)) / len(grams)


def distinct_zero_when_empty(sequences, n):
    grams = [tuple(s[i : i + n]) for s in sequences for i in range(len(s) - n + 1)]
    return len(set(grams)) / len(grams) if grams else 0.0


def distinct_crashes_on_short(sequences, n):
    for s in sequences:
        if len(s) < n:
            raise IndexError("sequence too short")
    return distinct_tuples(sequences, n)


def distinct_appends_to_input(sequences, n):
    for s in sequences:
        s.append("</s>")  # pads the caller's lists
    return distinct_tuples([s[:-1] for s in sequences], n)


# ---------------------------------------------------------------- generate_cached
def cached_reference(model, ids, max_new_tokens):
    return _cached(model, ids, max_new_tokens)


def cached_one_token_at_a_time(model, ids, max_new_tokens):
    """Another style: lists of per-token keys and values; even the prompt goes in one token at a time."""
    import math

    import torch

    if ids.shape[1] + max_new_tokens > model.block_size:
        raise ValueError("too long for block_size")
    keys, values = [[] for _ in model.blocks], [[] for _ in model.blocks]

    def step(token, pos):
        x = model.tok_emb(token.view(1, 1)) + model.pos_emb(torch.tensor([pos]))
        for i, block in enumerate(model.blocks):
            h = block.ln1(x)
            C = h.shape[-1]
            q, k, v = (z.view(1, 1, block.attn.n_heads, -1).transpose(1, 2) for z in block.attn.qkv(h).split(C, 2))
            keys[i].append(k)
            values[i].append(v)
            K, V = torch.cat(keys[i], 2), torch.cat(values[i], 2)
            a = torch.softmax(q @ K.transpose(-2, -1) / math.sqrt(K.shape[-1]), -1) @ V
            x = x + block.attn.proj(a.transpose(1, 2).reshape(1, 1, C))
            x = x + block.mlp(block.ln2(x))
        return model.lm_head(model.ln_f(x[:, -1]))

    with torch.no_grad():
        for pos in range(ids.shape[1]):
            logits = step(ids[0, pos], pos)
        out = ids
        for i in range(max_new_tokens):
            nxt = logits.argmax(-1, keepdim=True)
            out = torch.cat([out, nxt], 1)
            if i < max_new_tokens - 1:
                logits = step(nxt[0, 0], out.shape[1] - 1)
    return out


def cached_new_at_position_zero(model, ids, max_new_tokens):
    return _cached(model, ids, max_new_tokens, position_of_new=0)


def cached_recomputes(model, ids, max_new_tokens):
    return _cached(model, ids, max_new_tokens, recompute=True)


def cached_no_length_check(model, ids, max_new_tokens):
    return _cached(model, ids, max_new_tokens, check_length=False)


def cached_unmasked_prefill(
    model, ids, max_new_tokens
):  # "the tokens must equal greedy decoding": no mask in the prefill
    return _cached(model, ids, max_new_tokens, causal_prefill=False)


def cached_drops_prompt(model, ids, max_new_tokens):
    return _cached(model, ids, max_new_tokens)[:, ids.shape[1] :]


def distinct_by_the_helper(sequences, n):  # one call of the page's helper: not the exercise
    from nlp_helpers.sampling.generate import distinct_n

    return distinct_n(sequences, n)


CATALOGUE = {
    ex.check_sampling_by_hand: Catalogue(
        correct=[by_hand_exact, by_hand_computed],
        wrong=[
            Wrong(by_hand_drops_crossing, "one token short"),
            Wrong(by_hand_no_temperature_on_nucleus, "divide the logits by"),
            Wrong(by_hand_not_renormalised, "renormalise over the nucleus"),
            Wrong(by_hand_top_p_first, "before the temperature"),
            Wrong(by_hand_forgot_temperature, "divide the logits by T = 0.5 first"),
            Wrong(by_hand_one_number, "tuple of three numbers"),
            Wrong(by_hand_float_counts, ("counts of tokens", "ints")),
        ],
    ),
    ex.check_rank_hypotheses: Catalogue(
        correct=[rank_sorted, rank_numpy],
        wrong=[
            Wrong(rank_hf_penalty, "((5 + length) / 6)^alpha"),
            Wrong(rank_worst_first, "worst first"),
            Wrong(rank_multiplies, "multiplied"),
            Wrong(rank_unstable, "stable sort"),
            Wrong(rank_no_length_check, ("should raise ValueError", "length below 1")),
            Wrong(rank_negative_alpha_allowed, ("should raise ValueError", "alpha < 0")),
            Wrong(rank_sorts_input, ("modified its input", "`hyps`")),
            Wrong(rank_returns_scores, "list of int indices"),
        ],
    ),
    ex.check_distinct_n: Catalogue(
        correct=[distinct_tuples, distinct_zip],
        wrong=[
            Wrong(distinct_per_sequence, "pooled"),
            Wrong(distinct_by_the_helper, ("`distinct_n`", "build it yourself")),
            Wrong(distinct_joined_with_space, ("collide", "tuple")),
            Wrong(distinct_joined, ("collide", "tuple")),
            Wrong(distinct_zero_when_empty, ("should raise ValueError", "0/0")),
            Wrong(distinct_crashes_on_short, "IndexError"),
            Wrong(distinct_appends_to_input, ("modified its input", "`sequences`")),
        ],
    ),
    ex.check_generate_cached: Catalogue(
        correct=[cached_reference, cached_one_token_at_a_time],
        wrong=[
            Wrong(cached_new_at_position_zero, "absolute position"),
            Wrong(cached_recomputes, "re-run the whole sequence"),
            Wrong(cached_no_length_check, ("should raise ValueError", "block_size")),
            Wrong(cached_drops_prompt, "starting with the prompt"),
            Wrong(cached_unmasked_prefill, ("causal mask", "first step")),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
