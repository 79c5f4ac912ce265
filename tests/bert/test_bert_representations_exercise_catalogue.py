"""Catalogue of the exercises of "What BERT learns": requirements, correct answers in several styles (accepted)
and typical wrong answers (rejected with a hint naming the mistake).

* ``offset_attention(maps, offset)``: ``maps`` as ``batch_attention`` returns it, ``[(tokens, (L, H, n, n)), ...]``;
  row i is the query, so the weight is ``weights[..., i, i + offset]``; only query tokens with
  ``0 <= i + offset < n`` (no wrapping); the mean within each sentence, then over sentences (not one pooled
  mean); a sentence with no partner at that offset is skipped (not counted as 0); an ``(L, H)`` numpy array;
  ValueError for no sentences, for an offset no sentence reaches, for weights that are not 4-D.
* ``all_but_the_top(X, k)``: centre X (subtract each dimension's mean over the rows); the principal directions
  of the centred X (not of the raw X); remove the k of LARGEST variance (not the smallest); k = 0 returns the
  centred X; a new ``(N, d)`` array (X unchanged); ValueError for k < 0, k >= d, X not 2-D.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.bert.representations_exercises import check_all_but_the_top, check_offset_attention
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


# --------------------------------------------------------------------------- offset_attention
def _validate_maps(maps, offset, *, check_shape=True):
    if len(maps) == 0:
        raise ValueError("maps is empty")
    if check_shape and any(np.ndim(w) != 4 for _, w in maps):
        raise ValueError("weights must be 4-D")


def offset_loop(maps, offset):
    _validate_maps(maps, offset)
    means = []
    for _, w in maps:
        n = w.shape[-1]
        vals = [w[..., i, i + offset] for i in range(n) if 0 <= i + offset < n]
        if vals:
            means.append(np.mean(vals, axis=0))
    if not means:
        raise ValueError("no sentence reaches that offset")
    return np.mean(means, axis=0)


def offset_diagonal(maps, offset):
    if not maps or any(np.asarray(w).ndim != 4 for _, w in maps):
        raise ValueError("maps: a non-empty list of (tokens, (L, H, n, n) weights)")
    per = [np.diagonal(w, offset=offset, axis1=-2, axis2=-1).mean(-1) for _, w in maps if abs(offset) < w.shape[-1]]
    if not per:
        raise ValueError("offset too large")
    return np.stack(per).mean(0)


def _offset_variant(*, pooled=False, transposed=False, wrap=False, zero=False, check_shape=True, check_reach=True):
    def offset_attention(maps, offset):
        _validate_maps(maps, offset, check_shape=check_shape)
        sums, counts, means = 0, 0, []
        for _, w in maps:
            w = np.asarray(w)
            if w.ndim != 4:
                w = w[None, None]
            n = w.shape[-1]
            pairs = [(i, (i + offset) % n if wrap else i + offset) for i in range(n)]
            pairs = [(i, j) for i, j in pairs if 0 <= j < n]
            if not pairs:
                if zero:
                    means.append(np.zeros(w.shape[:2]))
                continue
            vals = np.stack([w[..., j, i] if transposed else w[..., i, j] for i, j in pairs], -1)
            sums, counts = sums + vals.sum(-1), counts + len(pairs)
            means.append(vals.mean(-1))
        if not means or (zero and counts == 0):
            if check_reach:
                raise ValueError("no sentence reaches that offset")
            return np.zeros((1, 1))
        return sums / counts if pooled else np.mean(means, axis=0)

    return offset_attention


# --------------------------------------------------------------------------- all_but_the_top
def _validate_x(x, k, *, check_low=True, check_high=True, check_ndim=True):
    x = np.asarray(x, dtype=float)
    if check_ndim and x.ndim != 2:
        raise ValueError("X must be 2-D")
    if check_low and k < 0:
        raise ValueError("k < 0")
    if check_high and k >= x.shape[-1]:
        raise ValueError("k >= d")
    return x


def abtt_svd(X, k):
    x = _validate_x(X, k)
    xc = x - x.mean(axis=0)
    _, _, vt = np.linalg.svd(xc, full_matrices=False)
    top = vt[:k]
    return xc - (xc @ top.T) @ top


def abtt_eigh(X, k):
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or not 0 <= k < X.shape[1]:
        raise ValueError("X must be (N, d) and 0 <= k < d")
    centred = X - X.mean(0, keepdims=True)
    values, vectors = np.linalg.eigh(centred.T @ centred)  # ascending
    top = vectors[:, np.argsort(values)[::-1][:k]]  # (d, k)
    out = centred.copy()
    for j in range(k):
        u = top[:, j]
        out = out - np.outer(out @ u, u)
    return out


def _abtt_variant(*, centre=True, smallest=False, raw_pca=False, **checks):
    def all_but_the_top(X, k):
        x = _validate_x(X, k, **checks)
        if x.ndim != 2:
            x = x[None]
        xc = x - x.mean(0) if centre else x
        _, _, vt = np.linalg.svd(x if raw_pca else xc, full_matrices=False)
        v = vt[::-1][: max(k, 0)] if smallest else vt[: max(k, 0)]
        return xc - xc @ v.T @ v

    return all_but_the_top


def abtt_centres_in_place(X, k):  # "return a new array": centres the caller's X
    if X.ndim != 2 or not 0 <= k < X.shape[1]:
        raise ValueError("X must be (N, d) and 0 <= k < d")
    X -= X.mean(axis=0)
    _, _, vt = np.linalg.svd(X, full_matrices=False)
    return X - (X @ vt[:k].T) @ vt[:k]


CATALOGUE = {
    check_offset_attention: Catalogue(
        correct=[offset_loop, offset_diagonal, _offset_variant()],
        wrong=[
            Wrong(_offset_variant(transposed=True), "wrong way round"),
            Wrong(_offset_variant(pooled=True), "average within each sentence first"),
            Wrong(_offset_variant(wrap=True), "wraps around"),
            Wrong(_offset_variant(zero=True), "counts the 4-token sentence"),
            Wrong(_offset_variant(check_reach=False), "9 places on"),
            Wrong(_offset_variant(check_shape=False), "4-D"),
        ],
    ),
    check_all_but_the_top: Catalogue(
        correct=[abtt_svd, abtt_eigh, _abtt_variant()],
        wrong=[
            Wrong(_abtt_variant(centre=False), "did not centre"),
            Wrong(_abtt_variant(smallest=True), "SMALLEST"),
            Wrong(_abtt_variant(raw_pca=True), "uncentred"),
            Wrong(_abtt_variant(check_low=False), "at least 0"),
            Wrong(_abtt_variant(check_high=False), "below the dimension"),
            Wrong(_abtt_variant(check_ndim=False), "2-D"),
            Wrong(abtt_centres_in_place, ("modified its input", "`X`")),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
