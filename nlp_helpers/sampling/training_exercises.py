"""Checkers for the exercises of the page "How LLMs are trained" (``book/sampling/training.ipynb``).

* :func:`check_dpo_train`: DPO (Rafailov et al., 2023) trained by gradient descent on a policy that picks one
  of K whole answers (a softmax over K logits), against a frozen reference policy.

The checker computes the right answer with a reference of its own (torch autograd), and the answers of
typical mistakes, so that a wrong answer gets a hint naming the mistake it matches.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch.nn import functional as F

from nlp_helpers.exercises.checker import Checker, CheckResult

__all__ = ["check_dpo_train"]


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
