"""Unigram language-model segmentation: the most probable split of a string, by Viterbi.

What it implements
    Kudo (2018), "Subword Regularization": a unigram LM gives every piece ``x`` of
    its vocabulary a probability ``p(x)`` and a segmentation ``x_1 ... x_k`` the
    probability ``p(x_1) ... p(x_k)``. :func:`viterbi_segment` finds the best
    segmentation by dynamic programming over end positions,

    ``best[j] = max_{i < j, text[i:j] in vocab} best[i] + log p(text[i:j])``,

    and follows the back-pointers from ``best[len(text)]``. This is what
    SentencePiece's and Hugging Face's ``Unigram`` models do at encoding time.

What it leaves out
    Training the vocabulary (EM plus pruning; Hugging Face's ``UnigramTrainer``
    does that in the chapter), sampling segmentations (subword regularization)
    and unknown-character handling: a string that cannot be covered raises.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from nlp_helpers._checks import check_text

__all__ = ["viterbi_segment", "check_log_probs"]


def check_log_probs(log_probs: Mapping[str, float]) -> dict[str, float]:
    """Check a piece -> log-probability mapping (non-empty str keys, finite values <= 0) and return it as a dict."""
    if not isinstance(log_probs, Mapping):
        raise TypeError(f"log_probs must be a mapping piece -> log probability, got {type(log_probs).__name__}")
    if not log_probs:
        raise ValueError("log_probs must not be empty")
    out = {}
    for piece, lp in log_probs.items():
        if not (isinstance(piece, str) and piece):
            raise ValueError(f"log_probs keys must be non-empty strings, got {piece!r}")
        if isinstance(lp, bool) or not isinstance(lp, (int, float)) or not math.isfinite(lp) or lp > 0:
            raise ValueError(f"log_probs[{piece!r}] must be a finite log probability <= 0, got {lp!r}")
        out[piece] = float(lp)
    return out


def viterbi_segment(text: str, log_probs: Mapping[str, float]) -> tuple[list[str], float]:
    """The most probable segmentation of ``text`` into pieces of ``log_probs`` and its log probability.

    >>> viterbi_segment("abc", {"a": -1.0, "b": -1.0, "c": -1.0, "ab": -1.5, "bc": -3.0})
    (['ab', 'c'], -2.5)

    Raises ``ValueError`` if no sequence of pieces spells ``text``.
    """
    check_text("text", text)
    log_probs = check_log_probs(log_probs)
    if not text:
        return [], 0.0
    return _viterbi(text, log_probs)


def _viterbi(text: str, log_probs: dict[str, float]) -> tuple[list[str], float]:
    longest = max(map(len, log_probs))
    n = len(text)
    best = [0.0] + [-math.inf] * n  # best[j]: log prob of the best split of text[:j]
    start = [0] * (n + 1)  # back-pointer: where the last piece of that split starts
    for j in range(1, n + 1):
        for i in range(max(0, j - longest), j):
            lp = log_probs.get(text[i:j])
            if lp is not None and best[i] + lp > best[j]:
                best[j], start[j] = best[i] + lp, i
    if best[n] == -math.inf:
        raise ValueError(f"text {text!r} cannot be written with the pieces of log_probs")
    pieces, j = [], n
    while j > 0:
        pieces.append(text[start[j] : j])
        j = start[j]
    return pieces[::-1], best[n]
