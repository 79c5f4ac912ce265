"""Checkers for two by-hand exercises of the TF-IDF chapter: average precision and PPMI on paper.

The reader computes a few numbers with pen and calculator and returns them; the checker compares
them with the exact values and, for a wrong answer, names the typical mistake it matches
(dividing AP by the relevant documents found instead of all of them, natural logarithms, a
forgotten clipping at 0).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.tfidf.evaluation import average_precision, precision_at_k

__all__ = ["check_ppmi_by_hand", "check_retrieval_by_hand"]

# Ranks 1..8 of a ranking; relevant documents at ranks 2, 3 and 7, and a fourth never retrieved.
RANKING = [10, 11, 12, 13, 14, 15, 16, 17]
RELEVANT = {11, 12, 16, 99}


def _pair(ex: Checker, got: object, what: str) -> tuple[float, float]:
    if not isinstance(got, Sequence) or isinstance(got, str) or len(got) != 2:
        ex.fail(f"{what} should return a tuple of two numbers, got {got!r}.")
    try:
        return float(got[0]), float(got[1])
    except (TypeError, ValueError):
        ex.fail(f"{what} should return two numbers, got {got!r}.")
    raise AssertionError("unreachable")  # pragma: no cover


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, abs_tol=5e-4)


def check_retrieval_by_hand(by_hand_retrieval: Callable) -> CheckResult:
    """``by_hand_retrieval()`` -> (P@5, AP) for the exercise's ranking."""
    with Checker("Precision and average precision by hand") as ex:
        p5, ap = _pair(ex, ex.call(by_hand_retrieval), "by_hand_retrieval()")
        want_p5, want_ap = precision_at_k(RANKING, RELEVANT, 5), average_precision(RANKING, RELEVANT)
        found = [k for k, d in enumerate(RANKING, start=1) if d in RELEVANT]
        if not _close(p5, want_p5):
            if _close(p5, 2 / len(RELEVANT)):
                ex.fail(
                    "P@5 divides the relevant documents in the top 5 by 5, not by the number of relevant documents."
                )
            ex.fail(f"P@5 should be {want_p5:.3f}, got {p5:.3f}: count the relevant documents among ranks 1 to 5.")
        if not _close(ap, want_ap):
            precisions = [(i + 1) / k for i, k in enumerate(found)]
            if _close(ap, sum(precisions) / len(found)):
                ex.fail(
                    "you divided by the 3 relevant documents that were retrieved: AP divides by all 4 relevant "
                    "documents (the one never retrieved contributes 0)."
                )
            if _close(ap, sum(precision_at_k(RANKING, RELEVANT, k) for k in range(1, 9)) / 8):
                ex.fail(
                    "AP takes the precision only at the ranks of relevant documents (2, 3 and 7), not at every rank."
                )
            ex.fail(f"AP should be {want_ap:.4f}, got {ap:.4f}: (P@2 + P@3 + P@7 + 0) / 4.")
    return ex.result


# Counts for the PPMI exercise: total 200 pairs; w has row total 20; c column total 30 (6 together),
# c2 column total 60 (1 together).
def _ppmi(together: int, row: int, col: int, total: int = 200, log: Callable[[float], float] = math.log2) -> float:
    return log(together * total / (row * col))


def check_ppmi_by_hand(by_hand_ppmi: Callable) -> CheckResult:
    """``by_hand_ppmi()`` -> (PPMI(w, c), PPMI(w, c2)) in bits for the exercise's counts."""
    with Checker("PPMI by hand") as ex:
        a, b = _pair(ex, ex.call(by_hand_ppmi), "by_hand_ppmi()")
        want = (max(_ppmi(6, 20, 30), 0.0), max(_ppmi(1, 20, 60), 0.0))
        right = _close(a, want[0]) and _close(b, want[1])
        if not right and _close(a, _ppmi(6, 20, 30, log=math.log)):
            ex.fail("your PPMI(w, c) is in nats (natural log): PMI here is in bits, log2.")
        if not right and _close(b, _ppmi(1, 20, 60)):
            ex.fail(f"PMI(w, c2) = {b:.3f} is negative: PPMI clips it at 0.")
        if not right and _close(a, math.log2(6 / (20 * 30))):
            ex.fail("turn the counts into probabilities first: P(w, c) = 6/200, P(w) = 20/200, P(c) = 30/200.")
        ex.expect(
            right,
            f"expected ({want[0]:.3f}, {want[1]:.3f}), got ({a:.3f}, {b:.3f}): "
            "PMI = log2(P(w, c) / (P(w) P(c))), then max(PMI, 0).",
        )
    return ex.result
