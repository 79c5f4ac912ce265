"""Checkers for the by-hand exercises of the TF-IDF chapter: TF-IDF weights, average precision and PPMI on paper.

The reader computes a few numbers with pen and calculator and returns them; the checker compares
them with the exact values and, for a wrong answer, names the typical mistake it matches
(dividing AP by the relevant documents found instead of all of them, natural logarithms, a
forgotten clipping at 0).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.exercises.numbers import NumberAnswer, check_number_answer
from nlp_helpers.tfidf.evaluation import average_precision, precision_at_k

__all__ = ["check_ppmi_by_hand", "check_retrieval_by_hand", "check_weights_by_hand"]

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
            ex.fail(f"P@5 is not right yet (got {p5:.3f}): count the relevant documents among ranks 1 to 5.")
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
            ex.fail(
                f"AP is not right yet (got {ap:.4f}): take the precision at the rank of each relevant document "
                "that was retrieved, and average over all relevant documents, the one never retrieved counting 0."
            )
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
            f"by_hand_ppmi() is not right yet (got ({a:.3f}, {b:.3f})): "
            "PMI = log2(P(w, c) / (P(w) P(c))), then max(PMI, 0).",
        )
    return ex.result


# The by-hand exercise: three documents, TF-IDF of the terms of d2 with raw counts and log10(N / df).
BY_HAND_DOCS = ["the cat sat on the mat".split(), "the dog ran and ran".split(), "a dog sat".split()]


def _by_hand(tf: str = "raw", idf: str = "log10", df_in: str = "documents") -> dict[str, float]:
    docs, n = BY_HAND_DOCS, len(BY_HAND_DOCS)
    out = {}
    for t in dict.fromkeys(docs[1]):
        df = sum(t in d for d in docs) if df_in == "documents" else sum(d.count(t) for d in docs)
        idf_t = {"log10": math.log10(n / df), "ln": math.log(n / df), "ln+1": math.log(n / df) + 1}[idf]
        c = docs[1].count(t)
        out[t] = {"raw": c, "relative": c / len(docs[1]), "binary": 1}[tf] * idf_t
    return out


BY_HAND_MISTAKES = [
    ({"idf": "ln"}, "you used the natural logarithm: this exercise's IDF is log10(N / df)."),
    ({"idf": "ln+1"}, "you used scikit-learn's ln(N / df) + 1: this exercise's IDF is log10(N / df), with no +1."),
    (
        {"df_in": "tokens"},
        "df counts the documents that contain the term, not its occurrences: 'the' is in 2 "
        "documents although it occurs 3 times.",
    ),
    ({"tf": "relative"}, "you divided the count by the document's length: this exercise uses raw counts as TF."),
    ({"tf": "binary"}, "'ran' occurs twice in d2: its raw TF is 2, not 1."),
]


def check_weights_by_hand(weights_d2: Callable) -> CheckResult:
    """``weights_d2()``: dict term -> TF-IDF of d2's terms (raw TF, log10 IDF, no normalisation)."""
    want = _by_hand()
    answer = NumberAnswer(
        want=want,
        returns="weights_d2() should return a dict term -> weight",
        keys=f"the keys should be exactly the terms of d2, {sorted(want)}",
        number="every weight should be a number (a float).",
        mistakes=[(_by_hand(**kwargs), hint) for kwargs, hint in BY_HAND_MISTAKES],
        wrong=lambda term, got, right: (
            f"the weight of {term!r} is not {got:.4f}: count the term in d2, count the "
            "documents that contain it (df), then count × log10(3 / df)."
        ),
        atol=1e-4,
    )
    with Checker("TF-IDF by hand") as ex:
        check_number_answer(ex, ex.call(weights_d2), answer)
    return ex.result
