"""The small building blocks the TF-IDF chapter's modules share, against scikit-learn and hand-worked values."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics.pairwise import cosine_similarity as sk_cosine

from nlp_helpers.tfidf.bag_of_words import document_names, document_tokens, resolve_tokenizer, vocabulary_index
from nlp_helpers.tfidf.similarity import as_matrix, row_cosines, sparse_row_norms


def test_resolve_tokenizer_defaults_to_the_word_tokenizer_without_punctuation() -> None:
    assert resolve_tokenizer(None)("The cat, sat.") == ["The", "cat", "sat"]
    assert resolve_tokenizer(str.split)("a b") == ["a", "b"]
    with pytest.raises(TypeError, match="tokenizer must be a callable"):
        resolve_tokenizer("split")


def test_document_tokens_lower_cases_and_rejects_empty_documents() -> None:
    assert document_tokens("The Cat", 0, str.split, True) == ["the", "cat"]
    assert document_tokens("The Cat", 0, str.split, False) == ["The", "Cat"]
    with pytest.raises(ValueError, match=r"docs\[3\] has no tokens"):
        document_tokens("   ", 3, str.split, True)
    with pytest.raises(TypeError, match=r"docs\[1\] must be a str"):
        document_tokens(7, 1, str.split, True)


def test_vocabulary_index_and_document_names() -> None:
    assert vocabulary_index(["b", "a"]) == {"b": 0, "a": 1}
    with pytest.raises(ValueError, match="duplicate"):
        vocabulary_index(["a", "a"])
    assert document_names(3) == ["Doc 1", "Doc 2", "Doc 3"]


def test_row_cosines_and_norms_match_scikit_learn() -> None:
    rng = np.random.default_rng(0)
    dense = rng.random((6, 5)) * (rng.random((6, 5)) > 0.4)
    dense[2] = 0  # a zero row scores 0, not NaN
    m, q = sp.csr_array(dense), sp.csr_array(dense[[0]])
    np.testing.assert_allclose(sparse_row_norms(m), np.linalg.norm(dense, axis=1), rtol=1e-12)
    np.testing.assert_allclose(row_cosines(m, q), sk_cosine(dense, dense[[0]]).ravel(), rtol=1e-12, atol=1e-15)
    assert row_cosines(m, q)[2] == 0.0


def test_as_matrix_says_whether_the_input_was_one_vector() -> None:
    m, is_vector = as_matrix("a", [1.0, 2.0])
    assert is_vector and m.shape == (1, 2)
    m, is_vector = as_matrix("a", np.ones((3, 2)))
    assert not is_vector and m.shape == (3, 2)
    with pytest.raises((TypeError, ValueError), match="a"):
        as_matrix("a", "text")
