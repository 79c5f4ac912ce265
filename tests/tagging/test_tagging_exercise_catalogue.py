"""Catalogue of the tagging chapter's exercises: requirements, correct answers in several styles (accepted)
and typical wrong answers (rejected with a hint naming the mistake).

* ``shape(word)``: X / x / d per character for any alphabet (é), other characters kept, no collapsing.
* ``bio_spans(tags)``: (type, start, end) with end exclusive; an entity at the end; B- after B- of the
  same type starts a new entity; empty input.
* ``span_prf(gold, pred)``: type and both boundaries must match; duplicates count once; 0/0 gives 0.
* ``fast_viterbi``: a path of T states and the max log score (sums of logs); back-pointers reversed.
* ``crf_forward``: log-sum-exp over all paths (not the max); stable for scores in the hundreds.
"""

from __future__ import annotations

import re

import numpy as np
from scipy.special import logsumexp

from nlp_helpers.tagging import exercises as ex
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


# ---------------------------------------------------------------- word shapes
def shape_loop(word):
    out = []
    for c in word:
        out.append("X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c)
    return "".join(out)


def shape_translate(word):
    table = {c: "X" if c.isupper() else "x" if c.islower() else "d" for c in set(word) if c.isalnum()}
    return word.translate(str.maketrans(table))


def shape_regex_ascii(word):  # [A-Z] / [a-z] miss é
    return re.sub(r"[0-9]", "d", re.sub(r"[a-z]", "x", re.sub(r"[A-Z]", "X", word)))


def shape_short(word):  # collapses repeated symbols: the short shape
    out = ""
    for ch in shape_loop(word):
        if not out or out[-1] != ch:
            out += ch
    return out


def shape_drops_punctuation(word):
    return "".join("X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else "" for c in word)


# ---------------------------------------------------------------- BIO spans
def spans_loop(tags):
    spans, current = [], None
    for i, tag in enumerate([*tags, "O"]):
        if current and not (tag.startswith("I-") and tag[2:] == current[0]):
            spans.append((current[0], current[1], i))
            current = None
        if tag.startswith("B-"):
            current = (tag[2:], i)
    return spans


def spans_starts_then_scan(tags):
    spans = []
    for i, tag in enumerate(tags):
        if tag.startswith("B-"):
            end = i + 1
            while end < len(tags) and tags[end] == "I-" + tag[2:]:
                end += 1
            spans.append((tag[2:], i, end))
    return spans


def spans_inclusive_end(tags):
    return [(k, s, e - 1) for k, s, e in spans_loop(tags)]


def spans_loses_last(tags):
    spans, current = [], None
    for i, tag in enumerate(tags):
        if current and not (tag.startswith("I-") and tag[2:] == current[0]):
            spans.append((current[0], current[1], i))
            current = None
        if tag.startswith("B-"):
            current = (tag[2:], i)
    return spans


def spans_merges_b_after_b(tags):  # only a type change or O closes an entity
    spans, current = [], None
    for i, tag in enumerate([*tags, "O"]):
        kind = tag[2:] if tag != "O" else None
        if current and kind != current[0]:
            spans.append((current[0], current[1], i))
            current = None
        if tag != "O" and current is None:
            current = (kind, i)
    return spans


# ---------------------------------------------------------------- span P/R/F1
def prf_sets(gold, pred):
    gold, pred = set(gold), set(pred)
    correct = len(gold & pred)
    p = correct / len(pred) if pred else 0.0
    r = correct / len(gold) if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def prf_counts(gold, pred):
    g, q = sorted(set(map(tuple, gold))), sorted(set(map(tuple, pred)))
    tp = sum(1 for s in q if s in g)
    p = np.divide(tp, len(q)) if q else 0.0
    r = np.divide(tp, len(g)) if g else 0.0
    f = 0.0 if p + r == 0 else float(2 * p * r / (p + r))
    return float(p), float(r), f


def prf_ignores_type(gold, pred):
    return prf_sets([(s, e) for _, s, e in gold], [(s, e) for _, s, e in pred])


def prf_counts_duplicates(gold, pred):
    correct = sum(1 for s in pred if s in set(gold))
    p = correct / len(pred) if pred else 0.0
    r = correct / len(gold) if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def prf_divides_by_zero(gold, pred):
    gold, pred = set(gold), set(pred)
    correct = len(gold & pred)
    p, r = correct / len(pred), correct / len(gold)
    return p, r, 2 * p * r / (p + r)


def prf_f1_is_mean(gold, pred):
    p, r, _ = prf_sets(gold, pred)
    return p, r, (p + r) / 2


# ---------------------------------------------------------------- Viterbi
def viterbi_vectorised(log_start, log_trans, log_em):
    T, _ = log_em.shape
    v, backs = log_start + log_em[0], []
    for t in range(1, T):
        cand = v[:, None] + log_trans
        backs.append(cand.argmax(0))
        v = cand.max(0) + log_em[t]
    path = [int(v.argmax())]
    for b in reversed(backs):
        path.append(int(b[path[-1]]))
    return path[::-1], float(v.max())


def viterbi_table(log_start, log_trans, log_em):
    T, K = log_em.shape
    V, B = np.empty((T, K)), np.zeros((T, K), dtype=int)
    V[0] = log_start + log_em[0]
    for t in range(1, T):
        scores = V[t - 1][:, None] + log_trans
        B[t], V[t] = scores.argmax(0), scores.max(0) + log_em[t]
    path = [int(V[-1].argmax())]
    for t in range(T - 1, 0, -1):
        path.insert(0, int(B[t, path[0]]))
    return path, float(V[-1].max())


def viterbi_not_reversed(log_start, log_trans, log_em):
    path, score = viterbi_vectorised(log_start, log_trans, log_em)
    return path[::-1], score


def viterbi_multiplies(log_start, log_trans, log_em):
    T, _ = log_em.shape
    v = log_start * log_em[0]
    for t in range(1, T):
        v = (v[:, None] * log_trans).max(0) * log_em[t]
    return viterbi_vectorised(log_start, log_trans, log_em)[0], float(v.max())


def viterbi_greedy(log_start, log_trans, log_em):  # best state per step, no back-pointers
    path, prev = [], None
    score = 0.0
    for t in range(len(log_em)):
        s = (log_start if prev is None else log_trans[prev]) + log_em[t]
        prev = int(s.argmax())
        score += float(s.max())
        path.append(prev)
    return path, score


# ---------------------------------------------------------------- CRF forward
def forward_manual(emissions, transitions):
    alpha = np.asarray(emissions[0], float)
    for t in range(1, len(emissions)):
        s = alpha[:, None] + transitions
        m = s.max(0)
        alpha = m + np.log(np.exp(s - m).sum(0)) + emissions[t]
    m = alpha.max()
    return float(m + np.log(np.exp(alpha - m).sum()))


def forward_scipy(emissions, transitions):
    alpha = emissions[0]
    for t in range(1, len(emissions)):
        alpha = logsumexp(alpha[:, None] + transitions, axis=0) + emissions[t]
    return float(logsumexp(alpha))


def forward_max(emissions, transitions):  # Viterbi's max instead of a sum
    alpha = emissions[0]
    for t in range(1, len(emissions)):
        alpha = (alpha[:, None] + transitions).max(0) + emissions[t]
    return float(alpha.max())


def forward_overflows(emissions, transitions):
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        alpha = np.exp(emissions[0])
        for t in range(1, len(emissions)):
            alpha = (alpha[:, None] * np.exp(transitions)).sum(0) * np.exp(emissions[t])
        return float(np.log(alpha.sum()))


CATALOGUE = {
    ex.check_word_shape: Catalogue(
        correct=[shape_loop, shape_translate],
        wrong=[
            Wrong(shape_regex_ascii, "é"),
            Wrong(shape_short, "short"),
            Wrong(shape_drops_punctuation, "keep '.', '-'"),
        ],
    ),
    ex.check_bio_spans: Catalogue(
        correct=[spans_loop, spans_starts_then_scan],
        wrong=[
            Wrong(spans_inclusive_end, "exclusive"),
            Wrong(spans_loses_last, "very end"),
            Wrong(spans_merges_b_after_b, "B- tag always starts a new entity"),
        ],
    ),
    ex.check_span_prf: Catalogue(
        correct=[prf_sets, prf_counts],
        wrong=[
            Wrong(prf_ignores_type, ("wrong type",)),
            Wrong(prf_counts_duplicates, "counts once"),
            Wrong(prf_divides_by_zero, ("ZeroDivisionError",)),
            Wrong(prf_f1_is_mean, "harmonic mean"),
        ],
    ),
    ex.check_viterbi: Catalogue(
        correct=[viterbi_vectorised, viterbi_table],
        wrong=[
            Wrong(viterbi_not_reversed, "reverse"),
            Wrong(viterbi_multiplies, "never multiply"),
            Wrong(viterbi_greedy, "max_i"),
        ],
    ),
    ex.check_crf_forward: Catalogue(
        correct=[forward_manual, forward_scipy],
        wrong=[
            Wrong(forward_max, "sums"),
            Wrong(forward_overflows, ("overflows", "log-sum-exp")),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
