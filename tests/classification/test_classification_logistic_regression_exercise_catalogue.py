"""Catalogue of the exercises of ``book/classification/logistic_regression``: requirements, correct answers in
several styles (accepted) and typical wrong answers (rejected with a hint naming the mistake).

* ``sgd_step`` (a value, worked by hand): a dict with the keys w1, w2, b; the L2 term adds lam * w to the
  weights' gradient (not left out, not subtracted, not 2 lam w); the step goes against the gradient of
  y_hat - y; numbers, not strings.
* ``minibatch_sgd_l2(X, y, orders, batch_size, eta, lam)``: (w, b) with w of shape (d,); the penalty
  lam * w (not 2 lam w) once per step; the bias not penalised; the batch's mean, not its sum; the last short
  batch used; each epoch in the order given; batch_size > n is one step per epoch (no error); orders = []
  takes no step (no error); w a 1-D array of d floats.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.classification import logistic_regression_exercises as ex
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


class Answer(dict):
    """A by-hand answer (a value, not a function) with a name for the test ids."""

    def __init__(self, name, value):
        super().__init__(value)
        self.__name__ = name


# x = (3, 2), y = 1, w = (1, -1.5), b = 0, eta = 0.5, lam = 0.1: z = 0, y_hat = 1/2.
HAND_DECIMALS = Answer("hand_decimals", {"w1": 1.7, "w2": -0.925, "b": 0.25})
HAND_FRACTIONS = Answer("hand_fractions", {"w1": 17 / 10, "w2": -37 / 40, "b": 1 / 4})
HAND_NO_L2 = Answer("hand_no_l2", {"w1": 1.75, "w2": -1.0, "b": 0.25})
HAND_L2_SIGN = Answer("hand_l2_sign", {"w1": 1.8, "w2": -1.075, "b": 0.25})
HAND_TWO_LAM = Answer("hand_two_lam", {"w1": 1.65, "w2": -0.85, "b": 0.25})
HAND_ASCENT = Answer("hand_ascent", {"w1": 0.2, "w2": -1.925, "b": -0.25})
HAND_OTHER = Answer("hand_other", {"w1": 1.7, "w2": -0.925, "b": 0.3})
HAND_KEYS = Answer("hand_keys", {"w": [1.7, -0.925], "b": 0.25})
HAND_TEXT = Answer("hand_text", {"w1": "1.7", "w2": "x", "b": 0.25})


def _step(w, b, Xb, yb, eta, lam, *, mean=True, bias_l2=False, per_example=False):
    error = 1 / (1 + np.exp(-(Xb @ w + b))) - yb
    scale = len(yb) if mean else 1
    pen = lam * (len(yb) if per_example else 1)
    return w - eta * (Xb.T @ error / scale + pen * w), b - eta * (error.sum() / scale + (pen * b if bias_l2 else 0))


def _make(**kw):
    drop_last, ignore_order = kw.pop("drop_last", False), kw.pop("ignore_order", False)

    def answer(X, y, orders, batch_size, eta, lam):
        w, b = np.zeros(X.shape[1]), 0.0
        for order in orders:
            order = np.arange(len(order)) if ignore_order else np.asarray(order)
            for start in range(0, len(order), batch_size):
                idx = order[start : start + batch_size]
                if drop_last and len(idx) < batch_size:
                    continue
                w, b = _step(w, b, X[idx], y[idx], eta, lam, **kw)
        return w, float(b)

    return answer


def sgd_vectorised(X, y, orders, batch_size, eta, lam):
    w, b = np.zeros(X.shape[1]), 0.0
    for order in orders:
        order = np.asarray(order)
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            error = 1 / (1 + np.exp(-(X[idx] @ w + b))) - y[idx]
            w, b = w - eta * (X[idx].T @ error / len(idx) + lam * w), b - eta * error.mean()
    return w, float(b)


def sgd_loops(X, y, orders, batch_size, eta, lam):
    d = len(X[0])
    w, b = [0.0] * d, 0.0
    for order in orders:
        batches = [list(order[i : i + batch_size]) for i in range(0, len(order), batch_size)]
        for batch in batches:
            gw, gb = [0.0] * d, 0.0
            for i in batch:
                z = sum(w[j] * X[i][j] for j in range(d)) + b
                e = 1 / (1 + np.exp(-z)) - y[i]
                gw = [gw[j] + e * X[i][j] / len(batch) for j in range(d)]
                gb += e / len(batch)
            w = [w[j] - eta * (gw[j] + lam * w[j]) for j in range(d)]
            b -= eta * gb
    return np.array(w), b


def sgd_returns_list(X, y, orders, batch_size, eta, lam):
    return list(sgd_vectorised(X, y, orders, batch_size, eta, lam))


def sgd_no_l2(X, y, orders, batch_size, eta, lam):
    return sgd_vectorised(X, y, orders, batch_size, eta, 0.0)


sgd_bias_l2 = _make(bias_l2=True)
sgd_sum = _make(mean=False)
sgd_drop_last = _make(drop_last=True)
sgd_per_example = _make(per_example=True)
sgd_ignores_order = _make(ignore_order=True)
for _name in ("sgd_bias_l2", "sgd_sum", "sgd_drop_last", "sgd_per_example", "sgd_ignores_order"):
    globals()[_name].__name__ = _name


def sgd_two_lam(X, y, orders, batch_size, eta, lam):  # "(lam / 2) ||w||^2": the gradient taken as 2 lam w
    return sgd_vectorised(X, y, orders, batch_size, eta, 2 * lam)


def sgd_one_epoch(X, y, orders, batch_size, eta, lam):
    return sgd_vectorised(X, y, orders[:1], batch_size, eta, lam)


def sgd_batch_size_at_most_n(X, y, orders, batch_size, eta, lam):  # "a batch_size larger than n": one batch
    if batch_size > len(X):
        raise ValueError(f"batch_size {batch_size} is larger than the {len(X)} examples")
    return sgd_vectorised(X, y, orders, batch_size, eta, lam)


def sgd_needs_an_epoch(X, y, orders, batch_size, eta, lam):  # "with orders = [] no step is taken"
    n_steps = len(orders) * -(-len(orders[0]) // batch_size)  # IndexError when there is no epoch
    assert n_steps >= 0
    return sgd_vectorised(X, y, orders, batch_size, eta, lam)


def sgd_column_w(X, y, orders, batch_size, eta, lam):  # "w a 1-D numpy array of d floats"
    w, b = sgd_vectorised(X, y, orders, batch_size, eta, lam)
    return w.reshape(-1, 1), b


CATALOGUE = {
    ex.check_sgd_step_by_hand: Catalogue(
        correct=[HAND_DECIMALS, HAND_FRACTIONS],
        wrong=[
            Wrong(HAND_NO_L2, "without the penalty"),
            Wrong(HAND_L2_SIGN, "towards 0"),
            Wrong(HAND_TWO_LAM, "twice"),
            Wrong(HAND_ASCENT, "climbs the loss"),
            Wrong(HAND_OTHER, "should not be"),
            Wrong(HAND_KEYS, "keys should be exactly"),
            Wrong(HAND_TEXT, "should be a number"),
        ],
    ),
    ex.check_minibatch_sgd_l2: Catalogue(
        correct=[sgd_vectorised, sgd_loops],
        wrong=[
            Wrong(sgd_no_l2, "without the penalty"),
            Wrong(sgd_bias_l2, "penalised the bias"),
            Wrong(sgd_sum, "mean"),
            Wrong(sgd_drop_last, "shorter batch"),
            Wrong(sgd_per_example, "once per example"),
            Wrong(sgd_ignores_order, "orders[e]"),
            Wrong(sgd_one_epoch, "no correct run"),
            Wrong(sgd_two_lam, "twice too large"),
            Wrong(sgd_returns_list, "tuple (w, b)"),
            Wrong(sgd_batch_size_at_most_n, "batch_size larger than n is allowed"),
            Wrong(sgd_needs_an_epoch, ("orders = []", "no step is taken")),
            Wrong(sgd_column_w, "1-D numpy array"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
