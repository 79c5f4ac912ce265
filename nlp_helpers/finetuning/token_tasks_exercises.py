"""Checkers for the exercises of the page "Token classification and question answering"
(``book/finetuning/token_tasks.ipynb``).

* :func:`check_answer_or_abstain`: extractive question answering that may abstain: the best valid span
  from start and end logits, or None when the score at ``[CLS]`` beats it by more than a threshold
  (compared with :func:`nlp_helpers.finetuning.qa.best_span`, which the answer must not call).

The checker computes the right answer with the book's helper and tries the edge cases students forget
(a tie, an end before the start, a span longer than ``max_len``, the question's positions).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.finetuning.qa import best_span
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["check_answer_or_abstain"]


def check_answer_or_abstain(answer_or_abstain: Callable) -> CheckResult:
    """``answer_or_abstain(start, end, allowed, max_len, threshold)``: the best span, or None to abstain."""
    with Checker("Extractive QA with no-answer", allow_none=True, forbidden={"best_span": best_span}) as ex:

        def want(s, e, ok, max_len, threshold):
            span = best_span(s, e, max_len, ok)
            return None if s[0] + e[0] > s[span[0]] + e[span[1]] + threshold else tuple(int(v) for v in span)

        def ask(s, e, ok, max_len, threshold, what, hint):
            got = ex.call(answer_or_abstain, s, e, ok, max_len, threshold)
            ex.expect(
                got is None
                or (
                    isinstance(got, tuple)
                    and len(got) == 2
                    and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in got)
                ),
                f"{what}: return a tuple of two ints (i, j) or None, got {type(got).__name__} {got!r:.60}.",
            )
            if got is not None:
                got = (int(got[0]), int(got[1]))
            expected = want(s, e, ok, max_len, threshold)
            if got is None and expected is not None:
                ex.fail(
                    f"{what}: your function returned None (abstained) where the answer is the span {expected}. "
                    "If you did not mean to abstain, did you forget `return`? " + hint
                )
            ex.expect_equal(got, want(s, e, ok, max_len, threshold), what=what, hint=hint)

        ok = np.array([False, False, True, True, True])
        # By hand: best span (2, 3) scores 2 + 3 = 5; the null score at [CLS] is 4 + 2 = 6.
        start = np.array([4.0, 9.0, 2.0, 1.0, -1.0])
        end = np.array([2.0, 9.0, 0.0, 3.0, -2.0])
        ask(
            start,
            end,
            ok,
            3,
            1.5,
            "answer_or_abstain on the 5-token example, threshold 1.5",
            "The best passage span is (2, 3) (2 + 3 = 5; position 1 is the question, never part of a span). "
            "The null score start[0] + end[0] = 6 does not beat 5 + 1.5, so answer with the span: "
            "return a tuple (i, j), or None to abstain.",
        )
        ask(
            start,
            end,
            ok,
            3,
            0.0,
            "the same logits with threshold 0",
            "The null score is start[0] + end[0] (the [CLS] position), here 6; the best passage span scores 5, "
            "and 6 > 5 + 0, so the model abstains: return None.",
        )
        ask(
            start,
            end,
            ok,
            3,
            1.0,
            "the same logits with threshold 1.0 (a tie: 6 = 5 + 1)",
            "On a tie (null = span + threshold) answer with the span: abstain only when strictly greater.",
        )
        ask(
            start,
            end,
            ok,
            1,
            2.5,
            "max_len 1, threshold 2.5",
            "The span must respect max_len (here one token, best (3, 3) = 4) and start <= end.",
        )
        backwards = np.array([-9.0, 0.0, 0.0, 0.0, 9.0]), np.array([-9.0, 0.0, 0.0, 5.0, 0.0])
        ask(
            *backwards,
            np.array([False, True, True, True, True]),
            4,
            0.0,
            "answer_or_abstain when the best end comes before the best start",
            "Search over pairs i <= j (the separate argmaxes give end 3 before start 4).",
        )
        rng = seeded_rng(4)
        for _ in range(6):
            s_, e_ = rng.normal(size=10), rng.normal(size=10)
            ok_ = rng.random(10) < 0.6
            ok_[0], ok_[5] = False, True
            ask(
                s_,
                e_,
                ok_,
                3,
                float(rng.normal()),
                "answer_or_abstain on random logits",
                "Compare the best valid span's score (both ends allowed, i <= j < i + max_len) with start[0] + end[0].",
            )
    return ex.result
