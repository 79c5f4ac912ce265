"""Checkers for the exercises of the page "A small GPT, written out and trained" (``book/llm/gpt.ipynb``).

* :func:`check_label_smoothing`: cross-entropy with label smoothing, compared with
  ``torch.nn.functional.cross_entropy(..., label_smoothing=eps, ignore_index=-100)`` on fixed logits, with
  ignored targets and with logits around 1000.

The checker also computes the answers of typical mistakes, so that a wrong answer gets a hint naming its mistake.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["check_label_smoothing"]


def _torch_smoothed_ce(logits: np.ndarray, targets: np.ndarray, eps: float) -> float:
    """The reference: PyTorch's cross-entropy with label smoothing, in float64, ignoring targets of -100."""
    import torch
    import torch.nn.functional as F

    return F.cross_entropy(
        torch.from_numpy(logits), torch.from_numpy(targets), label_smoothing=eps, ignore_index=-100
    ).item()


def check_label_smoothing(fn) -> CheckResult:
    """``fn(logits, targets, eps)`` -> float: mean cross-entropy against ``(1 - eps) one-hot + eps / V``.

    ``logits (N, V)``, ``targets (N,)`` ints in ``[0, V)`` or -100 (ignored: left out of the sum and the
    count); stable for logits around 1000.
    """
    rng = seeded_rng(3)
    N, V = 6, 5
    logits, targets = rng.normal(size=(N, V)) * 2, np.array([0, 4, 2, 2, 1, 3])
    logp = logits - logits.max(1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(1, keepdims=True))
    nll, true = -logp[np.arange(N), targets], np.eye(V, dtype=bool)[targets]
    with Checker("Label smoothing") as ex:
        got = ex.call(fn, logits, targets, 0.0)
        ex.expect(np.ndim(got) == 0, f"return one number (the mean loss), got shape {np.shape(got)}.")
        if np.isclose(float(got), nll.sum()):
            ex.fail("with eps = 0 you returned the sum of the losses. Hint: return their mean over the positions.")
        ex.expect_close(
            got,
            nll.mean(),
            what="with eps = 0 (plain cross-entropy) the loss",
            hint="mean over positions of -log softmax(logits)[target]: with eps = 0 nothing is smoothed.",
        )
        got = float(np.asarray(ex.call(fn, logits, targets, 0.1)))
        others = np.mean(0.9 * nll - 0.1 / (V - 1) * np.where(true, 0, logp).sum(1))
        if np.isclose(got, others):
            ex.fail(
                "you spread eps over the V - 1 wrong classes only. Hint: as in the statement (and PyTorch), "
                "spread eps over all V classes: the true class gets 1 - eps + eps / V."
            )
        if np.isclose(got, 0.9 * nll.mean()):
            ex.fail("you scaled the loss by 1 - eps but left out the uniform part: add eps * mean(-log p) over V.")
        ex.expect_close(
            got,
            _torch_smoothed_ce(logits, targets, 0.1),
            what="with eps = 0.1 the loss",
            hint="the loss of one position is (1 - eps) * (-log p[target]) + eps * mean_c(-log p[c]).",
        )
        padded = np.array([0, -100, 2, -100, 1, 3])
        got, error = ex.try_call(fn, logits, padded, 0.1)
        if error is not None:
            ex.fail(
                f"with targets containing -100 your function raised {type(error).__name__}: {error}. Hint: -100 "
                "marks a position to ignore: keep only the rows whose target is not -100 before indexing."
            )
        kept = padded != -100
        want = _torch_smoothed_ce(logits, padded, 0.1)
        if np.isclose(float(np.asarray(got)), want * kept.sum() / N):
            ex.fail(
                "with ignored positions you divided by all N positions. Hint: the mean is over the positions "
                "whose target is not -100 (here 4 of 6)."
            )
        ex.expect_close(
            got,
            want,
            what="with targets [0, -100, 2, -100, 1, 3] and eps = 0.1 the loss",
            hint="leave the positions whose target is -100 out of the sum and out of the count.",
        )
        big = logits * 500  # logits of about 1000: exp overflows unless each row's maximum is subtracted
        got = ex.call(fn, big, targets, 0.1)
        ex.expect(
            np.isfinite(float(np.asarray(got))),
            "with logits around 1000 your loss is NaN or inf: exp(1000) overflows. Hint: log-softmax as "
            "(x - max) - log(sum(exp(x - max))) row by row.",
        )
        ex.expect_close(
            got,
            _torch_smoothed_ce(big, targets, 0.1),
            what="with logits around 1000 the loss",
            hint="compute log-softmax stably: subtract each row's maximum before exponentiating.",
        )
    return ex.result
