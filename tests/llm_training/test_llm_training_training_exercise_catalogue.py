"""Catalogue of the exercise of "How LLMs are trained": requirements, correct answers in several styles
(accepted) and typical wrong answers (rejected with a hint naming the mistake).

* ``dpo_train(ref_logits, pairs, beta, lr, steps)``: the policy starts as a copy of ``ref_logits``; log-probabilities
  from log_softmax (not probabilities); the margin relative to the frozen reference; the loss of a step is the
  MEAN over the pairs of -log sigmoid(beta * margin) (not the sum); plain gradient descent (not Adam, not ascent);
  0 steps return the reference; a 1-D tensor of length K; ValueError for no pairs, an index out of range, a pair
  whose chosen and rejected answers are the same, beta <= 0, steps < 0.
* ``ipo_loss(pi_w, pi_l, ref_w, ref_l, tau)``: h = (pi_w - ref_w) - (pi_l - ref_l) per pair (the reference
  included); the loss is the MEAN over the pairs (not the sum) of the SQUARE (not the absolute value, not DPO's
  logistic loss) of h - 1/(2 tau) (not 1/tau, not tau * h, not h + ...); a 0-d tensor that autograd can
  differentiate; ValueError for tau <= 0, tensors of different shapes, no pairs.
"""

from __future__ import annotations

import numpy as np
import torch
from torch.nn import functional as F

from nlp_helpers.llm_training.training_exercises import check_dpo_train, check_ipo_loss
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def _validate(ref_logits, pairs, beta, steps, *, skip=""):
    k = len(ref_logits)
    if "pairs" not in skip and not pairs:
        raise ValueError("no pairs")
    if "range" not in skip and any(not (0 <= i < k) for p in pairs for i in p):
        raise ValueError("index out of range")
    if "same" not in skip and any(w == lo for w, lo in pairs):
        raise ValueError("chosen == rejected")
    if "beta" not in skip and beta <= 0:
        raise ValueError("beta <= 0")
    if "steps" not in skip and steps < 0:
        raise ValueError("steps < 0")


def dpo_autograd(ref_logits, pairs, beta, lr, steps):
    _validate(ref_logits, pairs, beta, steps)
    ref = ref_logits.detach().double()
    theta = ref.clone().requires_grad_(True)
    w, lo = torch.tensor(pairs).T
    for _ in range(steps):
        lp, lr_ = F.log_softmax(theta, -1), F.log_softmax(ref, -1)
        loss = -F.logsigmoid(beta * ((lp[w] - lr_[w]) - (lp[lo] - lr_[lo]))).mean()
        (grad,) = torch.autograd.grad(loss, theta)
        theta = (theta - lr * grad).detach().requires_grad_(True)
    return theta.detach()


def dpo_by_hand(ref_logits, pairs, beta, lr, steps):
    """The gradient written out: for a softmax policy, log pi(w) - log pi(l) = theta_w - theta_l."""
    _validate(ref_logits, pairs, beta, steps)
    ref = ref_logits.double().numpy()
    theta = ref.copy()
    for _ in range(steps):
        grad = np.zeros_like(theta)
        for w, lo in pairs:
            margin = beta * ((theta[w] - ref[w]) - (theta[lo] - ref[lo]))
            g = -beta * (1 - 1 / (1 + np.exp(-margin)))  # d(-log sigmoid(m))/d(theta_w)
            grad[w] += g / len(pairs)
            grad[lo] -= g / len(pairs)
        theta = theta - lr * grad
    return torch.from_numpy(theta)


def _variant(*, probs=False, no_ref=False, total=False, ascent=False, adam=False, skip=""):
    def dpo_train(ref_logits, pairs, beta, lr, steps):
        _validate(ref_logits, pairs, beta, steps, skip=skip)
        ref = ref_logits.detach().double()
        theta = ref.clone().requires_grad_(True)
        opt = torch.optim.Adam([theta], lr=lr) if adam else torch.optim.SGD([theta], lr=lr)
        if not pairs:
            return theta.detach()
        idx = [min(max(i, 0), len(ref) - 1) for p in pairs for i in p]
        w, lo = torch.tensor(idx[0::2]), torch.tensor(idx[1::2])
        for _ in range(max(steps, 0)):
            lp, lr_ = F.log_softmax(theta, -1), F.log_softmax(ref, -1)
            if probs:
                lp, lr_ = lp.exp(), lr_.exp()
            m = (lp[w] - lp[lo]) if no_ref else (lp[w] - lr_[w]) - (lp[lo] - lr_[lo])
            losses = -F.logsigmoid(beta * m)
            loss = losses.sum() if total else losses.mean()
            opt.zero_grad()
            (-loss if ascent else loss).backward()
            opt.step()
        return theta.detach()

    return dpo_train


def dpo_trains_the_reference(ref_logits, pairs, beta, lr, steps):  # "leave ref_logits unchanged": theta is not a copy
    _validate(ref_logits, pairs, beta, steps)
    ref = ref_logits.detach().double().clone()
    theta = ref_logits
    for _ in range(steps):
        lp = F.log_softmax(theta.double(), -1)
        grad = torch.zeros_like(ref)
        for w, lo in pairs:
            margin = beta * ((lp[w] - ref.log_softmax(-1)[w]) - (lp[lo] - ref.log_softmax(-1)[lo]))
            g = -beta * (1 - torch.sigmoid(margin))
            grad[w] += g / len(pairs)
            grad[lo] -= g / len(pairs)
        with torch.no_grad():
            theta -= (lr * grad).to(theta.dtype)
    return theta


def dpo_numpy_result(ref_logits, pairs, beta, lr, steps):  # "a 1-D float tensor": a numpy array instead
    return dpo_by_hand(ref_logits, pairs, beta, lr, steps).numpy()


def _ipo_validate(pi_w, pi_l, ref_w, ref_l, tau, *, skip=""):
    if "tau" not in skip and tau <= 0:
        raise ValueError("tau must be > 0")
    if "shape" not in skip and not (pi_w.shape == pi_l.shape == ref_w.shape == ref_l.shape):
        raise ValueError("pi_w, pi_l, ref_w and ref_l must have one shape")
    if "empty" not in skip and pi_w.numel() == 0:
        raise ValueError("no pairs")


def ipo_plain(pi_w, pi_l, ref_w, ref_l, tau):
    _ipo_validate(pi_w, pi_l, ref_w, ref_l, tau)
    h = (pi_w - ref_w) - (pi_l - ref_l)
    return ((h - 1 / (2 * tau)) ** 2).mean()


def ipo_mse(pi_w, pi_l, ref_w, ref_l, tau):
    """The same loss through torch's mean squared error, the log-ratios taken first."""
    _ipo_validate(pi_w, pi_l, ref_w, ref_l, tau)
    log_ratio_w, log_ratio_l = pi_w - ref_w, pi_l - ref_l
    h = log_ratio_w - log_ratio_l
    return F.mse_loss(h, torch.full_like(h, 0.5 / tau))


def ipo_loop(pi_w, pi_l, ref_w, ref_l, tau):
    _ipo_validate(pi_w, pi_l, ref_w, ref_l, tau)
    total = 0.0
    for i in range(len(pi_w)):
        total = total + ((pi_w[i] - ref_w[i]) - (pi_l[i] - ref_l[i]) - 1 / (2 * tau)) ** 2
    return total / len(pi_w)


def _ipo_variant(
    *, target=None, dpo=False, scaled=False, plus=False, absolute=False, total=False, no_ref=False, skip=""
):
    def ipo_loss(pi_w, pi_l, ref_w, ref_l, tau):
        _ipo_validate(pi_w, pi_l, ref_w, ref_l, tau, skip=skip)
        if pi_w.numel() == 0:
            return pi_w.sum()
        n = min(len(pi_w), len(pi_l), len(ref_w), len(ref_l))
        pi_w, pi_l, ref_w, ref_l = pi_w[:n], pi_l[:n], ref_w[:n], ref_l[:n]
        h = pi_w - pi_l if no_ref else (pi_w - ref_w) - (pi_l - ref_l)
        goal = (target or (lambda t: 1 / (2 * t)))(abs(tau) or 1.0)
        if dpo:
            return -F.logsigmoid(tau * h).mean()
        if scaled:
            return ((tau * h - 0.5) ** 2).mean()
        d = h + goal if plus else h - goal
        losses = d.abs() if absolute else d**2
        return losses.sum() if total else losses.mean()

    return ipo_loss


def ipo_as_float(pi_w, pi_l, ref_w, ref_l, tau):  # "a 0-d tensor autograd can differentiate": a detached number
    return torch.tensor(ipo_plain(pi_w, pi_l, ref_w, ref_l, tau).item())


def ipo_per_pair(pi_w, pi_l, ref_w, ref_l, tau):  # "the mean over the pairs": one loss per pair
    _ipo_validate(pi_w, pi_l, ref_w, ref_l, tau)
    return ((pi_w - ref_w) - (pi_l - ref_l) - 1 / (2 * tau)) ** 2


CATALOGUE = {
    check_dpo_train: Catalogue(
        correct=[dpo_autograd, dpo_by_hand, _variant()],
        wrong=[
            Wrong(_variant(probs=True), "probabilities"),
            Wrong(_variant(no_ref=True), "left out the reference"),
            Wrong(_variant(total=True), "MEAN"),
            Wrong(_variant(ascent=True), "DESCENT"),
            Wrong(_variant(adam=True), "Adam"),
            Wrong(_variant(skip="pairs"), "no pairs"),
            Wrong(_variant(skip="range"), "in range"),
            Wrong(_variant(skip="same"), "chosen == rejected"),
            Wrong(_variant(skip="beta"), "beta must be > 0"),
            Wrong(_variant(skip="steps"), "steps must be >= 0"),
            Wrong(dpo_trains_the_reference, ("modified its input", "`ref_logits`")),
            Wrong(dpo_numpy_result, "1-D tensor"),
        ],
    ),
    check_ipo_loss: Catalogue(
        correct=[ipo_plain, ipo_mse, ipo_loop],
        wrong=[
            Wrong(_ipo_variant(no_ref=True), "left out the reference"),
            Wrong(_ipo_variant(target=lambda t: 1 / t), "1/tau"),
            Wrong(_ipo_variant(dpo=True), "logistic"),
            Wrong(_ipo_variant(scaled=True), "multiplied h by tau"),
            Wrong(_ipo_variant(plus=True), "added the target"),
            Wrong(_ipo_variant(absolute=True), "squares it"),
            Wrong(_ipo_variant(total=True), "MEAN"),
            Wrong(_ipo_variant(skip="tau"), "tau must be > 0"),
            Wrong(_ipo_variant(skip="shape"), "one shape"),
            Wrong(_ipo_variant(skip="empty"), "no pairs"),
            Wrong(ipo_as_float, "autograd"),
            Wrong(ipo_per_pair, "0-d tensor"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
