"""Catalogue of the SpanBERT exercise of "Architecture and pre-training": requirements, correct answers in
several styles (accepted) and typical wrong answers (rejected with a hint naming the mistake).

* ``boundary_targets(labels)``: ``labels`` a list of ints, -100 where a position is not predicted (any
  other value, 0 included, is a token id to predict); returns a list of 4-tuples of ints
  ``(i, left, right, offset)``, one per predicted position ``i`` in increasing order, where ``i`` lies in a
  maximal run ``s..e`` of predicted positions, ``left = s - 1`` and ``right = e + 1`` are the unpredicted
  tokens just outside the run and ``offset = i - s`` counts from 0; a run that touches the start or the end
  of the row (no boundary token on that side) gives no target; no predicted position gives ``[]``;
  ``labels`` is left unchanged.
"""

from __future__ import annotations

import itertools

import numpy as np

from nlp_helpers.bert.spanbert_exercises import check_boundary_targets
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def targets_loop(labels):
    out, n, i = [], len(labels), 0
    while i < n:
        if labels[i] == -100:
            i += 1
            continue
        s = i
        while i < n and labels[i] != -100:
            i += 1
        if s > 0 and i < n:
            out += [(k, s - 1, i, k - s) for k in range(s, i)]
    return out


def targets_groupby(labels):
    out, pos = [], 0
    for selected, run in itertools.groupby(labels, key=lambda x: x != -100):
        length = len(list(run))
        if selected and pos > 0 and pos + length < len(labels):
            out.extend((pos + k, pos - 1, pos + length, k) for k in range(length))
        pos += length
    return out


def targets_numpy(labels):
    sel = np.concatenate([[0], (np.asarray(labels) != -100).astype(int), [0]])
    starts, ends = np.flatnonzero(np.diff(sel) == 1), np.flatnonzero(np.diff(sel) == -1)
    return [
        (int(i), int(s - 1), int(e), int(i - s))
        for s, e in zip(starts, ends)
        if s > 0 and e < len(labels)
        for i in range(s, e)
    ]


def _variant(*, inside=False, one_based=False, truthy=False, edges=False, reverse=False, as_lists=False, mutate=False):
    def boundary_targets(labels):
        out, n, i = [], len(labels), 0
        chosen = [bool(x) and x != -100 if truthy else x != -100 for x in labels]
        while i < n:
            if not chosen[i]:
                i += 1
                continue
            s = i
            while i < n and chosen[i]:
                i += 1
            if edges or (s > 0 and i < n):
                left, right = (s, i - 1) if inside else (s - 1, i)
                out += [(k, left, right, k - s + int(one_based)) for k in range(s, i)]
        if mutate:
            labels[:] = [x if x != -100 else 0 for x in labels]
        if as_lists:
            return [list(t) for t in out]
        return out[::-1] if reverse else out

    return boundary_targets


def targets_as_string(labels):
    return str(targets_loop(labels))


CATALOGUE = {
    check_boundary_targets: Catalogue(
        correct=[targets_loop, targets_groupby, targets_numpy, _variant(as_lists=True)],
        wrong=[
            Wrong(_variant(inside=True), "OUTSIDE the span"),
            Wrong(_variant(one_based=True), "count from 0"),
            Wrong(_variant(truthy=True), "a label of 0 is a real token id"),
            Wrong(_variant(edges=True), "touches the start or the end"),
            Wrong(_variant(reverse=True), "increasing order"),
            Wrong(_variant(mutate=True), "modified its input"),
            Wrong(targets_as_string, "list of (i, left, right, offset)"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
