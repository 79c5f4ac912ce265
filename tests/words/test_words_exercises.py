"""The checkers of the words chapter accept correct answers and reject the typical wrong ones."""

from __future__ import annotations

import re

import pytest
from nltk import edit_distance as nltk_edit_distance
from rapidfuzz.distance import OSA

from nlp_helpers.exercises.checker import STRICT_ENV
from nlp_helpers.words.exercises import MAXMATCH_VOCAB, check_find_prices, check_max_match, check_osa_distance
from tests.exercise_helpers import stub


# --------------------------------------------------------------------------- prices
def prices_ok(text):
    return re.findall(r"\$\d{1,3}(?:,\d{3})+(?:\.\d+)?|\$\d+(?:\.\d+)?", text)


def prices_no_thousands(text):
    return re.findall(r"\$\d+(?:\.\d+)?", text)


def prices_greedy_dot(text):
    return re.findall(r"\$[\d.,]+", text)


def prices_without_dollar(text):
    return re.findall(r"\d+(?:\.\d+)?", text)


def test_prices_checker():
    assert check_find_prices(prices_ok).passed
    assert check_find_prices(stub).status == "not yet"
    assert "$1,200.50" in check_find_prices(prices_no_thousands).message
    assert "punctuation" in check_find_prices(prices_greedy_dot).message
    assert not check_find_prices(prices_without_dollar).passed
    assert "list" in check_find_prices(lambda t: tuple(prices_ok(t))).message


# --------------------------------------------------------------------------- max match
def max_match_ok(text, vocabulary):
    tokens, i = [], 0
    longest = max(map(len, vocabulary))
    while i < len(text):
        for n in range(min(longest, len(text) - i), 0, -1):
            if n == 1 or text[i : i + n] in vocabulary:
                tokens.append(text[i : i + n])
                i += n
                break
    return tokens


def max_match_shortest_first(text, vocabulary):
    tokens, i = [], 0
    while i < len(text):
        for n in range(1, len(text) - i + 1):
            if text[i : i + n] in vocabulary or n == len(text) - i:
                tokens.append(text[i : i + n])
                i += n
                break
    return tokens


def max_match_drops_unknown(text, vocabulary):
    return [t for t in max_match_ok(text, vocabulary) if t in vocabulary]


def test_max_match_checker():
    assert check_max_match(max_match_ok).passed
    assert check_max_match(stub).status == "not yet"
    assert "longest" in check_max_match(max_match_shortest_first).message
    assert not check_max_match(max_match_drops_unknown).passed
    assert max_match_ok("wecanonlyseeashortdistanceahead", MAXMATCH_VOCAB) == [
        "we",
        "canon",
        "l",
        "y",
        "see",
        "ash",
        "ort",
        "distance",
        "ahead",
    ]  # J&M's output


# --------------------------------------------------------------------------- OSA distance
def osa_ok(a, b):
    """An answer written independently of the checker: rapidfuzz's optimal-string-alignment distance."""
    return OSA.distance(a, b)


def levenshtein(a, b):
    return nltk_edit_distance(a, b)


def test_osa_checker():
    # hand-worked: a swap costs 1; OSA gives 3 for ca -> abc where unrestricted Damerau gives 2
    assert osa_ok("form", "from") == 1 and osa_ok("ca", "abc") == 3 and osa_ok("", "abc") == 3
    assert nltk_edit_distance("ca", "abc", transpositions=True) == 2
    for a, b in [("abcd", "badc"), ("kitten", "sitting"), ("abc", "cba")]:  # OSA <= Levenshtein, >= Damerau
        assert nltk_edit_distance(a, b, transpositions=True) <= osa_ok(a, b) <= nltk_edit_distance(a, b)
    assert check_osa_distance(osa_ok).passed
    assert check_osa_distance(stub).status == "not yet"
    assert "transposition" in check_osa_distance(levenshtein).message
    assert not check_osa_distance(lambda a, b: nltk_edit_distance(a, b, transpositions=True)).passed


def test_strict_mode_raises_for_wrong_answers(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(AssertionError, match="transpositions"):
        check_osa_distance(levenshtein)
    assert check_osa_distance(osa_ok).passed


# --------------------------------------------------------------------------- the most probable segmentation
def test_unigram_segment_checker_data_reproduce_jieba_without_its_hmm():
    """Reference parity: a most-probable-path answer on zh_news_log_probs() gives jieba's cut with HMM=False."""
    from nlp_helpers.words.exercises import SEGMENT_LOG_PROBS, check_unigram_segment, zh_news_log_probs
    from nlp_helpers.words.segmentation import ZH_NEWS_GOLD, ZH_NEWS_SENTENCE, jieba_tokenizer, segmentation_scores
    from tests.words.test_words_exercise_catalogue import segment_forward, segment_memo_suffix

    log_probs, unknown = zh_news_log_probs()
    assert all(w in ZH_NEWS_SENTENCE and lp < 0 for w, lp in log_probs.items()) and unknown <= min(log_probs.values())
    ours = segment_forward(ZH_NEWS_SENTENCE, log_probs, unknown)
    assert ours == jieba_tokenizer("traditional").lcut(ZH_NEWS_SENTENCE, HMM=False)
    assert ours == segment_memo_suffix(ZH_NEWS_SENTENCE, log_probs, unknown)
    assert {"在", "中國", "是", "馬來西亞", "林", "行止"} <= set(ours)  # MaxMatch's mistakes repaired, not the name
    assert segmentation_scores(ours, ZH_NEWS_GOLD).n_correct == 30
    assert segment_forward("wecanonlyseeashortdistanceahead", SEGMENT_LOG_PROBS, -20.0) == (
        "we can only see a short distance ahead".split()
    )
    assert check_unigram_segment(stub).status == "not yet"
