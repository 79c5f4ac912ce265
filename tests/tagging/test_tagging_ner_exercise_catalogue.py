"""Catalogue of the exercises of ``book/tagging/ner.ipynb`` added with its ner_exercises module.

* ``spans_to_bioes(spans, n)``: S- for one word, B- I-... E- for longer entities, O elsewhere; end exclusive;
  spans in any order; adjacent entities of one type stay two; ValueError for overlaps and for spans outside
  0 <= start < end <= n (past the end, before the start, empty or reversed).
* ``span_f1_by_type(gold, pred)``: one key per type among gold or predicted entities plus "macro"; entities read
  as conlleval does; an entity matches only in its own sentence; precision over predicted, recall over gold; 0
  for an empty denominator (no ZeroDivisionError); types from the gold and the predicted entities; macro = the
  unweighted mean over types, not the pooled (micro) score.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.tagging.ner_exercises import check_span_f1_by_type, check_spans_to_bioes
from nlp_helpers.tagging.spans import span_f1, tag_spans
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def _check(spans, n):
    taken = [False] * n
    for _, s, e in spans:
        if not 0 <= s < e <= n:
            raise ValueError("span out of range")
        if any(taken[s:e]):
            raise ValueError("overlap")
        taken[s:e] = [True] * (e - s)


def bioes_loop(spans, n):
    _check(spans, n)
    tags = ["O"] * n
    for kind, s, e in spans:
        for i in range(s, e):
            tags[i] = ("S-" if e - s == 1 else "B-" if i == s else "E-" if i == e - 1 else "I-") + kind
    return tags


def bioes_from_bio(spans, n):
    _check(spans, n)
    tags = ["O"] * n
    for kind, s, e in sorted(spans, key=lambda x: x[1]):
        tags[s:e] = [f"B-{kind}"] + [f"I-{kind}"] * (e - s - 1)
    out = []
    for i, t in enumerate(tags):
        nxt = tags[i + 1] if i + 1 < n else "O"
        ends = t != "O" and not nxt.startswith("I-")
        out.append(t if t == "O" else ({"B": "S", "I": "E"}[t[0]] if ends else t[0]) + t[1:])
    return out


def bioes_returns_bio(spans, n):
    _check(spans, n)
    tags = ["O"] * n
    for kind, s, e in spans:
        tags[s:e] = [f"B-{kind}"] + [f"I-{kind}"] * (e - s - 1)
    return tags


def bioes_inclusive_end(spans, n):
    _check(spans, n)
    return bioes_loop([(k, s, min(e + 1, n)) for k, s, e in spans], n)


def bioes_no_overlap_check(spans, n):
    tags = ["O"] * n
    for kind, s, e in spans:
        if not 0 <= s < e <= n:
            raise ValueError("span out of range")
        tags[s:e] = bioes_loop([(kind, 0, e - s)], e - s)
    return tags


def bioes_no_range_check(spans, n):
    tags = ["O"] * n
    for kind, s, e in spans:
        if any(t != "O" for t in tags[s:e]):
            raise ValueError("overlap")
        tags[s:e] = bioes_loop([(kind, 0, e - s)], e - s)
    return tags[:n]


def _entities(sentences):
    return {(i, *s) for i, tags in enumerate(sentences) for s in tag_spans(tags)}


def f1_sets(gold, pred, swap=False, micro_macro=False):
    g_all, p_all = _entities(gold), _entities(pred)
    out = {}
    for kind in sorted({e[1] for e in g_all | p_all}):
        g = {e for e in g_all if e[1] == kind}
        p = {e for e in p_all if e[1] == kind}
        prec = len(g & p) / len(p) if p else 0.0
        rec = len(g & p) / len(g) if g else 0.0
        if swap:
            prec, rec = rec, prec
        out[kind] = (prec, rec, 2 * prec * rec / (prec + rec) if prec + rec else 0.0)
    if micro_macro:
        s = span_f1(gold, pred)
        out["macro"] = (s.precision, s.recall, s.f1)
    else:
        out["macro"] = tuple(float(np.mean([v[k] for v in out.values()])) for k in range(3))
    return out


def f1_package(gold, pred):
    kinds = sorted({s[0] for tags in gold + pred for s in tag_spans(tags)})
    out = {}
    for kind in kinds:
        keep = [[t if t[2:] == kind else "O" for t in tags] for tags in gold]
        keep_p = [[t if t[2:] == kind else "O" for t in tags] for tags in pred]
        s = span_f1(keep, keep_p)
        out[kind] = (s.precision, s.recall, s.f1)
    out["macro"] = tuple(float(np.mean([v[k] for v in out.values()])) for k in range(3))
    return out


def f1_b_only(gold, pred):  # reads entities only at B- tags: misses I- after O
    def spans(tags):
        out, cur = [], None
        for i, t in enumerate(tags + ["O"]):
            if cur and not (t.startswith("I-") and t[2:] == cur[0]):
                out.append((cur[0], cur[1], i))
                cur = None
            if t.startswith("B-"):
                cur = (t[2:], i)
        return out

    g_all = {(i, *s) for i, t in enumerate(gold) for s in spans(t)}
    p_all = {(i, *s) for i, t in enumerate(pred) for s in spans(t)}
    out = {}
    for kind in sorted({e[1] for e in g_all | p_all}):
        g = {e for e in g_all if e[1] == kind}
        p = {e for e in p_all if e[1] == kind}
        prec = len(g & p) / len(p) if p else 0.0
        rec = len(g & p) / len(g) if g else 0.0
        out[kind] = (prec, rec, 2 * prec * rec / (prec + rec) if prec + rec else 0.0)
    out["macro"] = tuple(float(np.mean([v[k] for v in out.values()])) for k in range(3))
    return out


# ----- second pass over the statements: each stated requirement broken alone
def bioes_checks_end_only(spans, n):  # "0 <= start < end <= n": only the end is checked
    tags = ["O"] * n
    for kind, s, e in spans:
        if e > n:
            raise ValueError(f"span {(kind, s, e)} ends after the sentence of {n} words")
        if any(t != "O" for t in tags[s:e]):
            raise ValueError("overlap")
        tags[s:e] = bioes_loop([(kind, 0, e - s)], e - s) if e > s else []
    return tags


def bioes_merges_adjacent(spans, n):  # "two adjacent entities of the same type stay two entities"
    _check(spans, n)
    kinds = ["O"] * n
    for kind, s, e in spans:
        kinds[s:e] = [kind] * (e - s)
    tags = []
    for i, k in enumerate(kinds):
        first = i == 0 or kinds[i - 1] != k
        last = i == n - 1 or kinds[i + 1] != k
        tags.append("O" if k == "O" else ("S-" if first and last else "B-" if first else "E-" if last else "I-") + k)
    return tags


def bioes_assumes_sorted(spans, n):  # "the list may be in any order": overlaps tested on neighbours as given
    for (_, _, e1), (_, s2, _) in zip(spans, spans[1:]):
        if s2 < e1:
            raise ValueError("spans overlap")
    return bioes_loop(spans, n)


def _per_type(g_all, p_all, kinds):
    out = {}
    for kind in kinds:
        g = [e for e in g_all if e[-3] == kind]
        p = [e for e in p_all if e[-3] == kind]
        hit = len([e for e in p if e in g])
        prec = hit / len(p) if p else 0.0
        rec = hit / len(g) if g else 0.0
        out[kind] = (prec, rec, 2 * prec * rec / (prec + rec) if prec + rec else 0.0)
    out["macro"] = tuple(float(np.mean([v[k] for v in out.values()])) for k in range(3))
    return out


def f1_gold_types_only(gold, pred):  # "every type among the gold OR the predicted entities"
    g_all, p_all = _entities(gold), _entities(pred)
    return _per_type(g_all, p_all, sorted({e[1] for e in g_all}))


def f1_divides_by_zero(gold, pred):  # "a ratio with a zero denominator is 0"
    g_all, p_all = _entities(gold), _entities(pred)
    out = {}
    for kind in sorted({e[1] for e in g_all | p_all}):
        g = {e for e in g_all if e[1] == kind}
        p = {e for e in p_all if e[1] == kind}
        prec, rec = len(g & p) / len(p), len(g & p) / len(g)
        out[kind] = (prec, rec, 2 * prec * rec / (prec + rec) if prec + rec else 0.0)
    out["macro"] = tuple(float(np.mean([v[k] for v in out.values()])) for k in range(3))
    return out


def f1_ignores_sentence(gold, pred):  # "correct only with its sentence": entities pooled as (type, start, end)
    g_all = {s for tags in gold for s in tag_spans(tags)}
    p_all = {s for tags in pred for s in tag_spans(tags)}
    return _per_type(g_all, p_all, sorted({e[0] for e in g_all | p_all}))


CATALOGUE = {
    check_spans_to_bioes: Catalogue(
        correct=[bioes_loop, bioes_from_bio],
        wrong=[
            Wrong(bioes_returns_bio, "returned BIO tags"),
            Wrong(bioes_inclusive_end, "exclusive"),
            Wrong(bioes_no_overlap_check, "Overlapping"),
            Wrong(bioes_no_range_check, "ends after the sentence"),
            Wrong(bioes_checks_end_only, ("both ends of every span", "empty span")),
            Wrong(bioes_merges_adjacent, "adjacent entities of one type"),
            Wrong(bioes_assumes_sorted, ("these spans are valid", "any order")),
        ],
    ),
    check_span_f1_by_type: Catalogue(
        correct=[f1_sets, f1_package],
        wrong=[
            Wrong(lambda g, p: f1_sets(g, p, swap=True), "swapped"),
            Wrong(lambda g, p: f1_sets(g, p, micro_macro=True), "micro average"),
            Wrong(f1_b_only, "conlleval"),
            Wrong(f1_gold_types_only, "gold or the predicted"),
            Wrong(f1_divides_by_zero, ("ZeroDivisionError", "zero denominator is 0")),
            Wrong(f1_ignores_sentence, "its sentence"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
