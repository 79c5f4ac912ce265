"""Evaluating a ranked search: precision at k, average precision and their means over queries.

Follows Manning, Raghavan & Schütze, *Introduction to Information Retrieval* (2008), chapter 8,
and Jurafsky & Martin, *Speech and Language Processing* (3rd ed.), chapter 14. Precision at k is
the fraction of the first k results that are relevant; the denominator is k even when fewer
than k results were returned (a missing result is not a relevant one), as in ``trec_eval``.

Average precision (AP) is the mean, over the R relevant documents, of the precision at the rank of
each one; a relevant document missing from the ranking contributes 0 (as in ``trec_eval``). MAP is
its mean over queries.

Left out: recall, (n)DCG and graded relevance.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from nlp_helpers._checks import check_int

__all__ = ["average_precision", "mean_average_precision", "mean_precision_at_k", "precision_at_k"]


def _ids(name: str, values: Iterable[int]) -> list[int]:
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of document indices, got {type(values).__name__}")
    try:
        out = [int(v) for v in values]
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a sequence of integer document indices") from None
    return out


def precision_at_k(ranking: Sequence[int], relevant: Iterable[int], k: int) -> float:
    """Fraction of the first ``k`` entries of ``ranking`` (best first) that are in ``relevant``.

    ``ranking`` must not repeat a document; if it is shorter than ``k`` the missing places
    count as not relevant (the denominator stays ``k``).
    """
    k = check_int("k", k, minimum=1)
    ranked = _ids("ranking", ranking)
    if len(set(ranked)) != len(ranked):
        raise ValueError("ranking must not list a document twice")
    return _precision_at_k(ranked, set(_ids("relevant", relevant)), k)


def _precision_at_k(ranked: list[int], relevant: set[int], k: int) -> float:
    return sum(d in relevant for d in ranked[:k]) / k


def mean_precision_at_k(rankings: Sequence[Sequence[int]], relevant: Sequence[Iterable[int]], k: int) -> float:
    """Mean of :func:`precision_at_k` over queries: ``rankings[i]`` is judged against ``relevant[i]``."""
    k = check_int("k", k, minimum=1)
    if len(rankings) != len(relevant):
        raise ValueError(f"rankings has {len(rankings)} queries but relevant has {len(relevant)}")
    if len(rankings) == 0:
        raise ValueError("rankings must contain at least one query")
    return float(np.mean([precision_at_k(r, rel, k) for r, rel in zip(rankings, relevant)]))


def average_precision(ranking: Sequence[int], relevant: Iterable[int]) -> float:
    """Mean of the precision at the rank of each relevant document (0 for one never ranked).

    ``ranking`` lists document indices best first, without repeats; ``relevant`` must not be empty.
    """
    ranked = _ids("ranking", ranking)
    if len(set(ranked)) != len(ranked):
        raise ValueError("ranking must not list a document twice")
    rel = set(_ids("relevant", relevant))
    if not rel:
        raise ValueError("relevant must contain at least one document (AP is undefined without one)")
    return _average_precision(ranked, rel)


def _average_precision(ranked: list[int], relevant: set[int]) -> float:
    hits, total = 0, 0.0
    for k, d in enumerate(ranked, start=1):
        if d in relevant:
            hits += 1
            total += hits / k
    return total / len(relevant)


def mean_average_precision(rankings: Sequence[Sequence[int]], relevant: Sequence[Iterable[int]]) -> float:
    """MAP: the mean of :func:`average_precision` over queries (``rankings[i]`` against ``relevant[i]``)."""
    if len(rankings) != len(relevant):
        raise ValueError(f"rankings has {len(rankings)} queries but relevant has {len(relevant)}")
    if len(rankings) == 0:
        raise ValueError("rankings must contain at least one query")
    return float(np.mean([average_precision(r, rel) for r, rel in zip(rankings, relevant)]))
