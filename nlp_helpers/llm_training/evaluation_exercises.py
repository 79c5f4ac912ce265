"""Checkers for the exercises of the page "Evaluating LLMs" (``book/llm_training/evaluation.ipynb``).

* :func:`check_majority_vote`: self-consistency's vote (Wang et al., 2023): the most frequent answer among
  several sampled reasoning paths, ignoring paths that gave no answer, ties to the answer seen first.
* :func:`check_bradley_terry_mm`: the Bradley–Terry strengths fitted to a win matrix by the MM iteration
  (Hunter, 2004), normalised to sum to 1.

Each checker computes the right answer with a reference of its own, and the answers of typical mistakes,
so that a wrong answer gets a hint naming the mistake it matches.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult

__all__ = ["check_bradley_terry_mm", "check_majority_vote"]


def _vote(answers: list, *, mistake: str = "") -> int | None:
    pool = list(answers) if mistake == "count none" else [a for a in answers if a is not None]
    if not pool:
        return None
    counts = Counter(pool)
    best = max(counts.values())
    tied = [a for a in counts if counts[a] == best]  # in order of first appearance
    if mistake == "smallest" and None not in tied:
        return min(tied)
    if mistake == "last":
        return tied[-1]
    return tied[0]


def check_majority_vote(fn: Callable) -> CheckResult:
    """``fn(answers)`` -> the most frequent non-None answer (ties: first seen), or None."""
    with Checker("Self-consistency's vote", allow_none=True) as ex:
        cases = [
            [8, 3, 8, 8, 5],
            [None, 7, None, None, 7, 2],
            [2, 7, 7, 2],
            [5, 3, 3, 5],
            [9, 4, 4, 9, 1],
            [12],
            [None, None, 6, 6, 6, None, None, None],
        ]
        for answers in cases:
            what = f"majority_vote({answers})"
            got = ex.call(fn, answers)
            want = _vote(answers)
            for mistake, hint in [
                ("count none", "you counted None as an answer: a path that gave no number has no vote."),
                (
                    "smallest",
                    "you broke the tie by the smaller answer: the statement breaks it by the answer "
                    "that appears first in the list.",
                ),
                ("last", "you broke the tie by the answer that appears last: break it by the one that appears first."),
            ]:
                wrong = _vote(answers, mistake=mistake)
                if wrong != want and got == wrong:
                    ex.fail(f"{what}: {hint}")
            ex.expect(
                got is not None,
                f"your function returned None (calling {what}), but the answer {want} occurs most often: did you "
                "forget `return`, or print instead of returning?",
            )
            ex.expect_equal(got, want, what=what, hint="Count each non-None answer; return the most frequent.")
        for answers, hint in [
            ([], "an empty list has no answer: return None."),
            ([None, None], "no path gave a number: return None."),
        ]:
            got = ex.call(fn, answers)
            ex.expect(got is None, f"majority_vote({answers}) should return None, got {got!r}: {hint}")
    return ex.result


def _bt(wins: np.ndarray, *, mistake: str = "") -> np.ndarray:
    w = wins.T if mistake == "transposed" else wins
    games = w if mistake == "wins only" else w + w.T
    won = w.sum(axis=1)
    p = np.ones(len(w)) / len(w)
    for _ in range(5000):
        new = won / (games / (p[:, None] + p[None, :])).sum(axis=1)
        new = new / new.sum()
        if np.max(np.abs(new - p)) < 1e-14:
            p = new
            break
        p = new
    if mistake == "log":
        return np.log(p)
    return p * 7.0 if mistake == "unnormalised" else p


def check_bradley_terry_mm(fn: Callable) -> CheckResult:
    """``fn(wins)`` -> a 1-D float array of strengths summing to 1, the Bradley–Terry maximum-likelihood fit."""
    with Checker("Bradley–Terry by MM") as ex:
        cases = [
            np.array([[0.0, 3.0], [1.0, 0.0]]),
            np.array([[0, 6, 4], [2, 0, 5], [1, 3, 0]], dtype=float),
            np.array([[0, 7, 5, 9], [3, 0, 6, 4], [5, 4, 0, 8], [1, 6, 2, 0]], dtype=float),
            np.array([[0, 2.5, 1], [1.5, 0, 2], [3, 0.5, 0]]),
        ]
        for wins in cases:
            what = f"bradley_terry_mm({wins.tolist()})"
            got = ex.call(fn, wins)
            want = ex.reference(_bt, wins)
            ex.expect(
                isinstance(got, np.ndarray) and got.shape == (len(wins),),
                f"{what} should return a 1-D numpy array of {len(wins)} strengths, got {type(got).__name__} "
                f"{np.shape(got)}.",
            )
            for mistake, hint in [
                ("transposed", "you read the matrix the wrong way round: wins[i, j] is how often i BEAT j."),
                ("wins only", "in the denominator, n_ij counts every game between i and j: wins[i, j] + wins[j, i]."),
                ("unnormalised", "the strengths are defined up to a common factor: divide them by their sum."),
                ("log", "return the strengths p_i themselves, not their logarithms."),
            ]:
                wrong = _bt(wins, mistake=mistake)
                if not np.allclose(wrong, want, atol=1e-6) and np.allclose(got, wrong, rtol=1e-4, atol=1e-6):
                    ex.fail(f"{what}: {hint}")
            ex.expect_close(
                got,
                want,
                what=what,
                hint="Repeat p_i <- W_i / sum_j n_ij / (p_i + p_j), then divide by the sum, until nothing changes.",
                rtol=1e-5,
                atol=1e-7,
            )
        for wins, what, hint in [
            (np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0]]), "a 2 x 3 matrix", "wins must be square: raise ValueError."),
            (np.array([[0.0, -1.0], [2.0, 0.0]]), "a negative count", "counts must be >= 0: raise ValueError."),
            (np.array([[1.0, 1.0], [2.0, 0.0]]), "a nonzero diagonal", "no system plays itself: raise ValueError."),
            (
                np.array([[0.0, 0.0], [3.0, 0.0]]),
                "a system that never won",
                "its strength would be 0: raise ValueError.",
            ),
        ]:
            ex.expect_raises(ValueError, fn, wins, what=f"bradley_terry_mm with {what}", hint=hint)
    return ex.result
