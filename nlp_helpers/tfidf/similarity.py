"""Cosine similarity between sparse or dense vectors, and its correlation with human similarity judgements."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.stats import pearsonr, spearmanr

__all__ = ["cosine_similarity", "similarity_correlation"]


# --------------------------------------------------------------------------- similarity
def as_matrix(name: str, x: Any) -> tuple[Any, bool]:
    """Check ``x`` (a vector or matrix, dense or sparse) and return it as 2-D rows, and whether it was one vector."""
    if sp.issparse(x):
        if x.ndim != 2:
            raise ValueError(f"{name} must be a vector or a 2-D matrix, got shape {x.shape}")
        return sp.csr_array(x, dtype=np.float64), False
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a vector or matrix of numbers, got {type(x).__name__}") from None
    if arr.ndim not in (1, 2) or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty vector or 2-D matrix, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite numbers (found NaN or inf)")
    return (arr[None, :], True) if arr.ndim == 1 else (arr, False)


def _rescaled_rows(m: Any) -> Any:
    """``m`` with each row divided by its largest |entry| if squaring would over- or underflow (cosine is unchanged)."""
    values = np.abs(m.data if sp.issparse(m) else m)
    top = values.max() if values.size else 0.0
    small = values[values > 0].min() if (values > 0).any() else 1.0
    if top < 1e150 and small > 1e-150:
        return m  # the usual case: untouched, so results stay bit for bit the same
    if sp.issparse(m):
        rows = np.repeat(np.arange(m.shape[0]), np.diff(m.indptr))
        row_max = np.zeros(m.shape[0])
        np.maximum.at(row_max, rows, np.abs(m.data))
        out = m.copy()
        out.data = m.data / row_max[rows]
        return out
    row_max = np.abs(m).max(axis=1, keepdims=True)
    return m / np.where(row_max > 0, row_max, 1.0)


def _row_norms(name: str, m: Any) -> np.ndarray:
    sq = m.multiply(m).sum(axis=1) if sp.issparse(m) else np.einsum("ij,ij->i", m, m)
    norms = np.sqrt(np.asarray(sq, dtype=np.float64).ravel())
    if np.any(norms == 0):
        raise ValueError(f"{name} has a zero vector (row {int(np.argmax(norms == 0))}); its cosine is undefined")
    return norms


def cosine_similarity(a: Any, b: Any) -> float | np.ndarray:
    """Cosine ``a.b / (|a| |b|)``: a float for two vectors, an (n, m) array for (n, d) and (m, d) rows.

    Dense or ``scipy.sparse`` input. A zero vector has no direction, so it is an error.
    """
    (ma, va), (mb, vb) = as_matrix("a", a), as_matrix("b", b)
    if ma.shape[1] != mb.shape[1]:
        raise ValueError(f"a and b must have the same number of dimensions, got {ma.shape[1]} and {mb.shape[1]}")
    ma, mb = _rescaled_rows(ma), _rescaled_rows(mb)  # e.g. entries of 1e200 would overflow |a|^2
    dots = ma @ mb.T
    dots = dots.toarray() if sp.issparse(dots) else np.asarray(dots)
    sims = dots / np.outer(_row_norms("a", ma), _row_norms("b", mb))
    sims = np.clip(sims, -1.0, 1.0)  # rounding can overshoot 1 by an ulp
    return float(sims[0, 0]) if (va and vb) else (sims[0] if va else (sims[:, 0] if vb else sims))


def similarity_correlation(predicted: Any, human: Any) -> dict[str, float]:
    """Pearson and Spearman correlation of two (n, n) similarity matrices over the pairs i < j.

    The diagonal (a document with itself) and the mirrored lower triangle are left out,
    so each pair counts once. Returns ``{"pearson", "spearman", "n_pairs"}``.
    """
    p = np.asarray(predicted.toarray() if sp.issparse(predicted) else predicted, dtype=np.float64)
    h = np.asarray(human, dtype=np.float64)
    if p.ndim != 2 or p.shape[0] != p.shape[1] or p.shape[0] < 3:
        raise ValueError(f"predicted must be a square (n, n) matrix with n >= 3, got shape {p.shape}")
    if h.shape != p.shape:
        raise ValueError(f"human must have the same shape as predicted {p.shape}, got {h.shape}")
    if not (np.all(np.isfinite(p)) and np.all(np.isfinite(h))):
        raise ValueError("predicted and human must contain only finite numbers")
    iu = np.triu_indices(p.shape[0], k=1)
    x, y = p[iu], h[iu]
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        raise ValueError("a correlation needs varying scores; predicted or human is constant off the diagonal")
    return {
        "pearson": float(pearsonr(x, y).statistic),
        "spearman": float(spearmanr(x, y).statistic),
        "n_pairs": int(len(x)),
    }


def sparse_row_norms(matrix: sp.csr_array) -> np.ndarray:
    """Euclidean length of every row of a sparse matrix, shape (D,)."""
    return np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1), dtype=np.float64).ravel())


def row_cosines(matrix: sp.csr_array, q: sp.csr_array) -> np.ndarray:
    """Cosine of every row of ``matrix`` (D, V) with the single row ``q`` (1, V); zero rows score 0."""
    dots = (matrix @ q.T).toarray().ravel()
    norms = sparse_row_norms(matrix) * sparse_row_norms(q)[0]
    return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)
