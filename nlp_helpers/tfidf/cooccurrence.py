"""Words as vectors: term-term co-occurrence counts, PMI and PPMI, nearest neighbours and truncated SVD (LSA)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.sparse.linalg import svds

from nlp_helpers._checks import check_float, check_int, check_nonempty, check_text
from nlp_helpers.tfidf.bag_of_words import build_vocabulary, vocabulary_index
from nlp_helpers.tfidf.similarity import as_matrix, row_cosines

__all__ = ["cooccurrence_matrix", "most_similar", "pmi", "truncated_svd"]


# --------------------------------------------------------------------------- words: co-occurrence, PMI, LSA
def cooccurrence_matrix(
    tokens: Sequence[str] | Sequence[Sequence[str]],
    window: int = 2,
    *,
    vocabulary: Sequence[str] | None = None,
    min_count: int = 1,
) -> tuple[sp.csr_array, list[str]]:
    """Symmetric term-term counts, ``(C (V, V) CSR, terms)``: C[w, c] = times c occurs within ``window`` tokens of w.

    ``tokens`` is one token sequence or a sequence of them (documents/sentences; windows do
    not cross their boundaries). Without ``vocabulary``, terms seen at least ``min_count``
    times, most frequent first. Words outside the vocabulary keep their positions (distance
    is measured in the text) but are not counted. A word next to itself counts in C[w, w].
    """
    window = check_int("window", window, minimum=1)
    seqs = check_nonempty("tokens", tokens)
    if all(isinstance(t, str) for t in seqs):
        seqs = [seqs]
    elif any(isinstance(t, str) for t in seqs):
        raise TypeError("tokens must be a sequence of str or a sequence of token sequences, not a mix")
    seqs = [list(s) for s in seqs]
    if vocabulary is None:
        terms = build_vocabulary(seqs, min_count=min_count)
        if not terms:
            raise ValueError(f"tokens contain no term that occurs at least min_count={min_count} times")
        index = {t: j for j, t in enumerate(terms)}
    else:
        index = vocabulary_index(vocabulary)
        terms = list(index)
    gap = [-1] * window  # padding so that no window spans two sequences
    ids = np.array([j for s in seqs for j in ([index.get(t, -1) for t in s] + gap)], dtype=np.int64)
    rows, cols = [], []
    for d in range(1, window + 1):
        left, right = ids[:-d], ids[d:]
        keep = (left >= 0) & (right >= 0)
        rows += [left[keep], right[keep]]  # both directions: c is in w's window and w in c's
        cols += [right[keep], left[keep]]
    r, c = np.concatenate(rows), np.concatenate(cols)
    counts = sp.coo_array((np.ones(len(r), dtype=np.int64), (r, c)), shape=(len(terms), len(terms))).tocsr()
    counts.sum_duplicates()
    return counts, terms


def pmi(cooc: Any, *, alpha: float = 1.0, positive: bool = True, base: float = 2.0) -> Any:
    """(Positive) pointwise mutual information of a word x context count matrix, shape (W, C).

    PMI(w, c) = log P(w, c) / (P(w) P_alpha(c)), with P_alpha(c) = f(c)^alpha / sum_c' f(c')^alpha
    (alpha = 0.75 lifts rare contexts, lowering their inflated PMI). Zero counts give
    -inf, or 0 with ``positive=True`` (PPMI). Returns the input's type: DataFrame, ndarray,
    or CSR (sparse input needs ``positive=True``: unseen pairs would be -inf, not storable).
    """
    alpha = check_float("alpha", alpha, minimum=0.0, min_inclusive=False)
    base = check_float("base", base, minimum=0.0, min_inclusive=False)
    if base == 1.0:
        raise ValueError("base must not be 1 (log base 1 is undefined)")
    frame = cooc if isinstance(cooc, pd.DataFrame) else None
    if sp.issparse(cooc):
        if not positive:
            raise ValueError(
                "positive=False needs a dense cooc: unseen pairs have PMI -inf, which a sparse matrix cannot store"
            )
        f = sp.csr_array(cooc, dtype=np.float64)
        values = f.data
    else:
        f = np.asarray(cooc.to_numpy() if frame is not None else cooc, dtype=np.float64)
        values = f
    if f.ndim != 2:
        raise ValueError(f"cooc must be a 2-D (words x contexts) matrix, got shape {f.shape}")
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise ValueError("cooc must contain finite, non-negative counts")
    with np.errstate(over="ignore"):
        total = float(values.sum())
    if total <= 0:
        raise ValueError("cooc must contain at least one positive count")
    if not math.isfinite(total):  # counts near 1e308 overflow their sum; PMI does not change when all counts are scaled
        f = f / float(values.max())
        values = f.data if sp.issparse(f) else f
        total = float(values.sum())
    p_w = np.asarray(f.sum(axis=1)).ravel() / total
    f_c = np.asarray(f.sum(axis=0)).ravel()
    p_c = f_c**alpha / np.sum(f_c**alpha)
    if sp.issparse(f):
        out = f.copy()
        rows = np.repeat(np.arange(f.shape[0]), np.diff(f.indptr))
        with np.errstate(divide="ignore"):
            out.data = np.log(f.data / total / (p_w[rows] * p_c[f.indices])) / math.log(base)
        out.data = np.maximum(out.data, 0.0)
        out.eliminate_zeros()
        return out
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (f / total) / np.outer(p_w, p_c)
        result = np.where(f > 0, np.log(np.where(f > 0, ratio, 1.0)) / math.log(base), -np.inf)
    if positive:
        result = np.maximum(result, 0.0)
    return pd.DataFrame(result, index=frame.index, columns=frame.columns) if frame is not None else result


def most_similar(word: str, vectors: Any, vocabulary: Sequence[str], top_k: int = 10) -> pd.DataFrame:
    """The ``top_k`` words whose rows of ``vectors`` (V, d) have the highest cosine with ``word``'s row."""
    m, _ = as_matrix("vectors", vectors)  # (V, d), dense or CSR
    vocabulary = list(vocabulary)
    if m.shape[0] != len(vocabulary):
        raise ValueError(f"vectors has {m.shape[0]} rows but vocabulary has {len(vocabulary)} words")
    index = {t: j for j, t in enumerate(vocabulary)}
    if check_text("word", word) not in index:
        raise ValueError(f"word {word!r} is not in the vocabulary")
    top_k = check_int("top_k", top_k, minimum=1, maximum=len(vocabulary) - 1)
    m = sp.csr_array(m)
    j = index[word]
    if m[[j]].nnz == 0:
        raise ValueError(f"word {word!r} has a zero vector; it has no neighbours")
    scores = row_cosines(m, m[[j]])
    scores[j] = -np.inf  # not its own neighbour
    order = np.lexsort((np.arange(len(scores)), -scores))[:top_k]
    return pd.DataFrame({"word": [vocabulary[i] for i in order], "cosine": scores[order]})


def truncated_svd(matrix: Any, n_components: int = 2) -> np.ndarray:
    """LSA: the rows of ``matrix`` (n, m) in the top ``n_components`` singular directions, ``U_k S_k`` (n, k).

    Sparse input uses ARPACK (``scipy.sparse.linalg.svds``) with a fixed start vector, so
    results are deterministic; each column's sign is fixed so its largest entry is positive.
    """
    m, is_vector = as_matrix("matrix", matrix)
    if is_vector:
        raise ValueError(f"matrix must be 2-D, got shape {np.shape(matrix)}")
    k = check_int("n_components", n_components, minimum=1, maximum=min(m.shape))
    if sp.issparse(m) and m.nnz == 0:
        return np.zeros((m.shape[0], k))  # an all-zero matrix has only zero singular values (as the dense path gives)
    if sp.issparse(m) and k < min(m.shape) - 1:
        # ARPACK's start vector, not an experiment's draw: fixed (no $NLP_SEED_OFFSET), since the top-k
        # singular vectors do not depend on it (up to sign, fixed below) and reruns should give the same bits.
        v0 = np.random.default_rng(0).uniform(-1, 1, min(m.shape))
        u, s, _ = svds(m, k=k, v0=v0)
        order = np.argsort(-s)
        u, s = u[:, order], s[order]
    else:
        dense = m.toarray() if sp.issparse(m) else m
        u, s, _ = np.linalg.svd(dense, full_matrices=False)
        u, s = u[:, :k], s[:k]
    coords = u * s
    signs = np.sign(coords[np.argmax(np.abs(coords), axis=0), np.arange(k)])
    return coords * np.where(signs == 0, 1.0, signs)
