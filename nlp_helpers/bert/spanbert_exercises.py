"""Checkers for the SpanBERT exercise of the page "Architecture and pre-training" (``book/bert/pretraining.ipynb``).

* :func:`check_boundary_targets`: the span-boundary objective's targets read off a row of masked-LM labels
  (the page builds them from the sampled spans, :func:`nlp_helpers.bert.spanbert.sbo_targets`).

The checker computes the right answer with a reference of its own, and the answers of typical mistakes,
so that a wrong answer gets a hint naming the mistake it matches.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["check_boundary_targets"]

IGNORE = -100


def _boundary_targets(labels: list[int], *, mistake: str = "") -> list[tuple[int, ...]]:
    """The reference (and, with ``mistake``, a typical wrong answer)."""
    selected = [(bool(x) and x != IGNORE) if mistake == "truthy" else x != IGNORE for x in labels]
    out, i, n = [], 0, len(labels)
    while i < n:
        if not selected[i]:
            i += 1
            continue
        start = i
        while i < n and selected[i]:
            i += 1
        end = i  # the run is start .. end - 1
        if (start == 0 or end == n) and mistake != "edges":
            continue
        left, right = (start, end - 1) if mistake == "inside" else (start - 1, end)
        first = 1 if mistake == "one_based" else 0
        out += [(k, left, right, k - start + first) for k in range(start, end)]
    return out


MISTAKES = {
    "inside": "the boundary tokens are OUTSIDE the span: the unselected token just before its first token and "
    "the one just after its last token, not the span's own first and last tokens.",
    "one_based": "offsets count from 0: the first token of a span has offset 0.",
    "truthy": "a label of 0 is a real token id (selected): only -100 marks a position that is not predicted; "
    "test `label != -100`, not the label's truth value.",
    "edges": "skip a run that touches the start or the end of the row: it has no boundary token on that side "
    "(your answer used position -1 or len(labels)).",
}

HAND_CASES = [
    [IGNORE, 7, 8, IGNORE, IGNORE, 9, IGNORE],
    [5, IGNORE, 0, 0, IGNORE, 6],
    [IGNORE, IGNORE, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, IGNORE],
    [IGNORE] * 5,
    [IGNORE, 4],
]


def _random_cases() -> list[list[int]]:
    rng = seeded_rng(43)
    cases = []
    for n in (12, 40):
        keep = rng.random(n) < 0.35
        cases.append([int(rng.integers(0, 50)) if k else IGNORE for k in keep])
    return cases


def _as_rows(got: object) -> list[tuple[int, ...]] | None:
    """``got`` as a list of 4-tuples of ints, or None if it is not a list of that shape."""
    if not isinstance(got, list):
        return None
    rows = []
    for row in got:
        if not isinstance(row, (tuple, list)) or len(row) != 4:
            return None
        if not all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in row):
            return None
        rows.append(tuple(int(x) for x in row))
    return rows


def check_boundary_targets(boundary_targets: Callable) -> CheckResult:
    """``boundary_targets(labels)`` -> ``[(i, left, right, offset), ...]`` for every SBO target of the row."""
    with Checker("Span-boundary targets from labels", reference=_boundary_targets) as ex:
        for labels in HAND_CASES + _random_cases():
            what = f"boundary_targets({labels})"
            got = ex.call(boundary_targets, labels)
            rows = _as_rows(got)
            ex.expect(
                rows is not None,
                f"{what} should return a list of (i, left, right, offset) tuples of ints, got {got!r:.120}.",
            )
            want = _boundary_targets(labels)
            if rows != want:
                for mistake, hint in MISTAKES.items():
                    if rows == _boundary_targets(labels, mistake=mistake) != want:
                        ex.fail(f"{what}: {hint}")
                if sorted(rows) == want:
                    ex.fail(f"{what}: list the targets in increasing order of position i.")
            ex.expect_equal(
                rows,
                want,
                what=what,
                hint="Find each maximal run of positions whose label is not -100; a run start..end with an "
                "unselected token on both sides gives (i, start - 1, end + 1, i - start) for each i in it.",
            )
    return ex.result
