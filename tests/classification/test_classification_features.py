"""Features: vocabulary and count matrices (vs CountVectorizer), the negation trick, the VADER lexicon."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.feature_extraction.text import CountVectorizer

from nlp_helpers.classification.features import (
    NEGATORS,
    build_vocabulary,
    check_docs,
    check_labels,
    count_matrix,
    mark_negation,
)
from nlp_helpers.classification.lexicon import lexicon_counts, vader_lexicon

DOCS = [["the", "cat", "the"], ["a", "dog", "!"], ["the", "dog", "dog", "dog"]]


@pytest.mark.parametrize("binary", [False, True])
def test_count_matrix_equals_countvectorizer(binary):
    vocab = build_vocabulary(DOCS)
    ours = count_matrix(DOCS + [["unknown", "the"]], vocab, binary=binary).toarray()
    vec = CountVectorizer(analyzer=lambda d: d, binary=binary, vocabulary=vocab)
    np.testing.assert_array_equal(ours, vec.transform(DOCS + [["unknown", "the"]]).toarray())
    assert list(vocab) == sorted(vocab) and vocab["the"] == sorted(vocab).index("the")


def test_min_count_and_empty_documents():
    assert set(build_vocabulary(DOCS, min_count=2)) == {"the", "dog"}
    m = count_matrix([[], ["zzz"]], build_vocabulary(DOCS))
    assert m.shape == (2, 5) and m.nnz == 0


def test_negation_follows_the_lecture_notes_example():
    assert (
        " ".join(mark_negation(["didn't", "like", "this", "movie", ",", "but", "I"]))
        == "didn't NOT_like NOT_this NOT_movie , but I"
    )
    # the scope ends at punctuation; "never" and "no" open a scope; a negator inside stays marked
    assert mark_negation(["never", "boring", ".", "fun"]) == ["never", "NOT_boring", ".", "fun"]
    assert mark_negation(["no", ",", "not", "really"]) == ["no", ",", "not", "NOT_really"]
    assert mark_negation(["not", "bad", "not", "good"]) == ["not", "NOT_bad", "NOT_not", "NOT_good"]
    assert mark_negation([]) == []
    assert {"not", "no", "never"} <= NEGATORS


def test_vader_lexicon_entries():
    lex = vader_lexicon()
    assert len(lex) > 7000
    # values from vader_lexicon.txt (Hutto & Gilbert 2014): mean ratings on a -4..4 scale
    assert lex["good"] == 1.9 and lex["great"] == 3.1 and lex["hate"] == -2.7
    lex["good"] = 0.0  # a fresh copy each call
    assert vader_lexicon()["good"] == 1.9


def test_lexicon_counts():
    lex = {"good": 1.9, "bad": -2.5, "meh": 0.2}
    got = lexicon_counts([["good", "good", "bad", "film"], ["meh"], []], lex)
    np.testing.assert_array_equal(got, [[2, 1], [1, 0], [0, 0]])
    np.testing.assert_array_equal(lexicon_counts([["meh"]], lex, threshold=0.5), [[0, 0]])


def test_bad_input_names_the_argument():
    with pytest.raises(TypeError, match="docs"):
        check_docs("docs", "a string")
    with pytest.raises(TypeError, match=r"docs\[1\]"):
        check_docs("docs", [["a"], "b c"])
    with pytest.raises(TypeError, match=r"docs\[0\]"):
        check_docs("docs", [["a", 3]])
    with pytest.raises(ValueError, match="labels"):
        check_labels("labels", [1, 2], 3)
    with pytest.raises(TypeError, match="labels"):
        check_labels("labels", [1.5, 2.5], 2)
    np.testing.assert_array_equal(check_labels("labels", ["a", "b"], 2), ["a", "b"])
    with pytest.raises(ValueError, match="min_count"):
        build_vocabulary(DOCS, min_count=0)
    with pytest.raises(TypeError, match="vocabulary"):
        count_matrix(DOCS, ["the", "cat"])
    with pytest.raises(TypeError, match="tokens"):
        mark_negation("didn't like it")
    with pytest.raises(TypeError, match="lexicon"):
        lexicon_counts(DOCS, ["good"])
    with pytest.raises(ValueError, match="threshold"):
        lexicon_counts(DOCS, {}, threshold=-1)
