"""Remedies for an overfitting recurrent classifier: variational dropout and the stored remedy study.

:func:`variational_dropout` drops the same features of a sequence at every time step (one mask
per sequence, reused along time; Gal & Ghahramani 2016, the "locked" dropout of Merity et al.
2018). Ordinary dropout draws a new mask at every step. Both scale the kept values by
``1 / (1 − p)`` so that a unit's expected value is unchanged, and both are the identity outside
training. :class:`~nlp_helpers.rnn.classify.SequenceClassifier` applies it to the embedded inputs
(``dropout=p, variational=True``); weight decay and early stopping live in
:func:`~nlp_helpers.rnn.classify.train_classifier`.

:func:`remedy_study` and :func:`pooling_study` read what ``benchmarks/seed_study_rnn_overfit.py``
and ``benchmarks/seed_study_rnn_pooling.py`` stored (several seeds each; too slow for a page).
Left out: dropout on the recurrent connection itself (Gal & Ghahramani's full recipe needs a
hand-written recurrent loop, not the fused ``nn.LSTM``) and DropConnect on the recurrent weights.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import torch
from torch import Tensor

from nlp_helpers._checks import check_float, check_type

__all__ = ["REMEDY_STUDY_FILE", "POOLING_STUDY_FILE", "variational_dropout", "remedy_study", "pooling_study"]

REMEDY_STUDY_FILE = Path(__file__).with_name("overfit_remedy_study.json")  # benchmarks/seed_study_rnn_overfit.py
POOLING_STUDY_FILE = Path(__file__).with_name("pooling_study.json")  # benchmarks/seed_study_rnn_pooling.py


def variational_dropout(
    x: Tensor, p: float, *, training: bool = True, generator: torch.Generator | None = None
) -> Tensor:
    """Dropout with one mask per sequence, shared by every time step.

    ``x``: ``(B, T, D)``, batch first. Each of the ``B × D`` (sequence, feature) pairs is kept with
    probability ``1 − p`` (then scaled by ``1 / (1 − p)``) or zeroed, at all ``T`` steps alike.
    ``p`` in ``[0, 1)``; with ``training=False`` or ``p = 0`` the input is returned unchanged.
    ``generator``: a ``torch.Generator`` for reproducible masks (default: torch's global one).
    """
    check_type("x", x, Tensor)
    if x.dim() != 3 or not x.is_floating_point():
        raise ValueError(f"x must be a (B, T, D) float tensor, got shape {tuple(x.shape)} and dtype {x.dtype}")
    p = check_float("p", p, minimum=0.0, maximum=1.0)
    if p == 1.0:
        raise ValueError("p must be < 1: p = 1 would drop every feature (and divide by 1 - p = 0)")
    check_type("training", training, bool)
    if generator is not None:
        check_type("generator", generator, torch.Generator)
    if not training or p == 0.0:
        return x
    return _variational_dropout(x, p, generator)


def _variational_dropout(x: Tensor, p: float, generator: torch.Generator | None) -> Tensor:
    keep = torch.rand(x.shape[0], 1, x.shape[2], generator=generator) >= p  # (B, 1, D): one mask per sequence
    return x * keep.to(x.dtype) / (1 - p)  # broadcast along time: the same features dropped at every step


def _read(path: Path, script: str) -> pd.DataFrame:
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: run python -m benchmarks.{script}")
    return pd.DataFrame(json.loads(path.read_text(encoding="utf-8"))["runs"])


def remedy_study() -> pd.DataFrame:
    """The stored remedy study: one row per (remedy, seed).

    Columns: ``remedy``, ``seed``, ``train_acc`` (on the snippets it trained on), ``test_acc`` (the
    same held-out snippets for every remedy) and ``steps`` (the steps of the model kept).
    """
    return _read(REMEDY_STUDY_FILE, "seed_study_rnn_overfit")


def pooling_study() -> pd.DataFrame:
    """The stored pooling study: one row per (summary, seed).

    Columns: ``summary`` ("last", "mean" or "max"), ``seed``, ``no signal`` (accuracy on sequences
    without the signal) and one column per band of signal positions (``"0–4"`` … ``"25–29"``).
    """
    return _read(POOLING_STUDY_FILE, "seed_study_rnn_pooling")
