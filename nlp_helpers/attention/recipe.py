"""Pieces of the training recipe of large transformers, as small functions TinyGPT's training can use.

* :func:`warmup_cosine`: the learning-rate multiplier of a linear warm-up followed by a cosine
  decay to ``floor`` times the peak (GPT-2/3, nanoGPT, Llama).
* :func:`scaled_init_std`: GPT-2's standard deviation for the output projection of every
  sublayer, ``std / sqrt(2 N)`` for ``N`` blocks (Radford et al., 2019).

Dropout and label smoothing need no helper: they are ``TinyGPTConfig(dropout=...)`` and
``train(..., label_smoothing=...)`` in :mod:`nlp_helpers.attention.gpt`. Also here:
:func:`recipe_study`, the ablation written by ``benchmarks/seed_study_recipe.py``.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from nlp_helpers._checks import check_float, check_int

__all__ = ["warmup_cosine", "scaled_init_std", "recipe_study", "RECIPE_STUDY_FILE"]

# Written by benchmarks/seed_study_recipe.py.
RECIPE_STUDY_FILE = Path(__file__).with_name("recipe_study.csv")


def warmup_cosine(step: int, total: int, warmup: int = 0, floor: float = 0.1) -> float:
    """Multiplier of the peak learning rate at ``step`` (0-based) of ``total`` steps.

    Rises linearly over the first ``warmup`` steps (``(step + 1) / warmup``), then
    follows half a cosine from 1 down to ``floor`` at the last step; ``floor = 1``
    gives a constant rate after the warm-up. Steps past ``total`` stay at ``floor``.
    """
    total = check_int("total", total, minimum=1)
    warmup = check_int("warmup", warmup, minimum=0, maximum=total)
    step = check_int("step", step, minimum=0)
    floor = check_float("floor", floor, minimum=0.0, maximum=1.0)
    return _warmup_cosine(step, total, warmup, floor)


def _warmup_cosine(step: int, total: int, warmup: int, floor: float) -> float:
    if step < warmup:
        return (step + 1) / warmup
    decay_steps = total - warmup
    progress = min(1.0, (step - warmup) / max(1, decay_steps - 1))
    return floor + (1 - floor) * 0.5 * (1 + math.cos(math.pi * progress))


def scaled_init_std(n_layers: int, std: float = 0.02) -> float:
    """GPT-2's initial standard deviation of each residual branch's output layer: ``std / sqrt(2 n_layers)``.

    Each block adds two branches (attention, MLP) to the residual stream; with
    independent branches the stream's variance grows with their number ``2 N``, and this
    scaling keeps it at the size one branch of standard deviation ``std`` would give.
    """
    n_layers = check_int("n_layers", n_layers, minimum=1)
    std = check_float("std", std, minimum=0.0, min_inclusive=False)
    return std / math.sqrt(2 * n_layers)


def recipe_study() -> pd.DataFrame:
    """TinyGPT trained with and without each ingredient of the recipe, one row per (variant, seed, kernel).

    Columns: ``variant``, ``seed``, ``bpc`` (validation bits per character), ``cpu_s``, ``kernel``
    (the ``ATEN_CPU_CAPABILITY`` of the run). Computed by ``benchmarks/seed_study_recipe.py``;
    see its docstring for the settings (a 250-step run, scored on a quarter of the validation text).
    """
    if not RECIPE_STUDY_FILE.exists():
        raise FileNotFoundError(f"{RECIPE_STUDY_FILE} is missing: run python -m benchmarks.seed_study_recipe")
    return pd.read_csv(RECIPE_STUDY_FILE)
