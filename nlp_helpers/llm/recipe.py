"""Pieces of the training recipe of large transformers, as small functions TinyGPT's training can use.

* :func:`warmup_cosine`: the learning-rate multiplier of a linear warm-up followed by a cosine
  decay to ``floor`` times the peak (GPT-2/3, nanoGPT, Llama).
* :func:`scaled_init_std`: GPT-2's standard deviation for the output projection of every
  sublayer, ``std / sqrt(2 N)`` for ``N`` blocks (Radford et al., 2019).

* :func:`prediction_quality`: what label smoothing is meant to change, from predicted
  distributions: bits per character, entropy, top-1 accuracy and calibration error.

Dropout and label smoothing need no helper: they are ``TinyGPTConfig(dropout=...)`` and
``train(..., label_smoothing=...)`` in :mod:`nlp_helpers.llm.gpt`. Also here:
:func:`recipe_study`, the ablation written by ``benchmarks/seed_study_recipe.py``.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from nlp_helpers._checks import check_float, check_int

__all__ = ["warmup_cosine", "scaled_init_std", "prediction_quality", "recipe_study", "RECIPE_STUDY_FILE"]

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


def prediction_quality(log_probs: np.ndarray, targets: np.ndarray, n_bins: int = 15) -> dict[str, float]:
    """Scores of predicted distributions ``log_probs`` (shape ``(N, V)``, natural log) for ``targets`` (``(N,)``).

    Returns a dict of floats:

    * ``bpc``: mean ``-log2 P(target)``, the plain cross-entropy in bits, whatever loss trained the model;
    * ``entropy``: mean entropy of the predicted distributions in bits (how spread out they are);
    * ``accuracy``: how often the most probable token is the target;
    * ``confidence``: the mean probability of that most probable token;
    * ``ece``: expected calibration error (Guo et al., 2017): the top-1 confidences are cut into
      ``n_bins`` equal-width bins of ``(0, 1]``, and ``ece = sum_b (n_b / N) |accuracy_b - confidence_b|``.
      0 for a calibrated model; ``confidence - accuracy`` > 0 means over-confident.
    """
    logp = np.asarray(log_probs)
    if logp.ndim != 2 or logp.shape[0] == 0 or logp.shape[1] == 0 or not np.issubdtype(logp.dtype, np.floating):
        raise ValueError(f"log_probs must be a non-empty float array of shape (N, V), got shape {logp.shape}")
    if np.isnan(logp).any() or np.isposinf(logp).any():
        raise ValueError("log_probs must hold log-probabilities (finite or -inf), got nan or +inf")
    if np.abs(np.logaddexp.reduce(logp, axis=1)).max() > 1e-6:
        raise ValueError("log_probs must be normalised: each row's probabilities must sum to 1 (use log_softmax)")
    y = np.asarray(targets)
    if y.shape != (logp.shape[0],) or not np.issubdtype(y.dtype, np.integer):
        raise ValueError(f"targets must be an integer array of shape ({logp.shape[0]},), got {y.dtype} {y.shape}")
    if y.min() < 0 or y.max() >= logp.shape[1]:
        raise ValueError(f"targets must be token ids in [0, {logp.shape[1]}), got values in [{y.min()}, {y.max()}]")
    n_bins = check_int("n_bins", n_bins, minimum=1)
    return _prediction_quality(logp.astype(np.float64), y, n_bins)


def _prediction_quality(logp: np.ndarray, y: np.ndarray, n_bins: int) -> dict[str, float]:
    p = np.exp(logp)
    plogp = p * np.where(p > 0, logp, 0.0)  # 0 log 0 = 0
    top = logp.argmax(axis=1)
    conf, hit = p[np.arange(len(y)), top], (top == y).astype(float)
    bins = np.clip(np.ceil(conf * n_bins).astype(int) - 1, 0, n_bins - 1)  # bin b holds (b/n, (b+1)/n]
    count = np.bincount(bins, minlength=n_bins)
    gap = np.abs(np.bincount(bins, hit, n_bins) - np.bincount(bins, conf, n_bins))  # n_b |acc_b - conf_b|
    return {
        "bpc": float(-logp[np.arange(len(y)), y].mean() / math.log(2)),
        "entropy": float(-plogp.sum(axis=1).mean() / math.log(2)),
        "accuracy": float(hit.mean()),
        "confidence": float(conf.mean()),
        "ece": float(gap[count > 0].sum() / len(y)),
    }


def recipe_study() -> pd.DataFrame:
    """TinyGPT trained with and without each ingredient of the recipe, one row per (variant, seed, kernel).

    Columns: ``variant``, ``seed``; ``bpc``, ``entropy``, ``accuracy``, ``confidence``, ``ece``
    (:func:`prediction_quality` on the validation text: plain cross-entropy whatever the training
    loss); ``cpu_s``; ``kernel`` (the ``ATEN_CPU_CAPABILITY`` of the run). Computed by
    ``benchmarks/seed_study_recipe.py``; see its docstring for the settings (a 250-step run, scored on
    a quarter of the validation text).
    """
    if not RECIPE_STUDY_FILE.exists():
        raise FileNotFoundError(f"{RECIPE_STUDY_FILE} is missing: run python -m benchmarks.seed_study_recipe")
    return pd.read_csv(RECIPE_STUDY_FILE)
