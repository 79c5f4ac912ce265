"""BM25 and precision at k: against the rank_bm25 package, the formula written out independently, and hand-worked cases."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

from nlp_helpers.data.corpora import lee_documents
from nlp_helpers.tfidf.bag_of_words import tokenize_corpus
from nlp_helpers.tfidf.bm25 import BM25
from nlp_helpers.tfidf.evaluation import mean_precision_at_k, precision_at_k

try:  # a test dependency (pyproject's test extra); CI must have it, a reader's machine may not
    import rank_bm25
except ImportError:
    if os.environ.get("CI"):
        raise
    rank_bm25 = None
needs_rank_bm25 = pytest.mark.skipif(rank_bm25 is None, reason="rank-bm25 is not installed")

SPLIT = str.split  # whitespace tokenizer: the hand-worked cases control their tokens exactly


def bm25_by_hand(query: list[str], docs: list[list[str]], k1: float, b: float, idf: str) -> list[float]:
    """Robertson & Zaragoza's BM25, written out term by term with plain Python (no shared code)."""
    n = len(docs)
    avgdl = sum(map(len, docs)) / n
    scores = []
    for d in docs:
        total = 0.0
        for t in query:  # a repeated query term counts again
            df = sum(t in other for other in docs)
            if df == 0:
                continue
            ratio = (n - df + 0.5) / (df + 0.5)
            w = math.log(1 + ratio) if idf == "lucene" else math.log(ratio)
            f = d.count(t)
            total += w * f * (k1 + 1) / (f + k1 * (1 - b + b * len(d) / avgdl))
        scores.append(total)
    return scores


def test_bm25_hand_worked_two_documents():
    # N = 2, avgdl = 3; "a" is in both documents: idf = ln(1 + 0.5 / 2.5) = ln 1.2.
    # doc 0 (|d| = 2, f = 1): 1 * 2.2 / (1 + 1.2 (0.25 + 0.75 * 2/3)) = 2.2 / 1.9
    # doc 1 (|d| = 4, f = 2): 2 * 2.2 / (2 + 1.2 (0.25 + 0.75 * 4/3)) = 4.4 / 3.5
    model = BM25(k1=1.2, b=0.75, tokenizer=SPLIT).fit(["a b", "a a c d"])
    np.testing.assert_allclose(model.scores("a"), [math.log(1.2) * 2.2 / 1.9, math.log(1.2) * 4.4 / 3.5], rtol=1e-12)
    # "c" only in doc 1: idf = ln(1 + 1.5 / 1.5) = ln 2; f = 1, |d| = 4: 2.2 / (1 + 1.5)
    np.testing.assert_allclose(model.scores("c"), [0.0, math.log(2) * 2.2 / 2.5], rtol=1e-12)
    assert model.avgdl_ == 3.0 and model.document_frequency_.tolist() == [2, 1, 1, 1]


def test_bm25_k1_zero_counts_presence_and_b_zero_ignores_length():
    docs = ["x x x x y", "x z", "y z z"]
    presence = BM25(k1=0.0, tokenizer=SPLIT).fit(docs)
    idf_x = math.log(1 + 1.5 / 2.5)
    np.testing.assert_allclose(presence.scores("x"), [idf_x, idf_x, 0.0], rtol=1e-12)
    no_length = BM25(b=0.0, tokenizer=SPLIT).fit(["x pad pad pad pad pad", "x", "q"])
    s = no_length.scores("x")
    assert s[0] == pytest.approx(s[1], rel=1e-12) and s[2] == 0.0


@pytest.mark.parametrize("idf", ["lucene", "rsj"])
@pytest.mark.parametrize(("k1", "b"), [(1.2, 0.75), (2.0, 0.3), (0.5, 1.0)])
def test_bm25_equals_the_formula_written_out_on_the_lee_documents(idf, k1, b):
    docs = list(lee_documents())[:20]
    tokens = tokenize_corpus(docs)
    model = BM25(k1=k1, b=b, idf=idf).fit(docs)
    for query in ["Qantas strike", "floods in Germany and the flood damage", "the the race"]:
        want = bm25_by_hand(tokenize_corpus([query])[0], tokens, k1, b, idf)
        np.testing.assert_allclose(model.scores(query), want, rtol=1e-10, atol=1e-12)


@needs_rank_bm25
@pytest.mark.parametrize(("k1", "b"), [(1.5, 0.75), (1.2, 0.5)])
def test_bm25_rsj_equals_rank_bm25_okapi_when_no_idf_is_floored(k1, b):
    # rank_bm25's BM25Okapi uses the same ln((N - df + 0.5) / (df + 0.5)) but replaces a negative IDF
    # (a term in more than half the documents) by epsilon x the mean IDF; queries of rarer terms agree.
    docs = list(lee_documents())
    tokens = tokenize_corpus(docs)
    reference = rank_bm25.BM25Okapi(tokens, k1=k1, b=b)
    model = BM25(k1=k1, b=b, idf="rsj").fit(docs)
    for query in ["Qantas strike", "floods Germany", "Mugabe Zimbabwe land reform", "Hobart yacht yacht"]:
        q = tokenize_corpus([query])[0]
        assert all(model.idf_[model.vocabulary_.index(t)] > 0 for t in q if t in model.vocabulary_)
        np.testing.assert_allclose(model.scores(query), reference.get_scores(q), rtol=1e-10, atol=1e-12)


def test_bm25_search_ranks_drops_zero_scores_and_breaks_ties_by_index():
    model = BM25(tokenizer=SPLIT).fit(["cat dog", "dog", "bird", "dog"])
    ranking = model.search("dog", top_k=4)
    assert ranking["document"].tolist() == [1, 3, 0]  # the shorter documents first, ties by index, no "bird"
    assert model.search("cat dog", top_k=1)["document"].tolist() == [0]
    with pytest.raises(ValueError, match="shares no term"):
        model.search("zebra", top_k=1)


def test_bm25_bad_inputs_name_the_argument():
    with pytest.raises(ValueError, match="k1"):
        BM25(k1=-0.1)
    with pytest.raises(ValueError, match="b"):
        BM25(b=1.5)
    with pytest.raises(ValueError, match="idf"):
        BM25(idf="okapi")
    with pytest.raises(TypeError, match="tokenizer"):
        BM25(tokenizer="split")
    with pytest.raises(RuntimeError, match="fit"):
        BM25().scores("dog")
    model = BM25(tokenizer=SPLIT).fit(["a b", "c"])
    with pytest.raises(ValueError, match="query"):
        model.scores("")
    with pytest.raises(TypeError, match="query"):
        model.scores(3)
    with pytest.raises(ValueError, match="top_k"):
        model.search("a", top_k=3)
    with pytest.raises(ValueError, match="docs"):
        BM25().fit([])


# --------------------------------------------------------------------------- precision at k
def test_precision_at_k_hand_worked():
    ranking = [4, 2, 7, 1, 0]
    assert precision_at_k(ranking, {2, 1}, 1) == 0.0
    assert precision_at_k(ranking, {2, 1}, 2) == 0.5
    assert precision_at_k(ranking, {2, 1}, 4) == 0.5
    assert precision_at_k([3], {3}, 5) == pytest.approx(1 / 5)  # missing places count as not relevant
    assert precision_at_k(ranking, set(), 3) == 0.0
    assert mean_precision_at_k([[1, 2], [3, 4]], [{1}, {4, 9}], 2) == pytest.approx((1 / 2 + 1 / 2) / 2)
    assert mean_precision_at_k([[1, 2], [3, 4]], [{1, 2}, set()], 1) == pytest.approx(0.5)


def test_precision_at_k_bad_inputs_name_the_argument():
    with pytest.raises(ValueError, match="k"):
        precision_at_k([1, 2], {1}, 0)
    with pytest.raises(TypeError, match="k"):
        precision_at_k([1, 2], {1}, 1.5)
    with pytest.raises(ValueError, match="ranking"):
        precision_at_k([1, 1], {1}, 1)
    with pytest.raises(TypeError, match="ranking"):
        precision_at_k("12", {1}, 1)
    with pytest.raises(TypeError, match="relevant"):
        precision_at_k([1, 2], ["a"], 1)
    with pytest.raises(ValueError, match="relevant"):
        mean_precision_at_k([[1]], [{1}, {2}], 1)
    with pytest.raises(ValueError, match="rankings"):
        mean_precision_at_k([], [], 1)


# --------------------------------------------------------------------------- average precision
def test_average_precision_hand_worked_and_against_scikit_learn():
    from sklearn.metrics import average_precision_score

    from nlp_helpers.tfidf.evaluation import average_precision, mean_average_precision

    # relevant at ranks 1, 3, 6 of 6: (1/1 + 2/3 + 3/6) / 3
    assert average_precision([7, 2, 5, 0, 9, 4], {7, 5, 4}) == pytest.approx((1 + 2 / 3 + 1 / 2) / 3, abs=1e-15)
    rng = np.random.default_rng(0)
    for _ in range(50):  # full rankings without ties: scikit-learn's AP is the same quantity
        n = int(rng.integers(2, 30))
        ranking = rng.permutation(n).tolist()
        relevant = set(rng.choice(n, size=int(rng.integers(1, n + 1)), replace=False).tolist())
        y_true = [d in relevant for d in ranking]
        y_score = -np.arange(n)  # best first
        assert average_precision(ranking, relevant) == pytest.approx(
            average_precision_score(y_true, y_score), abs=1e-12
        )
    # a relevant document never retrieved contributes 0; MAP is the mean over queries
    assert average_precision([0, 1], {0, 5}) == pytest.approx(0.5)
    assert mean_average_precision([[0, 1], [1, 0]], [{0}, {0}]) == pytest.approx((1 + 0.5) / 2)


def test_average_precision_bad_inputs():
    from nlp_helpers.tfidf.evaluation import average_precision, mean_average_precision

    with pytest.raises(ValueError, match="relevant"):
        average_precision([0, 1], set())
    with pytest.raises(ValueError, match="ranking"):
        average_precision([0, 0], {0})
    with pytest.raises(TypeError, match="ranking"):
        average_precision("01", {0})
    with pytest.raises(ValueError, match="rankings"):
        mean_average_precision([[0]], [{0}, {1}])
    with pytest.raises(ValueError, match="at least one query"):
        mean_average_precision([], [])
