"""Catalogue of the decoding page's exercises: requirements, correct answers in several styles (accepted)
and typical wrong answers (rejected with a hint naming the mistake).

* ``best_draft_length(alpha, c, max_gamma)``: E = (1 - alpha^(gamma+1)) / (1 - alpha) (exponent gamma + 1);
  divided by the cost of a round gamma c + 1 (not gamma c, not 1); gamma from 1 to max_gamma inclusive (not 0);
  the limit E = gamma + 1 at alpha = 1; the smallest gamma on a tie; a tuple (int, float); ValueError for alpha
  outside [0, 1], c < 0, max_gamma < 1.
* ``choose_option(logits_fn, prompt_ids, options)``: greedy, token by token (not whole options scored); only
  tokens continuing an option that matches the generated prefix; the last row of the logits; the smallest id on
  a tie; stop when a whole option is generated; return its index (an int); at most one call per token;
  ValueError for a prefix, a duplicate, an empty option, fewer than two options (an empty option is a prefix
  of every other, so an answer that checks prefixes rejects it too: it has no wrong answer of its own).
* ``contrastive_search(model, prompt_ids, k, alpha, max_new_tokens)``: top-k by probability (smaller id first on
  ties); each candidate's own hidden state; the largest cosine similarity to every position, prompt included;
  score (1 - alpha) p - alpha penalty with the probability, not the logit; the earlier candidate on a tie; the
  prompt returned with the new tokens; at most 1 + k model calls per token; ValueError for k < 1, alpha outside
  [0, 1].
"""

from __future__ import annotations

import math

import numpy as np

from nlp_helpers.sampling.decoding_exercises import (
    check_best_draft_length,
    check_choose_option,
    check_contrastive_search,
)
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


# --------------------------------------------------------------------------- best_draft_length
def _validate(alpha, c, max_gamma, *, skip=""):
    if "alpha" not in skip and not 0 <= alpha <= 1:
        raise ValueError("alpha")
    if "c" not in skip and c < 0:
        raise ValueError("c")
    if "max" not in skip and max_gamma < 1:
        raise ValueError("max_gamma")


def gamma_loop(alpha, c, max_gamma):
    _validate(alpha, c, max_gamma)
    best = (1, -1.0)
    for g in range(1, max_gamma + 1):
        s = sum(alpha**i for i in range(g + 1)) / (g * c + 1)
        if s > best[1]:
            best = (g, s)
    return best


def gamma_numpy(alpha, c, max_gamma):
    if not (0.0 <= alpha <= 1.0) or c < 0 or max_gamma < 1:
        raise ValueError("bad arguments")
    g = np.arange(1, max_gamma + 1)
    e = g + 1.0 if alpha == 1 else (1 - alpha ** (g + 1)) / (1 - alpha)
    s = e / (g * c + 1)
    i = int(np.argmax(s))
    return int(g[i]), float(s[i])


def _gamma_variant(e, cost, start=1, stop_offset=1, tie_last=False, skip="", out=tuple):
    def answer(alpha, c, max_gamma):
        _validate(alpha, c, max_gamma, skip=skip)
        best = None
        for g in range(start, max_gamma + stop_offset):
            s = e(alpha, g) / cost(g, c)
            if best is None or s > best[1] or (tie_last and s == best[1]):
                best = (g, s)
        if best is None:
            best = (1, 1.0)
        return out(best)

    return answer


def _e(alpha, g):
    return sum(alpha**i for i in range(g + 1))


def _e_closed(alpha, g):
    return (1 - alpha ** (g + 1)) / (1 - alpha)  # divides by zero at alpha = 1


def _round_cost(g, c):
    return g * c + 1


gamma_short_exponent = _gamma_variant(lambda a, g: sum(a**i for i in range(g)), _round_cost)
gamma_no_cost = _gamma_variant(_e, lambda g, c: 1.0)
gamma_cost_without_target = _gamma_variant(_e, lambda g, c: g * c if g * c else 1e-12)
gamma_misses_max = _gamma_variant(_e, _round_cost, stop_offset=0)
gamma_from_zero = _gamma_variant(_e, _round_cost, start=0)
gamma_tie_last = _gamma_variant(_e, _round_cost, tie_last=True)
gamma_alpha_one = _gamma_variant(_e_closed, _round_cost)
gamma_no_alpha_check = _gamma_variant(
    lambda a, g: sum(min(a, 1.0) ** i for i in range(g + 1)), _round_cost, skip="alpha"
)
gamma_no_c_check = _gamma_variant(_e, lambda g, c: max(g * c + 1, 1e-12), skip="c")
gamma_no_max_check = _gamma_variant(_e, _round_cost, skip="max")
gamma_returns_list = _gamma_variant(_e, _round_cost, out=list)
gamma_float = _gamma_variant(_e, _round_cost, out=lambda b: (float(b[0]), b[1]))


# --------------------------------------------------------------------------- choose_option
def _check_options(options, skip=""):
    if "few" not in skip and len(options) < 2:
        raise ValueError("fewer than two options")
    if "empty" not in skip and any(len(o) == 0 for o in options):
        raise ValueError("an empty option")
    if "dup" not in skip and len({tuple(o) for o in options}) < len(options):
        raise ValueError("a duplicate option")
    if "prefix" not in skip:
        for a in options:
            for b in options:
                if a is not b and len(a) < len(b) and b[: len(a)] == a:
                    raise ValueError("an option is a prefix of another")


def choose_loop(logits_fn, prompt_ids, options):
    options = [list(o) for o in options]
    _check_options(options)
    out = []
    while out not in options:
        allowed = {o[len(out)] for o in options if o[: len(out)] == out}
        row = np.asarray(logits_fn(list(prompt_ids) + out))[-1]
        out.append(min(allowed, key=lambda t: (-row[t], t)))
    return options.index(out)


def choose_trie(logits_fn, prompt_ids, options):
    if len(options) < 2 or not all(options):
        raise ValueError("need two or more non-empty options")
    trie = {}
    for index, option in enumerate(options):
        node = trie
        for tok in option:
            if "end" in node:
                raise ValueError("an option is a prefix of another")
            node = node.setdefault(tok, {})
        if node:
            raise ValueError("an option is a prefix of another, or a duplicate")
        node["end"] = index
    node, ids = trie, list(prompt_ids)
    while "end" not in node:
        row = logits_fn(ids)[-1]
        allowed = sorted(t for t in node if t != "end")
        tok = allowed[int(np.argmax([row[t] for t in allowed]))]  # argmax: the first, smallest id, on a tie
        ids.append(tok)
        node = node[tok]
    return node["end"]


def _choose_variant(row_index=-1, tie_last=False, ignore_prefix=False, steps=None, skip="", out="index", calls=1):
    def answer(logits_fn, prompt_ids, options):
        options = [list(o) for o in options]
        _check_options(options, skip=skip)
        gen = []
        n_steps = max(len(o) for o in options) if steps == "max" else None
        while (gen not in options) if n_steps is None else (len(gen) < n_steps):
            pos = len(gen)
            if ignore_prefix:
                allowed = {o[pos] for o in options if len(o) > pos}
            else:
                allowed = {o[pos] for o in options if o[:pos] == gen}
            for _ in range(calls):
                row = np.asarray(logits_fn(list(prompt_ids) + gen))[row_index]
            sign = -1 if tie_last else 1
            gen.append(min(allowed, key=lambda t: (-row[t], sign * t)))
        return gen if out == "tokens" else options.index(gen)

    return answer


def choose_whole_options(logits_fn, prompt_ids, options):
    _check_options(options)
    scores = []
    for option in options:
        logits = np.asarray(logits_fn(list(prompt_ids) + list(option)))
        logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        scores.append(sum(logp[len(prompt_ids) - 1 + i, t] for i, t in enumerate(option)))
    return int(np.argmax(scores))


choose_ignores_prefix = _choose_variant(ignore_prefix=True)
choose_tie_last = _choose_variant(tie_last=True)
choose_first_row = _choose_variant(row_index=0)
choose_fixed_steps = _choose_variant(steps="max")
choose_returns_tokens = _choose_variant(out="tokens")
choose_twice_per_token = _choose_variant(calls=2)
choose_no_prefix_check = _choose_variant(skip="prefix")
choose_no_duplicate_check = _choose_variant(skip="dup")
choose_no_count_check = _choose_variant(skip="few")


# --------------------------------------------------------------------------- contrastive_search
def _cs(
    weight_p=True,
    sim="cos",
    agg=np.max,
    context="all",
    on="p",
    tie_last=False,
    new_only=False,
    recompute=False,
    check_k=True,
    check_alpha=True,
):
    def answer(model, prompt_ids, k, alpha, max_new_tokens):
        if check_k and k < 1:
            raise ValueError("k")
        if check_alpha and not 0 <= alpha <= 1:
            raise ValueError("alpha")
        ids = list(prompt_ids)
        for _ in range(max_new_tokens):
            logits, hidden = model(ids)
            z = logits[-1]
            p = np.exp(z - z.max())
            p = p / p.sum()
            cands = sorted(range(len(p)), key=lambda v: (-p[v], v))[:k]
            best, best_score = None, -math.inf
            for v in cands:
                if recompute:
                    logits, hidden = model(ids)
                ctx = hidden if context == "all" else hidden[len(prompt_ids) :]
                h = model(ids + [v])[1][-1]
                if sim == "cos":
                    sims = (ctx @ h) / (np.linalg.norm(ctx, axis=1) * np.linalg.norm(h))
                else:
                    sims = ctx @ h
                penalty = agg(sims) if len(sims) else 0.0
                conf = p[v] if on == "p" else z[v]
                score = (1 - alpha if weight_p else 1.0) * conf - alpha * penalty
                if score > best_score or (tie_last and score == best_score):
                    best, best_score = v, score
            ids.append(best)
        return ids[len(prompt_ids) :] if new_only else ids

    return answer


def cs_vectorised(model, prompt_ids, k, alpha, max_new_tokens):
    if not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be an int >= 1, got {k}")
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha}")
    ids = list(prompt_ids)
    for _ in range(max_new_tokens):
        logits, hidden = model(ids)
        z = logits[-1]
        p = np.exp(z - np.max(z))
        p /= p.sum()
        cands = np.argsort(-p, kind="stable")[:k]
        hs = np.stack([model(ids + [int(v)])[1][-1] for v in cands])
        hs = hs / np.linalg.norm(hs, axis=1, keepdims=True)
        ctx = hidden / np.linalg.norm(hidden, axis=1, keepdims=True)
        scores = (1 - alpha) * p[cands] - alpha * (hs @ ctx.T).max(axis=1)
        ids.append(int(cands[np.argmax(scores)]))
    return ids


for _name, _obj in list(globals().items()):
    if callable(_obj) and getattr(_obj, "__name__", "") == "answer":
        _obj.__name__ = _name  # readable test ids and messages


def choose_prefix_one_way(logits_fn, prompt_ids, options):  # only "a later option is a prefix of an earlier one"
    _check_options(options, skip="prefix")
    for i, a in enumerate(options):
        for b in options[i + 1 :]:
            if len(b) < len(a) and list(a[: len(b)]) == list(b):
                raise ValueError("an option is a prefix of another")
    return choose_no_prefix_check(logits_fn, prompt_ids, options)


CATALOGUE = {
    check_best_draft_length: Catalogue(
        correct=[gamma_loop, gamma_numpy],
        wrong=[
            Wrong(gamma_short_exponent, "gamma + 1"),
            Wrong(gamma_no_cost, "gamma * c + 1"),
            Wrong(gamma_cost_without_target, "not gamma * c"),
            Wrong(gamma_misses_max, "inclusive"),
            Wrong(gamma_from_zero, "gamma = 0"),
            Wrong(gamma_tie_last, "smallest gamma"),
            Wrong(gamma_alpha_one, "limit"),
            Wrong(gamma_no_alpha_check, "[0, 1]"),
            Wrong(gamma_no_c_check, "c < 0"),
            Wrong(gamma_no_max_check, "at least 1"),
            Wrong(gamma_returns_list, "tuple"),
            Wrong(gamma_float, "should be an int"),
        ],
    ),
    check_choose_option: Catalogue(
        correct=[choose_loop, choose_trie],
        wrong=[
            Wrong(choose_whole_options, "do not score whole options"),
            Wrong(choose_ignores_prefix, "matching what you generated so far"),
            Wrong(choose_tie_last, "smallest token id"),
            Wrong(choose_first_row, "LAST row"),
            Wrong(choose_fixed_steps, "Stop as soon as"),
            Wrong(choose_returns_tokens, "index of the option"),
            Wrong(choose_twice_per_token, "once per generated token"),
            Wrong(choose_no_prefix_check, "prefix"),
            Wrong(choose_prefix_one_way, "both orders"),
            Wrong(choose_no_duplicate_check, "duplicate"),
            Wrong(choose_no_count_check, "fewer than two"),
        ],
    ),
    check_contrastive_search: Catalogue(
        correct=[_cs(), cs_vectorised],
        wrong=[
            Wrong(_cs(weight_p=False), "confidence too"),
            Wrong(_cs(sim="dot"), "cosine"),
            Wrong(_cs(agg=np.min), "LARGEST cosine"),
            Wrong(_cs(agg=np.mean), "LARGEST cosine"),
            Wrong(_cs(context="generated"), "prompt included"),
            Wrong(_cs(on="logits"), "not the raw logit"),
            Wrong(_cs(tie_last=True), "earlier candidate"),
            Wrong(_cs(new_only=True), "prompt followed by the new tokens"),
            Wrong(_cs(recompute=True), "at most 1 + k"),
            Wrong(_cs(check_k=False), "k must be at least 1"),
            Wrong(_cs(check_alpha=False), "alpha must be in [0, 1]"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
