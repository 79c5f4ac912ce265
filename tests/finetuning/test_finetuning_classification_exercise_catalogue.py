"""Catalogue of the exercises of "Fine-tuning for classification": requirements, correct answers in several
styles (accepted) and typical wrong answers (rejected with a hint naming the mistake).

* ``warmup_cosine(step, total_steps, warmup_steps)``: a float; ``step / warmup_steps`` while
  ``step < warmup_steps`` (0 at step 0); then ``(1 + cos(pi p)) / 2`` with
  ``p = (step - warmup_steps) / (total_steps - warmup_steps)`` (half a period, from the end of the warm-up);
  0 at and after ``total_steps``; no warm-up when ``warmup_steps = 0`` and no decay when it equals
  ``total_steps`` (no division by zero); ValueError naming the argument for ``step < 0``,
  ``total_steps < 1`` and ``warmup_steps`` outside ``[0, total_steps]``.
"""

from __future__ import annotations

import math

import numpy as np

from nlp_helpers.finetuning.classification_exercises import check_warmup_cosine
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def _validate(step, total_steps, warmup_steps):
    if step < 0:
        raise ValueError(f"step must be >= 0, got {step}")
    if total_steps < 1:
        raise ValueError(f"total_steps must be >= 1, got {total_steps}")
    if not 0 <= warmup_steps <= total_steps:
        raise ValueError(f"warmup_steps must be in [0, total_steps], got {warmup_steps}")


def cosine_branches(step, total_steps, warmup_steps):
    _validate(step, total_steps, warmup_steps)
    if step < warmup_steps:
        return step / warmup_steps
    if step >= total_steps:
        return 0.0
    p = (step - warmup_steps) / (total_steps - warmup_steps)
    return 0.5 * (1.0 + math.cos(math.pi * p))


def cosine_numpy(step, total_steps, warmup_steps):
    _validate(step, total_steps, warmup_steps)
    warm = step / max(warmup_steps, 1)
    p = np.clip((step - warmup_steps) / max(total_steps - warmup_steps, 1), 0.0, 1.0)
    decay = (1 + np.cos(np.pi * p)) / 2 if step < total_steps else 0.0
    return float(warm if step < warmup_steps else decay)


def _variant(mistake="", *, zero_division=False, checks=True):
    def warmup_cosine(step, total_steps, warmup_steps):
        if checks:
            _validate(step, total_steps, warmup_steps)
        if step < warmup_steps or (zero_division and step == 0):
            return (step + 1) / warmup_steps if mistake == "warmup_plus_one" else step / warmup_steps
        if step >= total_steps and mistake != "no_end":
            return 0.0
        if mistake == "whole_run":
            p = step / total_steps
        else:
            p = (step - warmup_steps) / max(1, total_steps - warmup_steps)
        if mistake == "no_half":
            return math.cos(math.pi * p)
        if mistake == "full_period":
            return (1 + math.cos(2 * math.pi * p)) / 2
        return (1 + math.cos(math.pi * p)) / 2

    return warmup_cosine


CATALOGUE = {
    check_warmup_cosine: Catalogue(
        correct=[cosine_branches, cosine_numpy, _variant()],
        wrong=[
            Wrong(_variant("whole_run"), "end of the warm-up"),
            Wrong(_variant("no_half"), "negative"),
            Wrong(_variant("full_period"), "half a period"),
            Wrong(_variant("warmup_plus_one"), "0 at step 0"),
            Wrong(_variant("no_end"), "after total_steps"),
            Wrong(_variant(zero_division=True), "no warm-up"),
            Wrong(_variant(checks=False), "raise ValueError"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
