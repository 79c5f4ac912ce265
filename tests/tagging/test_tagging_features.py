"""Word shapes (SLP3's examples) and the CRF feature templates."""

from __future__ import annotations

import pytest

from nlp_helpers.tagging.features import token_features, word_shape


def test_word_shapes_of_slp3_examples():
    assert [word_shape(w) for w in ["DC10-30", "I.M.F", "Jane", "état", ""]] == ["XXdd-dd", "X.X.X", "Xxxx", "xxxx", ""]
    assert [word_shape(w, short=True) for w in ["DC10-30", "I.M.F", "Jane", "aaa"]] == ["Xd-d", "X.X.X", "Xx", "x"]


def test_token_features():
    words = ["I", "am", "going", "to", "New", "York", "tomorrow"]
    feats = token_features(words, 4)
    for f in ["bias", "w=new", "shape=Xxx", "short=Xx", "prev=to", "next=york", "prev+w=to|new", "suf3=new", "title"]:
        assert f in feats
    assert "prev=<s>" in token_features(words, 0) and "title_first" in token_features(words, 0)
    assert "next=</s>" in token_features(words, 6)
    assert {"digit", "hyphen"} <= set(token_features(["F-16"], 0))


def test_bad_input_names_the_argument():
    with pytest.raises(TypeError, match="word"):
        word_shape(3)
    with pytest.raises(TypeError, match="words"):
        token_features("New York", 0)
    with pytest.raises(ValueError, match="i"):
        token_features(["a", "b"], 2)
