"""Checkers for the exercises of the page "How LLMs are trained" (``book/llm_training/training.ipynb``).

* :func:`check_dpo_train`: DPO (Rafailov et al., 2023) trained by gradient descent on a policy that picks one
  of K whole answers (a softmax over K logits), against a frozen reference policy.
* :func:`check_ipo_loss`: the IPO loss (Azar et al., 2024), DPO's logistic loss replaced by a square that pulls
  the log-ratio margin towards 1 / (2 tau) instead of pushing it up forever.

The checker computes the right answer with a reference of its own (torch autograd), and the answers of
typical mistakes, so that a wrong answer gets a hint naming the mistake it matches.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch
from torch.nn import functional as F

from nlp_helpers.exercises.checker import Checker, CheckResult, InPlace

__all__ = ["check_dpo_train", "check_ipo_loss"]


def _dpo_reference(
    ref_logits: torch.Tensor,
    pairs: list[tuple[int, int]],
    beta: float,
    lr: float,
    steps: int,
    *,
    mistake: str = "",
) -> torch.Tensor:
    """Plain gradient descent on the mean DPO loss (or, with ``mistake``, a typical wrong version)."""
    ref = ref_logits.detach().double()
    theta = ref.clone().requires_grad_(True)
    opt = torch.optim.Adam([theta], lr=lr) if mistake == "adam" else None
    w = torch.tensor([p[0] for p in pairs])
    lo = torch.tensor([p[1] for p in pairs])
    for _ in range(steps):
        log_pi, log_ref = F.log_softmax(theta, -1), F.log_softmax(ref, -1)
        if mistake == "probabilities":
            log_pi, log_ref = log_pi.exp(), log_ref.exp()
        if mistake == "no reference":
            margin = beta * (log_pi[w] - log_pi[lo])
        else:
            margin = beta * ((log_pi[w] - log_ref[w]) - (log_pi[lo] - log_ref[lo]))
        losses = -F.logsigmoid(margin)
        loss = losses.sum() if mistake == "sum" else losses.mean()
        if mistake == "ascent":
            loss = -loss
        theta.grad = None
        loss.backward()
        with torch.no_grad():
            if opt is not None:
                opt.step()
            else:
                theta -= lr * theta.grad
    return theta.detach()


_MISTAKES = {
    "no reference": "you left out the reference: the margin compares how much the policy RAISED each answer's "
    "log-probability relative to the frozen reference, (log π(y_w) - log π_ref(y_w)) - (log π(y_l) - log π_ref(y_l)).",
    "probabilities": "you used probabilities where the loss needs log-probabilities (log_softmax of the logits).",
    "sum": "you summed the losses of the pairs: the loss of a step is their MEAN.",
    "ascent": "your step goes uphill: gradient DESCENT subtracts lr times the gradient.",
    "adam": "you used Adam: the statement asks for plain gradient descent, theta <- theta - lr * gradient.",
}


def check_dpo_train(fn: Callable) -> CheckResult:
    """``fn(ref_logits, pairs, beta, lr, steps)`` -> the trained logits, a 1-D float tensor of length K."""
    with Checker("DPO on a choice of answers") as ex:
        cases = [
            (torch.tensor([0.5, 1.5, -0.3, 0.0]), [(0, 1), (0, 2), (3, 1)], 0.5, 1.0, 25),
            (torch.tensor([2.0, -1.0, 0.3]), [(1, 0)], 0.1, 5.0, 40),
            (torch.tensor([0.0, 0.0, 0.0, 0.0, 0.0]), [(4, 0), (4, 1), (2, 0), (2, 3)], 1.0, 0.3, 10),
        ]
        for ref, pairs, beta, lr, steps in cases:
            what = f"dpo_train({ref.tolist()}, {pairs}, beta={beta}, lr={lr}, steps={steps})"
            got = ex.call(fn, ref, pairs, beta, lr, steps)
            ex.expect(
                isinstance(got, torch.Tensor) and got.shape == ref.shape,
                f"{what} should return a 1-D tensor of length {len(ref)}, got {type(got).__name__} "
                f"{tuple(getattr(got, 'shape', ()))}.",
            )
            got, want = got.detach().double(), _dpo_reference(ref, pairs, beta, lr, steps)
            for mistake, hint in _MISTAKES.items():
                wrong = _dpo_reference(ref, pairs, beta, lr, steps, mistake=mistake)
                if not torch.allclose(wrong, want, atol=1e-6) and torch.allclose(got, wrong, atol=1e-6):
                    ex.fail(f"{what}: {hint}")
            ex.expect_close(
                got.numpy(),
                want.numpy(),
                what=what,
                hint="Start from a copy of ref_logits; at every step take the mean over the pairs of "
                "-log sigmoid(beta * margin), with log-probabilities from log_softmax, and subtract lr times "
                "its gradient.",
                rtol=1e-5,
                atol=1e-6,
            )
        got = ex.call(fn, torch.tensor([1.0, 0.0]), [(1, 0)], 0.1, 1.0, 0)
        ex.expect_close(
            got.detach().numpy(),
            [1.0, 0.0],
            what="dpo_train([1.0, 0.0], [(1, 0)], 0.1, 1.0, steps=0)",
            hint="With 0 steps the policy is still the reference: return a copy of ref_logits.",
        )
        ref = torch.tensor([0.0, 1.0, 2.0])
        for args, what, hint in [
            ((ref, [], 0.1, 1.0, 5), "dpo_train(..., pairs=[])", "no pairs: raise ValueError."),
            ((ref, [(0, 3)], 0.1, 1.0, 5), "dpo_train with the answer index 3 of 3", "an index must be in range."),
            ((ref, [(1, 1)], 0.1, 1.0, 5), "dpo_train with the pair (1, 1)", "chosen == rejected: raise ValueError."),
            ((ref, [(0, 1)], 0.0, 1.0, 5), "dpo_train with beta = 0", "beta must be > 0: raise ValueError."),
            ((ref, [(0, 1)], 0.1, 1.0, -1), "dpo_train with steps = -1", "steps must be >= 0: raise ValueError."),
        ]:
            ex.expect_raises(ValueError, fn, *args, what=what, hint=hint)
    return ex.result


def _ipo_reference(pi_w, pi_l, ref_w, ref_l, tau: float, *, mistake: str = "") -> torch.Tensor:
    """The mean over pairs of (h - 1 / (2 tau))^2, h the log-ratio margin (or, with ``mistake``, a typical wrong version)."""
    h = pi_w - pi_l if mistake == "no reference" else (pi_w - ref_w) - (pi_l - ref_l)
    target = 1 / tau if mistake == "1/tau" else 1 / (2 * tau)
    if mistake == "dpo":
        return -F.logsigmoid(tau * h).mean()
    if mistake == "tau times h":
        return ((tau * h - 0.5) ** 2).mean()
    if mistake == "plus":
        return ((h + target) ** 2).mean()
    if mistake == "abs":
        return (h - target).abs().mean()
    losses = (h - target) ** 2
    return losses.sum() if mistake == "sum" else losses.mean()


_IPO_MISTAKES = {
    "no reference": "you left out the reference: h compares how much the policy raised each answer relative to the "
    "frozen reference.",
    "1/tau": "your target is 1/tau: IPO's target is half of that.",
    "dpo": "that is DPO's logistic loss with tau as beta: IPO squares the distance of h from its target.",
    "tau times h": "you multiplied h by tau as DPO multiplies its margin by beta: IPO compares h itself with its target.",
    "plus": "you added the target to h: the loss should be smallest when h reaches the (positive) target.",
    "abs": "you took the absolute distance: IPO squares it.",
    "sum": "you summed over the pairs: the loss is the MEAN over the pairs.",
}


def check_ipo_loss(fn: Callable) -> CheckResult:
    """``fn(pi_w, pi_l, ref_w, ref_l, tau)`` -> the mean IPO loss, a 0-d tensor autograd can differentiate."""
    with Checker("The IPO loss") as ex:
        gen = torch.Generator().manual_seed(43)
        cases = [
            tuple(-20 * torch.rand(5, generator=gen, dtype=torch.float64) for _ in range(4)) + (0.1,),
            tuple(-8 * torch.rand(3, generator=gen, dtype=torch.float64) for _ in range(4)) + (2.0,),
            (torch.tensor([-9.0]), torch.tensor([-13.0]), torch.tensor([-12.0]), torch.tensor([-10.0]), 0.5),
        ]
        for pi_w, pi_l, ref_w, ref_l, tau in cases:
            what = f"ipo_loss on {len(pi_w)} pair(s) with tau = {tau}"
            got = ex.call(fn, pi_w, pi_l, ref_w, ref_l, tau)
            ex.expect(
                isinstance(got, torch.Tensor) and got.dim() == 0,
                f"{what} should return a 0-d tensor (the mean over the pairs), got {type(got).__name__} "
                f"{tuple(getattr(got, 'shape', ()))}.",
            )
            want = _ipo_reference(pi_w, pi_l, ref_w, ref_l, tau)
            for mistake, hint in _IPO_MISTAKES.items():
                wrong = _ipo_reference(pi_w, pi_l, ref_w, ref_l, tau, mistake=mistake)
                if not torch.allclose(wrong.double(), want.double(), rtol=1e-6) and torch.allclose(
                    got.detach().double(), wrong.double(), rtol=1e-6
                ):
                    ex.fail(f"{what}: {hint}")
            ex.expect_close(
                got.item(),
                want.item(),
                what=what,
                hint="For each pair, h is the chosen answer's log-ratio to the reference minus the rejected one's; the loss "
                "is the mean over the pairs of the squared distance between h and the target.",
                rtol=1e-6,
            )
        # the gradient: the loss must be built from torch operations on the given tensors
        leaves = [t.clone().requires_grad_(True) for t in cases[0][:4]]
        got = ex.call(fn, *[InPlace(t) for t in leaves], 0.1)
        ex.expect(
            isinstance(got, torch.Tensor) and got.requires_grad,
            "ipo_loss on tensors that require gradients returned a result autograd cannot differentiate: compute "
            "with torch operations on the given tensors (no .item(), .numpy() or float()).",
        )
        grads = torch.autograd.grad(got, leaves, allow_unused=True)
        h = ((cases[0][0] - cases[0][2]) - (cases[0][1] - cases[0][3])).detach()
        want = 2 * (h - 5.0) / len(h)  # d/d(pi_w) of mean((h - 1/(2 * 0.1))^2)
        ex.expect_close(
            grads[0].numpy() if grads[0] is not None else np.zeros(len(h)),
            want.numpy(),
            what="the gradient of ipo_loss with respect to pi_w",
            hint="it should be twice each pair's distance from the target, divided by the number of pairs; did a step "
            "leave the graph?",
        )
        t = torch.tensor([-1.0, -2.0])
        for args, what, hint in [
            ((t, t, t, t, 0.0), "ipo_loss with tau = 0", "tau must be > 0: raise ValueError."),
            ((t, t, t, t, -1.0), "ipo_loss with tau = -1", "tau must be > 0: raise ValueError."),
            ((t, t[:1], t, t, 0.1), "ipo_loss with pi_l of another shape", "the four tensors need one shape."),
            ((t[:0], t[:0], t[:0], t[:0], 0.1), "ipo_loss with no pairs", "no pairs: raise ValueError."),
        ]:
            ex.expect_raises(ValueError, fn, *args, what=what, hint=hint)
    return ex.result
