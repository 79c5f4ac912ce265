"""Frequency and presence penalties, as in the OpenAI API and vLLM.

For every token ``j`` already generated ``c_j > 0`` times:

``logit_j <- logit_j - c_j * frequency_penalty - presence_penalty``

The frequency penalty grows with each repeat; the presence penalty is paid once.
Unlike the multiplicative repetition penalty of CTRL (Keskar et al., 2019;
:func:`nlp_helpers.sampling.distributions.apply_repetition_penalty`) they subtract,
so a penalised token's logit always goes down, whatever its sign.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from nlp_helpers._checks import check_array, check_float

__all__ = ["apply_frequency_presence_penalty"]


def apply_frequency_presence_penalty(
    logits: Any, previous_ids: Any, frequency_penalty: float = 0.0, presence_penalty: float = 0.0
) -> np.ndarray:
    """Subtract ``count * frequency_penalty + presence_penalty`` from the logit of every token seen so far.

    ``logits``: shape ``(V,)``; ``previous_ids``: the ids generated so far, shape ``(n,)``.
    Penalties may be negative (then they encourage repeats). Returns a new float64 array.
    """
    x = check_array("logits", logits, ndim=1, finite=False).astype(np.float64)
    if x.size == 0 or np.isnan(x).any():
        raise ValueError("logits must be a non-empty 1-D array without NaN")
    ids = np.asarray(previous_ids)
    if ids.ndim != 1 or (ids.size and (ids.dtype.kind not in "iu" or ids.min() < 0 or ids.max() >= x.size)):
        raise ValueError(f"previous_ids must be a 1-D array of integer token ids in [0, {x.size})")
    fp = check_float("frequency_penalty", frequency_penalty)
    pp = check_float("presence_penalty", presence_penalty)
    return _penalise(x, ids.astype(np.int64), fp, pp)


def _penalise(x: np.ndarray, ids: np.ndarray, fp: float, pp: float) -> np.ndarray:
    counts = np.bincount(ids, minlength=x.size)
    return x - counts * fp - (counts > 0) * pp
