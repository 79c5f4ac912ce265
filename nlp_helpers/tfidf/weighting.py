"""TF-IDF: count matrices, term frequency, inverse document frequency and the TfIdf vectorizer.

The chapter's other modules: ``bag_of_words`` (tokens, vocabulary, count vectors), ``similarity`` (cosine,
correlation with human judgements) and ``cooccurrence`` (term-term counts, PPMI, LSA).

Documents become columns of a term-document matrix (weighted by TF-IDF), words
become rows of a term-term co-occurrence matrix (weighted by PPMI). Follows the
lecture notes (bag of words with a top-(n-1) vocabulary plus UNK; the TF-IDF table:
relative TF x log10 IDF; term-document and term-term matrices, PMI/PPMI with alpha = 0.75
context smoothing), which follow Jurafsky & Martin, *Speech and Language Processing*
(3rd ed.), chapter 6, and Salton & Buckley (1988).

Matrices are ``scipy.sparse`` internally (documents x terms, as in scikit-learn),
so 10k documents fit in memory; the pandas functions (:func:`tf_idf`,
:func:`term_document_matrix`) are for small corpora you want to *look at*.
``TfIdf()`` (raw TF, smooth IDF, L2 norm) equals scikit-learn's ``TfidfVectorizer()``
given the same tokens, ``TfIdf(idf="ln")`` equals ``TfidfVectorizer(smooth_idf=False)`` and
``TfIdf(tf="sublinear")`` equals ``TfidfVectorizer(sublinear_tf=True)`` (tested to 1e-12).

Tokens are case-folded (``lowercase=True``) *after* tokenization, so "The" and
"the" are one term. The default tokenizer is ``nlp_helpers.words.words.word_tokenize``
with ``keep_punct=False`` (punctuation is not a term).

Left out: n-gram features, stop-word lists, stemming, min/max document
frequency cut-offs, and distance-weighted co-occurrence windows (GloVe). BM25 is in
``bm25``, precision at k in ``evaluation``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from nlp_helpers._checks import check_array, check_choice, check_int, check_nonempty, check_text
from nlp_helpers.tfidf.bag_of_words import (
    Tokenizer,
    document_names,
    document_tokens,
    resolve_tokenizer,
    vocabulary_index,
)
from nlp_helpers.tfidf.similarity import cosine_similarity, similarity_correlation, sparse_row_norms

__all__ = [
    "IDF_WEIGHTS",
    "LEE_TFIDF_PEARSON",
    "LEE_TFIDF_SPEARMAN",
    "NORMS",
    "TF_WEIGHTS",
    "TfIdf",
    "count_matrix",
    "inverse_document_frequency",
    "lee_tfidf_correlation",
    "term_document_matrix",
    "term_frequency",
    "tf_idf",
]


# name -> formula, for documentation and error messages (count = c, tokens in document = |d|).
TF_WEIGHTS = {
    "raw": "c",  # scikit-learn's default
    "relative": "c / |d|",  # the lecture notes
    "log": "log10(1 + c)",  # Jurafsky & Martin
    "sublinear": "1 + ln(c) if c > 0",  # scikit-learn's sublinear_tf=True
}
IDF_WEIGHTS = {
    "log10": "log10(N / df)",  # the lecture notes, Jurafsky & Martin
    "ln": "ln(N / df) + 1",  # scikit-learn smooth_idf=False
    "smooth": "ln((1 + N) / (1 + df)) + 1",  # scikit-learn's default
    None: "1 (no IDF)",
}
NORMS = (None, "l1", "l2")

# Pearson / Spearman correlation of TF-IDF cosine with the mean human judgements of the
# 50 Lee documents (1225 off-diagonal pairs), computed by lee_tfidf_correlation() with its
# defaults: TfIdf() (raw TF, smooth IDF, L2) fitted on the 300 Lee background documents,
# word_tokenize(keep_punct=False) + lower-casing. The fine-tuning chapter compares with these.
LEE_TFIDF_PEARSON = 0.48296
LEE_TFIDF_SPEARMAN = 0.23697


# --------------------------------------------------------------------------- counts and weights
def count_matrix(
    docs: Iterable[str],
    *,
    tokenizer: Tokenizer | None = None,
    lowercase: bool = True,
    vocabulary: Sequence[str] | None = None,
) -> tuple[sp.csr_array, list[str], np.ndarray]:
    """Term counts of every document: ``(counts (D, V) int64 CSR, terms, lengths (D,))``.

    Without ``vocabulary`` the terms are every token seen, sorted alphabetically (as
    scikit-learn does); with it, tokens outside it are not counted but still count in
    ``lengths`` (the number of tokens of each document, the denominator of relative TF).
    """
    index = None if vocabulary is None else vocabulary_index(vocabulary)
    return _count(check_nonempty("docs", docs), resolve_tokenizer(tokenizer), lowercase, index)


def _count(
    docs: list[str], tokenize: Tokenizer, lowercase: bool, fixed: dict[str, int] | None
) -> tuple[sp.csr_array, list[str], np.ndarray]:
    """:func:`count_matrix` on checked arguments; ``fixed`` maps a fixed vocabulary to columns."""
    if fixed is None:
        index: dict[str, int] = defaultdict()
        index.default_factory = index.__len__  # a new term gets the next free column
        lookup = index.__getitem__
    else:
        index = fixed
    indices: list[int] = []
    indptr, lengths = [0], []
    for i, doc in enumerate(docs):
        tokens = document_tokens(doc, i, tokenize, lowercase)
        lengths.append(len(tokens))
        if fixed is None:
            indices.extend(map(lookup, tokens))
        else:
            indices.extend(j for j in map(index.get, tokens) if j is not None)
        indptr.append(len(indices))
    cols = np.asarray(indices, dtype=np.int64)
    counts = sp.csr_array(
        (np.ones(len(cols), dtype=np.int64), cols, np.asarray(indptr, dtype=np.int64)), shape=(len(docs), len(index))
    )
    counts.sum_duplicates()  # repeated (document, term) entries -> one count
    if fixed is None:  # renumber columns alphabetically
        terms = sorted(index)
        new_col = np.empty(len(terms), dtype=np.int64)
        new_col[[index[t] for t in terms]] = np.arange(len(terms))
        counts.indices = new_col[counts.indices]
        counts.has_sorted_indices = False
        counts.sort_indices()
    else:
        terms = list(index)  # dicts keep insertion order: the vocabulary's order
    return counts, terms, np.asarray(lengths, dtype=np.int64)


def term_frequency(counts: sp.csr_array, lengths: np.ndarray | None = None, tf: str = "raw") -> sp.csr_array:
    """Weight a CSR count matrix (D, V) by a TF scheme of :data:`TF_WEIGHTS` (``lengths`` for "relative")."""
    check_choice("tf", tf, TF_WEIGHTS)
    dense = None if sp.issparse(counts) else check_array("counts", counts, ndim=2, finite=False)
    out = sp.csr_array(counts if dense is None else dense, dtype=np.float64, copy=True)
    if out.ndim != 2:
        raise ValueError(f"counts must be a (D, V) matrix of term counts, got shape {out.shape}")
    if not np.all(np.isfinite(out.data)) or np.any(out.data < 0):
        raise ValueError("counts must contain finite, non-negative term counts")
    out.eliminate_zeros()  # an explicitly stored 0 is no occurrence (and 1 + ln 0 would be -inf)
    if tf == "relative":
        if lengths is None:
            raise ValueError('tf="relative" needs lengths (the number of tokens of each document)')
        lengths = check_array("lengths", lengths)
        if lengths.shape != (out.shape[0],) or np.any(lengths <= 0):
            raise ValueError(f"lengths must be {out.shape[0]} positive token counts, got shape {lengths.shape}")
        out.data /= np.repeat(lengths, np.diff(out.indptr))
    elif tf == "log":
        out.data = np.log10(1.0 + out.data)
    elif tf == "sublinear":
        out.data = 1.0 + np.log(out.data)
    return out


def inverse_document_frequency(
    document_frequency: np.ndarray, n_documents: int, idf: str | None = "log10"
) -> np.ndarray:
    """IDF of each term, shape (V,), by a scheme of :data:`IDF_WEIGHTS`; df = 0 is an error unless smoothed."""
    check_choice("idf", idf, IDF_WEIGHTS)
    n = check_int("n_documents", n_documents, minimum=1)
    df = check_array("document_frequency", document_frequency, ndim=1)
    if np.any(df < 0) or np.any(df > n):
        raise ValueError(f"document_frequency must lie in [0, n_documents={n}]")
    if idf in ("log10", "ln") and np.any(df == 0):
        raise ValueError(
            f"a term occurs in no document (df = 0), so idf={idf!r} = log(N/0) is infinite; "
            "use idf='smooth' or drop the term from the vocabulary"
        )
    if idf is None:
        return np.ones_like(df)
    if idf == "log10":
        return np.log10(n / df)
    if idf == "ln":
        return np.log(n / df) + 1.0
    return np.log((1.0 + n) / (1.0 + df)) + 1.0


def _normalize_rows(x: sp.csr_array, norm: str | None) -> sp.csr_array:
    if norm is None:
        return x
    rows = np.repeat(np.arange(x.shape[0]), np.diff(x.indptr))
    sizes = np.bincount(rows, weights=np.abs(x.data) if norm == "l1" else x.data**2, minlength=x.shape[0])
    if norm == "l2":
        sizes = np.sqrt(sizes)
    sizes[sizes == 0] = 1.0  # an all-zero document stays zero (as in scikit-learn)
    x.data /= np.repeat(sizes, np.diff(x.indptr))
    return x


class TfIdf:
    """TF-IDF vectorizer on ``scipy.sparse``: ``fit`` learns vocabulary and IDF, ``transform`` weights documents.

    Defaults (``tf="raw", idf="smooth", norm="l2"``) are scikit-learn's ``TfidfVectorizer()``;
    ``tf="relative", idf="log10", norm=None`` is the lecture notes' table. After ``fit(docs)``:
    ``vocabulary_`` (V terms), ``document_frequency_`` (V,), ``idf_`` (V,), ``n_documents_``
    and ``document_vectors_`` (D, V) CSR, which :meth:`search` ranks.
    """

    def __init__(
        self,
        *,
        tf: str = "raw",
        idf: str | None = "smooth",
        norm: str | None = "l2",
        tokenizer: Tokenizer | None = None,
        lowercase: bool = True,
        vocabulary: Sequence[str] | None = None,
    ) -> None:
        self.tf = check_choice("tf", tf, TF_WEIGHTS)
        self.idf = check_choice("idf", idf, IDF_WEIGHTS)
        self.norm = check_choice("norm", norm, NORMS)
        self.tokenizer = resolve_tokenizer(tokenizer)
        self.lowercase = bool(lowercase)
        self.vocabulary = vocabulary

    def fit(self, docs: Iterable[str]) -> TfIdf:
        """Learn the vocabulary and IDF from ``docs`` (see :meth:`fit_transform`); returns ``self``."""
        self.fit_transform(docs)
        return self

    def fit_transform(self, docs: Iterable[str]) -> sp.csr_array:
        """Learn the vocabulary and IDF from ``docs`` and return their vectors, shape (D, V)."""
        counts, terms, lengths = count_matrix(
            docs, tokenizer=self.tokenizer, lowercase=self.lowercase, vocabulary=self.vocabulary
        )
        self.vocabulary_ = terms
        self._index = {t: j for j, t in enumerate(terms)}
        self.n_documents_ = counts.shape[0]
        self.document_frequency_ = np.bincount(counts.indices, minlength=len(terms))
        self.idf_ = inverse_document_frequency(self.document_frequency_, self.n_documents_, self.idf)
        self.document_vectors_ = self._weigh(counts, lengths)
        self._document_norms = sparse_row_norms(self.document_vectors_)
        return self.document_vectors_

    def transform(self, docs: Iterable[str]) -> sp.csr_array:
        """Vectors of new documents with the fitted vocabulary and IDF (unknown terms ignored), shape (D, V)."""
        self._check_fitted()
        counts, _, lengths = _count(check_nonempty("docs", docs), self.tokenizer, self.lowercase, self._index)
        return self._weigh(counts, lengths)

    def _weigh(self, counts: sp.csr_array, lengths: np.ndarray) -> sp.csr_array:
        x = term_frequency(counts, lengths, self.tf)
        x.data *= self.idf_[x.indices]  # scale column j by idf_j
        x.eliminate_zeros()  # log10(N/N) = 0: a term in every document carries no weight
        return _normalize_rows(x, self.norm)

    def term_weights(self, text: str) -> pd.DataFrame:
        """The terms of ``text`` with their count, TF, IDF and final weight, heaviest first.

        Terms outside the vocabulary are listed in ``frame.attrs["unknown_terms"]``.
        """
        self._check_fitted()
        counts, _, lengths = _count([check_text("text", text)], self.tokenizer, self.lowercase, self._index)
        tf = term_frequency(counts, lengths, self.tf)
        weights = self._weigh(counts, lengths).toarray()[0]
        cols = counts.indices
        frame = pd.DataFrame(
            {
                "term": [self.vocabulary_[j] for j in cols],
                "count": counts.data,
                "tf": tf.data,
                "idf": self.idf_[cols],
                "weight": weights[cols],
            }
        )
        frame = frame.sort_values(["weight", "term"], ascending=[False, True], ignore_index=True)
        tokens = document_tokens(text, 0, self.tokenizer, self.lowercase)
        frame.attrs["unknown_terms"] = sorted({t for t in tokens if t not in self._index})
        return frame

    def search(self, query: str, top_k: int = 5) -> pd.DataFrame:
        """Rank the fitted documents by cosine similarity with ``query``: columns ``document, score``.

        At most ``top_k`` rows, best first (ties by document index); documents with score 0
        (no weighted term in common with the query) are left out. Raises ``ValueError`` if
        no term of the query is in the vocabulary (no ranking exists).
        """
        self._check_fitted()
        top_k = check_int("top_k", top_k, minimum=1, maximum=self.n_documents_)
        q = self.transform([check_text("query", query, allow_empty=False)])
        if q.nnz == 0:
            raise ValueError(f"query {query[:40]!r} has no term with weight in the vocabulary; try other words")
        dots = (self.document_vectors_ @ q.T).toarray().ravel()
        norms = self._document_norms * sparse_row_norms(q)[0]
        scores = np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)  # cosine; an empty document scores 0
        order = np.lexsort((np.arange(len(scores)), -scores))[:top_k]  # best first, ties by document order
        order = order[scores[order] > 0]  # a document sharing no weighted term with the query is no match
        return pd.DataFrame({"document": order, "score": scores[order]})

    def _check_fitted(self) -> None:
        if not hasattr(self, "idf_"):
            raise RuntimeError("this TfIdf is not fitted yet: call fit(docs) first")


def _frame(matrix: sp.csr_array, terms: list[str], doc_names: Sequence[str] | None) -> pd.DataFrame:
    names = document_names(matrix.shape[0]) if doc_names is None else list(doc_names)
    if len(names) != matrix.shape[0]:
        raise ValueError(f"doc_names has {len(names)} names but there are {matrix.shape[0]} documents")
    return pd.DataFrame(matrix.toarray().T, index=pd.Index(terms, name="term"), columns=names)


def term_document_matrix(
    docs: Sequence[str],
    *,
    tokenizer: Tokenizer | None = None,
    lowercase: bool = True,
    vocabulary: Sequence[str] | None = None,
    doc_names: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Raw counts as a DataFrame, terms x documents (dense: for small corpora; use :func:`count_matrix` at scale)."""
    counts, terms, _ = count_matrix(docs, tokenizer=tokenizer, lowercase=lowercase, vocabulary=vocabulary)
    return _frame(counts, terms, doc_names)


def tf_idf(
    docs: Sequence[str],
    *,
    tf: str = "relative",
    idf: str | None = "log10",
    norm: str | None = None,
    tokenizer: Tokenizer | None = None,
    lowercase: bool = True,
    vocabulary: Sequence[str] | None = None,
    doc_names: Sequence[str] | None = None,
) -> pd.DataFrame:
    """TF-IDF weights as a DataFrame, terms x documents; the defaults are the lecture notes' table.

    ``tf`` is one of :data:`TF_WEIGHTS`, ``idf`` one of :data:`IDF_WEIGHTS`, ``norm`` one of
    :data:`NORMS` (applied to each document's vector). IDF is computed from ``docs``.
    """
    model = TfIdf(tf=tf, idf=idf, norm=norm, tokenizer=tokenizer, lowercase=lowercase, vocabulary=vocabulary)
    return _frame(model.fit_transform(docs), model.vocabulary_, doc_names)


def lee_tfidf_correlation(background: Sequence[str] | None = None, **settings: Any) -> dict[str, float]:
    """Correlation of TF-IDF cosine with human judgements on the 50 Lee documents.

    The model is ``TfIdf(**settings)`` fitted on ``background`` (default: the 300 Lee
    background documents, so IDF comes from a larger corpus of the same genre).
    """
    from nlp_helpers.data.corpora import lee_background, lee_documents, lee_similarities

    model = TfIdf(**settings).fit(lee_background() if background is None else background)
    vectors = model.transform(lee_documents())
    return similarity_correlation(cosine_similarity(vectors, vectors), lee_similarities())
