"""Catalogue of the feedforward chapter's exercises: requirements, correct answers in several styles
(accepted) and typical wrong answers (rejected with a hint naming the mistake).

* ``tanh_via_sigmoid(z)``: 2 sigma(2z) - 1 elementwise, any shape; -1 and 1 (not nan) at z = -+400; using only a
  sigmoid (np.tanh, math.tanh, torch.tanh and torch.nn.functional.tanh switched off).
* ``binary_cross_entropy(y_pred, y_true)``: mean (not sum, not the per-example losses: one float) of both terms,
  natural log; ValueError for different lengths.
* ``inverted_dropout(x, p, gen)``: the mask ``gen.random(x.shape) >= p`` drawn once from gen (not from
  numpy's global generator); kept entries divided by 1 - p; p = 0 changes nothing; ValueError unless 0 <= p < 1 (p = 1 and a
  negative p each); x unchanged; the page's dropout switched off.
* ``backprop_by_hand()``: a dict with exactly the keys w1, b1, w2 (no more), numbers equal to the hand-worked
  gradients (dL/dy_hat = y_hat - t, through w2, times x for w1).
* ``adamw_step(params, grads, state, lr, weight_decay)``: returns a list of new tensors (params and grads
  unchanged); state kept between calls; equals Adam at weight_decay 0; the decay decoupled from the
  gradient and applied before the step; no nan on zero gradients; eps added to the root, not under it; the step
  count t advances once per step (not once per tensor); neither params nor grads changed.
* ``perplexity_by_hand()``: one number, the geometric-mean perplexity (p1 p2 p3 p4)^(-1/4) (not the
  arithmetic mean of 1/p, not 1 / mean p, not the cross-entropy, not without the 4th root).
* ``layer_norm_backward(x, dy, eps)``: both the mean term and the x_hat term; biased variance with eps
  inside the square root (not added to sigma); the eps argument used; x and dy unchanged.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from nlp_helpers.feedforward import exercises as ex
from nlp_helpers.feedforward import lm_exercises as lex
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test
from tests.feedforward.test_feedforward_exercises import (
    _sigmoid,
    adamw_step,
    backprop_by_hand,
    binary_cross_entropy,
    inverted_dropout,
    layer_norm_backward,
    perplexity_by_hand,
    tanh_via_sigmoid,
)


def tanh_scipy_style(z):
    from scipy.special import expit

    return 2 * expit(2 * np.asarray(z, dtype=float)) - 1


def tanh_forgets_the_2_inside(z):
    return 2 * _sigmoid(np.asarray(z, dtype=float)) - 1


def tanh_nan_far_out(z):
    z = np.asarray(z, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(2 * z)
        return 2 * (e / (1 + e)) - 1  # inf / inf = nan at z = 400


def tanh_scalar_loop(z):  # works on a 1-D list only
    return np.array([2 / (1 + math.exp(-2 * v)) - 1 for v in z])


def bce_loop(y_pred, y_true):
    if len(y_pred) != len(y_true):
        raise ValueError(f"{len(y_pred)} predictions but {len(y_true)} labels")
    total = 0.0
    for p, y in zip(y_pred, y_true):
        total += -math.log(p) if y == 1 else -math.log(1 - p)
    return total / len(y_pred)


def bce_drops_the_zero_term(y_pred, y_true):
    return float(-np.mean(np.asarray(y_true) * np.log(y_pred)))


def bce_sum(y_pred, y_true):
    if len(y_pred) != len(y_true):
        raise ValueError("lengths")
    y = np.asarray(y_true)
    return float(-np.sum(y * np.log(y_pred) + (1 - y) * np.log(1 - np.asarray(y_pred))))


def bce_log2(y_pred, y_true):
    if len(y_pred) != len(y_true):
        raise ValueError("lengths")
    y, p = np.asarray(y_true), np.asarray(y_pred)
    return float(-np.mean(y * np.log2(p) + (1 - y) * np.log2(1 - p)))


def bce_no_length_check(y_pred, y_true):
    y, p = np.asarray(y_true, float), np.asarray(y_pred, float)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def dropout_mask_times(x, p, gen):
    if p < 0 or p >= 1:
        raise ValueError(f"p must be in [0, 1), got {p}")
    mask = (gen.random(x.shape) >= p).astype(float)
    return x * mask / (1 - p)


def dropout_no_rescale(x, p, gen):
    if not 0 <= p < 1:
        raise ValueError("p")
    return np.where(gen.random(np.shape(x)) >= p, x, 0.0)


def dropout_inverted_mask(x, p, gen):
    if not 0 <= p < 1:
        raise ValueError("p")
    return np.where(gen.random(np.shape(x)) < p, x / (1 - p), 0.0)


def dropout_no_check(x, p, gen):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(gen.random(np.shape(x)) >= p, np.asarray(x) / (1 - p), 0.0)


def dropout_in_place(x, p, gen):
    if not 0 <= p < 1:
        raise ValueError("p")
    keep = gen.random(x.shape) >= p
    x[~keep] = 0.0
    x /= 1 - p
    return x


# ----- perplexity by hand
def ppl_product():
    return (0.25 * 0.5 * 0.125 * 0.5) ** (-1 / 4)


def ppl_numpy_float():
    return np.exp(-np.mean(np.log([0.25, 0.5, 0.125, 0.5])))


def ppl_inverse_mean():
    return 1 / np.mean([0.25, 0.5, 0.125, 0.5])


def ppl_mean_of_inverses():
    return float(np.mean([4, 2, 8, 2]))


def ppl_no_root():
    return 128.0


def ppl_bits():
    return 1.75


def ppl_nats():
    return 1.75 * math.log(2)


def ppl_list():
    return [4, 2, 8, 2]


def ppl_guess():
    return 3.0


# ----- backpropagation by hand
def by_hand_ints():
    return {"w2": 6, "w1": 12, "b1": 6}


def by_hand_computed():
    x, w1, b1, w2, t = 2.0, 1.5, -1.0, 2.0, 1.0
    a = w1 * x + b1
    h = max(a, 0.0)
    d_y = w2 * h - t
    d_a = d_y * w2 * (a > 0)
    return {"w1": d_a * x, "b1": d_a, "w2": d_y * h}


def by_hand_sign_flipped():
    return {"w1": -12.0, "b1": -6.0, "w2": -6.0}


def by_hand_forgets_target():
    return {"w1": 16.0, "b1": 8.0, "w2": 8.0}


def by_hand_keeps_the_2():
    return {"w1": 24.0, "b1": 12.0, "w2": 12.0}


def by_hand_forgets_x():
    return {"w1": 6.0, "b1": 6.0, "w2": 6.0}


def by_hand_forgets_w2():
    return {"w1": 6.0, "b1": 3.0, "w2": 6.0}


def by_hand_tuple():
    return (12.0, 6.0, 6.0)


def by_hand_wrong_keys():
    return {"dw1": 12.0, "db1": 6.0, "dw2": 6.0}


def by_hand_strings():
    return {"w1": "twelve", "b1": "six", "w2": "six"}


def by_hand_guess():
    return {"w1": 1.0, "b1": 1.0, "w2": 1.0}


# ----- AdamW
def adamw_functional(params, grads, state, lr, weight_decay):
    state["t"] = t = state.get("t", 0) + 1
    ms, vs = state.setdefault("m", [0.0] * len(params)), state.setdefault("v", [0.0] * len(params))
    out = []
    for i, (p, g) in enumerate(zip(params, grads)):
        ms[i] = 0.9 * ms[i] + 0.1 * g
        vs[i] = 0.999 * vs[i] + 0.001 * g**2
        out.append(p * (1 - lr * weight_decay) - lr * (ms[i] / (1 - 0.9**t)) / ((vs[i] / (1 - 0.999**t)).sqrt() + 1e-8))
    return tuple(out)


def _adam_parts(p, g, state, i, t, correct=True):
    m, v = state.setdefault(i, (torch.zeros_like(p), torch.zeros_like(p)))
    m.mul_(0.9).add_(0.1 * g)
    v.mul_(0.999).add_(0.001 * g * g)
    if correct:
        return m / (1 - 0.9**t), v / (1 - 0.999**t)
    return m, v


def adamw_l2_in_gradient(params, grads, state, lr, weight_decay):
    t = state["t"] = state.get("t", 0) + 1
    out = []
    for i, (p, g) in enumerate(zip(params, grads)):
        m_hat, v_hat = _adam_parts(p, g + weight_decay * p, state, i, t)
        out.append(p - lr * m_hat / (v_hat.sqrt() + 1e-8))
    return out


def adamw_no_bias_correction(params, grads, state, lr, weight_decay):
    t = state["t"] = state.get("t", 0) + 1
    out = []
    for i, (p, g) in enumerate(zip(params, grads)):
        m, v = _adam_parts(p, g, state, i, t, correct=False)
        out.append(p * (1 - lr * weight_decay) - lr * m / (v.sqrt() + 1e-8))
    return out


def adamw_forgets_state(params, grads, state, lr, weight_decay):
    return adamw_step(params, grads, {}, lr, weight_decay)  # a new state every call: t is always 1


def adamw_decay_after(params, grads, state, lr, weight_decay):
    t = state["t"] = state.get("t", 0) + 1
    out = []
    for i, (p, g) in enumerate(zip(params, grads)):
        m_hat, v_hat = _adam_parts(p, g, state, i, t)
        out.append((p - lr * m_hat / (v_hat.sqrt() + 1e-8)) * (1 - lr * weight_decay))
    return out


def adamw_eps_missing(params, grads, state, lr, weight_decay):
    t = state["t"] = state.get("t", 0) + 1
    out = []
    for i, (p, g) in enumerate(zip(params, grads)):
        m_hat, v_hat = _adam_parts(p, g, state, i, t)
        out.append(p * (1 - lr * weight_decay) - lr * m_hat / v_hat.sqrt())
    return out


def adamw_returns_old(params, grads, state, lr, weight_decay):
    adamw_step(params, grads, state, lr, weight_decay)
    return list(params)


def adamw_in_place(params, grads, state, lr, weight_decay):
    new = adamw_step(params, grads, state, lr, weight_decay)
    for p, q in zip(params, new):
        p.copy_(q)
    return params


def adamw_one_tensor(params, grads, state, lr, weight_decay):
    return adamw_step(params, grads, state, lr, weight_decay)[0]


def ln_backward_autograd(x, dy, eps=1e-5):
    xt = torch.tensor(x, requires_grad=True)
    y = torch.nn.functional.layer_norm(xt, (x.shape[1],), eps=eps)
    y.backward(torch.tensor(dy))
    return xt.grad.numpy()


def ln_backward_no_mean_term(x, dy, eps=1e-5):
    mu = x.mean(1, keepdims=True)
    sigma = np.sqrt(x.var(1, keepdims=True) + eps)
    x_hat = (x - mu) / sigma
    return (dy - x_hat * (dy * x_hat).mean(1, keepdims=True)) / sigma


def ln_backward_no_xhat_term(x, dy, eps=1e-5):
    return (dy - dy.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + eps)


def ln_backward_unbiased(x, dy, eps=1e-5):
    sigma = np.sqrt(x.var(1, ddof=1, keepdims=True) + eps)
    x_hat = (x - x.mean(1, keepdims=True)) / sigma
    return (dy - dy.mean(1, keepdims=True) - x_hat * (dy * x_hat).mean(1, keepdims=True)) / sigma


def ln_backward_ignores_eps(x, dy, eps=1e-5):
    return layer_norm_backward(x, dy, 1e-5)


# ----- requirements the first catalogue missed: "using only a sigmoid", a negative p, eps outside the square
# root (a tiny gradient), the page's dropout helper; and AdamW by torch's own optimizer (the checker's numpy
# reference must agree with it)
def tanh_by_numpy(z):
    return np.tanh(np.asarray(z, dtype=float))


def tanh_by_torch(z):
    return torch.tanh(torch.as_tensor(np.asarray(z, dtype=float))).numpy()


def dropout_negative_p_allowed(x, p, gen):
    if p >= 1:
        raise ValueError(f"p must be below 1, got {p}")
    return np.where(gen.random(np.shape(x)) >= p, np.asarray(x) / (1 - p), 0.0)


def dropout_by_the_helper(x, p, gen):
    from nlp_helpers.feedforward.normalisation import dropout

    return dropout(x, p, gen)


def adamw_eps_under_the_root(params, grads, state, lr, weight_decay):
    t = state["t"] = state.get("t", 0) + 1
    out = []
    for i, (p, g) in enumerate(zip(params, grads)):
        m_hat, v_hat = _adam_parts(p, g, state, i, t)
        out.append(p * (1 - lr * weight_decay) - lr * m_hat / (v_hat + 1e-8).sqrt())
    return out


def adamw_torch_optimizer(params, grads, state, lr, weight_decay):
    if "opt" not in state:
        state["params"] = [p.detach().clone().requires_grad_(True) for p in params]
        state["opt"] = torch.optim.AdamW(state["params"], lr=lr, weight_decay=weight_decay)
    for q, p, g in zip(state["params"], params, grads):
        with torch.no_grad():
            q.copy_(p)
        q.grad = g.detach().clone()
    state["opt"].step()
    return [q.detach().clone() for q in state["params"]]


# ----- second pass over the statements: each stated requirement broken alone
def tanh_by_functional(z):  # "using only a sigmoid": torch.nn.functional's tanh is tanh too
    return torch.nn.functional.tanh(torch.as_tensor(np.asarray(z, dtype=float))).numpy()


def bce_per_example(y_pred, y_true):  # "the mean over examples (a float)": returns the per-example losses
    if len(y_pred) != len(y_true):
        raise ValueError("lengths")
    y, p = np.asarray(y_true, float), np.asarray(y_pred, float)
    return -(y * np.log(p) + (1 - y) * np.log(1 - p))


def dropout_global_rng(x, p, gen):  # "draw the mask exactly like that": numpy's global generator, not gen
    if not 0 <= p < 1:
        raise ValueError(f"p must be in [0, 1), got {p}")
    keep = np.random.random(np.shape(x)) >= p
    return np.where(keep, np.asarray(x) / (1 - p), 0.0)


def dropout_allows_p_one(x, p, gen):  # "unless 0 <= p < 1": p = 1 let through
    if not 0 <= p <= 1:
        raise ValueError(f"p must be in [0, 1], got {p}")
    keep = gen.random(np.shape(x)) >= p
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(keep, np.asarray(x) / (1 - p), 0.0)


def ln_backward_eps_outside(x, dy, eps=1e-5):  # "eps is inside the square root"
    sigma = np.sqrt(x.var(1, keepdims=True)) + eps
    x_hat = (x - x.mean(1, keepdims=True)) / sigma
    return (dy - dy.mean(1, keepdims=True) - x_hat * (dy * x_hat).mean(1, keepdims=True)) / sigma


def ln_backward_centres_dy_in_place(x, dy, eps=1e-5):  # the caller's dy changed
    dy -= dy.mean(1, keepdims=True)
    sigma = np.sqrt(x.var(1, keepdims=True) + eps)
    x_hat = (x - x.mean(1, keepdims=True)) / sigma
    return (dy - x_hat * (dy * x_hat).mean(1, keepdims=True)) / sigma


def by_hand_extra_key():  # "exactly the keys"
    return {"w1": 12.0, "b1": 6.0, "w2": 6.0, "x": 0.0}


def adamw_counts_t_per_parameter(params, grads, state, lr, weight_decay):  # t advances once per step, not per tensor
    out = []
    for i, (p, g) in enumerate(zip(params, grads)):
        t = state["t"] = state.get("t", 0) + 1
        m_hat, v_hat = _adam_parts(p, g, state, i, t)
        out.append(p * (1 - lr * weight_decay) - lr * m_hat / (v_hat.sqrt() + 1e-8))
    return out


def adamw_scales_grads_in_place(params, grads, state, lr, weight_decay):  # "change neither params nor grads"
    t = state["t"] = state.get("t", 0) + 1
    out = []
    for i, (p, g) in enumerate(zip(params, grads)):
        m, v = state.setdefault(i, (torch.zeros_like(p), torch.zeros_like(p)))
        v.mul_(0.999).add_(0.001 * g * g)
        m.mul_(0.9).add_(g.mul_(0.1))  # scales the caller's gradient
        out.append(p * (1 - lr * weight_decay) - lr * (m / (1 - 0.9**t)) / ((v / (1 - 0.999**t)).sqrt() + 1e-8))
    return out


CATALOGUE = {
    ex.check_tanh_via_sigmoid: Catalogue(
        correct=[tanh_via_sigmoid, tanh_scipy_style],
        wrong=[
            Wrong(tanh_forgets_the_2_inside, "2 * sigmoid(2 * z)"),
            Wrong(tanh_nan_far_out, "not nan"),
            Wrong(tanh_scalar_loop, "TypeError"),
            Wrong(tanh_by_numpy, ("np.tanh", "sigmoid only")),
            Wrong(tanh_by_torch, ("torch.tanh", "sigmoid only")),
            Wrong(tanh_by_functional, ("tanh", "sigmoid only")),
        ],
    ),
    ex.check_binary_cross_entropy: Catalogue(
        correct=[binary_cross_entropy, bce_loop],
        wrong=[
            Wrong(bce_drops_the_zero_term, "log(1 - p)"),
            Wrong(bce_sum, "Average"),
            Wrong(bce_log2, "natural log"),
            Wrong(bce_no_length_check, "ValueError"),
            Wrong(bce_per_example, ("shape ()", "Average")),
        ],
    ),
    ex.check_inverted_dropout: Catalogue(
        correct=[inverted_dropout, dropout_mask_times],
        wrong=[
            Wrong(dropout_no_rescale, "does not rescale"),
            Wrong(dropout_inverted_mask, "mask rule"),
            Wrong(dropout_no_check, "ValueError"),
            Wrong(dropout_in_place, ("modified its input", "`x`")),
            Wrong(dropout_negative_p_allowed, ("inverted_dropout(x, -0.1, gen)", "negative p")),
            Wrong(dropout_by_the_helper, ("`dropout`", "build it yourself")),
            Wrong(dropout_global_rng, ("gen.random(x.shape) >= p", "generator `gen`")),
            Wrong(dropout_allows_p_one, ("inverted_dropout(x, 1.0, gen)", "outside [0, 1)")),
        ],
    ),
    lex.check_perplexity_by_hand: Catalogue(
        correct=[perplexity_by_hand, ppl_product, ppl_numpy_float],
        wrong=[
            Wrong(ppl_inverse_mean, "1 / (mean probability)"),
            Wrong(ppl_mean_of_inverses, "arithmetic mean of 1/p"),
            Wrong(ppl_no_root, "4th root"),
            Wrong(ppl_bits, "2 to that power"),
            Wrong(ppl_nats, "e to that power"),
            Wrong(ppl_list, "one number"),
            Wrong(ppl_guess, "power -1/4"),
        ],
    ),
    ex.check_backprop_by_hand: Catalogue(
        correct=[backprop_by_hand, by_hand_ints, by_hand_computed],
        wrong=[
            Wrong(by_hand_sign_flipped, "y_hat - t"),
            Wrong(by_hand_forgets_target, "subtract the target"),
            Wrong(by_hand_keeps_the_2, "factor 1/2"),
            Wrong(by_hand_forgets_x, "input x = 2"),
            Wrong(by_hand_forgets_w2, "weight w2"),
            Wrong(by_hand_tuple, "should return a dict"),
            Wrong(by_hand_wrong_keys, "keys should be exactly"),
            Wrong(by_hand_strings, "should be a number"),
            Wrong(by_hand_guess, "forward pass first"),
            Wrong(by_hand_extra_key, "keys should be exactly"),
        ],
    ),
    ex.check_adamw_step: Catalogue(
        correct=[adamw_step, adamw_functional, adamw_torch_optimizer],
        wrong=[
            Wrong(adamw_l2_in_gradient, "decoupled"),
            Wrong(adamw_no_bias_correction, "bias-corrected"),
            Wrong(adamw_forgets_state, "keep m, v"),
            Wrong(adamw_decay_after, "decay after the Adam step"),
            Wrong(adamw_eps_missing, "not nan"),
            Wrong(adamw_returns_old, "did not change"),
            Wrong(adamw_in_place, ("modified its input", "`params`")),
            Wrong(adamw_one_tensor, "list of new tensors"),
            Wrong(adamw_eps_under_the_root, ("gradient 1e-6", "not under it")),
            Wrong(adamw_counts_t_per_parameter, ("step count t", "once per step")),
            Wrong(adamw_scales_grads_in_place, ("modified its input", "`grads`")),
        ],
    ),
    ex.check_layer_norm_backward: Catalogue(
        correct=[layer_norm_backward, ln_backward_autograd],
        wrong=[
            Wrong(ln_backward_no_mean_term, "mean of dy"),
            Wrong(ln_backward_no_xhat_term, "x_hat"),
            Wrong(ln_backward_unbiased, "biased variance"),
            Wrong(ln_backward_ignores_eps, "eps"),
            Wrong(ln_backward_eps_outside, "inside the square root"),
            Wrong(ln_backward_centres_dy_in_place, ("modified its input", "`dy`")),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
