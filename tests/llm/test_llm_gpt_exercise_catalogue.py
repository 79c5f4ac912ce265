"""Catalogue of the exercise of ``book/llm/gpt.ipynb``: requirements, correct answers in several styles
(accepted) and typical wrong answers (rejected with a hint naming the mistake).

* ``smoothed_ce(logits, targets, eps)``: one number, the mean over positions; eps spread over all V classes;
  targets of -100 left out of the sum and the count; stable for logits ~1e3; inputs unchanged.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.llm.gpt_exercises import check_label_smoothing
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


# ---------------------------------------------------------------- label smoothing
def _log_softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def ls_vectorised(logits, targets, eps):
    keep = targets != -100
    logp = _log_softmax(np.asarray(logits, dtype=float)[keep])
    nll = -logp[np.arange(len(logp)), targets[keep]]
    return float(np.mean((1 - eps) * nll - eps * logp.mean(axis=1)))


def ls_per_position(logits, targets, eps):  # "return one float": the kept positions' losses, not their mean
    keep = targets != -100
    logp = _log_softmax(np.asarray(logits, dtype=float)[keep])
    nll = -logp[np.arange(len(logp)), targets[keep]]
    return (1 - eps) * nll - eps * logp.mean(axis=1)


def ls_target_matrix(logits, targets, eps):
    total, count = 0.0, 0
    V = logits.shape[1]
    for row, t in zip(logits, targets):
        if t == -100:
            continue
        q = np.full(V, eps / V)
        q[t] += 1 - eps
        m = row.max()
        logp = row - m - np.log(np.sum(np.exp(row - m)))
        total += -(q * logp).sum()
        count += 1
    return total / count


def ls_sum(logits, targets, eps):
    return ls_vectorised(logits, targets, eps) * np.sum(targets != -100)


def ls_other_classes(logits, targets, eps):
    keep = targets != -100
    logp = _log_softmax(logits[keep])
    n, V = logp.shape
    q = np.full((n, V), eps / (V - 1))
    q[np.arange(n), targets[keep]] = 1 - eps
    return float(np.mean(-(q * logp).sum(1)))


def ls_no_uniform(logits, targets, eps):
    keep = targets != -100
    logp = _log_softmax(logits[keep])
    return float(np.mean((1 - eps) * -logp[np.arange(len(logp)), targets[keep]]))


def ls_no_ignore(logits, targets, eps):
    logp = _log_softmax(logits)
    nll = -logp[np.arange(len(logp)), targets]
    return float(np.mean((1 - eps) * nll - eps * logp.mean(axis=1)))


def ls_divides_by_all(logits, targets, eps):
    keep = targets != -100
    return ls_vectorised(logits, targets, eps) * keep.sum() / len(targets)


def ls_unstable(logits, targets, eps):
    keep = targets != -100
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        p = np.exp(logits[keep])
        logp = np.log(p / p.sum(axis=1, keepdims=True))
    nll = -logp[np.arange(len(logp)), targets[keep]]
    return float(np.mean((1 - eps) * nll - eps * logp.mean(axis=1)))


def ls_in_place(logits, targets, eps):
    logits -= logits.max(axis=1, keepdims=True)
    return ls_vectorised(logits, targets, eps)


CATALOGUE = {
    check_label_smoothing: Catalogue(
        correct=[ls_vectorised, ls_target_matrix],
        wrong=[
            Wrong(ls_sum, "mean"),
            Wrong(ls_per_position, ("one number", "mean loss")),
            Wrong(ls_other_classes, "all V classes"),
            Wrong(ls_no_uniform, "uniform part"),
            Wrong(ls_no_ignore, "-100"),
            Wrong(ls_divides_by_all, "divided by all N"),
            Wrong(ls_unstable, ("around 1000", "overflows")),
            Wrong(ls_in_place, ("modified its input", "`logits`")),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
