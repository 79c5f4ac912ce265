"""Entity spans from BIO tags, and span-level precision, recall and F1.

Named-entity recognisers are scored on whole entities, not tokens (Tjong Kim Sang and De Meulder,
2003): a predicted entity counts only if its type and both boundaries match a gold entity. The chunk
rules are those of the CoNLL ``conlleval`` script, which ``seqeval``'s default ``f1_score`` also
follows, so an ill-formed sequence such as ``O I-PER`` still yields a PER entity (starting at the
``I-``), and a type change inside a chunk (``B-PER I-LOC``) starts a new one. The tags may be IOB2
(``B-``/``I-``/``O``), IO or BIOES. Sentences are scored as if joined by ``O`` tags, as seqeval does.
Leaves out: seqeval's strict mode and per-type reports (count the spans by type yourself).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SpanScores", "span_f1", "tag_spans"]


@dataclass(frozen=True)
class SpanScores:
    """Micro-averaged span scores over all entity types."""

    precision: float
    recall: float
    f1: float
    n_gold: int
    n_pred: int
    n_correct: int


def _check_sequence(name: str, tags) -> list[str]:
    if isinstance(tags, str) or not isinstance(tags, (list, tuple)):
        raise TypeError(f"{name} must be a list of tag strings, got {type(tags).__name__}")
    for tag in tags:
        if not isinstance(tag, str) or not tag:
            raise TypeError(f"{name} must contain non-empty tag strings like 'B-PER' or 'O', got {tag!r}")
    return list(tags)


def _split(tag: str) -> tuple[str, str]:
    """``'B-PER'`` -> ``('B', 'PER')``; ``'O'`` -> ``('O', '')``."""
    if tag == "O":
        return "O", ""
    prefix, _, kind = tag.partition("-")
    return prefix, kind


def _ends(prev: str, prev_type: str, cur: str, cur_type: str) -> bool:
    """conlleval's endOfChunk: does the chunk open at the previous tag end before the current tag?"""
    if prev in ("E", "S"):
        return True
    if prev in ("B", "I") and cur in ("B", "S", "O"):
        return True
    return prev != "O" and prev_type != cur_type


def _starts(prev: str, prev_type: str, cur: str, cur_type: str) -> bool:
    """conlleval's startOfChunk: does a new chunk start at the current tag?"""
    if cur in ("B", "S"):
        return True
    if prev in ("E", "S", "O") and cur in ("E", "I"):
        return True
    return cur != "O" and prev_type != cur_type


def _spans(tags: list[str]) -> list[tuple[str, int, int]]:
    spans, start, kind = [], None, ""
    prev, prev_type = "O", ""
    for i, tag in enumerate([*tags, "O"]):  # a final O closes an entity that runs to the end
        cur, cur_type = _split(tag)
        if start is not None and _ends(prev, prev_type, cur, cur_type):
            spans.append((kind, start, i))
            start = None
        if _starts(prev, prev_type, cur, cur_type):
            start, kind = i, cur_type
        prev, prev_type = cur, cur_type
    return spans


def tag_spans(tags) -> list[tuple[str, int, int]]:
    """The entities in one sentence's tags as ``(type, start, end)`` with ``end`` exclusive.

    >>> tag_spans(["B-PER", "I-PER", "O", "B-LOC", "I-LOC"])
    [('PER', 0, 2), ('LOC', 3, 5)]
    """
    return _spans(_check_sequence("tags", tags))


def span_f1(gold_tags, pred_tags) -> SpanScores:
    """Span-level micro precision, recall and F1 of predicted entities against gold ones.

    Args:
        gold_tags: list of sentences, each a list of IOB2 tags (``"B-PER"``, ``"I-PER"``, ``"O"``).
        pred_tags: the predictions, the same number of sentences with the same lengths.

    Returns:
        :class:`SpanScores`; ``.f1`` equals ``seqeval.metrics.f1_score(gold_tags, pred_tags)``.
        A score whose denominator is zero (no predicted or no gold entities) is 0.
    """
    if isinstance(gold_tags, str) or not isinstance(gold_tags, (list, tuple)):
        raise TypeError(f"gold_tags must be a list of tag lists, got {type(gold_tags).__name__}")
    if isinstance(pred_tags, str) or not isinstance(pred_tags, (list, tuple)):
        raise TypeError(f"pred_tags must be a list of tag lists, got {type(pred_tags).__name__}")
    if len(gold_tags) != len(pred_tags):
        raise ValueError(f"gold_tags has {len(gold_tags)} sentences but pred_tags has {len(pred_tags)}")
    gold, pred = [], []
    for i, (g, p) in enumerate(zip(gold_tags, pred_tags)):
        g = _check_sequence(f"gold_tags[{i}]", g)
        p = _check_sequence(f"pred_tags[{i}]", p)
        if len(g) != len(p):
            raise ValueError(f"sentence {i}: gold_tags has {len(g)} tags but pred_tags has {len(p)}")
        gold.append(g)
        pred.append(p)
    return _score(gold, pred)


def _score(gold: list[list[str]], pred: list[list[str]]) -> SpanScores:
    gold_set = {(i, *s) for i, tags in enumerate(gold) for s in _spans(tags)}
    pred_set = {(i, *s) for i, tags in enumerate(pred) for s in _spans(tags)}
    correct = len(gold_set & pred_set)
    precision = correct / len(pred_set) if pred_set else 0.0
    recall = correct / len(gold_set) if gold_set else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return SpanScores(precision, recall, f1, len(gold_set), len(pred_set), correct)
