"""Okapi BM25: ranking documents by a saturating, length-normalised TF times an IDF.

Follows Robertson & Zaragoza (2009), *The Probabilistic Relevance Framework: BM25 and
Beyond*, and Jurafsky & Martin, *Speech and Language Processing* (3rd ed.), chapter 14.
The score of document d for a query q (a bag of terms; a repeated query term counts again) is

    BM25(q, d) = sum_{t in q} idf(t) * f(t, d) (k1 + 1) / (f(t, d) + k1 (1 - b + b |d| / avgdl))

with ``f(t, d)`` the count of t in d, ``|d|`` the document's length in tokens and ``avgdl`` the
mean length. Two IDFs: ``"lucene"`` = ln(1 + (N - df + 0.5) / (df + 0.5)) (Lucene's and
Elasticsearch's, always positive) and ``"rsj"`` = ln((N - df + 0.5) / (df + 0.5)) (the
Robertson-Sparck Jones weight, negative for terms in more than half the documents; the
``rank_bm25`` package's ``BM25Okapi`` uses it and floors negative values, which we do not).

Left out: query-term saturation (k3), fielded BM25F, relevance feedback.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd
import scipy.sparse as sp

from nlp_helpers._checks import check_choice, check_float, check_int, check_text
from nlp_helpers.tfidf.bag_of_words import Tokenizer, document_tokens, resolve_tokenizer
from nlp_helpers.tfidf.weighting import count_matrix

__all__ = ["BM25", "BM25_IDF"]

BM25_IDF = {
    "lucene": "ln(1 + (N - df + 0.5) / (df + 0.5))",
    "rsj": "ln((N - df + 0.5) / (df + 0.5))",
}


class BM25:
    """Okapi BM25 ranker: ``fit(docs)`` counts the collection, ``scores(query)`` gives one score per document.

    ``k1`` (>= 0) sets how fast repeated terms saturate (0: only presence counts), ``b`` in
    [0, 1] how strongly long documents are penalised (0: not at all). After ``fit``:
    ``vocabulary_`` (V terms), ``document_frequency_`` (V,), ``idf_`` (V,), ``lengths_`` (D,),
    ``avgdl_`` and ``counts_`` (D, V) CSR.
    """

    def __init__(
        self,
        *,
        k1: float = 1.2,
        b: float = 0.75,
        idf: str = "lucene",
        tokenizer: Tokenizer | None = None,
        lowercase: bool = True,
    ) -> None:
        self.k1 = check_float("k1", k1, minimum=0.0)
        self.b = check_float("b", b, minimum=0.0, maximum=1.0)
        self.idf = check_choice("idf", idf, BM25_IDF)
        self.tokenizer = resolve_tokenizer(tokenizer)
        self.lowercase = bool(lowercase)

    def fit(self, docs: Iterable[str]) -> BM25:
        """Count the terms of ``docs`` (strings) and compute the IDF; returns ``self``."""
        counts, terms, lengths = count_matrix(docs, tokenizer=self.tokenizer, lowercase=self.lowercase)
        self.counts_ = counts  # (D, V)
        self.vocabulary_ = terms
        self._index = {t: j for j, t in enumerate(terms)}
        self.lengths_ = lengths.astype(np.float64)  # (D,)
        self.avgdl_ = float(self.lengths_.mean())
        n = counts.shape[0]
        self.document_frequency_ = np.bincount(counts.indices, minlength=len(terms))
        df = self.document_frequency_
        rsj = np.log((n - df + 0.5) / (df + 0.5))
        self.idf_ = np.log1p((n - df + 0.5) / (df + 0.5)) if self.idf == "lucene" else rsj
        return self

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every fitted document for ``query``, shape (D,); query terms outside the vocabulary add 0."""
        self._check_fitted()
        tokens = document_tokens(check_text("query", query, allow_empty=False), 0, self.tokenizer, self.lowercase)
        return self._scores([self._index[t] for t in tokens if t in self._index])

    def _scores(self, columns: Sequence[int]) -> np.ndarray:
        out = np.zeros(self.counts_.shape[0])
        if not columns:
            return out
        uniq, times = np.unique(np.asarray(columns), return_counts=True)  # a repeated query term counts again
        f = sp.csc_array(self.counts_[:, uniq]).toarray().astype(np.float64)  # (D, Q) counts of the query terms
        norm = self.k1 * (1.0 - self.b + self.b * self.lengths_ / self.avgdl_)  # (D,)
        # saturating, length-normalised TF; 0 where the term is absent (with k1 = 0 that would be 0 / 0)
        tf = np.divide(f * (self.k1 + 1.0), f + norm[:, None], out=np.zeros_like(f), where=f > 0)
        return tf @ (self.idf_[uniq] * times)

    def search(self, query: str, top_k: int = 5) -> pd.DataFrame:
        """The ``top_k`` best documents for ``query``: columns ``document, score`` (ties by document index).

        Documents with score 0 (no query term) are left out; a query with no known term is an error.
        """
        self._check_fitted()
        top_k = check_int("top_k", top_k, minimum=1, maximum=self.counts_.shape[0])
        scores = self.scores(query)
        if not np.any(scores != 0):
            raise ValueError(f"query {query[:40]!r} shares no term with the collection; try other words")
        order = np.lexsort((np.arange(len(scores)), -scores))[:top_k]
        order = order[scores[order] != 0]
        return pd.DataFrame({"document": order, "score": scores[order]})

    def _check_fitted(self) -> None:
        if not hasattr(self, "idf_"):
            raise RuntimeError("this BM25 is not fitted yet: call fit(docs) first")
