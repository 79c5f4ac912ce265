"""Modified Kneser-Ney: interpolated Kneser-Ney with three discounts per order (Chen & Goodman 1998).

Interpolated Kneser-Ney (:class:`nlp_helpers.ngram.models.NGramLM` with ``smoothing="kneser_ney"``)
subtracts one discount ``d`` from every count. Chen and Goodman found that the best discount depends
on the count: n-grams seen once need a smaller one than n-grams seen three times or more. Modified
Kneser-Ney uses, at each order, ``D(c) = D1`` for ``c = 1``, ``D2`` for ``c = 2`` and ``D3+`` for
``c >= 3`` (``D(0) = 0``), estimated from the counts of counts n_1..n_4 of that order:

    Y = n1 / (n1 + 2 n2),  D1 = 1 - 2 Y n2 / n1,  D2 = 2 - 3 Y n3 / n2,  D3+ = 3 - 4 Y n4 / n3.

``P(w | h) = max(c(h w) - D(c(h w)), 0) / c(h) + gamma(h) P(w | h')`` with
``gamma(h) = (D1 N1(h .) + D2 N2(h .) + D3+ N3+(h .)) / c(h)``, where N_k(h .) is the number of words
seen exactly k times after h (N3+: three times or more). As in interpolated Kneser-Ney, the highest
order uses counts, every lower order continuation counts N1+(. g), and the unigram level is
interpolated with the uniform 1/|V|; the counts of counts of an order are those of the counts that
order uses (the "adjusted counts" of KenLM, Heafield et al. 2013). With D1 = D2 = D3+ = d the model
is exactly ``NGramLM(n, "kneser_ney", discount=d)``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from nlp_helpers.ngram.models import NGramLM

__all__ = ["ModifiedKneserNey", "modified_kn_discounts"]


def modified_kn_discounts(counts: Sequence[int] | np.ndarray) -> tuple[float, float, float]:
    """(D1, D2, D3+) from the counts of one order (Chen & Goodman 1998, eq. 26).

    ``counts``: the (positive) counts of the distinct n-grams of one order; zeros are ignored.
    Raises ``ValueError`` when a count class 1..4 is empty or a discount falls outside (0, c].
    """
    values = np.asarray(counts)
    if values.ndim != 1 or values.size == 0 or not np.issubdtype(values.dtype, np.number):
        raise ValueError(f"counts must be a non-empty 1-d sequence of integer counts, got {counts!r:.60}")
    if np.any(values < 0) or np.any(values != np.round(values)):
        raise ValueError("counts must be non-negative integers")
    return _discounts(values.astype(np.int64))


def _discounts(values: np.ndarray) -> tuple[float, float, float]:
    n1, n2, n3, n4 = (int(np.sum(values == r)) for r in (1, 2, 3, 4))
    if min(n1, n2, n3, n4) == 0:
        raise ValueError(
            f"counts must contain n-grams seen 1, 2, 3 and 4 times to estimate the discounts "
            f"(n1..n4 = {n1}, {n2}, {n3}, {n4}); pass discounts= explicitly for a corpus this small"
        )
    y = n1 / (n1 + 2 * n2)
    d = (1 - 2 * y * n2 / n1, 2 - 3 * y * n3 / n2, 3 - 4 * y * n4 / n3)
    if not all(0 < di <= c for di, c in zip(d, (1, 2, 3))):
        raise ValueError(f"the estimated discounts {d} fall outside (0, c]; pass discounts= explicitly")
    return d


class ModifiedKneserNey(NGramLM):
    """Interpolated modified Kneser-Ney of order ``n`` (three discounts per order).

    ``discounts``: ``None`` (estimate them from the counts of counts at :meth:`fit`) or one
    ``(D1, D2, D3+)`` triple per order, unigram first. Every other method (``prob``,
    ``distribution``, ``perplexity``, ``generate``) is that of :class:`NGramLM`.
    """

    def __init__(self, n: int, *, discounts: Sequence[Sequence[float]] | None = None, min_count: int = 1) -> None:
        super().__init__(n, "kneser_ney", min_count=min_count)
        self.discounts = None if discounts is None else self._check_discounts(discounts)
        self._fixed = discounts is not None

    def _check_discounts(self, discounts) -> list[tuple[float, float, float]]:
        try:
            table = [tuple(float(x) for x in row) for row in discounts]
        except (TypeError, ValueError):
            raise ValueError(f"discounts must be {self.n} triples (D1, D2, D3+), got {discounts!r:.60}") from None
        ok = len(table) == self.n and all(
            len(row) == 3 and all(np.isfinite(row)) and all(0 <= di <= c for di, c in zip(row, (1, 2, 3)))
            for row in table
        )
        if not ok:
            raise ValueError(
                f"discounts must be {self.n} triples (D1, D2, D3+), unigram first, with 0 <= Dc <= c; got {discounts!r:.80}"
            )
        return table

    def __repr__(self) -> str:
        return f"ModifiedKneserNey(n={self.n})"

    def with_params(self, *args, **kwargs):
        raise TypeError("ModifiedKneserNey does not support with_params: fit a new model of the order you need")

    def fit(self, sentences, vocabulary=None) -> ModifiedKneserNey:
        """Count the n-grams (as :meth:`NGramLM.fit`) and, unless given, estimate the discounts."""
        super().fit(sentences, vocabulary)
        if not self._fixed:
            self.discounts = [_discounts(self._level_values(j)) for j in range(self.n)]
        self._gamma = []
        for j in range(self.n):  # gamma numerator per context: D1 N1(h.) + D2 N2(h.) + D3 N3+(h.)
            o, values = self._orders[j], self._level_values(j)
            d1, d2, d3 = self.discounts[j]
            per_gram = np.select([values == 1, values == 2, values >= 3], [d1, d2, d3], 0.0)
            n_ctx = len(self._level_totals(j))
            self._gamma.append(np.bincount(o.keys // self._base, weights=per_gram, minlength=n_ctx))
        return self

    def _level_values(self, j: int) -> np.ndarray:
        o = self._orders[j]
        return o.count if j == self.n - 1 else o.cont

    def _level_totals(self, j: int) -> np.ndarray:
        o = self._orders[j]
        return o.ctx_count if j == self.n - 1 else o.ctx_cont

    def _probs(self, words: np.ndarray, ctx: list[np.ndarray], top: int) -> np.ndarray:
        p = np.full(len(words), 1.0 / self.vocab_size)
        for j in range(top):  # from the unigram up, as in NGramLM, with a discount per count class
            o = self._orders[j]
            values, totals = self._level_values(j), self._level_totals(j)
            g = o.lookup(ctx[j], words, self._base)
            c_w = np.where(g >= 0, values[np.maximum(g, 0)], 0)
            h = np.maximum(ctx[j], 0)
            seen = (ctx[j] >= 0) & (totals[h] > 0)
            c_h = np.maximum(totals[h], 1)
            d1, d2, d3 = self.discounts[j]
            d = np.select([c_w == 1, c_w == 2, c_w >= 3], [d1, d2, d3], 0.0)
            p = np.where(seen, np.maximum(c_w - d, 0) / c_h + self._gamma[j][h] / c_h * p, p)
        return p
