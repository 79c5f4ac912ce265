"""Checkers for the exercises of the page "Fine-tuning for classification" (``book/finetuning/classification.ipynb``).

* :func:`check_warmup_cosine`: linear warm-up then half a cosine down to 0, the schedule of
  ``transformers.get_cosine_schedule_with_warmup`` (the page writes out warm-up with *linear* decay,
  :func:`nlp_helpers.finetuning.full_finetuning.linear_warmup_factor`).

The checker computes the right answer with a reference of its own, and the answers of typical mistakes,
so that a wrong answer gets a hint naming the mistake it matches.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from nlp_helpers.exercises.checker import Checker, CheckResult

__all__ = ["check_warmup_cosine"]


def _cosine(step: int, total: int, warmup: int, *, mistake: str = "") -> float:
    """The reference factor (and, with ``mistake``, a typical wrong one)."""
    if step < warmup:
        return (step + 1) / warmup if mistake == "warmup_plus_one" else step / warmup
    if step >= total and mistake != "no_end":
        return 0.0
    p = step / total if mistake == "whole_run" else (step - warmup) / max(1, total - warmup)
    if mistake == "no_half":
        return math.cos(math.pi * p)
    if mistake == "full_period":
        return (1 + math.cos(2 * math.pi * p)) / 2
    return (1 + math.cos(math.pi * p)) / 2


MISTAKES = {
    "whole_run": "the cosine's progress must count from the end of the warm-up, (step - warmup_steps) / "
    "(total_steps - warmup_steps), not from step 0.",
    "no_half": "the factor after warm-up is (1 + cos(pi p)) / 2, which falls from 1 to 0; cos(pi p) alone "
    "goes negative.",
    "full_period": "use half a period, cos(pi p), so that the factor reaches 0 at the last step and does not "
    "rise again.",
    "warmup_plus_one": "during warm-up the factor is step / warmup_steps: 0 at step 0, not 1 / warmup_steps.",
    "no_end": "at and after total_steps the factor is 0: the cosine must not rise again past the end.",
}


def check_warmup_cosine(warmup_cosine: Callable) -> CheckResult:
    """``warmup_cosine(step, total_steps, warmup_steps)`` -> the multiplier of the peak learning rate."""
    with Checker("Warm-up and cosine decay") as ex:
        for total, warmup, steps in [(10, 2, range(13)), (6, 0, range(8)), (4, 4, range(6)), (200, 20, (37, 150))]:
            for step in steps:
                what = f"warmup_cosine({step}, {total}, {warmup})"
                got, error = ex.try_call(warmup_cosine, step, total, warmup)
                if isinstance(error, ZeroDivisionError):
                    ex.fail(
                        f"{what} raised ZeroDivisionError: with warmup_steps = 0 there is no warm-up (the factor "
                        "starts at 1), and with warmup_steps = total_steps there is no decay; divide only where "
                        "the denominator is positive."
                    )
                if error is not None:
                    ex.fail(f"calling {what} raised {type(error).__name__}: {error}.")
                ex.expect(
                    isinstance(got, (int, float)) and not isinstance(got, bool),
                    f"{what} should return a float, got {type(got).__name__}.",
                )
                want = _cosine(step, total, warmup)
                if not math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12):
                    for mistake, hint in MISTAKES.items():
                        if math.isclose(got, _cosine(step, total, warmup, mistake=mistake), abs_tol=1e-12):
                            ex.fail(f"{what}: {hint}")
                ex.expect_close(
                    got,
                    want,
                    what=what,
                    hint="Warm-up: step / warmup_steps; then half a cosine from 1 to 0 over the remaining steps; "
                    "0 from total_steps on.",
                    rtol=1e-9,
                    atol=1e-12,
                )
        for args, name in [((-1, 10, 2), "step"), ((0, 0, 0), "total_steps"), ((0, 10, 11), "warmup_steps")]:
            ex.expect_raises(
                ValueError,
                warmup_cosine,
                *args,
                what=f"warmup_cosine{args}",
                hint=f"{name} is out of range: raise ValueError naming `{name}`.",
                mentions=name,
            )
    return ex.result
