"""Extractive question answering: choosing the answer span from start and end logits.

For SQuAD-style QA (Rajpurkar et al., 2016) BERT reads ``[CLS] question [SEP] passage [SEP]``
and a linear layer gives every token two logits, ``start_i`` and ``end_i`` (Devlin et al., 2019,
section 4.2). The answer is the span ``(i, j)`` of passage tokens with ``i <= j`` and at most
``max_len`` tokens that maximises ``start_i + end_j``; :func:`best_span` finds it exactly over
all pairs, which is what Hugging Face's question-answering pipeline does (it then maps the
tokens back to characters). :func:`encode_qa` runs the frozen encoder once on ``(question, passage)``
pairs so a head can be trained on cached vectors, and :func:`answer_tokens` maps an answer's characters
to its first and last passage token.

Left out: unanswerable questions (SQuAD 2.0 compares the best span with the ``[CLS]`` score)
and long passages split into overlapping windows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from nlp_helpers._checks import check_array, check_int
from nlp_helpers.bert.minilm import check_texts, load_minilm

if TYPE_CHECKING:
    import torch

__all__ = ["best_span", "encode_qa", "answer_tokens"]


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


def encode_qa(
    questions: Sequence[str], contexts: Sequence[str], *, max_length: int = 64, batch_size: int = 32
) -> dict[str, torch.Tensor]:
    """Run MiniLM once on ``[CLS] question [SEP] context [SEP]`` pairs, in batches of similar length.

    Returns, rows in input order, right-padded to the longest pair: ``hidden`` (N, T, d_model) last layer
    (zero at padding), ``input_ids``, ``token_type_ids``, ``attention_mask`` (N, T), ``offsets`` (N, T, 2)
    character offsets of each token in its own text, and ``context_mask`` (N, T) True at the context's
    tokens (not ``[CLS]``, the question or ``[SEP]``). Long contexts are truncated to ``max_length``.
    """
    questions, contexts = check_texts("questions", questions), check_texts("contexts", contexts)
    if len(questions) != len(contexts):
        raise ValueError(f"contexts has {len(contexts)} texts but questions has {len(questions)}")
    max_length = check_int("max_length", max_length, minimum=8, maximum=512)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    return _encode_qa(questions, contexts, max_length, batch_size)


def _encode_qa(questions: list[str], contexts: list[str], max_length: int, batch_size: int) -> dict[str, torch.Tensor]:
    import torch  # only here: best_span is used without torch

    tokenizer, model = load_minilm()
    kw = dict(truncation="only_second", max_length=max_length, return_offsets_mapping=True)
    enc = tokenizer(questions, contexts, padding=True, return_tensors="pt", **kw)  # (N, T) each
    context_mask = (enc["token_type_ids"] == 1) & (enc["attention_mask"] == 1)
    last = enc["attention_mask"].sum(1) - 1  # the final [SEP] has segment 1 too
    context_mask[torch.arange(len(questions)), last] = False
    hidden = torch.zeros(*enc["input_ids"].shape, model.config.hidden_size)
    lengths = enc["attention_mask"].sum(1).numpy()
    order = np.argsort(lengths, kind="stable")  # similar lengths together: little padding to compute
    for start in range(0, len(order), batch_size):
        rows = torch.as_tensor(order[start : start + batch_size])
        t = int(lengths[rows].max())
        with torch.no_grad():
            out = model(
                input_ids=enc["input_ids"][rows, :t],
                token_type_ids=enc["token_type_ids"][rows, :t],
                attention_mask=enc["attention_mask"][rows, :t],
            )
        hidden[rows, :t] = out.last_hidden_state * enc["attention_mask"][rows, :t, None]
    return {
        "hidden": hidden,
        "input_ids": enc["input_ids"],
        "token_type_ids": enc["token_type_ids"],
        "attention_mask": enc["attention_mask"],
        "offsets": enc["offset_mapping"],
        "context_mask": context_mask,
    }


def answer_tokens(offsets: np.ndarray, context_mask: np.ndarray, char_start: int, char_end: int) -> tuple[int, int]:
    """First and last context token ``(i, j)`` overlapping the characters ``[char_start, char_end)``.

    ``offsets`` (T, 2): each token's ``(start, end)`` characters in the context; ``context_mask`` (T,)
    boolean. Raises ``ValueError`` if no context token overlaps the answer (e.g. it was truncated away).
    """
    off = check_array("offsets", offsets, ndim=2, dtype=np.int64)
    if off.shape[1] != 2:
        raise ValueError(f"offsets must have shape (T, 2), got {off.shape}")
    ok = np.asarray(context_mask)
    if ok.dtype != bool or ok.shape != off.shape[:1]:
        raise ValueError(f"context_mask must be a boolean array of shape {off.shape[:1]}, got {ok.dtype} {ok.shape}")
    char_start = check_int("char_start", char_start, minimum=0)
    char_end = check_int("char_end", char_end, minimum=char_start + 1)
    inside = ok & (off[:, 1] > char_start) & (off[:, 0] < char_end)
    if not inside.any():
        raise ValueError(f"no context token overlaps characters [{char_start}, {char_end}): truncated or empty?")
    hits = np.flatnonzero(inside)
    return int(hits[0]), int(hits[-1])
