"""NaiveBayes: the SLP3 worked example by hand, and parity with scikit-learn's MultinomialNB."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.naive_bayes import MultinomialNB

from nlp_helpers.classification.naive_bayes import NaiveBayes
from nlp_helpers.data.polarity import polarity_split

TOY = [
    ("-", "just plain boring"),
    ("-", "entirely predictable and lacks energy"),
    ("-", "no surprises and very few laughs"),
    ("+", "very powerful"),
    ("+", "the most fun film of the summer"),
]


@pytest.fixture(scope="module")
def toy():
    return NaiveBayes().fit([t.split() for _, t in TOY], [c for c, _ in TOY])


def test_slp3_worked_example_by_hand(toy):
    # |V| = 20; 14 negative tokens, 9 positive tokens; priors 3/5 and 2/5 (SLP3 ch. 4).
    assert len(toy.vocabulary_) == 20
    np.testing.assert_array_equal(toy.feature_count_.sum(axis=1), [9, 14])  # classes_ = ["+", "-"]
    np.testing.assert_allclose(np.exp(toy.class_log_prior_), [2 / 5, 3 / 5])
    v = toy.vocabulary_
    assert math.isclose(math.exp(toy.feature_log_prob_[1, v["and"]]), 3 / 34)
    assert math.isclose(math.exp(toy.feature_log_prob_[0, v["the"]]), 3 / 29)
    assert math.isclose(math.exp(toy.feature_log_prob_[0, v["boring"]]), 1 / 29)
    # "with" is unknown and dropped: P(-)P(S|-) = 3/5 * 2*2*1 / 34^3, P(+)P(S|+) = 2/5 * 1*1*2 / 29^3
    joint = np.exp(toy.joint_log_likelihood([["predictable", "with", "no", "fun"]])[0])
    np.testing.assert_allclose(joint, [2 / 5 * 2 / 29**3, 3 / 5 * 4 / 34**3], rtol=1e-12)
    assert f"{joint[1]:.1e}" == "6.1e-05"
    assert toy.predict([["predictable", "with", "no", "fun"]])[0] == "-"


def test_probabilities_normalise_and_evidence_is_the_mixture(toy):
    docs = [["predictable", "with", "no", "fun"], ["very", "fun"], ["zzz"]]
    proba = toy.predict_proba(docs)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    joint = toy.joint_log_likelihood(docs)
    np.testing.assert_allclose(toy.log_evidence(docs), np.log(np.exp(joint).sum(axis=1)))
    # a document of unknown words only gets the prior
    np.testing.assert_allclose(proba[2], np.exp(toy.class_log_prior_))


def test_binary_clips_counts_per_document():
    docs, labels = [["great", "great", "great", "film"], ["dull", "film"]], ["+", "-"]
    counts = NaiveBayes().fit(docs, labels)
    binary = NaiveBayes(binary=True).fit(docs, labels)
    assert counts.feature_count_[0, counts.vocabulary_["great"]] == 3
    assert binary.feature_count_[0, binary.vocabulary_["great"]] == 1
    assert math.isclose(math.exp(binary.feature_log_prob_[0, binary.vocabulary_["great"]]), 2 / 5)


@pytest.mark.parametrize("alpha,binary", [(1.0, False), (0.5, False), (1.0, True), (0.1, True)])
def test_equals_sklearn_multinomialnb_on_polarity(alpha, binary):
    parts = polarity_split()
    train, test = parts["train"].iloc[:3000], parts["test"].iloc[:800]
    nb = NaiveBayes(alpha=alpha, binary=binary).fit([t.split() for t in train["text"]], train["label"])
    vec = CountVectorizer(
        tokenizer=str.split, lowercase=False, token_pattern=None, binary=binary, vocabulary=nb.vocabulary_
    )
    ref = MultinomialNB(alpha=alpha).fit(vec.transform(train["text"]), train["label"])
    test_docs = [t.split() for t in test["text"]]
    # tolerance: both compute the same float64 formulas in a different order
    np.testing.assert_allclose(
        nb.predict_log_proba(test_docs), ref.predict_log_proba(vec.transform(test["text"])), rtol=0, atol=1e-10
    )
    np.testing.assert_array_equal(nb.predict(test_docs), ref.predict(vec.transform(test["text"])))
    np.testing.assert_allclose(nb.feature_log_prob_, ref.feature_log_prob_, atol=1e-12)
    np.testing.assert_allclose(nb.class_log_prior_, ref.class_log_prior_, atol=1e-12)


def test_bad_input_names_the_argument(toy):
    with pytest.raises(ValueError, match="alpha"):
        NaiveBayes(alpha=0)
    with pytest.raises(TypeError, match="binary"):
        NaiveBayes(binary="yes")
    with pytest.raises(TypeError, match="docs"):
        NaiveBayes().fit(["a plain string"], [1])
    with pytest.raises(ValueError, match="labels"):
        NaiveBayes().fit([["a"], ["b"]], [1])
    with pytest.raises(ValueError, match="docs"):
        NaiveBayes().fit([], [])
    with pytest.raises(RuntimeError, match="fit"):
        NaiveBayes().predict([["a"]])
    with pytest.raises(TypeError, match="docs"):
        toy.predict("just a string")
    assert "alpha=1.0" in repr(toy)
