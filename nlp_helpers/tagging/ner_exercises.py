"""Checkers for the exercises of the page "Named entities: BIO tags and the BiLSTM-CRF" (``book/tagging/ner.ipynb``).

* :func:`check_spans_to_bioes`: entity spans to BIOES tags, compared with a reference written here and
  checked back with :func:`nlp_helpers.tagging.spans.tag_spans` (BIOES read as IOB2 after E- -> I-, S- -> B-).
* :func:`check_span_f1_by_type`: span precision, recall and F1 per entity type and their macro average,
  compared with :func:`nlp_helpers.tagging.spans.span_f1` run on one type at a time (itself tested
  against seqeval).

Each checker also computes the answers of typical mistakes, so that a wrong answer gets a hint naming its mistake.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.tagging.spans import span_f1, tag_spans

__all__ = ["check_span_f1_by_type", "check_spans_to_bioes"]


def _bioes(spans, n, scheme="bioes"):
    tags = ["O"] * n
    for kind, start, end in spans:
        if scheme == "bio":
            tags[start:end] = [f"B-{kind}"] + [f"I-{kind}"] * (end - start - 1)
        elif end - start == 1:
            tags[start] = f"S-{kind}"
        else:
            tags[start:end] = [f"B-{kind}"] + [f"I-{kind}"] * (end - start - 2) + [f"E-{kind}"]
    return tags


def _merge_adjacent(spans):
    out = []
    for kind, start, end in sorted(spans, key=lambda s: s[1]):
        if out and out[-1][0] == kind and out[-1][2] == start:
            out[-1] = (kind, out[-1][1], end)
        else:
            out.append((kind, start, end))
    return out


def check_spans_to_bioes(fn: Callable) -> CheckResult:
    """``fn(spans, n)`` -> a list of ``n`` BIOES tags for end-exclusive ``(type, start, end)`` spans."""
    cases = [
        ([("PER", 0, 2), ("ORG", 3, 5), ("LOC", 6, 8)], 8),
        ([("PER", 1, 2)], 3),
        ([("PER", 0, 2), ("PER", 2, 4)], 4),  # two adjacent entities of one type
        ([("ORG", 0, 4)], 5),
        ([("LOC", 4, 5), ("PER", 0, 1)], 5),  # spans given out of order
        ([], 3),
        ([], 0),
    ]
    with Checker("From spans to BIOES tags") as ex:
        for spans, n in cases:
            what = f"spans_to_bioes({spans}, {n})"
            got, error = ex.try_call(fn, spans, n)
            if isinstance(error, ValueError):
                ex.fail(
                    f"{what} raised ValueError ({error}), but these spans are valid: they may come in any order, "
                    "and a span that starts where another ends does not overlap it (the end is exclusive)."
                )
            if error is not None:
                ex.fail(f"calling {what} raised {type(error).__name__}: {error}.")
            want = _bioes(spans, n)
            if got != want:
                merged = _merge_adjacent(spans)
                if merged != sorted(spans, key=lambda s: s[1]) and got == _bioes(merged, n):
                    ex.fail(
                        f"{what} merged two adjacent entities of one type into one: each span is an entity of its "
                        "own, so each gets its own B- ... E- (or S-)."
                    )
                if got == _bioes(spans, n, "bio"):
                    ex.fail(f"{what} returned BIO tags: a one-word entity is S-, the last word of a longer one E-.")
                if isinstance(got, list) and len(got) == n:
                    ends = [(s, e) for _, s, e in spans]
                    shifted = ["O"] * n
                    for kind, s, e in spans:
                        if e <= n and e - s > 0:
                            seg = _bioes([(kind, s, min(e + 1, n))], n)[s : min(e + 1, n)]
                            shifted[s : min(e + 1, n)] = seg
                    if ends and got == shifted:
                        ex.fail(f"{what}: the end of a span is exclusive; the entity's last word is end - 1.")
                ex.expect_equal(
                    got,
                    want,
                    what=what,
                    hint="B- on the first word, I- inside, E- on the last, S- for a one-word entity, O elsewhere.",
                )
            ex.expect(
                tag_spans([t.replace("E-", "I-").replace("S-", "B-") for t in got])
                == sorted(spans, key=lambda s: s[1]),
                f"{what}: reading your tags back does not give the spans.",
            )
        ex.expect_raises(
            ValueError,
            fn,
            [("PER", 0, 2), ("ORG", 1, 3)],
            4,
            what="spans_to_bioes([('PER', 0, 2), ('ORG', 1, 3)], 4)",
            hint="Overlapping spans cannot be written as one tag per word: check for overlaps.",
        )
        ex.expect_raises(
            ValueError,
            fn,
            [("PER", 2, 5)],
            4,
            what="spans_to_bioes([('PER', 2, 5)], 4)",
            hint="A span that ends after the sentence is an error: check every span against the sentence length before you tag.",
        )
        for spans, n, wrong in (
            ([("PER", 2, 2)], 4, "an empty span (start == end) holds no word"),
            ([("PER", -1, 1)], 3, "a span cannot start before the sentence (start < 0)"),
            ([("PER", 3, 1)], 4, "a span cannot end before it starts"),
        ):
            ex.expect_raises(
                ValueError,
                fn,
                spans,
                n,
                what=f"spans_to_bioes({spans}, {n})",
                hint=f"Check both ends of every span against the sentence, and that it holds a word: {wrong}.",
            )
    return ex.result


def _by_type(gold, pred) -> dict[str, tuple[float, float, float]]:
    types = sorted({k for tags in gold + pred for k, _, _ in tag_spans(tags)})
    out = {}
    for kind in types:

        def keep(tags, kind=kind):
            return [t if t != "O" and t[2:] == kind else "O" for t in tags]

        s = span_f1([keep(g) for g in gold], [keep(p) for p in pred])
        out[kind] = (s.precision, s.recall, s.f1)
    return out


def _cases():
    gold1 = [["B-PER", "I-PER", "O", "B-ORG", "O"], ["B-LOC", "O", "B-PER"]]
    pred1 = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["B-LOC", "O", "O"]]
    gold2 = [["O", "B-ORG", "I-ORG", "O"], ["B-PER", "O", "O", "O"]]
    pred2 = [["O", "I-ORG", "I-ORG", "O"], ["B-PER", "I-PER", "O", "B-MISC"]]  # I- after O opens an entity
    gold3 = [["B-PER", "O"], ["B-PER", "B-PER"]]  # two adjacent one-word persons
    pred3 = [["B-PER", "O"], ["B-PER", "I-PER"]]
    return [(gold1, pred1), (gold2, pred2), (gold3, pred3)]


def check_span_f1_by_type(fn: Callable) -> CheckResult:
    """``fn(gold_sentences, pred_sentences)`` -> ``{type: (precision, recall, f1), ..., "macro": (p, r, f1)}``."""
    with Checker("Span F1 by entity type") as ex:
        for gold, pred in _cases():
            what = f"span_f1_by_type({gold}, {pred})"
            got, error = ex.try_call(fn, gold, pred)
            if isinstance(error, ZeroDivisionError):
                ex.fail(
                    f"{what} raised ZeroDivisionError: a type may have no predicted (or no gold) entity. A ratio "
                    "with a zero denominator is 0, and so is F1 when precision and recall are both 0."
                )
            if error is not None:
                ex.fail(f"calling {what} raised {type(error).__name__}: {error}.")
            ex.expect(isinstance(got, dict), f"{what} should return a dict, got {type(got).__name__}.")
            want = _by_type(gold, pred)
            macro = tuple(float(np.mean([v[i] for v in want.values()])) for i in range(3))
            types = set(want)
            if set(got) - {"macro"} != types:
                ex.fail(
                    f"{what} should have the keys {sorted(types)} and 'macro', got {sorted(got)}: one key per type "
                    "that occurs in the gold or the predicted entities."
                )
            for kind, (p, r, f) in want.items():
                g = got[kind]
                if len(g) == 3 and np.allclose(g, (r, p, f)) and not np.isclose(p, r):
                    ex.fail(f"{what}[{kind!r}]: precision and recall are swapped (precision divides by predicted).")
                ex.expect_close(
                    tuple(g),
                    (p, r, f),
                    what=f"{what}[{kind!r}]",
                    hint="An entity counts only if its sentence, type and both boundaries match (two sentences may "
                    "have entities at the same positions); read entities as conlleval does (an I- tag after O or "
                    "after another type opens one); 0 when a denominator is 0.",
                )
            if "macro" not in got:
                ex.fail(f"{what} has no 'macro' entry: add the unweighted mean over types.")
            micro = span_f1(gold, pred)
            if np.allclose(got["macro"], (micro.precision, micro.recall, micro.f1)) and not np.allclose(
                macro, (micro.precision, micro.recall, micro.f1)
            ):
                ex.fail(
                    f"{what}['macro'] is the micro average (all entities pooled); macro averages the types' "
                    "precision, recall and F1 with equal weight."
                )
            ex.expect_close(
                tuple(got["macro"]),
                macro,
                what=f"{what}['macro']",
                hint="Average each of precision, recall and F1 over the types, each type with equal weight.",
            )
    return ex.result
