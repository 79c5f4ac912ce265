"""Extractive question answering: choosing the answer span from start and end logits.

For SQuAD-style QA (Rajpurkar et al., 2016) BERT reads ``[CLS] question [SEP] passage [SEP]``
and a linear layer gives every token two logits, ``start_i`` and ``end_i`` (Devlin et al., 2019,
section 4.2). The answer is the span ``(i, j)`` of passage tokens with ``i <= j`` and at most
``max_len`` tokens that maximises ``start_i + end_j``; :func:`best_span` finds it exactly over
all pairs, which is what Hugging Face's question-answering pipeline does (it then maps the
tokens back to characters).

Left out: unanswerable questions (SQuAD 2.0 compares the best span with the ``[CLS]`` score)
and long passages split into overlapping windows.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers._checks import check_array, check_int

__all__ = ["best_span"]


def best_span(
    start_logits: np.ndarray, end_logits: np.ndarray, max_len: int = 30, allowed: np.ndarray | None = None
) -> tuple[int, int]:
    """The span ``(i, j)``, ``i <= j < i + max_len``, with the largest ``start_logits[i] + end_logits[j]``.

    ``start_logits``, ``end_logits``: ``(T,)``. ``allowed`` ``(T,)`` boolean: the positions an answer
    may use (the passage's tokens); default all. Ties go to the smallest ``i``, then the smallest ``j``.
    """
    s = check_array("start_logits", start_logits, ndim=1)
    e = check_array("end_logits", end_logits, shape=s.shape)
    max_len = check_int("max_len", max_len, minimum=1)
    ok = np.ones(len(s), dtype=bool) if allowed is None else np.asarray(allowed)
    if ok.dtype != bool or ok.shape != s.shape:
        raise ValueError(f"allowed must be a boolean array of shape {s.shape}, got {ok.dtype} {ok.shape}")
    if not ok.any():
        raise ValueError("allowed is all False: no position may hold the answer")
    return _best_span(s, e, max_len, ok)


def _best_span(s: np.ndarray, e: np.ndarray, max_len: int, ok: np.ndarray) -> tuple[int, int]:
    i, j = np.indices((len(s), len(s)))
    valid = (j >= i) & (j - i < max_len) & ok[:, None] & ok[None, :]  # (T, T)
    scores = np.where(valid, s[:, None] + e[None, :], -np.inf)
    flat = int(np.argmax(scores))  # row-major: first maximum = smallest i, then smallest j
    return flat // len(s), flat % len(s)
