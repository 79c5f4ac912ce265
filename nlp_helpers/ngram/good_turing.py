"""Good-Turing estimation: re-estimating counts from the counts of counts.

Good (1953), after an idea of Turing: if N_c n-gram types occur exactly c times in N tokens,
an n-gram seen c times is expected to occur

    c* = (c + 1) N_{c+1} / N_c

times in a new sample of the same size, and the n-grams never seen share the probability mass
N_1 / N (the things seen once tell how often something new turns up). Jurafsky & Martin
(2nd ed., 4.5.1) and Church & Gale (1991) compare c* with counts measured on held-out text.

Left out: Simple Good-Turing's log-linear smoothing of N_c for large c (Gale & Sampson 1995),
where N_{c+1} is often 0 and the raw c* is useless; here the table stops at ``max_count``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from nlp_helpers._checks import check_int, check_nonempty

__all__ = ["counts_of_counts", "good_turing_table"]


def counts_of_counts(counts: Iterable[int]) -> dict[int, int]:
    """N_c: how many types have count c, for every c >= 1 that occurs (zeros are ignored).

    ``counts``: the count of each type (e.g. ``Counter(bigrams).values()``)."""
    counts = check_nonempty("counts", counts)
    for c in counts:
        if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or c < 0:
            raise ValueError(f"counts must be non-negative integers, got {c!r}")
    return dict(sorted(Counter(int(c) for c in counts if c > 0).items()))


def good_turing_table(n_c: Mapping[int, int], max_count: int = 9, n_unseen: int | None = None) -> pd.DataFrame:
    """The Good-Turing re-estimated counts c* for c = 0 (if ``n_unseen`` is given) .. ``max_count``.

    ``n_c``: counts of counts {c: N_c} (from :func:`counts_of_counts`); ``n_unseen``: N_0, the
    number of possible types never seen (e.g. |V|^2 minus the seen bigram types).
    Columns: ``c``, ``N_c``, ``c*`` = (c + 1) N_{c+1} / N_c, and ``P_GT`` = c* / N, the
    probability of *one* type seen c times (N = sum_c c N_c). The row c = 0 has c* = N_1 / N_0,
    so N_0 P_GT(0) = N_1 / N, the mass of all unseen types together.
    """
    if not isinstance(n_c, Mapping) or not n_c:
        raise TypeError(f"n_c must be a non-empty mapping {{count: number of types}}, got {type(n_c).__name__}")
    for c, n in n_c.items():
        if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or c < 1:
            raise ValueError(f"n_c keys must be counts >= 1, got {c!r}")
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
            raise ValueError(f"n_c values must be non-negative integers, got {n!r} for count {c}")
    max_count = check_int("max_count", max_count, minimum=1)
    if n_unseen is not None:
        n_unseen = check_int("n_unseen", n_unseen, minimum=1)
    return _table(n_c, max_count, n_unseen)


def _table(n_c: Mapping[int, int], max_count: int, n_unseen: int | None) -> pd.DataFrame:
    total = sum(c * n for c, n in n_c.items())  # N, the number of tokens
    rows = []
    for c in range(0 if n_unseen is not None else 1, max_count + 1):
        here = n_unseen if c == 0 else n_c.get(c, 0)
        star = (c + 1) * n_c.get(c + 1, 0) / here if here else np.nan  # undefined when N_c = 0
        rows.append({"c": c, "N_c": here, "c*": star, "P_GT": star / total})
    return pd.DataFrame(rows)
