"""Checkers for the exercises of ``book/classification/softmax_regression``: the gradient of the softmax
cross-entropy, checked against PyTorch's autograd, and one-versus-rest logistic regression.

Conventions (the page's): ``W`` has one row per class, shape ``(K, d)``; the scores are ``X @ W.T + b``,
shape ``(n, K)``; labels are ints ``0..K-1``; the loss is the mean cross-entropy over the ``n`` examples.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from nlp_helpers.exercises.checker import Checker, CheckResult

__all__ = ["check_one_vs_rest", "check_softmax_gradient"]


def _data(
    n: int, d: int, k: int, seed: int, scale: float = 1.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    g = np.random.default_rng(seed)
    X = g.normal(size=(n, d))
    W = scale * g.normal(size=(k, d))
    b = g.normal(size=k)
    y = np.arange(n) % k  # every class present
    g.shuffle(y)
    return W, b, X, y


def _autograd(W: np.ndarray, b: np.ndarray, X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The reference: PyTorch differentiates the mean cross-entropy (float64)."""
    Wt = torch.tensor(W, requires_grad=True)
    bt = torch.tensor(b, requires_grad=True)
    loss = torch.nn.functional.cross_entropy(torch.tensor(X) @ Wt.T + bt, torch.tensor(y))
    loss.backward()
    return Wt.grad.numpy(), bt.grad.numpy()


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _pair(ex: Checker, got: object, what: str, shapes: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple:
    ok = isinstance(got, tuple) and len(got) == 2
    ex.expect(ok, f"{what} should return a tuple of two numpy arrays, got {type(got).__name__}.")
    a, b = np.asarray(got[0], dtype=float), np.asarray(got[1], dtype=float)
    if a.shape == shapes[0][::-1] and a.shape != shapes[0]:
        ex.fail(
            f"{what}: the first array has shape {a.shape}, the transpose of what is asked: W has one row per "
            f"class, shape {shapes[0]}, and so has its gradient."
        )
    ex.expect(a.shape == shapes[0], f"{what}: the first array should have shape {shapes[0]}, got {a.shape}.")
    ex.expect(b.shape == shapes[1], f"{what}: the second array should have shape {shapes[1]}, got {b.shape}.")
    return a, b


def check_softmax_gradient(softmax_gradient: Callable) -> CheckResult:
    """``softmax_gradient(W, b, X, y)`` -> (dL/dW of shape (K, d), dL/db of shape (K,)) of the mean cross-entropy."""
    with Checker("The gradient of the softmax cross-entropy") as ex:
        for n, d, k, seed in [(6, 4, 3, 0), (8, 2, 4, 1), (5, 3, 2, 2)]:
            W, b, X, y = _data(n, d, k, seed)
            what = f"softmax_gradient(W {W.shape}, b {b.shape}, X {X.shape}, y)"
            gW, gb = _pair(ex, ex.call(softmax_gradient, W, b, X, y), what, (W.shape, b.shape))
            want_W, want_b = _autograd(W, b, X, y)
            if np.allclose(gW, want_W, rtol=1e-6, atol=1e-9) and np.allclose(gb, want_b, rtol=1e-6, atol=1e-9):
                continue
            if np.allclose(gW, -want_W, rtol=1e-6, atol=1e-9):
                ex.fail(f"{what}: your gradient has the wrong sign: the error is prediction minus truth, P - Y.")
            if np.allclose(gW, n * want_W, rtol=1e-6, atol=1e-9):
                ex.fail(
                    f"{what}: your gradient is n times too large: the loss is the mean over the examples, not the sum."
                )
            P = _softmax(X @ W.T + b)
            only_true = -(np.eye(k)[y] * (1 - P)).T @ X / n
            if np.allclose(gW, only_true, rtol=1e-6, atol=1e-9):
                ex.fail(
                    f"{what}: only the true class's row moves in your gradient. Every class's probability depends "
                    "on every score through the softmax's denominator: the wrong classes get P_k times x too."
                )
            ex.expect(
                np.allclose(gW, want_W, rtol=1e-6, atol=1e-9),
                f"{what}: dL/dW differs from autograd's by up to {np.abs(gW - want_W).max():.2e}. Differentiate "
                "-log softmax(z)_y with respect to each score z_k first, then use z = X W^T + b.",
            )
            ex.expect(
                np.allclose(gb, want_b, rtol=1e-6, atol=1e-9),
                f"{what}: dL/dW is right but dL/db differs from autograd's: each score z_k has b_k with "
                "derivative 1, so dL/db is the mean over the examples of dL/dz.",
            )
        # huge scores: exp overflows unless the softmax subtracts the row's largest score
        W, b, X, y = _data(4, 3, 3, 3, scale=400.0)
        gW, gb = _pair(
            ex, ex.call(softmax_gradient, W, b, X, y), "softmax_gradient with scores near ±1000", (W.shape, b.shape)
        )
        ex.expect(
            np.all(np.isfinite(gW)) and np.all(np.isfinite(gb)),
            "With scores near ±1000 your gradient contains nan or inf: exp overflows. Subtract each row's largest "
            "score before exponentiating (the softmax does not change).",
        )
        want_W, want_b = _autograd(W, b, X, y)
        ex.expect(
            np.allclose(gW, want_W, rtol=1e-6, atol=1e-9) and np.allclose(gb, want_b, rtol=1e-6, atol=1e-9),
            "With scores near ±1000 your gradient differs from autograd's: compute the probabilities stably.",
        )
    return ex.result


# ----------------------------------------------------------------------------------------- one-versus-rest
def _ovr_reference(
    X: np.ndarray,
    y: np.ndarray,
    n_classes: int,
    eta: float,
    lam: float,
    steps: int,
    *,
    flip: bool = False,
    penalise_bias: bool = False,
    softmax: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    n, d = X.shape
    W, b = np.zeros((n_classes, d)), np.zeros(n_classes)
    T = (y[:, None] == np.arange(n_classes)).astype(float)  # (n, K): 1 where the example is of class k
    if flip:
        T = 1 - T
    for _ in range(steps):
        Z = X @ W.T + b
        P = _softmax(Z) if softmax else 1 / (1 + np.exp(-Z))
        E = P - T  # (n, K)
        gW = E.T @ X / n + lam * W
        gb = E.mean(axis=0) + (lam * b if penalise_bias else 0.0)
        W, b = W - eta * gW, b - eta * gb
    return W, b


_OVR_SLIPS = [
    (
        {"flip": True},
        "Row k of your W was trained to recognise 'not class k': the binary label of an example is 1 when its class is k, 0 otherwise.",
    ),
    (
        {"softmax": True},
        "Your rows were trained together through a softmax: that is softmax regression. One-versus-rest "
        "trains each row as its own binary logistic regression, with the sigmoid.",
    ),
    ({"penalise_bias": True}, "You penalised the biases too: the L2 term covers the weights only."),
    ({"lam": 0.0}, "Your weights were trained without the L2 penalty: add lam * W to the weights' gradient."),
]


def check_one_vs_rest(one_vs_rest: Callable) -> CheckResult:
    """``one_vs_rest(X, y, n_classes, eta, lam, steps)`` -> (W of shape (K, d), b of shape (K,))."""
    with Checker("One-versus-rest logistic regression", time_limit=10) as ex:
        for n, d, k, eta, lam, steps, seed in [(12, 4, 3, 0.5, 0.01, 50, 0), (10, 2, 4, 1.0, 0.1, 30, 1)]:
            _, _, X, y = _data(n, d, k, seed)
            what = f"one_vs_rest(X {X.shape}, y, n_classes={k}, eta={eta}, lam={lam}, steps={steps})"
            got = _pair(ex, ex.call(one_vs_rest, X, y, k, eta, lam, steps), what, ((k, d), (k,)))
            want = _ovr_reference(X, y, k, eta, lam, steps)
            if np.allclose(got[0], want[0], rtol=1e-6, atol=1e-9) and np.allclose(
                got[1], want[1], rtol=1e-6, atol=1e-9
            ):
                continue
            for kwargs, hint in _OVR_SLIPS:
                W, b = _ovr_reference(X, y, k, eta, **{"lam": lam, "steps": steps, **kwargs})
                if np.allclose(got[0], W, rtol=1e-6, atol=1e-9) and np.allclose(got[1], b, rtol=1e-6, atol=1e-9):
                    ex.fail(f"{what}: {hint}")
            ex.fail(
                f"{what}: your W differs from the reference by up to {np.abs(got[0] - want[0]).max():.2e}. Start "
                "every row from zeros and take `steps` full-batch gradient steps on the mean cross-entropy of "
                "that row's binary problem, plus lam / 2 times its squared weights."
            )
        # a class with no example: its classifier only ever sees negatives
        X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
        y = np.array([0, 1, 0])
        got = _pair(ex, ex.call(one_vs_rest, X, y, 3, 0.5, 0.1, 20), "a class (2) with no example", ((3, 2), (3,)))
        ex.expect(
            np.all(np.isfinite(got[0])) and np.allclose(got[1][2], _ovr_reference(X, y, 3, 0.5, 0.1, 20)[1][2]),
            "When class 2 has no training example, its row must still be trained (every label 0), without nan: "
            "your row 2 differs.",
        )
    return ex.result
