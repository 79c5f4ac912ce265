"""Checkers for the exercises of the page "Fine-tuning for classification" (``book/finetuning/classification.ipynb``).

* :func:`check_warmup_cosine`: linear warm-up then half a cosine down to 0, the schedule of
  ``transformers.get_cosine_schedule_with_warmup`` (the page writes out warm-up with *linear* decay,
  :func:`nlp_helpers.finetuning.full_finetuning.linear_warmup_factor`).
* :func:`check_lora_by_hand`: LoRA of rank 8 on the query and value projections of the page's six-layer
  encoder of width 384, counted by hand against fine-tuning those projections (a value, not a function).

The checker computes the right answer with a reference of its own, and the answers of typical mistakes,
so that a wrong answer gets a hint naming the mistake it matches.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable

from nlp_helpers.exercises.checker import Checker, CheckResult

__all__ = ["LORA_KEYS", "LORA_LAYERS", "LORA_RANK", "LORA_WIDTH", "check_lora_by_hand", "check_warmup_cosine"]


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


# ------------------------------------------------------------------------------------------ LoRA by hand
# The page's encoder (MiniLM: 6 layers of width 384); LoRA of rank 8 on every layer's query and value
# projections, each a 384 x 384 weight with a bias of 384 (frozen under LoRA, trained by full fine-tuning).
LORA_LAYERS, LORA_WIDTH, LORA_RANK = 6, 384, 8
LORA_KEYS = ("lora", "full", "break_even")
_HEAD = 2 * LORA_WIDTH + 2  # the page's classification head, which the exercise leaves out


def _lora_counts(mistake: str = "") -> dict[str, float]:
    """The exercise's three numbers (and, with ``mistake``, what a typical slip gives instead)."""
    d, r = LORA_WIDTH, LORA_RANK
    layers = 1 if mistake == "top_only" else LORA_LAYERS
    projections = 1 if mistake == "one_projection" else 2
    per_lora = {"half": r * d, "product": r * d * d}.get(mistake, r * (d + d))  # A is r x d, B is d x r
    per_full = d * d if mistake == "no_bias" else d * d + d
    lora = layers * projections * per_lora + (projections * layers * d if mistake == "bias" else 0)
    lora += _HEAD if mistake == "head" else 0
    # break-even: the smallest whole rank r with r (d + d) >= d * d + d, or the slip's version of it
    need = d * d if mistake == "no_bias" else d * d + d
    ratio = need / (d if mistake == "half" else 2 * d)
    break_even = {"not_whole": ratio, "full_rank": float(d)}.get(mistake, float(math.ceil(ratio)))
    return {"lora": float(lora), "full": float(layers * projections * per_full), "break_even": break_even}


def _layer_params(head: bool) -> float:
    """A whole encoder layer of the page's table (attention, feed-forward of width 4d, two layer norms)."""
    d = LORA_WIDTH
    return float(4 * (d * d + d) + 2 * (4 * d * d) + 4 * d + d + 2 * 2 * d + (_HEAD if head else 0))


_LORA_SLIPS = {
    "lora": [
        ("top_only", "LoRA sits on the query and value projections of all six layers here, not only of the top one."),
        (
            "half",
            "that is half the count: A (r × d_in) and B (d_out × r) both train, on both the query and the value "
            "projection of every layer, with rank 8 (not the page's 4).",
        ),
        ("product", "A and B are two thin matrices: their sizes add up, r × d_in + d_out × r; they do not multiply."),
        ("bias", "LoRA keeps the projections' biases frozen: only A and B train."),
        ("head", "leave the classification head out: count only A and B."),
    ],
    "full": [
        ("no_bias", "fine-tuning a projection trains its bias (d numbers) as well as its d × d weight."),
        ("top_only", "count the query and value projections of all six layers, not only of the top one."),
        ("one_projection", "each layer has two adapted projections, the query and the value one."),
    ],
    "break_even": [
        ("no_bias", "LoRA has to match the projection's weight and its bias: count the bias too."),
        ("not_whole", "a rank is a whole number: give the smallest whole r that reaches the full count."),
        (
            "full_rank",
            "A and B together hold r × d_in + d_out × r numbers, twice r × d for a square matrix: LoRA catches up "
            "with the full matrix long before r = d.",
        ),
        ("half", "A and B both train: at rank r LoRA holds r × d_in + d_out × r numbers, not r × d."),
    ],
}
_LORA_HINTS = {
    "lora": "A is r × d_in and B is d_out × r; add them up for each adapted projection, then over the projections.",
    "full": "a projection's weight is d × d and its bias has d numbers; add them up over the adapted projections.",
    "break_even": "solve r × (d_in + d_out) >= d × d + d for one projection and round up to a whole rank.",
}


def _not_yet() -> None:
    raise NotImplementedError


def check_lora_by_hand(lora_counts: object) -> CheckResult:
    """``lora_counts``: dict with the numbers LoRA trains (``"lora"``), full fine-tuning of the same projections
    trains (``"full"``), and the smallest rank at which LoRA trains as many for one projection (``"break_even"``).

    The counts are compared exactly (a float such as ``73.0`` equals the int ``73``)."""
    want = _lora_counts()
    with Checker("LoRA's parameters by hand") as ex:
        if lora_counts is ...:
            ex.call(_not_yet)  # the untouched starting point: "not yet"
        ex.expect(
            not callable(lora_counts), "lora_counts should be a dict of numbers worked out by hand, not a function."
        )
        ex.expect(
            isinstance(lora_counts, dict),
            f"lora_counts should be a dict with the keys {list(LORA_KEYS)}, got {type(lora_counts).__name__}.",
        )
        assert isinstance(lora_counts, dict)  # for the type checker: ex.expect stopped otherwise
        ex.expect(
            set(lora_counts) == set(LORA_KEYS),
            f"the keys should be exactly {list(LORA_KEYS)}, got {sorted(map(str, lora_counts))}.",
        )
        ex.expect(
            all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in lora_counts.values()),
            "every value of lora_counts should be a number (an int, or an expression such as 2 * 3).",
        )
        got = {k: float(lora_counts[k]) for k in LORA_KEYS}
        for key in LORA_KEYS:
            if math.isclose(got[key], want[key], rel_tol=0.0, abs_tol=1e-6):  # counts: exact
                continue
            if key == "full" and any(math.isclose(got[key], _layer_params(h), abs_tol=1e-6) for h in (False, True)):
                ex.fail(
                    "full: that is the whole top layer of the page's table (attention, feed-forward, layer norms): "
                    "count only the query and value projections, in all six layers."
                )
            for mistake, hint in _LORA_SLIPS[key]:
                if math.isclose(got[key], _lora_counts(mistake)[key], abs_tol=1e-6):
                    ex.fail(f"{key}: {hint}")
            ex.fail(f"{key} is not right yet (got {got[key]:.10g}): {_LORA_HINTS[key]}")
    return ex.result
