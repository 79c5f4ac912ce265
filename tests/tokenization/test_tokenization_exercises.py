"""The checkers of the tokenization chapter accept correct answers and reject the typical wrong ones."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from nlp_helpers.exercises.checker import STRICT_ENV
from nlp_helpers.tokenization.exercises import (
    JM_BPE_CORPUS,
    MAXMATCH_VOCAB,
    check_bpe_merge_step,
    check_find_prices,
    check_max_match,
    check_min_edit_distance,
)
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
    assert "sentence-final" in check_find_prices(prices_greedy_dot).message
    assert not check_find_prices(prices_without_dollar).passed
    assert "list" in check_find_prices(lambda t: tuple(prices_ok(t))).message


# --------------------------------------------------------------------------- BPE merge step
def merge_step_ok(word_freqs):
    counts = Counter()
    for word, freq in word_freqs.items():
        for pair in zip(word, word[1:]):
            counts[pair] += freq
    if not counts:
        raise ValueError("no pair to merge")
    best = min(counts, key=lambda p: (-counts[p], p))
    new = {}
    for word, freq in word_freqs.items():
        out, i = [], 0
        while i < len(word):
            if i + 1 < len(word) and (word[i], word[i + 1]) == best:
                out.append(word[i] + word[i + 1])
                i += 2
            else:
                out.append(word[i])
                i += 1
        new[tuple(out)] = freq
    return best, new


def merge_step_unweighted(word_freqs):
    counts = Counter(p for w in word_freqs for p in zip(w, w[1:]))  # ignores the frequencies
    best = min(counts, key=lambda p: (-counts[p], p))
    return best, merge_step_ok(word_freqs)[1]


def merge_step_largest_on_tie(word_freqs):
    counts = Counter()
    for word, freq in word_freqs.items():
        for pair in zip(word, word[1:]):
            counts[pair] += freq
    best = max(counts, key=lambda p: (counts[p], p))  # ties go to the largest pair
    new = {}
    for word, freq in word_freqs.items():
        joined = " ".join(word).replace(f"{best[0]} {best[1]}", best[0] + best[1])
        new[tuple(joined.split(" "))] = freq
    return best, new


def merge_step_mutates(word_freqs):
    best, new = merge_step_ok(word_freqs)
    word_freqs.clear()
    word_freqs.update(new)
    return best, word_freqs


def merge_step_no_error(word_freqs):
    try:
        return merge_step_ok(word_freqs)
    except ValueError:
        return None, dict(word_freqs)


def test_bpe_merge_step_checker():
    assert check_bpe_merge_step(merge_step_ok).passed
    assert check_bpe_merge_step(stub).status == "not yet"
    assert "tie" in check_bpe_merge_step(merge_step_largest_on_tie).message
    assert "weight the counts" in check_bpe_merge_step(merge_step_unweighted).message
    assert "do not modify" in check_bpe_merge_step(merge_step_mutates).message
    assert "ValueError" in check_bpe_merge_step(merge_step_no_error).message
    assert JM_BPE_CORPUS[("l", "o", "w", "_")] == 5  # the checker's corpus was not modified


def test_overlapping_pairs_are_merged_left_to_right():
    def merge_overlapping_wrong(word_freqs):
        best, new = merge_step_ok(word_freqs)
        if best == ("a", "a"):
            new = {("a", "aa") if w == ("aa", "a") else w: f for w, f in new.items()}
        return best, new

    assert "left to right" in check_bpe_merge_step(merge_overlapping_wrong).message


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


# --------------------------------------------------------------------------- edit distance
def med_ok(source, target, sub_cost=1):
    n, m = len(source), len(target)
    D = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        D[i][0] = i
    for j in range(m + 1):
        D[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if source[i - 1] == target[j - 1] else sub_cost
            D[i][j] = min(D[i - 1][j] + 1, D[i][j - 1] + 1, D[i - 1][j - 1] + cost)
    return D[n][m]


def med_ignores_sub_cost(source, target, sub_cost=1):
    return med_ok(source, target, 1)


def med_no_borders(source, target, sub_cost=1):
    if not source or not target:
        return 0
    return med_ok(source, target, sub_cost)


def med_hamming(source, target, sub_cost=1):
    return sum(a != b for a, b in zip(source, target)) * sub_cost + abs(len(source) - len(target))


def test_min_edit_distance_checker():
    assert check_min_edit_distance(med_ok).passed
    assert check_min_edit_distance(stub).status == "not yet"
    assert "sub_cost=2" in check_min_edit_distance(med_ignores_sub_cost).message
    assert "first row" in check_min_edit_distance(med_no_borders).message
    assert not check_min_edit_distance(med_hamming).passed


def test_strict_mode_raises_for_wrong_answers(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(AssertionError, match="Minimum edit distance"):
        check_min_edit_distance(med_hamming)
    assert check_min_edit_distance(med_ok).passed
