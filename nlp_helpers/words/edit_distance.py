"""Minimum edit distance by dynamic programming, with the alignment backtrace.

What it implements
    The Wagner-Fischer algorithm as in Jurafsky & Martin, *Speech and Language
    Processing*, section 2.8: ``D[i, j]`` is the cheapest way to turn the first
    ``i`` symbols of the source into the first ``j`` symbols of the target,

    ``D[i, j] = min(D[i-1, j] + del_cost, D[i, j-1] + ins_cost, D[i-1, j-1] + (0 if a_i == b_j else sub_cost))``

    and following the cheapest choices back from ``D[n, m]`` gives an alignment.
    With ``sub_cost=2`` this is J&M's Levenshtein distance (``intention`` ->
    ``execution`` costs 8); with ``sub_cost=1`` it is the usual one (cost 5).

What it leaves out
    Transpositions (Damerau) and weighted, symbol-dependent costs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from nlp_helpers._checks import check_float

__all__ = ["edit_distance", "EditDistance", "AlignmentStep"]

MATCH, SUBSTITUTE, DELETE, INSERT = "match", "substitute", "delete", "insert"
_OP_LETTER = {MATCH: "", SUBSTITUTE: "s", DELETE: "d", INSERT: "i"}
GAP = "*"


@dataclass(frozen=True)
class AlignmentStep:
    """One column of an alignment: ``op`` is match/substitute/delete/insert; a gap is ``None``."""

    op: str
    source: object | None
    target: object | None
    cost: float


@dataclass(frozen=True)
class EditDistance:
    """Result of :func:`edit_distance`.

    Attributes:
        distance: the minimum total cost, ``table[-1, -1]``.
        table: the DP table, shape ``(len(source) + 1, len(target) + 1)``.
        alignment: the backtrace from ``(0, 0)`` to the last cell, one step per column.
        path: the table cells ``(i, j)`` the backtrace visits, from ``(0, 0)``.
    """

    source: Sequence
    target: Sequence
    distance: float
    table: np.ndarray
    alignment: tuple[AlignmentStep, ...]
    path: tuple[tuple[int, int], ...]

    def to_frame(self) -> pd.DataFrame:
        """The DP table as a DataFrame; rows are ``#`` + source symbols, columns ``#`` + target symbols."""
        rows = [f"{i}:{s}" if i else "#" for i, s in enumerate(["#", *self.source])]
        cols = [f"{j}:{t}" if j else "#" for j, t in enumerate(["#", *self.target])]
        return pd.DataFrame(self.table, index=rows, columns=cols)

    def alignment_frame(self) -> pd.DataFrame:
        """The alignment in J&M's three-row layout: source, target, operation (``*`` marks a gap)."""
        return pd.DataFrame(
            [
                [GAP if s.source is None else s.source for s in self.alignment],
                [GAP if s.target is None else s.target for s in self.alignment],
                [_OP_LETTER[s.op] for s in self.alignment],
            ],
            index=["source", "target", "operation"],
        )


def _check_sequence(name: str, value: object) -> Sequence:
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            try:
                hash(item)
            except TypeError:
                raise TypeError(f"{name}[{i}] must be hashable (e.g. a str token), got {type(item).__name__}") from None
        return value
    raise TypeError(f"{name} must be a str or a list/tuple of tokens, got {type(value).__name__}")


def edit_distance(
    source: Sequence, target: Sequence, *, sub_cost: float = 1, ins_cost: float = 1, del_cost: float = 1
) -> EditDistance:
    """Minimum edit distance between two strings (or two token lists) with the DP table and an alignment.

    Ties in the backtrace prefer a match/substitution, then a deletion, then an insertion.

    >>> edit_distance("intention", "execution", sub_cost=2).distance
    8
    """
    a, b = _check_sequence("source", source), _check_sequence("target", target)
    costs = [
        check_float(n, v, minimum=0)
        for n, v in (("sub_cost", sub_cost), ("ins_cost", ins_cost), ("del_cost", del_cost))
    ]
    integer = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in (sub_cost, ins_cost, del_cost))
    sub, ins, dele = (int(c) for c in costs) if integer else costs
    n, m = len(a), len(b)
    D = np.zeros((n + 1, m + 1), dtype=np.int64 if integer else float)  # D[i, j]: a[:i] -> b[:j]
    D[:, 0] = np.arange(n + 1) * dele
    D[0, :] = np.arange(m + 1) * ins
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            diag = D[i - 1, j - 1] + (0 if a[i - 1] == b[j - 1] else sub)
            D[i, j] = min(diag, D[i - 1, j] + dele, D[i, j - 1] + ins)
    steps, path = _backtrace(a, b, D, sub, ins, dele)
    distance = D[n, m].item()
    return EditDistance(a, b, distance, D, tuple(steps), tuple(path))


def _backtrace(a, b, D, sub, ins, dele) -> tuple[list[AlignmentStep], list[tuple[int, int]]]:
    i, j = len(a), len(b)
    steps, path = [], [(i, j)]
    while i > 0 or j > 0:
        if i > 0 and j > 0:
            same = a[i - 1] == b[j - 1]
            cost = 0 if same else sub
            if D[i, j] == D[i - 1, j - 1] + cost:
                steps.append(AlignmentStep(MATCH if same else SUBSTITUTE, a[i - 1], b[j - 1], cost))
                i, j = i - 1, j - 1
                path.append((i, j))
                continue
        if i > 0 and D[i, j] == D[i - 1, j] + dele:
            steps.append(AlignmentStep(DELETE, a[i - 1], None, dele))
            i -= 1
        else:
            steps.append(AlignmentStep(INSERT, None, b[j - 1], ins))
            j -= 1
        path.append((i, j))
    return steps[::-1], path[::-1]
