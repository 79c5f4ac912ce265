"""Catalogue of the exercises of "Token classification and question answering": requirements, correct answers
in several styles (accepted) and typical wrong answers (rejected with a hint naming the mistake).

* ``answer_or_abstain``: the best valid span (i <= j, both allowed, j - i + 1 <= max_len), or None when the
  [CLS] score start[0] + end[0] beats it by more than the threshold (strictly; a tie answers).
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.finetuning.token_tasks_exercises import check_answer_or_abstain
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test
from tests.finetuning.test_finetuning_exercises import abstain_ignores_threshold, abstain_ok, abstain_on_tie


def abstain_vectorised(start, end, allowed, max_len, threshold):
    s, e, ok = np.asarray(start), np.asarray(end), np.asarray(allowed, dtype=bool)
    i, j = np.indices((len(s), len(s)))
    valid = (j >= i) & (j - i < max_len) & ok[:, None] & ok[None, :]
    scores = np.where(valid, s[:, None] + e[None, :], -np.inf)
    best = int(np.argmax(scores))
    if s[0] + e[0] > scores.flat[best] + threshold:
        return None
    return best // len(s), best % len(s)


def abstain_cls_span(start, end, allowed, max_len, threshold):
    got = abstain_ok(start, end, allowed, max_len, threshold)
    return (0, 0) if got is None else got


def abstain_separate_argmax(start, end, allowed, max_len, threshold):
    s = np.where(allowed, start, -np.inf)
    e = np.where(allowed, end, -np.inf)
    i, j = int(np.argmax(s)), int(np.argmax(e))
    return None if start[0] + end[0] > s[i] + e[j] + threshold else (i, j)


def abstain_ignores_max_len(start, end, allowed, max_len, threshold):
    return abstain_ok(start, end, allowed, len(start), threshold)


def abstain_ignores_allowed(start, end, allowed, max_len, threshold):
    ok = np.ones(len(start), bool)
    ok[0] = False
    return abstain_ok(start, end, ok, max_len, threshold)


def abstain_list(start, end, allowed, max_len, threshold):  # the statement asks for a tuple of two ints
    span = abstain_ok(start, end, allowed, max_len, threshold)
    return None if span is None else list(span)


def abstain_float_span(start, end, allowed, max_len, threshold):
    span = abstain_ok(start, end, allowed, max_len, threshold)
    return None if span is None else (float(span[0]), float(span[1]))


def abstain_by_the_helper(start, end, allowed, max_len, threshold):  # "do not use the page's span search"
    from nlp_helpers.finetuning.qa import best_span

    i, j = best_span(start, end, max_len, allowed)
    return None if start[0] + end[0] > start[i] + end[j] + threshold else (int(i), int(j))


CATALOGUE = {
    check_answer_or_abstain: Catalogue(
        correct=[abstain_ok, abstain_vectorised],
        wrong=[
            Wrong(abstain_ignores_threshold, "threshold"),
            Wrong(abstain_on_tie, "tie"),
            Wrong(abstain_list, ("tuple of two ints", "list")),
            Wrong(abstain_float_span, ("tuple of two ints", "2.0")),
            Wrong(abstain_by_the_helper, ("`best_span`", "build it yourself")),
            Wrong(abstain_cls_span, "None"),
            Wrong(abstain_separate_argmax, "start <= end"),
            Wrong(abstain_ignores_max_len, "max_len"),
            Wrong(abstain_ignores_allowed, "question"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
