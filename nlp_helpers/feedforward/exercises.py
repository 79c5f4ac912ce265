"""Checkers for the exercises of the chapter "Neural networks and neural language models".

Each checker calls the student's function on small inputs, compares it with the chapter's helpers
(:mod:`nlp_helpers.feedforward.normalisation`), with numpy or with torch (its binary cross-entropy
and autograd), tests the edge case students forget, and gives a hint with every failure.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.feedforward.normalisation import dropout

__all__ = [
    "check_binary_cross_entropy",
    "check_inverted_dropout",
    "check_layer_norm_backward",
    "check_tanh_via_sigmoid",
]

_Z = np.array([-30.0, -3.0, -0.5, 0.0, 0.25, 2.0, 30.0])


def check_tanh_via_sigmoid(tanh_via_sigmoid: Callable) -> CheckResult:
    """``tanh_via_sigmoid(z)`` = 2 sigmoid(2 z) - 1 elementwise, for numpy arrays of any shape."""
    with Checker("tanh from the sigmoid") as ex:
        got = ex.call(tanh_via_sigmoid, _Z.copy())
        ex.expect_close(
            got,
            np.tanh(_Z),
            what="tanh_via_sigmoid(z) for z = " + str(_Z.tolist()),
            hint="tanh(z) = 2 * sigmoid(2 * z) - 1, with sigmoid(t) = 1 / (1 + exp(-t)).",
        )
        grid = np.linspace(-4, 4, 12).reshape(3, 4)
        ex.expect_close(
            ex.call(tanh_via_sigmoid, grid.copy()),
            np.tanh(grid),
            what="tanh_via_sigmoid on a (3, 4) array",
            hint="Work elementwise with numpy (np.exp), so any shape works.",
        )
        ex.expect_close(
            ex.call(tanh_via_sigmoid, np.array([-400.0, 400.0])),
            [-1.0, 1.0],
            what="tanh_via_sigmoid([-400, 400])",
            hint="Far from 0 the answer must be -1 or 1, not nan: use the helper "
            "activate(t, 'sigmoid') or a sigmoid that never divides inf by inf.",
        )
    return ex.result


def _bce(y_pred, y_true):
    return float(-np.mean(y_true * np.log(y_pred) + (1 - y_true) * np.log(1 - y_pred)))


def check_binary_cross_entropy(binary_cross_entropy: Callable) -> CheckResult:
    """``binary_cross_entropy(y_pred, y_true)``: mean of -(y log p + (1 - y) log(1 - p)); ValueError on bad shapes."""
    with Checker("Binary cross-entropy") as ex:
        p, y = np.array([0.9, 0.2, 0.6, 0.5]), np.array([1.0, 0.0, 0.0, 1.0])
        ref = float(torch.nn.functional.binary_cross_entropy(torch.tensor(p), torch.tensor(y)))
        ex.expect_close(
            ex.call(binary_cross_entropy, p.copy(), y.copy()),
            ref,
            what="binary_cross_entropy([0.9, 0.2, 0.6, 0.5], [1, 0, 0, 1])",
            hint="Average -(y log p + (1 - y) log(1 - p)) over the examples (natural log).",
        )
        ex.expect_close(
            ex.call(binary_cross_entropy, np.array([0.8]), np.array([1.0])),
            -np.log(0.8),
            what="binary_cross_entropy([0.8], [1])",
            hint="For y = 1 only -log p counts.",
        )
        ex.expect_close(
            ex.call(binary_cross_entropy, np.array([0.8]), np.array([0.0])),
            -np.log(0.2),
            what="binary_cross_entropy([0.8], [0])",
            hint="For y = 0 only -log(1 - p) counts.",
        )
        ex.expect_raises(
            ValueError,
            binary_cross_entropy,
            np.array([0.5, 0.5]),
            np.array([1.0]),
            what="binary_cross_entropy with 2 predictions and 1 label",
            hint="Check that y_pred and y_true have the same length and raise ValueError.",
        )
    return ex.result


def check_inverted_dropout(inverted_dropout: Callable) -> CheckResult:
    """``inverted_dropout(x, p, gen)`` with mask ``gen.random(x.shape) >= p``, survivors scaled by 1/(1-p)."""
    with Checker("Inverted dropout") as ex:
        x = np.arange(1.0, 13.0).reshape(3, 4)
        got = ex.call(inverted_dropout, x.copy(), 0.5, np.random.default_rng(7))
        ex.expect_close(
            got,
            dropout(x, 0.5, np.random.default_rng(7)),
            what="inverted_dropout(x, 0.5, rng(7))",
            hint="keep = gen.random(x.shape) >= p; return x * keep / (1 - p).",
        )
        ex.expect_close(
            ex.call(inverted_dropout, x.copy(), 0.0, np.random.default_rng(7)),
            x,
            what="inverted_dropout(x, 0.0, gen)",
            hint="With p = 0 nothing is dropped or rescaled.",
        )
        big = np.ones((200, 200))
        mean = float(np.mean(ex.call(inverted_dropout, big, 0.8, np.random.default_rng(3))))
        ex.expect(
            abs(mean - 1.0) < 0.05,
            f"the mean of inverted_dropout(ones, 0.8, gen) should stay near 1, got "
            f"{mean:.3f}. Divide the survivors by 1 - p so the expected value is kept.",
        )
        ex.expect_raises(
            ValueError,
            inverted_dropout,
            x,
            1.0,
            np.random.default_rng(0),
            what="inverted_dropout(x, 1.0, gen)",
            hint="p = 1 would drop everything and divide by zero: raise ValueError for p outside [0, 1).",
        )
    return ex.result


def _ln_backward_autograd(x: np.ndarray, dy: np.ndarray, eps: float) -> np.ndarray:
    xt = torch.tensor(x, requires_grad=True)
    y = torch.nn.functional.layer_norm(xt, (x.shape[1],), eps=eps)
    (y * torch.tensor(dy)).sum().backward()
    return xt.grad.numpy()


def check_layer_norm_backward(layer_norm_backward: Callable) -> CheckResult:
    """``layer_norm_backward(x, dy, eps=1e-5)``: dL/dx of layer norm (no gain/bias) given dL/dy, rows normalised."""
    with Checker("Backpropagation through layer normalisation") as ex:
        gen = np.random.default_rng(0)
        x, dy = gen.normal(size=(3, 5)), gen.normal(size=(3, 5))
        got = ex.call(layer_norm_backward, x.copy(), dy.copy())
        want = _ln_backward_autograd(x, dy, 1e-5)
        sigma_d1 = np.sqrt(x.var(axis=1, ddof=1, keepdims=True) + 1e-5)
        x_hat_d1 = (x - x.mean(axis=1, keepdims=True)) / sigma_d1
        unbiased = (dy - dy.mean(1, keepdims=True) - x_hat_d1 * (dy * x_hat_d1).mean(1, keepdims=True)) / sigma_d1
        if np.shape(got) == x.shape and np.allclose(np.asarray(got, dtype=float), unbiased, rtol=1e-6, atol=1e-9):
            ex.fail(
                "your gradient uses the unbiased variance (divide by d - 1). Layer normalisation uses the biased "
                "variance: sigma = sqrt(x.var(axis=1) + eps), dividing by d."
            )
        ex.expect_close(
            got,
            want,
            what="layer_norm_backward(x, dy) for x, dy of shape (3, 5)",
            rtol=1e-6,
            atol=1e-9,
            hint="With x_hat = (x - mu) / sigma: dx = (dy - mean(dy) - x_hat * mean(dy * x_hat)) / "
            "sigma, means over each row's features.",
        )
        ones = np.ones((2, 4))
        ex.expect_close(
            ex.call(layer_norm_backward, x[:2, :4].copy(), ones),
            np.zeros((2, 4)),
            what="layer_norm_backward(x, ones)",
            rtol=0,
            atol=1e-9,
            hint="Adding a constant to every output of a row cannot change a mean-0 output: the "
            "gradient of sum(y) is 0. Subtract mean(dy).",
        )
        x3, dy3 = gen.normal(size=(4, 3)) * 10 + 5, gen.normal(size=(4, 3))
        ex.expect_close(
            ex.call(layer_norm_backward, x3.copy(), dy3.copy(), eps=0.1),
            _ln_backward_autograd(x3, dy3, 0.1),
            what="layer_norm_backward(x, dy, eps=0.1)",
            rtol=1e-6,
            atol=1e-9,
            hint="sigma = sqrt(var + eps) with the biased variance (divide by d).",
        )
    return ex.result
