"""c-TF-IDF and the miniature BERTopic pipeline (nlp_helpers.finetuning.topics).

References: a hand-worked c-TF-IDF example (seed 001's formula), an independent
computation from scikit-learn's ``CountVectorizer`` counts, and scikit-learn's PCA and
k-means run directly on the same embeddings.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.decomposition import PCA
from sklearn.feature_extraction.text import CountVectorizer

from nlp_helpers.finetuning.topics import (
    c_tf_idf,
    c_tf_idf_from_counts,
    class_term_counts,
    cluster_documents,
    top_terms,
)
from nlp_helpers.seeds import rng as seeded_rng

CLASSES = [["the cat sat", "the cat ran"], ["the dog ran", "a dog barked", "the dog"]]


def test_c_tf_idf_by_hand():
    # Class 0 words: the, cat, sat, the, cat, ran (6); class 1: the, dog, ran, a, dog, barked, the, dog (8).
    scores, terms = c_tf_idf(CLASSES)
    assert terms == ["a", "barked", "cat", "dog", "ran", "sat", "the"]
    avg = (6 + 8) / 2
    total = {"a": 1, "barked": 1, "cat": 2, "dog": 3, "ran": 2, "sat": 1, "the": 4}
    counts = [{"cat": 2, "sat": 1, "ran": 1, "the": 2}, {"the": 2, "dog": 3, "ran": 1, "a": 1, "barked": 1}]
    for c, size in enumerate([6, 8]):
        for j, w in enumerate(terms):
            want = counts[c].get(w, 0) / size * math.log(1 + avg / total[w])
            assert scores[c, j] == pytest.approx(want, rel=1e-12), (c, w)
    # By hand: class 0 cat 2/6 ln(1 + 7/2) = 0.501 > sat 1/6 ln 8 = 0.347 > the 2/6 ln(1 + 7/4) = 0.337;
    # class 1 dog 3/8 ln(1 + 7/3) = 0.451 > a = barked = 1/8 ln 8 = 0.260 (tie: first in the vocabulary).
    assert top_terms(scores, terms, 2) == [
        [("cat", scores[0, 2]), ("sat", scores[0, 5])],
        [("dog", scores[1, 3]), ("a", scores[1, 0])],
    ]
    assert scores[0, 2] == pytest.approx(2 / 6 * math.log(4.5)) and scores[1, 0] == pytest.approx(math.log(8) / 8)


def test_counts_equal_sklearn_countvectorizer_and_formula_matches_independent_code():
    from nlp_helpers.data.corpora import lee_background

    docs = list(lee_background()[:60])
    groups = [docs[i::3] for i in range(3)]
    tokenize = lambda text: text.lower().split()  # noqa: E731 - the same tokens for both sides
    counts, terms = class_term_counts(groups, tokenizer=tokenize)
    cv = CountVectorizer(tokenizer=tokenize, lowercase=False, token_pattern=None)
    per_doc = cv.fit_transform(docs).toarray()
    ref_terms = list(cv.get_feature_names_out())
    assert terms == ref_terms
    ref_counts = np.stack([per_doc[i::3].sum(axis=0) for i in range(3)])
    np.testing.assert_array_equal(counts, ref_counts)
    # BERTopic's ClassTfidfTransformer with the average not rounded: L1-normalised tf times log(1 + avg / df).
    tf = ref_counts / ref_counts.sum(axis=1, keepdims=True)
    idf = np.log(1 + ref_counts.sum(axis=1).mean() / ref_counts.sum(axis=0))
    np.testing.assert_allclose(c_tf_idf(groups, tokenizer=tokenize)[0], tf * idf, rtol=1e-12)


def test_stop_words_are_dropped_before_scoring():
    scores, terms = c_tf_idf(CLASSES, stop_words={"the", "a"})
    assert "the" not in terms and "a" not in terms
    counts, _ = class_term_counts(CLASSES, stop_words={"the", "a"})
    np.testing.assert_allclose(scores, c_tf_idf_from_counts(counts))
    assert counts.sum() == 14 - 5  # four "the" and one "a" removed


def test_a_word_spread_over_every_class_scores_lower_than_a_concentrated_one():
    counts = np.array([[5.0, 5.0], [5.0, 0.0], [5.0, 0.0]])
    s = c_tf_idf_from_counts(counts)
    assert s[0, 1] > s[0, 0]  # same tf in class 0, but word 1 occurs only there


def test_cluster_documents_equals_sklearn_pca_then_kmeans():
    rng = seeded_rng(0)
    centres = rng.normal(size=(3, 20)) * 5
    x = np.concatenate([c + rng.normal(size=(30, 20)) for c in centres])
    labels, reduced = cluster_documents(x, 3, n_components=4, seed=0)
    ref_reduced = PCA(n_components=4, random_state=0).fit_transform(x)
    ref_labels = KMeans(n_clusters=3, n_init=10, random_state=0).fit_predict(ref_reduced)
    np.testing.assert_allclose(reduced, ref_reduced)
    np.testing.assert_array_equal(labels, ref_labels)
    assert len({tuple(np.unique(labels[i * 30 : (i + 1) * 30])) for i in range(3)}) == 3  # the 3 blobs are found


def test_bad_input_gives_clear_errors():
    with pytest.raises(ValueError, match="docs_by_class must not be empty"):
        c_tf_idf([])
    with pytest.raises(ValueError, match=r"docs_by_class\[1\] must not be empty"):
        c_tf_idf([["a b"], []])
    with pytest.raises(TypeError, match=r"docs_by_class\[0\]"):
        c_tf_idf(["a single string", ["x"]])
    with pytest.raises(ValueError, match="stop word"):
        c_tf_idf([["the"], ["a"]], stop_words={"the", "a"})
    with pytest.raises(ValueError, match="counts must be non-negative"):
        c_tf_idf_from_counts([[1, -1], [1, 1]])
    with pytest.raises(ValueError, match="have no words"):
        c_tf_idf_from_counts([[0, 0], [1, 1]])
    with pytest.raises(ValueError, match="never occur"):
        c_tf_idf_from_counts([[1, 0], [1, 0]])
    with pytest.raises(ValueError, match="counts"):
        c_tf_idf_from_counts([1, 2, 3])
    with pytest.raises(ValueError, match="vocabulary has 1 words"):
        top_terms(np.ones((2, 3)), ["a"], 1)
    with pytest.raises(ValueError, match="k must be <= 3"):
        top_terms(np.ones((2, 3)), ["a", "b", "c"], 4)
    with pytest.raises(ValueError, match="n_clusters"):
        cluster_documents(np.ones((5, 4)), 6)
