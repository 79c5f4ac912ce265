"""Catalogue of the feedforward chapter's exercises: requirements, correct answers in several styles
(accepted) and typical wrong answers (rejected with a hint naming the mistake).

* ``tanh_via_sigmoid(z)``: 2 sigma(2z) - 1 elementwise, any shape; -1 and 1 (not nan) at z = -+400.
* ``binary_cross_entropy(y_pred, y_true)``: mean (not sum) of both terms, natural log; ValueError for
  different lengths.
* ``inverted_dropout(x, p, gen)``: the mask ``gen.random(x.shape) >= p`` drawn once; kept entries divided
  by 1 - p; p = 0 changes nothing; ValueError unless 0 <= p < 1; x unchanged.
* ``layer_norm_backward(x, dy, eps)``: both the mean term and the x_hat term; biased variance with eps
  inside the square root; x and dy unchanged.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from nlp_helpers.feedforward import exercises as ex
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test
from tests.feedforward.test_feedforward_exercises import (
    _sigmoid,
    binary_cross_entropy,
    inverted_dropout,
    layer_norm_backward,
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


CATALOGUE = {
    ex.check_tanh_via_sigmoid: Catalogue(
        correct=[tanh_via_sigmoid, tanh_scipy_style],
        wrong=[
            Wrong(tanh_forgets_the_2_inside, "2 * sigmoid(2 * z)"),
            Wrong(tanh_nan_far_out, "not nan"),
            Wrong(tanh_scalar_loop, "TypeError"),
        ],
    ),
    ex.check_binary_cross_entropy: Catalogue(
        correct=[binary_cross_entropy, bce_loop],
        wrong=[
            Wrong(bce_drops_the_zero_term, "log(1 - p)"),
            Wrong(bce_sum, "Average"),
            Wrong(bce_log2, "natural log"),
            Wrong(bce_no_length_check, "ValueError"),
        ],
    ),
    ex.check_inverted_dropout: Catalogue(
        correct=[inverted_dropout, dropout_mask_times],
        wrong=[
            Wrong(dropout_no_rescale, "/ (1 - p)"),
            Wrong(dropout_inverted_mask, ">= p"),
            Wrong(dropout_no_check, "ValueError"),
            Wrong(dropout_in_place, ("modified its input", "`x`")),
        ],
    ),
    ex.check_layer_norm_backward: Catalogue(
        correct=[layer_norm_backward, ln_backward_autograd],
        wrong=[
            Wrong(ln_backward_no_mean_term, "mean(dy)"),
            Wrong(ln_backward_no_xhat_term, "x_hat"),
            Wrong(ln_backward_unbiased, "biased variance"),
            Wrong(ln_backward_ignores_eps, "eps"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
