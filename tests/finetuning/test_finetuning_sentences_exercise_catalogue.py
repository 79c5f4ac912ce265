"""Catalogue of the exercises of "Sentence embeddings and search": requirements, correct answers in several
styles (accepted) and typical wrong answers (rejected with a hint naming the mistake).

* ``masked_max``: (B, d); padding never wins, even when larger than every real value (or inf); negative
  real values survive (no multiplication by the mask); a max, not a mean; ValueError for an empty mask, naming
  attention_mask; hidden unchanged.
* ``c_tf_idf_scores``: row-normalised tf times ln(1 + mean words per class / tf_w) (the mean, not the total),
  natural log.
* ``retrieve_then_rerank(bi_scores, cross_score, k)``: ``bi_scores`` a (Q, N) array, ``cross_score(q, d)`` a
  float; row q of the (Q, k) int array is the k documents of highest ``bi_scores[q]`` (ties: the lower
  document index first), ordered by ``cross_score(q, d)`` from high to low (equal cross scores keep the
  bi-encoder's order); only candidates are re-ranked (never a document outside the top k); ``cross_score``
  is called for the candidates only, once each; ``k = N`` works; ValueError naming ``k`` for k < 1 or k > N
  and naming ``bi_scores`` when it is not 2-D; ``bi_scores`` unchanged.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.finetuning.sentences_exercises import check_c_tf_idf, check_masked_max, check_retrieve_then_rerank
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test
from tests.finetuning.test_finetuning_exercises import (
    ctfidf_global_normalisation,
    ctfidf_log10,
    ctfidf_ok,
    ctfidf_raw_tf,
    max_ignores_mask,
    max_multiplies_by_mask,
    max_no_empty_check,
    max_ok,
)


def _validate(bi_scores, k, *, low=True, high=True, ndim=True):
    bi_scores = np.asarray(bi_scores, dtype=float)
    if ndim and bi_scores.ndim != 2:
        raise ValueError(f"bi_scores must be 2-D, got shape {bi_scores.shape}")
    if (low and k < 1) or (high and k > bi_scores.shape[-1]):
        raise ValueError(f"k must be in 1..{bi_scores.shape[-1]}, got {k}")
    return bi_scores


def rerank_loops(bi_scores, cross_score, k):
    bi_scores = _validate(bi_scores, k)
    out = []
    for q, row in enumerate(bi_scores):
        candidates = sorted(range(len(row)), key=lambda d: (-row[d], d))[:k]
        scored = [(cross_score(q, d), i, d) for i, d in enumerate(candidates)]
        scored.sort(key=lambda t: (-t[0], t[1]))
        out.append([d for _, _, d in scored])
    return np.array(out, dtype=int)


def rerank_numpy(bi_scores, cross_score, k):
    bi_scores = _validate(bi_scores, k)
    top = np.argsort(-bi_scores, axis=1, kind="stable")[:, :k]  # (Q, k)
    cross = np.array([[cross_score(q, d) for d in row] for q, row in enumerate(top)])
    order = np.argsort(-cross, axis=1, kind="stable")
    return np.take_along_axis(top, order, axis=1)


def _variant(*, everything=False, no_rerank=False, ascending=False, reversed_ties=False, twice=False, **checks):
    def retrieve_then_rerank(bi_scores, cross_score, k):
        bi_scores = _validate(bi_scores, k, **checks)
        n_docs = bi_scores.shape[-1]
        out = []
        for q, row in enumerate(np.atleast_2d(bi_scores)):
            order = np.argsort(row, kind="stable")[::-1] if reversed_ties else np.argsort(-row, kind="stable")
            pool = list(range(n_docs)) if everything else list(order[:k])
            if no_rerank:
                out.append(pool[:k])
                continue
            cross = {d: cross_score(q, d) for d in pool}
            if twice:
                cross = {d: cross_score(q, d) for d in pool}
            ranked = sorted(pool, key=lambda d: cross[d], reverse=not ascending)
            out.append(ranked[:k])
        return np.array(out, dtype=int)

    return retrieve_then_rerank


rerank_everything = _variant(everything=True)
rerank_not_at_all = _variant(no_rerank=True)
rerank_ascending = _variant(ascending=True)
rerank_reversed_ties = _variant(reversed_ties=True)
rerank_scores_twice = _variant(twice=True)
rerank_no_low_k_check = _variant(low=False)
rerank_no_high_k_check = _variant(high=False)
rerank_no_ndim_check = _variant(ndim=False)


def rerank_everything_scored(bi_scores, cross_score, k):
    """The right documents, but the cross-encoder is called for every document first."""
    bi_scores = _validate(bi_scores, k)
    cross = np.array([[cross_score(q, d) for d in range(bi_scores.shape[1])] for q in range(len(bi_scores))])
    top = np.argsort(-bi_scores, axis=1, kind="stable")[:, :k]
    return np.take_along_axis(top, np.argsort(-np.take_along_axis(cross, top, 1), axis=1, kind="stable"), 1)


def rerank_list_of_lists(bi_scores, cross_score, k):
    return rerank_numpy(bi_scores, cross_score, k).tolist()


def ctfidf_loops(counts):
    counts = np.asarray(counts, dtype=float)
    C, V = counts.shape
    avg = counts.sum() / C
    out = np.zeros((C, V))
    for w in range(V):
        weight = np.log(1 + avg / counts[:, w].sum())
        for c in range(C):
            out[c, w] = counts[c, w] / counts[c].sum() * weight
    return out


def max_mean_instead(hidden, mask):
    m = np.asarray(mask, dtype=bool)[..., None]
    return np.where(m, hidden, 0.0).sum(1) / m.sum(1)


def max_loops(hidden, mask):
    hidden, mask = np.asarray(hidden, dtype=float), np.asarray(mask)
    out = np.empty((hidden.shape[0], hidden.shape[2]))
    for b in range(hidden.shape[0]):
        rows = [hidden[b, t] for t in range(hidden.shape[1]) if mask[b, t] == 1]
        if not rows:
            raise ValueError(f"attention_mask: sentence {b} has no real token")
        out[b] = np.max(rows, axis=0)
    return out


def max_error_without_the_argument(hidden, mask):  # raises, but does not say which argument is wrong
    try:
        return max_loops(hidden, mask)
    except ValueError:
        raise ValueError("no real token") from None


def ctfidf_total_words(counts):  # "n-bar, the AVERAGE number of words per cluster": the total instead
    counts = np.asarray(counts, dtype=float)
    size = counts.sum(1, keepdims=True)
    return counts / size * np.log(1 + size.sum() / counts.sum(0))


def max_fills_padding_in_place(
    hidden, attention_mask
):  # "leave the arguments unchanged": -inf into the caller's hidden
    m = np.asarray(attention_mask, dtype=bool)
    if not m.any(axis=1).all():
        raise ValueError("attention_mask: a sentence has no real token")
    hidden[~m] = -np.inf
    return hidden.max(axis=1)


CATALOGUE = {
    check_masked_max: Catalogue(
        correct=[max_ok, max_loops],
        wrong=[
            Wrong(max_ignores_mask, "padding position won"),
            Wrong(max_multiplies_by_mask, "never win"),
            Wrong(max_mean_instead, "mean of the real tokens"),
            Wrong(max_no_empty_check, "ValueError"),
            Wrong(max_error_without_the_argument, ("does not name", "attention_mask")),
            Wrong(max_fills_padding_in_place, ("modified its input", "`hidden`")),
        ],
    ),
    check_c_tf_idf: Catalogue(
        correct=[ctfidf_ok, ctfidf_loops],
        wrong=[
            Wrong(ctfidf_log10, "natural logarithm"),
            Wrong(ctfidf_raw_tf, "words in class c"),
            Wrong(ctfidf_global_normalisation, "words in class c"),
            Wrong(ctfidf_total_words, "average words per class"),
        ],
    ),
    check_retrieve_then_rerank: Catalogue(
        correct=[rerank_loops, rerank_numpy],
        wrong=[
            Wrong(rerank_everything, "not among the bi-encoder's top 3"),
            Wrong(rerank_not_at_all, "bi-encoder's order"),
            Wrong(rerank_ascending, "from low to high"),
            Wrong(rerank_reversed_ties, "reverses ties"),
            Wrong(rerank_everything_scored, ("expensive", "not a candidate")),
            Wrong(rerank_scores_twice, "once"),
            Wrong(rerank_no_low_k_check, ("k = 0", "naming k")),
            Wrong(rerank_no_high_k_check, ("k = 31", "naming k")),
            Wrong(rerank_no_ndim_check, ("1-D", "bi_scores")),
            Wrong(rerank_list_of_lists, "numpy array of ints"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
