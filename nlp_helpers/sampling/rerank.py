"""Choosing one output among several samples: best-of-N reranking and minimum Bayes risk (MBR).

* Best-of-N draws N candidates and keeps the one a scorer likes best (here the
  model's own mean log-probability per token; in practice often a reward model or
  a verifier, Cobbe et al., 2021).
* MBR (Kumar and Byrne, 2004; Eikema and Aziz, 2020) keeps the candidate with the
  highest expected utility against the others, which stand in for samples of the
  model's distribution: a consensus choice rather than the most probable string.

:func:`unigram_f1` is a simple utility (bag-of-tokens F1); :func:`mbr_scores` gives
each candidate its mean utility against the other candidates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence

import numpy as np

__all__ = ["mbr_scores", "unigram_f1"]


def unigram_f1(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    """F1 of the two bags of tokens: ``2 * overlap / (len(a) + len(b))`` (clipped counts); 1.0 if both are empty."""
    if isinstance(a, str) or isinstance(b, str):
        raise TypeError("a and b must be sequences of tokens (e.g. lists of ids or words), not strings")
    return _f1(list(a), list(b))


def _f1(a: list, b: list) -> float:
    if not a and not b:
        return 1.0
    overlap = sum((Counter(a) & Counter(b)).values())
    return 2.0 * overlap / (len(a) + len(b))


def mbr_scores(
    candidates: Sequence[Sequence[Hashable]], utility: Callable[[Sequence, Sequence], float] = unigram_f1
) -> np.ndarray:
    """Mean ``utility(candidate_i, candidate_j)`` over every other candidate j, one score per candidate.

    ``candidates``: at least two token sequences. The MBR choice is the argmax.
    """
    cands = list(candidates)
    if len(cands) < 2:
        raise ValueError(f"candidates must hold at least two sequences, got {len(cands)}")
    if not callable(utility):
        raise TypeError(f"utility must be a callable (a, b) -> float, got {type(utility).__name__}")
    return _mbr(cands, utility)


def _mbr(cands: list, utility: Callable) -> np.ndarray:
    n = len(cands)
    return np.array([sum(utility(cands[i], cands[j]) for j in range(n) if j != i) / (n - 1) for i in range(n)])
