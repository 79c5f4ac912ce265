"""Checkers for the exercises of ``book/classification/logistic_regression``: one SGD step with L2 by hand,
and mini-batch SGD with an L2 penalty.

The loss is the page's: the mean cross-entropy over the examples of a step plus
``lam / 2 * ||w||^2`` (the bias is not penalised), so one step is
``w <- w - eta * (X_B^T (sigmoid(X_B w + b) - y_B) / |B| + lam * w)`` and ``b <- b - eta * mean(error)``.
Each checker compares with a numpy reference and names the typical slip it recognises (the penalty
left out, added with the wrong sign or twice, the bias penalised, a sum instead of a mean, the last
short batch dropped, the given order of the examples ignored).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.exercises.numbers import NumberAnswer, check_number_answer

__all__ = ["check_minibatch_sgd_l2", "check_sgd_step_by_hand"]

# The by-hand step: one example, x = (3, 2), y = 1, start w = (1, -1.5), b = 0, eta = 0.5, lam = 0.1.
HAND_X, HAND_Y, HAND_W, HAND_B, HAND_ETA, HAND_LAM = np.array([3.0, 2.0]), 1.0, np.array([1.0, -1.5]), 0.0, 0.5, 0.1


def _not_yet() -> None:
    raise NotImplementedError


def _hand_step(l2_factor: float = 1.0, sign: float = 1.0, bias_penalty: float = 0.0) -> dict[str, float]:
    """The step, or a typical slip: ``l2_factor`` 0 (no penalty), -1 (wrong sign), 2 (derivative of lam ||w||^2);
    ``sign`` -1 (gradient ascent: y - y_hat); ``bias_penalty`` > 0 (the bias penalised too)."""
    z = HAND_W @ HAND_X + HAND_B
    error = sign * (1 / (1 + np.exp(-z)) - HAND_Y)
    gw = error * HAND_X + l2_factor * HAND_LAM * HAND_W
    gb = error + bias_penalty * HAND_LAM * HAND_B
    w, b = HAND_W - HAND_ETA * gw, HAND_B - HAND_ETA * gb
    return {"w1": float(w[0]), "w2": float(w[1]), "b": float(b)}


def check_sgd_step_by_hand(sgd_step: object) -> CheckResult:
    """``sgd_step``: dict with the weights ``"w1"``, ``"w2"`` and the bias ``"b"`` after the one step."""
    answer = NumberAnswer(
        want=_hand_step(),
        returns="sgd_step should be a dict with the keys 'w1', 'w2' and 'b'",
        keys="the keys should be exactly ['b', 'w1', 'w2']",
        number="every value of sgd_step should be a number (a float, an int or a fraction such as 7 / 4).",
        mistakes=[
            (
                _hand_step(l2_factor=0.0),
                "These are the weights after a step without the penalty: the L2 term adds lam * w to the "
                "gradient of each weight.",
            ),
            (
                _hand_step(l2_factor=-1.0),
                "The penalty pulls the weights towards 0: lam * w is added to the gradient (and so subtracted, "
                "times eta, from the weight), you subtracted it from the gradient.",
            ),
            (
                _hand_step(l2_factor=2.0),
                "The penalty is lam / 2 * ||w||^2, whose derivative is lam * w: you used twice that.",
            ),
            (
                _hand_step(sign=-1.0),
                "Your step climbs the loss: the error is prediction minus truth, y_hat - y, and the step goes "
                "against the gradient.",
            ),
        ],
        wrong=lambda key, got, _: (
            f"{key} should not be {got:g}: compute z = w . x + b and y_hat = sigmoid(z) first, then the gradient "
            "of each weight (error times feature, plus the penalty's term) and of the bias (the error alone), "
            "then step against the gradient."
        ),
        rtol=0.0,
        atol=5e-3,
    )
    with Checker("One SGD step with L2, by hand") as ex:
        if sgd_step is ...:
            ex.call(_not_yet)  # the untouched starting point: "not yet"
        ex.expect(
            not callable(sgd_step),
            "sgd_step should be a dict of numbers worked out by hand, not a function.",
        )
        check_number_answer(ex, sgd_step, answer)
    return ex.result


# ----------------------------------------------------------------------------------------- mini-batch SGD
def _sgd_reference(
    X: np.ndarray,
    y: np.ndarray,
    orders: Sequence[Sequence[int]],
    batch_size: int,
    eta: float,
    lam: float,
    *,
    mean: bool = True,
    penalise_bias: bool = False,
    drop_last: bool = False,
    lam_per_example: bool = False,
) -> tuple[np.ndarray, float]:
    """Mini-batch SGD with L2 (or one of the slips the checker recognises)."""
    w, b = np.zeros(X.shape[1]), 0.0
    for order in orders:
        order = np.asarray(order)
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            if drop_last and len(idx) < batch_size:
                continue
            error = 1 / (1 + np.exp(-(X[idx] @ w + b))) - y[idx]
            scale = len(idx) if mean else 1
            penalty = lam * (len(idx) if lam_per_example else 1)
            gw = X[idx].T @ error / scale + penalty * w
            gb = error.sum() / scale + (penalty * b if penalise_bias else 0.0)
            w, b = w - eta * gw, b - eta * gb
    return w, float(b)


def _data(n: int, d: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    g = np.random.default_rng(seed)
    X = g.normal(size=(n, d))
    y = (X @ g.normal(size=d) + 0.5 * g.normal(size=n) > 0).astype(float)
    return X, y


def _pair(ex: Checker, got: object, what: str, d: int) -> tuple[np.ndarray, float]:
    ok = isinstance(got, tuple) and len(got) == 2
    ex.expect(ok, f"{what} should return a tuple (w, b), got {type(got).__name__}.")
    w = np.asarray(got[0], dtype=float) if ok else None
    ex.expect(w is not None and w.shape == (d,), f"{what}: w should be a 1-D numpy array of {d} weights.")
    try:
        b = float(got[1])
    except (TypeError, ValueError):
        ex.fail(f"{what}: b should be a number (a float).")
    return w, b


def _close(a: tuple[np.ndarray, float], b: tuple[np.ndarray, float]) -> bool:
    return bool(np.allclose(a[0], b[0], rtol=1e-6, atol=1e-9) and np.isclose(a[1], b[1], rtol=1e-6, atol=1e-9))


_SLIPS = [
    (
        {"lam": 0.0},
        "Your weights are those of SGD without the penalty: add lam * w to the gradient of the weights at every step.",
    ),
    (
        {"penalise_bias": True},
        "You penalised the bias too: the L2 term covers the weights w only; the bias's gradient is the mean error.",
    ),
    (
        {"mean": False},
        "You summed the errors of a batch: the loss is the *mean* cross-entropy over the batch, so divide the "
        "batch's gradient by the number of examples in it (the last batch may be shorter).",
    ),
    (
        {"drop_last": True},
        "You skipped the last, shorter batch of each epoch: an epoch visits every example once.",
    ),
    (
        {"lam_per_example": True},
        "You added the penalty once per example of the batch: it belongs to the loss once, so each step adds "
        "lam * w once.",
    ),
]


def check_minibatch_sgd_l2(minibatch_sgd_l2: Callable) -> CheckResult:
    """``minibatch_sgd_l2(X, y, orders, batch_size, eta, lam)`` -> (w, b) after one epoch per order."""
    with Checker("Mini-batch SGD with an L2 penalty") as ex:
        cases = [(10, 3, 4, 0.5, 0.1, 0), (9, 2, 3, 0.3, 0.05, 1), (7, 4, 2, 1.0, 0.2, 2)]
        for n, d, batch_size, eta, lam, seed in cases:
            X, y = _data(n, d, seed)
            g = np.random.default_rng(100 + seed)
            orders = [g.permutation(n).tolist() for _ in range(2)]
            what = f"minibatch_sgd_l2(X of shape {X.shape}, y, orders, batch_size={batch_size}, eta={eta}, lam={lam})"
            got = _pair(ex, ex.call(minibatch_sgd_l2, X, y, orders, batch_size, eta, lam), what, d)
            want = _sgd_reference(X, y, orders, batch_size, eta, lam)
            if _close(got, want):
                continue
            for kwargs, hint in _SLIPS:
                if _close(got, _sgd_reference(X, y, orders, batch_size, eta, **{"lam": lam, **kwargs})):
                    ex.fail(f"{what}: {hint}")
            if _close(got, _sgd_reference(X, y, orders, batch_size, eta, 2 * lam)):
                ex.fail(
                    f"{what}: your penalty's gradient is twice too large: the loss adds (lam / 2) ||w||^2, whose "
                    "gradient is lam * w."
                )
            ordered = [list(range(n))] * len(orders)
            if _close(got, _sgd_reference(X, y, ordered, batch_size, eta, lam)):
                ex.fail(
                    f"{what}: you visited the examples in their stored order: epoch e must visit them in the "
                    "order orders[e]."
                )
            ex.fail(
                f"{what} gave w = {np.round(got[0], 4)}, b = {got[1]:.4f}, which no correct run gives. Start from "
                "w = 0 and b = 0, and for each batch use the current w and b for the error sigmoid(X w + b) - y."
            )
        # a batch larger than the data: one full-batch step per epoch
        X, y = _data(5, 2, 3)
        got, error = ex.try_call(minibatch_sgd_l2, X, y, [[4, 3, 2, 1, 0]], 8, 0.5, 0.1)
        if error is not None:
            ex.fail(
                f"with batch_size=8 and n=5 examples your function raised {type(error).__name__}: {error}. A "
                "batch_size larger than n is allowed: each epoch is then one batch of all the examples."
            )
        got = _pair(ex, got, "batch_size=8 > n=5", 2)
        ex.expect(
            _close(got, _sgd_reference(X, y, [[4, 3, 2, 1, 0]], 8, 0.5, 0.1)),
            "With batch_size larger than the number of examples, each epoch is one step on all of them: "
            "your answer differs there.",
        )
        # no orders: no epoch, no step
        got, error = ex.try_call(minibatch_sgd_l2, X, y, [], 2, 0.5, 0.1)
        if error is not None:
            ex.fail(
                f"with orders = [] your function raised {type(error).__name__}: {error}. No epoch is not an error: "
                "no step is taken, and the weights and the bias keep their starting values."
            )
        got = _pair(ex, got, "orders=[] (no epoch)", 2)
        ex.expect(
            np.allclose(got[0], 0) and got[1] == 0,
            "With orders = [] (no epoch) no step is taken: return zero weights and a zero bias.",
        )
    return ex.result
