"""Catalogue of the exercises of "Evaluating LLMs": requirements, correct answers in several styles (accepted)
and typical wrong answers (rejected with a hint naming the mistake).

* ``majority_vote(answers)``: a list of ints and None; return the most frequent int; None is not an answer
  and has no vote; a tie goes to the answer that appears first in the list; an empty list, or only None,
  returns None; the list is left unchanged.
* ``bradley_terry_mm(wins)``: ``wins[i, j]`` = times i beat j; the MM update p_i <- W_i / sum_j n_ij / (p_i + p_j)
  with n_ij = wins[i, j] + wins[j, i], iterated to convergence; the strengths themselves (not logs), as a
  1-D numpy array summing to 1; ValueError for a matrix that is not square, a negative count, a nonzero
  diagonal, or a system that never won (or never lost).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from scipy.optimize import minimize

from nlp_helpers.llm_training.evaluation_exercises import check_bradley_terry_mm, check_majority_vote
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


# ------------------------------------------------------------------------ majority vote
def vote_counter(answers):
    counts = Counter(a for a in answers if a is not None)
    if not counts:
        return None
    return counts.most_common(1)[0][0]  # most_common keeps first-seen order among ties


def vote_loops(answers):
    best, best_count = None, 0
    for a in answers:
        if a is None:
            continue
        c = sum(1 for b in answers if b == a)
        if c > best_count:
            best, best_count = a, c
    return best


def vote_counts_none(answers):
    counts = Counter(answers)
    return counts.most_common(1)[0][0] if counts else None


def vote_smallest(answers):
    counts = Counter(a for a in answers if a is not None)
    if not counts:
        return None
    top = max(counts.values())
    return min(a for a, c in counts.items() if c == top)


def vote_last(answers):
    counts = Counter(a for a in answers if a is not None)  # distinct answers in first-seen order
    best, best_count = None, 0
    for a, c in counts.items():
        if c >= best_count:  # >= lets a later tied answer win
            best, best_count = a, c
    return best


def vote_raises_on_empty(answers):
    counts = Counter(a for a in answers if a is not None)
    return counts.most_common(1)[0][0]


# ------------------------------------------------------------------------ Bradley–Terry
def _validate(wins, skip=""):
    wins = np.asarray(wins, dtype=float)
    if "square" not in skip and (wins.ndim != 2 or wins.shape[0] != wins.shape[1]):
        raise ValueError("wins must be square")
    if "negative" not in skip and (wins < 0).any():
        raise ValueError("negative count")
    if "diagonal" not in skip and np.diag(wins).any():
        raise ValueError("nonzero diagonal")
    if "never won" not in skip and (wins.sum(axis=1) == 0).any():
        raise ValueError("a system never won")
    return wins


def bt_mm(wins):
    w = _validate(wins)
    n, won = w + w.T, w.sum(axis=1)
    p = np.full(len(w), 1 / len(w))
    for _ in range(10_000):
        new = won / (n / (p[:, None] + p[None, :])).sum(axis=1)
        new /= new.sum()
        if np.abs(new - p).max() < 1e-15:
            return new
        p = new
    return p


def bt_scipy(wins):
    """Maximum likelihood by a general optimiser on the log-strengths (not MM at all)."""
    w = _validate(wins)

    def nll(s):
        d = s[:, None] - s[None, :]
        return -(w * (d - np.logaddexp(0, d))).sum()

    s = minimize(nll, np.zeros(len(w)), method="BFGS", options={"gtol": 1e-12}).x
    p = np.exp(s - s.max())
    return p / p.sum()


def _bt_variant(*, transposed=False, wins_only=False, unnormalised=False, log=False, skip=""):
    def bradley_terry_mm(wins):
        w = _validate(wins, skip)
        if skip and (w.ndim != 2 or w.shape[0] != w.shape[1]):
            return np.ones(max(w.shape))
        w = np.where(w < 0, 0, w)
        w = w.T if transposed else w
        n = w if wins_only else w + w.T
        won = w.sum(axis=1) + 1e-12
        p = np.full(len(w), 1 / len(w))
        for _ in range(5000):
            p = won / (n / (p[:, None] + p[None, :])).sum(axis=1)
            p /= p.sum()
        if log:
            return np.log(p)
        return 7 * p if unnormalised else p

    return bradley_terry_mm


CATALOGUE = {
    check_majority_vote: Catalogue(
        correct=[vote_counter, vote_loops],
        wrong=[
            Wrong(vote_counts_none, "counted None"),
            Wrong(vote_smallest, "smaller answer"),
            Wrong(vote_last, "appears last"),
            Wrong(vote_raises_on_empty, "raised"),
        ],
    ),
    check_bradley_terry_mm: Catalogue(
        correct=[bt_mm, bt_scipy],
        wrong=[
            Wrong(_bt_variant(transposed=True), "wrong way round"),
            Wrong(_bt_variant(wins_only=True), "every game between i and j"),
            Wrong(_bt_variant(unnormalised=True), "divide them by their sum"),
            Wrong(_bt_variant(log=True), "not their logarithms"),
            Wrong(_bt_variant(skip="square"), "must be square"),
            Wrong(_bt_variant(skip="negative"), "counts must be >= 0"),
            Wrong(_bt_variant(skip="diagonal"), "no system plays itself"),
            Wrong(_bt_variant(skip="never won"), "strength would be 0"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
