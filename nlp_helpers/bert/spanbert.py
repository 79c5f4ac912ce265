"""SpanBERT's pre-training (Joshi et al., 2020): span masking and the span-boundary objective.

1. **Span masking** (their section 3.1). Spans of whole words are masked until about 15 % of the tokens
   are: a span's length in words is drawn from a geometric distribution with ``p = 0.2`` limited to
   ``1..10`` words (:func:`span_length_probs`; SpanBERT's released code renormalises the probabilities of
   lengths 1 to 10, which gives the paper's mean length of 3.8 words), its first word uniformly among the
   words (:func:`sample_spans`). Spans that touch are merged, so that every span has an unmasked token on
   each side. The 80/10/10 rule is applied **per span** (:func:`corrupt_spans`): a whole span becomes
   ``[MASK]``, or random tokens, or stays as it is.
2. **Span-boundary objective** (SBO, their section 3.2). Each token ``x_i`` of a masked span
   ``x_s .. x_e`` is also predicted from the encoder's outputs at the two boundary tokens, ``x_{s-1}`` and
   ``x_{e+1}``, and a learned embedding of its place in the span (:func:`sbo_targets` lists them):
   ``y_i = f([h_{s-1}; h_{e+1}; p_{i-s}])`` with ``f`` two linear layers, each followed by GELU and layer
   normalisation (:class:`SpanBoundaryHead`). ``y_i`` goes through the same output layer as the masked-LM
   head, and the loss is the masked-LM loss plus the SBO loss (:func:`spanbert_loss`).

Conventions: spans are ``(start, end)`` token positions with ``end`` excluded; offsets in a span count
from 0 (the paper's ``p_{i-s+1}`` counts from 1). Words are given as a word id per token (the
``word_ids()`` of a Hugging Face fast tokenizer), ``None`` for special tokens and padding.

Left out: SpanBERT's single-segment inputs without next-sentence prediction, its cap of 20 tokens per SBO
span, and the tying of the output layer to the input embeddings (the book's small models have an output
layer of their own, which both heads share).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np
import torch
from torch import nn

from nlp_helpers._checks import check_float, check_int, check_type
from nlp_helpers.bert.mlm import IGNORE_INDEX, masked_lm_loss

__all__ = [
    "span_length_probs",
    "word_spans",
    "sample_spans",
    "corrupt_spans",
    "span_mask",
    "SBOTargets",
    "sbo_targets",
    "SpanBoundaryHead",
    "spanbert_loss",
]


def span_length_probs(p: float = 0.2, max_len: int = 10) -> np.ndarray:
    """P(span length = k words) for k = 1..max_len: ``p (1 - p)^(k - 1)``, renormalised; shape (max_len,)."""
    p = check_float("p", p, minimum=0.0, maximum=1.0, min_inclusive=False)
    max_len = check_int("max_len", max_len, minimum=1)
    probs = p * (1 - p) ** np.arange(max_len)
    return probs / probs.sum()


def word_spans(word_ids: Sequence[int | None]) -> list[tuple[int, int]]:
    """The ``(start, end)`` token range of every word: a run of consecutive tokens with the same word id.

    ``word_ids`` has one entry per token: an int >= 0, or ``None`` for a special token or padding.
    """
    ids = _check_word_ids(word_ids)
    words: list[tuple[int, int]] = []
    for t, w in enumerate(ids):
        if w is None:
            continue
        if words and words[-1][1] == t and ids[t - 1] == w:
            words[-1] = (words[-1][0], t + 1)  # the next piece of the same word
        else:
            words.append((t, t + 1))
    return words


def _check_word_ids(word_ids: object) -> list[int | None]:
    if isinstance(word_ids, (str, bytes, np.ndarray)) or not isinstance(word_ids, Sequence):
        raise TypeError(f"word_ids must be a list of int or None (one per token), got {type(word_ids).__name__}")
    return [None if w is None else check_int("word_ids item", w, minimum=0) for w in word_ids]


def _check_rng(rng: object) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator (np.random.default_rng(seed)), got {type(rng).__name__}")
    return rng


def sample_spans(
    word_ids: Sequence[int | None],
    rng: np.random.Generator,
    *,
    p: float = 0.2,
    max_len: int = 10,
    mask_rate: float = 0.15,
) -> list[tuple[int, int]]:
    """SpanBERT's span masking of one sequence: sorted, non-touching ``(start, end)`` token spans of whole words.

    Spans are drawn until ``round(mask_rate * n)`` of the ``n`` word tokens (at least one) are covered: a
    length in words from :func:`span_length_probs`, a first word uniformly among the unmasked ones (a draw
    on a masked word is redrawn); the span grows word by word and stops early at the end of the sequence,
    at a masked word, or when the budget is reached (a word is never cut, so the last one may overshoot it).
    """
    words = word_spans(word_ids)
    if not words:
        raise ValueError("word_ids has no word (every entry is None): there is nothing to mask")
    probs = span_length_probs(p, max_len)
    mask_rate = check_float("mask_rate", mask_rate, minimum=0.0, maximum=1.0, min_inclusive=False)
    return _sample_spans(words, _check_rng(rng), probs, mask_rate)


def _sample_spans(
    words: list[tuple[int, int]], rng: np.random.Generator, probs: np.ndarray, mask_rate: float
) -> list[tuple[int, int]]:
    n_tokens = sum(end - start for start, end in words)
    budget = max(1, round(mask_rate * n_tokens))
    masked = np.zeros(len(words), dtype=bool)
    n_masked = 0
    while n_masked < budget:
        length = rng.choice(len(probs), p=probs) + 1  # in words
        first = rng.integers(len(words))
        if masked[first]:
            continue
        for w in range(first, min(first + length, len(words))):
            if masked[w] or n_masked >= budget:
                break
            masked[w] = True
            n_masked += words[w][1] - words[w][0]
    spans: list[tuple[int, int]] = []
    for w in np.flatnonzero(masked):
        start, end = words[w]
        if spans and spans[-1][1] == start:  # touches the previous span: merge
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def _check_spans(spans: object, length: int, name: str = "spans") -> list[tuple[int, int]]:
    if isinstance(spans, (str, bytes)) or not isinstance(spans, Iterable):
        raise TypeError(f"{name} must be a list of (start, end) pairs, got {type(spans).__name__}")
    out: list[tuple[int, int]] = []
    for span in spans:
        if not (isinstance(span, (tuple, list)) and len(span) == 2):
            raise ValueError(f"{name} must hold (start, end) pairs, got {span!r}")
        start = check_int(f"{name} start", span[0], minimum=0)
        end = check_int(f"{name} end", span[1], minimum=start + 1, maximum=length)
        if out and start < out[-1][1]:
            raise ValueError(f"{name} must be sorted and must not overlap, got {out[-1]} then {(start, end)}")
        out.append((start, end))
    return out


def corrupt_spans(
    ids: np.ndarray,
    spans: Iterable[tuple[int, int]],
    vocab_size: int,
    mask_id: int,
    special_ids: Iterable[int],
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """The 80/10/10 rule, one draw per span: ``(inputs, labels)`` for a (T,) array of token ids.

    A span becomes ``[MASK]`` throughout (80 %), random ordinary tokens (10 %: one independent draw per
    token, never a special token or ``mask_id``), or stays as it is (10 %). ``labels`` holds the original
    ids inside the spans and ``IGNORE_INDEX`` (-100) elsewhere.
    """
    ids = np.asarray(ids)
    if ids.dtype.kind not in "iu" or ids.ndim != 1 or ids.size == 0:
        raise ValueError(f"ids must be a non-empty (T,) array of integer token ids, got {ids.dtype} {ids.shape}")
    vocab_size = check_int("vocab_size", vocab_size, minimum=2)
    if ids.min() < 0 or ids.max() >= vocab_size:
        raise ValueError(f"ids must lie in [0, vocab_size={vocab_size})")
    mask_id = check_int("mask_id", mask_id, minimum=0, maximum=vocab_size - 1)
    if isinstance(special_ids, (str, bytes)) or not isinstance(special_ids, Iterable):
        raise TypeError(f"special_ids must be a list of int token ids, got {type(special_ids).__name__}")
    special = [check_int("special_ids item", s, minimum=0) for s in special_ids] + [mask_id]
    ordinary = np.setdiff1d(np.arange(vocab_size), special)
    if ordinary.size == 0:
        raise ValueError("every id is special: there is no ordinary token to draw")
    spans = _check_spans(spans, len(ids))
    return _corrupt_spans(ids.astype(np.int64), spans, _check_rng(rng), mask_id, ordinary)


def _corrupt_spans(
    ids: np.ndarray, spans: list[tuple[int, int]], rng: np.random.Generator, mask_id: int, ordinary: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    inputs, labels = ids.copy(), np.full_like(ids, IGNORE_INDEX)
    for start, end in spans:
        labels[start:end] = ids[start:end]
        u = rng.random()  # one draw for the whole span
        if u < 0.8:
            inputs[start:end] = mask_id
        elif u < 0.9:
            inputs[start:end] = rng.choice(ordinary, size=end - start)
    return inputs, labels


def span_mask(
    ids: np.ndarray,
    word_ids: Sequence[int | None],
    vocab_size: int,
    mask_id: int,
    special_ids: Iterable[int],
    rng: np.random.Generator,
    **span_options: float,
) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int]]]:
    """:func:`sample_spans` then :func:`corrupt_spans` on one sequence: ``(inputs, labels, spans)``.

    ``span_options`` are ``p``, ``max_len`` and ``mask_rate`` of :func:`sample_spans`.
    """
    if len(word_ids) != len(np.asarray(ids)):
        raise ValueError(f"word_ids must have one entry per token of ids ({len(np.asarray(ids))}), got {len(word_ids)}")
    spans = sample_spans(word_ids, rng, **span_options)
    inputs, labels = corrupt_spans(ids, spans, vocab_size, mask_id, special_ids, rng)
    return inputs, labels, spans


class SBOTargets(NamedTuple):
    """The span-boundary objective's targets of a batch: five (n,) int64 tensors, one entry per target token."""

    rows: torch.Tensor  # which sequence of the batch
    positions: torch.Tensor  # the token to predict, x_i
    left: torch.Tensor  # the boundary token before the span, s - 1
    right: torch.Tensor  # the boundary token after the span, e + 1 (our end, which is excluded)
    offsets: torch.Tensor  # i - s, the token's place in its span (from 0)


def sbo_targets(spans_per_row: Sequence[Iterable[tuple[int, int]]], seq_len: int) -> SBOTargets:
    """Every token of every span with a boundary token on both sides inside the sequence (length ``seq_len``).

    A span that starts at position 0 or ends at ``seq_len`` has no boundary on one side and is skipped.
    """
    seq_len = check_int("seq_len", seq_len, minimum=1)
    if isinstance(spans_per_row, (str, bytes)) or not isinstance(spans_per_row, Sequence):
        raise TypeError(f"spans_per_row must be a list (one list of spans per row), got {type(spans_per_row).__name__}")
    rows = []
    for r, spans in enumerate(spans_per_row):
        for start, end in _check_spans(spans, seq_len, "spans_per_row"):
            if start >= 1 and end < seq_len:
                rows += [(r, i, start - 1, end, i - start) for i in range(start, end)]
    table = torch.tensor(rows, dtype=torch.long).reshape(-1, 5)
    return SBOTargets(*table.T)


class SpanBoundaryHead(nn.Module):
    """SpanBERT's SBO head: ``y_i = LN(GELU(W2 LN(GELU(W1 [h_left; h_right; p_offset]))))``, shape (n, d_model).

    ``max_offset`` is the number of position embeddings (the longest span it can take, in tokens);
    ``d_pos`` their size (default ``d_model``).
    """

    def __init__(self, d_model: int, max_offset: int, d_pos: int | None = None) -> None:
        super().__init__()
        self.d_model = check_int("d_model", d_model, minimum=1)
        self.max_offset = check_int("max_offset", max_offset, minimum=1)
        d_pos = self.d_model if d_pos is None else check_int("d_pos", d_pos, minimum=1)
        self.pos = nn.Embedding(self.max_offset, d_pos)
        self.dense1 = nn.Linear(2 * self.d_model + d_pos, self.d_model)
        self.norm1 = nn.LayerNorm(self.d_model)
        self.dense2 = nn.Linear(self.d_model, self.d_model)
        self.norm2 = nn.LayerNorm(self.d_model)

    def forward(self, hidden: torch.Tensor, targets: SBOTargets) -> torch.Tensor:
        check_type("hidden", hidden, torch.Tensor)
        check_type("targets", targets, SBOTargets)
        if hidden.ndim != 3 or hidden.shape[-1] != self.d_model:
            raise ValueError(f"hidden must be (B, T, d_model={self.d_model}), got {tuple(hidden.shape)}")
        if len(targets.rows) and (int(targets.offsets.max()) >= self.max_offset):
            raise ValueError(f"targets has a span offset >= max_offset={self.max_offset}: build a larger head")
        if len(targets.rows) and (
            int(targets.rows.max()) >= hidden.shape[0] or int(targets.right.max()) >= hidden.shape[1]
        ):
            raise ValueError(f"targets points outside hidden of shape {tuple(hidden.shape)}")
        x = torch.cat(
            [hidden[targets.rows, targets.left], hidden[targets.rows, targets.right], self.pos(targets.offsets)], dim=-1
        )
        h = self.norm1(nn.functional.gelu(self.dense1(x)))
        return self.norm2(nn.functional.gelu(self.dense2(h)))


def spanbert_loss(
    mlm_logits: torch.Tensor, labels: torch.Tensor, sbo_logits: torch.Tensor, sbo_labels: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(total, mlm, sbo)``: the masked-LM cross-entropy at the labelled positions (mean), the SBO
    cross-entropy of the (n, V) ``sbo_logits`` against the (n,) ``sbo_labels`` (mean), and their sum."""
    check_type("sbo_logits", sbo_logits, torch.Tensor)
    check_type("sbo_labels", sbo_labels, torch.Tensor)
    if sbo_logits.ndim != 2 or sbo_labels.shape != sbo_logits.shape[:1] or not len(sbo_labels):
        raise ValueError(
            f"sbo_logits must be (n, V) and sbo_labels (n,) with n >= 1; got {tuple(sbo_logits.shape)} and "
            f"{tuple(sbo_labels.shape)}"
        )
    if sbo_labels.dtype not in (torch.long, torch.int):
        raise TypeError(f"sbo_labels must hold integer token ids (torch.long), got {sbo_labels.dtype}")
    if int(sbo_labels.min()) < 0 or int(sbo_labels.max()) >= sbo_logits.shape[-1]:
        raise ValueError(f"sbo_labels must be token ids in [0, {sbo_logits.shape[-1]})")
    mlm = masked_lm_loss(mlm_logits, labels)
    sbo = nn.functional.cross_entropy(sbo_logits, sbo_labels.long())
    return mlm + sbo, mlm, sbo
