"""Catalogue of the sampling chapter's exercises: what each statement requires, correct answers in several
styles (all accepted) and the typical wrong answers (each rejected with a hint naming its mistake).

Requirements (one wrong answer or more each):

* ``softmax_with_temperature(logits, T)``: divide by T; stable for logits ~1000; T = 0 is greedy with ties
  sharing the mass; T < 0 raises ValueError; the input array is left as it was.
* ``top_k_probs(logits, k)``: renormalised over the k largest; ties with the k-th kept; k >= V keeps all.
* ``nucleus(probs, p)``: the token that crosses p is in; a list sorted by index; the input is not sorted in place.
* ``sample_index(probs, u)``: first index with cdf > u (strict); never a probability-0 token; u >= cdf[-1]
  by rounding gives the last positive token, not len(probs).
* ``distinct_n(sequences, n)``: pooled over sequences; short sequences add nothing; n-grams are tuples
  (joined strings collide); ValueError when there is no n-gram at all.
* ``generate_cached(model, ids, n)``: absolute positions; only the newest token after the prefill; prompt kept;
  ValueError beyond block_size.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.sampling import exercises as ex
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test
from tests.sampling.test_sampling_exercises import _cached


# ---------------------------------------------------------------- softmax with temperature
def softmax_numpy(logits, temperature):
    if temperature < 0:
        raise ValueError("temperature must be >= 0")
    z = np.asarray(logits, dtype=float)
    if temperature == 0:
        top = (z == z.max()).astype(float)
        return top / top.sum()
    e = np.exp((z - z.max()) / temperature)
    return e / e.sum()


def softmax_logsumexp(logits, temperature):
    if temperature < 0:
        raise ValueError(f"negative temperature {temperature}")
    z = np.array(logits, dtype=float)
    if temperature == 0:
        return np.where(z == z.max(), 1.0 / np.sum(z == z.max()), 0.0)
    z = z / temperature
    m = z.max()
    return np.exp(z - (m + np.log(np.sum(np.exp(z - m)))))


def softmax_no_shift(logits, temperature):
    if temperature <= 0:
        return softmax_numpy(logits, temperature)
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(np.asarray(logits, dtype=float) / temperature)
        return e / e.sum()


def softmax_times_t(logits, temperature):
    if temperature <= 0:
        return softmax_numpy(logits, temperature)
    return softmax_numpy(np.asarray(logits, dtype=float) * temperature**2, temperature)


def softmax_t0_raises(logits, temperature):
    if temperature <= 0:
        raise ValueError("temperature must be > 0")
    return softmax_numpy(logits, temperature)


def softmax_t0_argmax(logits, temperature):
    if temperature == 0:
        return np.eye(len(logits))[int(np.argmax(logits))]
    return softmax_numpy(logits, temperature)


def softmax_negative_allowed(logits, temperature):
    return softmax_numpy(logits, abs(temperature))


def softmax_in_place(logits, temperature):
    if temperature > 0:
        logits /= temperature  # changes the caller's array
        return softmax_numpy(logits, 1.0)
    return softmax_numpy(logits, temperature)


# ---------------------------------------------------------------- top-k
def top_k_sort(logits, k):
    z = np.asarray(logits, dtype=float)
    kth = np.sort(z)[::-1][min(k, z.size) - 1]
    e = np.where(z >= kth, np.exp(z - z.max()), 0.0)
    return e / e.sum()


def top_k_partition(logits, k):
    z = np.asarray(logits, dtype=float)
    k = min(k, z.size)
    kth = np.partition(z, z.size - k)[z.size - k]
    kept = np.where(z < kth, -np.inf, z)
    p = np.exp(kept - kept.max())
    return p / p.sum()


def top_k_argsort(logits, k):  # exactly k tokens: a tie with the k-th is cut by index
    z = np.asarray(logits, dtype=float)
    keep = np.argsort(-z, kind="stable")[:k]
    e = np.zeros_like(z)
    e[keep] = np.exp(z[keep] - z.max())
    return e / e.sum()


def top_k_not_renormalised(logits, k):
    p = softmax_numpy(logits, 1.0)
    kth = np.sort(p)[::-1][min(k, len(p)) - 1]
    return np.where(p >= kth, p, 0.0)


def top_k_index_error(logits, k):  # np.sort(z)[-k] fails when k > V
    z = np.asarray(logits, dtype=float)
    kth = np.sort(z)[-k]
    e = np.where(z >= kth, np.exp(z - z.max()), 0.0)
    return e / e.sum()


def top_k_in_place(logits, k):
    kth = np.sort(logits)[::-1][min(k, len(logits)) - 1]
    logits[logits < kth] = -np.inf
    return softmax_numpy(logits, 1.0)


# ---------------------------------------------------------------- nucleus
def nucleus_loop(probs, p):
    kept, total = [], 0.0
    for i in np.argsort(probs)[::-1]:
        kept.append(int(i))
        total += probs[i]
        if total >= p:
            break
    return sorted(kept)


def nucleus_cumsum(probs, p):
    order = np.argsort(-np.asarray(probs))
    cum = np.cumsum(np.asarray(probs)[order])
    n = int(np.searchsorted(cum, p - 1e-12)) + 1
    return sorted(order[:n].tolist())


def nucleus_unsorted(probs, p):  # in order of probability, not of index
    order = np.argsort(-np.asarray(probs))
    cum = np.cumsum(np.asarray(probs)[order])
    return order[: int(np.searchsorted(cum, p - 1e-12)) + 1].tolist()


def nucleus_drops_crossing(probs, p):
    kept, total = [], 0.0
    for i in np.argsort(probs)[::-1]:
        if total + probs[i] > p:
            break
        kept.append(int(i))
        total += probs[i]
    return sorted(kept)


def nucleus_sorts_in_place(probs, p):
    order = np.argsort(-probs)
    probs.sort()  # sorts the caller's array
    return nucleus_cumsum(np.asarray(probs)[::-1][np.argsort(order)], p)


# ---------------------------------------------------------------- sample_index
def sample_searchsorted(probs, u):
    i = int(np.searchsorted(np.cumsum(probs), u, side="right"))
    return min(i, int(np.flatnonzero(np.asarray(probs) > 0)[-1]))


def sample_loop(probs, u):
    total, last = 0.0, 0
    for i, p in enumerate(probs):
        if p > 0:
            last = i
        total += p
        if u < total:
            return i
    return last


def sample_left(probs, u):  # side="left": u == cdf[i] picks token i (probability 0 at a boundary)
    return int(np.searchsorted(np.cumsum(probs), u, side="left"))


def sample_runs_off_the_end(probs, u):  # 10 for ten probabilities 0.1 and u = 0.9999999999999999
    return int(np.searchsorted(np.cumsum(probs), u, side="right"))


def sample_clamps_to_last_index(probs, u):  # clamps to len - 1, which may have probability 0
    return min(int(np.searchsorted(np.cumsum(probs), u, side="right")), len(probs) - 1)


def sample_argmax(probs, u):
    return int(np.argmax(probs))


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


def cached_drops_prompt(model, ids, max_new_tokens):
    return _cached(model, ids, max_new_tokens)[:, ids.shape[1] :]


CATALOGUE = {
    ex.check_softmax_with_temperature: Catalogue(
        correct=[softmax_numpy, softmax_logsumexp],
        wrong=[
            Wrong(softmax_no_shift, "subtract the largest logit"),
            Wrong(softmax_times_t, "divide the logits by the temperature"),
            Wrong(softmax_t0_raises, "Temperature 0 is the limit"),
            Wrong(softmax_t0_argmax, "split the mass equally"),
            Wrong(softmax_negative_allowed, ("should raise ValueError", "negative")),
            Wrong(softmax_in_place, ("modified its input", "`logits`")),
        ],
    ),
    ex.check_top_k_probs: Catalogue(
        correct=[top_k_sort, top_k_partition],
        wrong=[
            Wrong(top_k_argsort, "tie"),
            Wrong(top_k_not_renormalised, "renormalise"),
            Wrong(top_k_index_error, ("IndexError",)),
            Wrong(top_k_in_place, ("modified its input", "`logits`")),
        ],
    ),
    ex.check_nucleus: Catalogue(
        correct=[nucleus_loop, nucleus_cumsum],
        wrong=[
            Wrong(nucleus_unsorted, ("sorted in increasing order",)),
            Wrong(nucleus_drops_crossing, "crosses p"),
            Wrong(nucleus_sorts_in_place, ("modified its input", "`probs`")),
        ],
    ),
    ex.check_sample_index: Catalogue(
        correct=[sample_searchsorted, sample_loop],
        wrong=[
            Wrong(sample_left, "strictly greater"),
            Wrong(sample_runs_off_the_end, ("0.9999999999999999", "runs off the end")),
            Wrong(sample_clamps_to_last_index, ("last token with positive probability",)),
            Wrong(sample_argmax, "strictly greater"),
        ],
    ),
    ex.check_distinct_n: Catalogue(
        correct=[distinct_tuples, distinct_zip],
        wrong=[
            Wrong(distinct_per_sequence, "pooled"),
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
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
