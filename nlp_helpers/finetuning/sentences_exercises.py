"""Checkers for the exercises of the page "Sentence embeddings and search" (``book/finetuning/sentences.ipynb``).

* :func:`check_masked_max`: max pooling of token vectors under an attention mask (padding never wins).
* :func:`check_c_tf_idf`: BERTopic's class-based TF-IDF of a matrix of word counts per class
  (compared with :func:`nlp_helpers.finetuning.topics.c_tf_idf_from_counts`).
* :func:`check_retrieve_then_rerank`: the two-stage search of a bi-encoder and a cross-encoder: the
  bi-encoder's scores pick each query's top ``k`` candidates, and the cross-encoder, called for those
  candidates only, puts them in their final order (Nogueira and Cho, 2019).

The checker computes the right answer with a reference of its own and the answers of typical mistakes,
so that a wrong answer gets a hint naming the mistake it matches; it counts the calls of the expensive
cross-encoder, which the exercise limits to the candidates.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.finetuning.topics import c_tf_idf_from_counts
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["check_masked_max", "check_c_tf_idf", "check_retrieve_then_rerank"]


def _rerank(bi_scores: np.ndarray, cross: np.ndarray, k: int) -> np.ndarray:
    """The reference: top k by bi score (ties: lower index first), then stable by cross score, high first."""
    out = []
    for q, row in enumerate(bi_scores):
        candidates = np.argsort(-row, kind="stable")[:k]
        out.append(candidates[np.argsort(-cross[q, candidates], kind="stable")])
    return np.array(out, dtype=int)


class _CrossEncoder:
    """A stand-in for an expensive cross-encoder: ``cross_score(q, d)`` looks the score up and records the call."""

    def __init__(self, table: np.ndarray) -> None:
        self.table = table
        self.calls: list[tuple[int, int]] = []

    def __call__(self, q: int, d: int) -> float:
        self.calls.append((int(q), int(d)))
        return float(self.table[int(q), int(d)])


def _as_int_matrix(ex: Checker, got: object, shape: tuple[int, int], what: str) -> np.ndarray:
    arr = np.asarray(got)
    ex.expect(
        isinstance(got, np.ndarray) and arr.shape == shape and arr.dtype.kind in "iu",
        f"{what} should return a numpy array of ints of shape {shape} (one row of k document indices per "
        f"query), got {type(got).__name__} with shape {arr.shape} and dtype {arr.dtype}.",
    )
    return arr


def check_retrieve_then_rerank(retrieve_then_rerank: Callable) -> CheckResult:
    """``retrieve_then_rerank(bi_scores, cross_score, k)``: the bi-encoder's top k, re-ordered by the cross-encoder."""
    with Checker("Retrieve, then re-rank") as ex:
        # By hand: the bi-encoder's top 3 are documents 0, 2, 3; the cross-encoder prefers 2, then 3, then 0.
        bi = np.array([[0.9, 0.1, 0.8, 0.7]])
        cross = _CrossEncoder(np.array([[0.2, 0.99, 0.9, 0.5]]))
        got = _as_int_matrix(ex, ex.call(retrieve_then_rerank, bi, cross, 3), (1, 3), "retrieve_then_rerank")
        mistakes = {
            (1, 2, 3): "document 1 is not among the bi-encoder's top 3: the cross-encoder re-ranks the "
            "candidates only, it does not search the whole collection.",
            (0, 2, 3): "that is the bi-encoder's order: sort the candidates by the cross-encoder's score.",
            (0, 3, 2): "the candidates are sorted by the cross-encoder's score from low to high: the best comes first.",
            (3, 2, 0): "those are the bi-encoder's candidates, but not in the cross-encoder's order (highest first).",
        }
        if tuple(got[0].tolist()) in mistakes:
            ex.fail(mistakes[tuple(got[0].tolist())])
        ex.expect_equal(
            got.tolist(),
            [[2, 3, 0]],
            what="retrieve_then_rerank on the 4-document example with k = 3",
            hint="Take the bi-encoder's 3 best documents, then order them by the cross-encoder's score.",
            reveal=False,
        )

        # Ties: equal bi scores keep the lower document index; equal cross scores keep the bi-encoder's order.
        bi = np.array([[0.5, 0.9, 0.5, 0.5, 0.1]])
        cross = _CrossEncoder(np.full((1, 5), 0.3))
        got = _as_int_matrix(ex, ex.call(retrieve_then_rerank, bi, cross, 3), (1, 3), "retrieve_then_rerank")
        if got.tolist() == [[1, 3, 2]] or got.tolist() == [[3, 2, 1]]:
            ex.fail(
                "with tied scores the lower document index must come first: `np.argsort(x)[::-1]` reverses "
                "ties; sort by `-x` with a stable sort instead."
            )
        ex.expect_equal(
            got.tolist(),
            [[1, 0, 2]],
            what="retrieve_then_rerank with tied bi-encoder scores (0.5 for documents 0, 2, 3) and equal cross scores",
            hint="Ties in the bi scores go to the lower index; equal cross scores keep the bi-encoder's order.",
        )

        # Many queries: the right documents, and the cross-encoder called for the candidates only, once each.
        rng = seeded_rng(11)
        n_q, n_docs, k = 4, 30, 5
        bi = np.round(rng.random((n_q, n_docs)), 2)  # rounded: some ties
        cross = _CrossEncoder(np.round(rng.random((n_q, n_docs)), 2))
        want = ex.reference(_rerank, bi, cross.table, k)
        cross.calls.clear()
        got = _as_int_matrix(ex, ex.call(retrieve_then_rerank, bi, cross, k), (n_q, k), "retrieve_then_rerank")
        candidates = {(q, int(d)) for q in range(n_q) for d in np.argsort(-bi[q], kind="stable")[:k]}
        extra = sorted(set(cross.calls) - candidates)
        ex.expect(
            not extra,
            f"cross_score was called for {len(set(cross.calls))} (query, document) pairs, among them {extra[0] if extra else ''},"
            f" which is not a candidate: the cross-encoder is the expensive step, call it for the bi-encoder's "
            f"top k of each query only ({n_q * k} calls here).",
        )
        ex.expect(
            len(cross.calls) == len(set(cross.calls)),
            f"cross_score was called {len(cross.calls)} times for {len(set(cross.calls))} different pairs: "
            "score each candidate once and keep the result.",
        )
        ex.expect_equal(
            got.tolist(),
            want.tolist(),
            what=f"retrieve_then_rerank on {n_q} queries over {n_docs} documents with k = {k}",
            hint="Row q: the k documents of highest bi_scores[q], ordered by cross_score(q, d), highest first.",
        )
        got = _as_int_matrix(ex, ex.call(retrieve_then_rerank, bi, cross, n_docs), (n_q, n_docs), "k = N")
        ex.expect_equal(
            got.tolist(),
            _rerank(bi, cross.table, n_docs).tolist(),
            what="retrieve_then_rerank with k equal to the number of documents",
            hint="With k = N every document is a candidate.",
        )

        # Bad input.
        for bad_k in (0, n_docs + 1):
            ex.expect_raises(
                ValueError,
                retrieve_then_rerank,
                bi,
                _CrossEncoder(cross.table),
                bad_k,
                what=f"retrieve_then_rerank with k = {bad_k} (and {n_docs} documents)",
                hint="There are no 0 best documents, nor more than N: raise ValueError naming k.",
                mentions="k",
            )
        ex.expect_raises(
            ValueError,
            retrieve_then_rerank,
            bi[0],
            _CrossEncoder(cross.table),
            3,
            what="retrieve_then_rerank with a 1-D bi_scores",
            hint="One row of scores per query is required: raise ValueError naming bi_scores.",
            mentions="bi_scores",
        )
    return ex.result


def check_masked_max(masked_max: Callable) -> CheckResult:
    """``masked_max(hidden, attention_mask)``: element-wise max of the (B, T, d) vectors where the mask is 1."""
    with Checker("Max pooling with an attention mask") as ex:
        hidden = np.array([[[1.0, -2.0], [3.0, -4.0], [9.0, 9.0]], [[-5.0, -1.0], [-3.0, -7.0], [0.0, 0.0]]])
        mask = np.array([[1, 1, 0], [1, 1, 0]])
        got = ex.call(masked_max, hidden, mask)
        by_hand = [[3.0, -2.0], [-3.0, -1.0]]
        if np.shape(got) != (2, 2):
            ex.fail(f"masked_max should return a (B, d) = (2, 2) array, got shape {np.shape(got)}.")
        if np.allclose(got, [[9.0, 9.0], [0.0, 0.0]]) or np.allclose(got, [[9.0, 9.0], [-3.0, -1.0]]):
            ex.fail("a padding position won the max: padding must never take part, however large its values.")
        if np.allclose(got, [[3.0, 0.0], [0.0, 0.0]]):
            ex.fail(
                "multiplying by the mask turns padding into 0, which beats negative real values: "
                "give padding a value that can never win a max (not 0) before taking it."
            )
        if np.allclose(got, [[2.0, -3.0], [-4.0, -4.0]]):
            ex.fail("that is the mean of the real tokens; max pooling takes the largest value per dimension.")
        ex.expect_close(got, by_hand, what="masked_max on the 2-sentence example", hint="Max over the real tokens.")
        rng = seeded_rng(3)
        hidden = rng.normal(size=(3, 6, 4)) - 5.0
        lengths = np.array([6, 3, 1])
        mask = (np.arange(6)[None, :] < lengths[:, None]).astype(int)
        hidden[mask == 0] = np.inf
        want = np.stack([hidden[b, : lengths[b]].max(axis=0) for b in range(3)])
        ex.expect_close(
            ex.call(masked_max, hidden, mask),
            want,
            what="masked_max on a (3, 6, 4) batch with inf at every padding position",
            hint="Each sentence has its own real tokens; padding values (here inf) must never win.",
        )
        ex.expect_raises(
            ValueError,
            masked_max,
            np.zeros((1, 3, 2)),
            np.zeros((1, 3), dtype=int),
            what="masked_max with a sentence whose mask is all 0",
            hint="A sentence without real tokens has no max: raise ValueError naming attention_mask "
            "instead of returning -inf.",
            mentions="attention_mask",
        )
    return ex.result


def check_c_tf_idf(c_tf_idf_scores: Callable) -> CheckResult:
    """``c_tf_idf_scores(counts)``: c-TF-IDF of a (C, V) matrix of word counts per class (natural log)."""
    with Checker("c-TF-IDF") as ex:
        counts = np.array([[4.0, 0.0, 1.0], [1.0, 3.0, 1.0]])
        # By hand: 5 words per class on average; word totals 5, 3, 2; tf normalised per class.
        idf = [math.log(1 + 5 / 5), math.log(1 + 5 / 3), math.log(1 + 5 / 2)]
        by_hand = [[0.8 * idf[0], 0.0, 0.2 * idf[2]], [0.2 * idf[0], 0.6 * idf[1], 0.2 * idf[2]]]
        got = ex.call(c_tf_idf_scores, counts)
        ex.expect_close(
            got,
            by_hand,
            what="c_tf_idf_scores([[4, 0, 1], [1, 3, 1]])",
            hint="tf_{w,c} / (words in class c) * ln(1 + (average words per class) / (count of w in all classes)). "
            "Use the natural logarithm (np.log).",
        )
        ex.expect_close(by_hand, c_tf_idf_from_counts(counts), what="the book's c_tf_idf_from_counts (self-check)")
        counts = np.array([[10.0, 0.0, 2.0, 1.0], [1.0, 1.0, 1.0, 1.0], [0.0, 5.0, 5.0, 0.0]])
        ex.expect_close(
            ex.call(c_tf_idf_scores, counts),
            c_tf_idf_from_counts(counts),
            what="c_tf_idf_scores on classes of different sizes (13, 4 and 10 words)",
            hint="Normalise each class by its own number of words; the average in the IDF is over classes.",
        )
    return ex.result
