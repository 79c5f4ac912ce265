"""Checkers for the exercises of the pages "Neural networks" and "Training neural networks" (the chapter "Neural
networks and neural language models"; the neural LM page's checkers are in :mod:`nlp_helpers.feedforward.lm_exercises`).

Each checker calls the student's function on small inputs, compares it with the chapter's helpers
(:mod:`nlp_helpers.feedforward.normalisation`), with numpy or with torch (its binary cross-entropy
and autograd), tests the edge case students forget, and gives a hint with every failure.
The by-hand backpropagation exercise is checked as values; AdamW against ``torch.optim.AdamW``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import torch

from nlp_helpers.exercises.checker import Checker, CheckResult, InPlace
from nlp_helpers.exercises.numbers import NumberAnswer, check_number_answer
from nlp_helpers.feedforward.normalisation import dropout

__all__ = [
    "check_adamw_step",
    "check_backprop_by_hand",
    "check_binary_cross_entropy",
    "check_inverted_dropout",
    "check_layer_norm_backward",
    "check_tanh_via_sigmoid",
]

_Z = np.array([-30.0, -3.0, -0.5, 0.0, 0.25, 2.0, 30.0])


def check_tanh_via_sigmoid(tanh_via_sigmoid: Callable) -> CheckResult:
    """``tanh_via_sigmoid(z)`` = 2 sigmoid(2 z) - 1 elementwise, for numpy arrays of any shape."""
    with Checker(
        "tanh from the sigmoid",
        forbidden={
            "np.tanh": np.tanh,
            "math.tanh": math.tanh,
            "torch.tanh": torch.tanh,
            "torch.nn.functional.tanh": torch.nn.functional.tanh,
        },
        forbidden_hint="The exercise asks for tanh built from a sigmoid only.",
    ) as ex:
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
    with Checker("Inverted dropout", forbidden={"dropout": dropout}) as ex:
        x = np.arange(1.0, 13.0).reshape(3, 4)
        got = ex.call(inverted_dropout, x.copy(), 0.5, np.random.default_rng(7))
        keep = np.random.default_rng(7).random(x.shape) >= 0.5
        slips = {"does not rescale the kept entries": np.where(keep, x, 0.0), "inverts the mask rule": ~keep}
        for slip, wrong in slips.items():
            if np.shape(got) == x.shape and np.allclose(np.asarray(got, dtype=float) != 0, wrong != 0):
                if slip.startswith("inverts") or np.allclose(np.asarray(got, dtype=float), wrong):
                    ex.fail(f"inverted_dropout(x, 0.5, rng(7)) {slip}: read the exercise's rule again.")
        if np.shape(got) == x.shape and not np.array_equal(np.asarray(got, dtype=float) != 0, keep):
            ex.fail(
                "inverted_dropout(x, 0.5, rng(7)) keeps other entries than gen.random(x.shape) >= p: draw the mask "
                "from the generator `gen` you are given, exactly like that and once, before anything else draws "
                "from it."
            )
        ex.expect_close(
            got,
            dropout(x, 0.5, np.random.default_rng(7)),
            what="inverted_dropout(x, 0.5, rng(7))",
            hint="Check the mask rule of the exercise (which draws keep an entry) and that the kept entries are "
            "rescaled so the expected value of each entry stays the same.",
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
        ex.expect_raises(
            ValueError,
            inverted_dropout,
            x,
            -0.1,
            np.random.default_rng(0),
            what="inverted_dropout(x, -0.1, gen)",
            hint="p is a probability: a negative p is outside [0, 1) too.",
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
        mu, sigma = x.mean(axis=1, keepdims=True), np.sqrt(x.var(axis=1, keepdims=True) + 1e-5)
        x_hat = (x - mu) / sigma
        paths = {
            "through the row's mean (the mean of dy over the row)": (dy - x_hat * (dy * x_hat).mean(1, keepdims=True))
            / sigma,
            "through the row's variance (the one with x_hat)": (dy - dy.mean(1, keepdims=True)) / sigma,
        }
        for path, partial in paths.items():
            if np.shape(got) == x.shape and np.allclose(np.asarray(got, dtype=float), partial, rtol=1e-6, atol=1e-9):
                ex.fail(f"your gradient leaves out the path {path}: x_hat depends on x through it too.")
        sigma_out = np.sqrt(x.var(axis=1, keepdims=True)) + 1e-5
        x_hat_out = (x - mu) / sigma_out
        eps_outside = (dy - dy.mean(1, keepdims=True) - x_hat_out * (dy * x_hat_out).mean(1, keepdims=True)) / sigma_out
        if np.shape(got) == x.shape and np.allclose(np.asarray(got, dtype=float), eps_outside, rtol=1e-7, atol=1e-10):
            ex.fail(
                "your sigma adds eps after the square root: the exercise's sigma has eps inside the square root, "
                "sqrt(var + eps)."
            )
        if np.shape(got) == x.shape and np.allclose(np.asarray(got, dtype=float), unbiased, rtol=1e-6, atol=1e-9):
            ex.fail(
                "your gradient uses the unbiased variance (divide by d - 1). Layer normalisation uses the biased "
                "variance (divide by d)."
            )
        ex.expect_close(
            got,
            want,
            what="layer_norm_backward(x, dy) for x, dy of shape (3, 5)",
            rtol=1e-6,
            atol=1e-9,
            hint="x_hat depends on x directly and through the row's mean and variance: the gradient has a "
            "term for each path. Check your derivation on one row against autograd.",
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


# ----- backpropagation by hand -------------------------------------------------------------------
# The graph of the exercise: a = w1 x + b1, h = ReLU(a), y_hat = w2 h, L = (y_hat - t)^2 / 2.
_BY_HAND = {"x": 2.0, "w1": 1.5, "b1": -1.0, "w2": 2.0, "t": 1.0}


def _by_hand_grads(out_grad=None, skip_x=False, skip_w2=False) -> dict[str, float]:
    v = _BY_HAND
    h = max(v["w1"] * v["x"] + v["b1"], 0.0)
    y_hat = v["w2"] * h
    d_y = (y_hat - v["t"]) if out_grad is None else out_grad(y_hat, v["t"])
    d_h = d_y * (1.0 if skip_w2 else v["w2"])
    d_a = d_h * (1.0 if h > 0 else 0.0)
    return {"w1": d_a * (1.0 if skip_x else v["x"]), "b1": d_a, "w2": d_y * h}


_BY_HAND_MISTAKES = [
    (
        {"out_grad": lambda y, t: t - y},
        "every sign is flipped: dL/dy_hat = y_hat - t (the prediction minus the target), not t - y_hat.",
    ),
    (
        {"out_grad": lambda y, t: y},
        "dL/dy_hat for L = (y_hat - t)^2 / 2 is y_hat - t, not y_hat: subtract the target.",
    ),
    (
        {"out_grad": lambda y, t: 2 * (y - t)},
        "the loss has a factor 1/2, so dL/dy_hat = y_hat - t, without the 2.",
    ),
    ({"skip_x": True}, "dL/dw1 = dL/da * x: multiply by the input x = 2 (the local derivative of w1 x)."),
    ({"skip_w2": True}, "dL/dh = dL/dy_hat * w2: the path from y_hat back to h goes through the weight w2 = 2."),
]


def check_backprop_by_hand(backprop_by_hand: Callable) -> CheckResult:
    """``backprop_by_hand()``: dict with the three gradients ``"w1"``, ``"b1"``, ``"w2"`` as numbers."""
    want = _by_hand_grads()
    answer = NumberAnswer(
        want=want,
        returns="backprop_by_hand() should return a dict with keys 'w1', 'b1', 'w2'",
        keys=f"the keys should be exactly {sorted(want)}",
        number="every gradient should be a number (a float or an int).",
        mistakes=[(_by_hand_grads(**kwargs), hint) for kwargs, hint in _BY_HAND_MISTAKES],
        wrong=lambda key, got, _: (
            f"dL/d{key} should not be {got:g}: run the forward pass first (a, h, y_hat, L), "
            "then go back one node at a time, multiplying by each local derivative."
        ),
    )
    with Checker("Backpropagation by hand") as ex:
        check_number_answer(ex, ex.call(backprop_by_hand), answer)
    return ex.result


# ----- AdamW -------------------------------------------------------------------------------------
def _adamw_reference(
    params, grads_seq, lr, weight_decay, b1=0.9, b2=0.999, eps=1e-8, decay_first=True, t_per_tensor=False
):
    """``torch.optim.AdamW`` in numpy (torch's first step imports torch._dynamo); ``decay_first=False`` and
    ``t_per_tensor=True`` (the step count advanced once per tensor): the slips."""
    out = []
    for k, p in enumerate(params):
        p, m, v = np.array(p, dtype=float), 0.0, 0.0
        for s, grads in enumerate(grads_seq):
            t = s * len(params) + k + 1 if t_per_tensor else s + 1
            g = np.asarray(grads[k], dtype=float)
            if decay_first:
                p = p - lr * weight_decay * p
            m, v = b1 * m + (1 - b1) * g, b2 * v + (1 - b2) * g * g
            p = p - lr * (m / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + eps)
            if not decay_first:
                p = p - lr * weight_decay * p
        out.append(p)
    return out


def _run_student(ex, adamw_step, params, grads_seq, lr, weight_decay):
    ps, state = [torch.tensor(p, dtype=torch.float64) for p in params], {}
    for grads in grads_seq:
        gs = [torch.tensor(g, dtype=torch.float64) for g in grads]
        with torch.no_grad():
            new = ex.call(adamw_step, ps, gs, InPlace(state), lr, weight_decay)
        ex.expect(
            isinstance(new, (list, tuple))
            and len(new) == len(ps)
            and all(isinstance(q, torch.Tensor) and q.shape == p.shape for q, p in zip(new, ps)),
            "adamw_step should return a list of new tensors, one per parameter, each of its parameter's shape; "
            f"got {type(new).__name__}.",
        )
        ps = [q.detach().clone() for q in new]
    return [p.numpy() for p in ps]


def check_adamw_step(adamw_step: Callable) -> CheckResult:
    """``adamw_step(params, grads, state, lr, weight_decay)`` returns the new parameters (a list of tensors), like
    ``torch.optim.AdamW`` with betas (0.9, 0.999) and eps 1e-8; ``state`` is a dict it keeps between steps."""
    with Checker("Adam with decoupled weight decay") as ex:
        gen = np.random.default_rng(0)
        params = [gen.normal(size=(3, 2)), gen.normal(size=4)]
        grads_seq = [[gen.normal(size=(3, 2)), 100 * gen.normal(size=4)] for _ in range(4)]
        lr = 0.01
        got = _run_student(ex, adamw_step, params, grads_seq, lr, 0.0)
        want = _adamw_reference(params, grads_seq, lr, 0.0)
        ex.expect(
            not np.allclose(got[0], params[0]),
            "the parameters did not change: return the parameters after the step, not the ones you were given.",
        )
        for g, w in zip(got, want):
            if not np.allclose(g, w, rtol=1e-6, atol=1e-9):
                per_tensor = _adamw_reference(params, grads_seq, lr, 0.0, t_per_tensor=True)
                if all(np.allclose(a, b, rtol=1e-6, atol=1e-9) for a, b in zip(got, per_tensor)):
                    ex.fail(
                        "your step count t advances once for every tensor: it counts steps, so it goes up once per "
                        "step (one call of adamw_step), and every parameter of that step uses the same t."
                    )
                one = _run_student(ex, adamw_step, params, grads_seq[:1], lr, 0.0)
                if np.allclose(one[0] - params[0], -lr * np.sign(grads_seq[0][0]), atol=1e-6):
                    ex.fail(
                        "with weight_decay = 0 your first step is right but later ones are not: keep m, v and "
                        "the step count t in `state` between calls, and use t in the bias corrections."
                    )
                ex.fail(
                    "with weight_decay = 0 AdamW is Adam: m and v are running averages of g and g², "
                    "bias-corrected by 1 - beta^t, and the step is lr * m_hat / (sqrt(v_hat) + eps)."
                )
        got = _run_student(ex, adamw_step, params, grads_seq, lr, 0.1)
        want = _adamw_reference(params, grads_seq, lr, 0.1)
        if not all(np.allclose(g, w, rtol=1e-6, atol=1e-9) for g, w in zip(got, want)):
            after = _adamw_reference(params, grads_seq, lr, 0.1, decay_first=False)
            if all(np.allclose(g, w, rtol=1e-6, atol=1e-9) for g, w in zip(got, after)):
                ex.fail(
                    "you decay after the Adam step; the convention here (and PyTorch's) is to shrink the "
                    "parameter first, p <- p - lr * weight_decay * p, then take the Adam step."
                )
            ex.fail(
                "with weight_decay > 0 the result differs from AdamW: the decay is decoupled, a separate "
                "step p <- p - lr * weight_decay * p, not added to the gradient (that is Adam with L2, "
                "which then divides the decay by sqrt(v_hat))."
            )
        zero = [np.zeros(3)]
        got = _run_student(ex, adamw_step, zero, [[np.zeros(3)]], lr, 0.1)
        ex.expect(
            bool(np.all(np.isfinite(got[0]))) and np.allclose(got[0], 0.0),
            "a zero gradient on zero weights must leave them at 0, not nan: add eps to sqrt(v_hat), "
            "not inside a division by sqrt(v_hat) alone.",
        )
        tiny = _run_student(ex, adamw_step, zero, [[np.full(3, 1e-6)]], lr, 0.0)
        want = _adamw_reference(zero, [[np.full(3, 1e-6)]], lr, 0.0)
        if not np.allclose(tiny[0], want[0], rtol=1e-6, atol=1e-12):
            ex.fail(
                f"one step with the gradient 1e-6 should move each weight by {-want[0][0]:.4g}, got "
                f"{-tiny[0][0]:.4g}: where eps enters matters when the gradients are tiny. Check it against the "
                "update rule of the exercise (eps is added to the square root of v_hat, not under it)."
            )
    return ex.result
