"""Bits per character of a TinyGPT on a long text, comparable with the n-gram and LSTM chapters.

A transformer sees at most ``block_size`` characters, so a long text is scored with
sliding windows (the "strided" evaluation of Hugging Face's perplexity guide): the
first window scores all its characters, every later window moves ``stride`` characters
on and scores only the ``stride`` characters that no window scored before, so each of
them is predicted from at least ``block_size - stride`` characters of context. With
``stride = 1`` every character gets the full context (``min(t, block_size)`` characters);
with ``stride = block_size`` the windows do not overlap.

As in :func:`nlp_helpers.rnn.charlm.char_logprobs`, the characters scored are ``ids[1:]``
(the first has no context), so the bits per character of the LSTM, the n-gram models and
TinyGPT are averages over exactly the same characters of the validation text.

Also here: :func:`seed_study`, the table written by ``benchmarks/seed_study_tinygpt.py``
(the chapter's models trained with several seeds). Left out: byte-level accounting.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F

from nlp_helpers._checks import check_int, check_type
from nlp_helpers.llm.gpt import TinyGPT

__all__ = ["char_logprobs", "char_log_distributions", "bits_per_character", "seed_study", "SEED_STUDY_FILE"]

# Written by benchmarks/seed_study_tinygpt.py.
SEED_STUDY_FILE = Path(__file__).parents[1] / "data" / "files" / "tinygpt_seed_study.csv"


def char_logprobs(model: TinyGPT, ids: torch.Tensor, stride: int | None = None, batch_size: int = 64) -> np.ndarray:
    """``ln P(ids[t] | up to block_size previous ids)`` for ``t = 1 .. N-1``, shape ``(N-1,)``, float64.

    ``stride``: how far each window moves (default ``block_size // 2``, so every character
    after the first window has at least half a context); ``batch_size``: windows per forward pass.
    """
    ids, T, stride, batch_size = _check_scoring(model, ids, stride, batch_size)
    return _char_logprobs(model, ids, T, stride, batch_size)


def _check_scoring(model, ids, stride, batch_size) -> tuple[torch.Tensor, int, int, int]:
    check_type("model", model, TinyGPT)
    if not isinstance(ids, torch.Tensor) or ids.dim() != 1 or ids.dtype not in (torch.long, torch.int):
        raise TypeError("ids must be a 1-D torch tensor of integer token ids")
    if len(ids) < 2:
        raise ValueError(f"ids must hold at least 2 tokens (the first is never scored), got {len(ids)}")
    V = model.config.vocab_size
    if int(ids.min()) < 0 or int(ids.max()) >= V:
        raise ValueError(f"ids must be token ids in [0, {V}), got values in [{int(ids.min())}, {int(ids.max())}]")
    T = model.block_size
    stride = check_int("stride", T // 2 if stride is None else stride, minimum=1, maximum=T)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    return ids.long(), T, stride, batch_size


def _char_logprobs(model: TinyGPT, ids: torch.Tensor, T: int, stride: int, batch_size: int) -> np.ndarray:
    out = np.empty(len(ids) - 1)
    for a, b, y, logp in _scored_windows(model, ids, T, stride, batch_size):
        out[a:b] = logp.gather(-1, y[:, None])[:, 0].numpy()
    return out


def _char_log_distributions(model: TinyGPT, ids: torch.Tensor, T: int, stride: int, batch_size: int) -> np.ndarray:
    out = np.empty((len(ids) - 1, model.config.vocab_size))
    for a, b, _, logp in _scored_windows(model, ids, T, stride, batch_size):
        out[a:b] = logp.numpy()
    return out


def _scored_windows(model: TinyGPT, ids: torch.Tensor, T: int, stride: int, batch_size: int):
    """Yield ``(a, b, targets, log_probs)``: the float64 log-distributions of targets ``a+1 .. b``."""
    n_pred = len(ids) - 1
    T = min(T, n_pred)  # a short text: one window
    starts = list(range(0, n_pred - T + 1, stride))
    if starts[-1] + T < n_pred:  # one last window aligned with the end
        starts.append(n_pred - T)
    starts_t = torch.tensor(starts)
    # New targets per window: all T for the first, then those past the previous window's end.
    first_new = torch.cat([torch.zeros(1, dtype=torch.long), (starts_t[:-1] + T) - starts_t[1:]])  # (W,)
    offsets = torch.arange(T)
    was_training = model.training
    model.eval()
    try:
        with torch.no_grad():
            for a in range(0, len(starts), batch_size):
                s = starts_t[a : a + batch_size, None]  # (b, 1)
                x, y = ids[s + offsets], ids[s + offsets + 1]  # (b, T): inputs and next characters
                logp = F.log_softmax(model(x).double(), dim=-1)  # (b, T, V)
                for row, (st, f) in enumerate(zip(s[:, 0].tolist(), first_new[a : a + batch_size].tolist())):
                    yield st + f, st + T, y[row, f:], logp[row, f:]  # target index t+1 stored at t
    finally:
        model.train(was_training)


def char_log_distributions(
    model: TinyGPT, ids: torch.Tensor, stride: int | None = None, batch_size: int = 64
) -> np.ndarray:
    """The whole predicted distribution behind :func:`char_logprobs`: shape ``(N-1, V)``, float64.

    Row ``t`` holds ``ln P(c | up to block_size ids before ids[t+1])`` for every token ``c``, with
    the same sliding windows, so ``out[t, ids[t+1]] == char_logprobs(...)[t]``. Needs
    ``8 (N-1) V`` bytes; use it for the entropy or calibration of the predictions.
    """
    ids, T, stride, batch_size = _check_scoring(model, ids, stride, batch_size)
    return _char_log_distributions(model, ids, T, stride, batch_size)


def bits_per_character(model: TinyGPT, ids: torch.Tensor, stride: int | None = None, batch_size: int = 64) -> float:
    """Mean ``-log2 P`` over ``ids[1:]`` (see :func:`char_logprobs`): bits per character."""
    return float(-char_logprobs(model, ids, stride, batch_size).mean() / math.log(2))


def seed_study() -> pd.DataFrame:
    """The chapter's character language models trained with several seeds, one row per (model, seed).

    Columns: ``model``, ``seed``, ``bpc`` (validation bits per character), ``kernel``
    (the ``ATEN_CPU_CAPABILITY`` of the run). Computed by ``benchmarks/seed_study_tinygpt.py``;
    see its docstring for the settings. The n-gram models have no seed (``seed`` is -1).
    """
    if not SEED_STUDY_FILE.exists():
        raise FileNotFoundError(f"{SEED_STUDY_FILE} is missing: run python -m benchmarks.seed_study_tinygpt")
    return pd.read_csv(SEED_STUDY_FILE)
