"""Catalogues of typical answers to the tokenization exercises (book/tokenization/*.ipynb).

For each exercise: the requirements its statement names, at least one typical wrong answer per
requirement (each must be rejected with a hint that names the actual mistake), and at least two
correct answers written in different styles (each must be accepted). The correct answers are
written here independently of the checkers' references.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np
import pytest
from rapidfuzz.distance import OSA

from nlp_helpers.tokenization.bpe import merge_pair, pretokenize
from nlp_helpers.tokenization.exercises import (
    HAND_BPE_CORPUS,
    check_bpe_encode,
    check_find_prices,
    check_first_merges,
    check_max_match,
    check_osa_distance,
    check_unigram_log_likelihood,
)
from tests.exercise_helpers import assert_hint_tells_not
from tests.tokenization.test_tokenization_exercises import (
    encode_ids_characters,
    encode_ids_huggingface,
    encode_ids_leftmost,
    loglik_ok,
    loglik_raw_probs,
    loglik_viterbi,
)


# --------------------------------------------------------------------------- find_prices
def prices_regex(text):
    return re.findall(r"\$\d{1,3}(?:,\d{3})+(?:\.\d+)?|\$\d+(?:\.\d+)?", text)


def prices_scanner(text):  # no regular expression: a hand-written scanner
    out, i = [], 0
    while i < len(text):
        if text[i] == "$" and i + 1 < len(text) and text[i + 1].isdigit():
            j = i + 1
            while j < len(text) and (
                text[j].isdigit() or (text[j] in ",." and j + 1 < len(text) and text[j + 1].isdigit())
            ):
                j += 1
            out.append(text[i:j])
            i = j
        else:
            i += 1
    return out


PRICES_WRONG = {
    # requirement: a list
    "tuple": (lambda t: tuple(prices_regex(t)), "list"),
    # requirement: in order
    "sorted": (lambda t: sorted(prices_regex(t)), "order"),
    # requirement: thousands separators
    "no thousands": (lambda t: re.findall(r"\$\d+(?:\.\d+)?", t), "thousands"),
    # requirement: decimal part
    "no decimals": (lambda t: re.findall(r"\$\d+(?:,\d{3})*", t), "decimal"),
    # requirement: a final '.' or ',' is not part of the price
    "greedy punctuation": (lambda t: re.findall(r"\$[\d.,]+", t), "punctuation"),
    # requirement: a full stop or comma after an integer amount is not part of it ("It costs $12.")
    "integer keeps the full stop": (lambda t: re.findall(r"\$\d+(?:,\d{3})*(?:\.\d*)?", t), "punctuation"),
    "integer keeps the comma": (lambda t: re.findall(r"\$\d[\d,]*(?:\.\d+)?", t), "punctuation"),
    # requirement: '$' immediately followed by digits
    "space allowed": (lambda t: re.findall(r"\$ ?\d+(?:,\d{3})*(?:\.\d+)?", t), "immediately"),
    # requirement: numbers without '$' are not prices
    "no dollar": (lambda t: re.findall(r"\d+(?:,\d{3})*(?:\.\d+)?", t), "starts with '$'"),
    # requirement: exactly as written (strings)
    "floats": (lambda t: [float(p[1:].replace(",", "")) for p in prices_regex(t)], "strings"),
    # requirement: any number of thousands separators ($1,000,000)
    "one thousands group": (lambda t: re.findall(r"\$\d+(?:,\d{3})?(?:\.\d+)?", t), "',ddd' groups"),
}


def prices_empty_raises(text):  # requirement: the empty string gives []
    if not text:
        raise ValueError("text is empty")
    return prices_regex(text)


PRICES_WRONG["empty raises"] = (prices_empty_raises, "empty string too")


# --------------------------------------------------------------------------- max_match
def max_match_loop(text, vocabulary):
    longest = max(map(len, vocabulary))
    tokens, i = [], 0
    while i < len(text):
        n = min(longest, len(text) - i)
        while n > 1 and text[i : i + n] not in vocabulary:
            n -= 1
        tokens.append(text[i : i + n])
        i += n
    return tokens


def max_match_recursive(text, vocabulary):
    if not text:
        return []
    for n in range(len(text), 0, -1):
        if n == 1 or text[:n] in vocabulary:
            return [text[:n], *max_match_recursive(text[n:], vocabulary)]
    raise AssertionError("unreachable")


def max_match_shortest(text, vocabulary):
    tokens, i = [], 0
    while i < len(text):
        n = next((n for n in range(1, len(text) - i + 1) if text[i : i + n] in vocabulary), 1)
        tokens.append(text[i : i + n])
        i += n
    return tokens


def max_match_unknown_run(text, vocabulary):  # keeps a whole run of unknown characters as one token
    tokens, i, unknown = [], 0, ""
    while i < len(text):
        n = next((n for n in range(len(text) - i, 0, -1) if text[i : i + n] in vocabulary), 0)
        if n == 0:
            unknown += text[i]
            i += 1
            continue
        if unknown:
            tokens.append(unknown)
            unknown = ""
        tokens.append(text[i : i + n])
        i += n
    return tokens + ([unknown] if unknown else [])


MAXMATCH_WRONG = {
    # requirement: the longest word first
    "shortest first": (max_match_shortest, "longest"),
    # requirement: an unknown character is never dropped
    "drops unknown": (lambda t, v: [x for x in max_match_loop(t, v) if x in v], "never drop"),
    # requirement: a single character when nothing matches
    "unknown run": (max_match_unknown_run, "one character"),
    # requirement: a list of tokens
    "joined string": (lambda t, v: " ".join(max_match_loop(t, v)), "list"),
    # requirement: the empty string gives []
    "empty gives ['']": (lambda t, v: max_match_loop(t, v) or [""], "empty string"),
}


def max_match_empty_raises(text, vocabulary):  # requirement: the empty string gives [] (not an error)
    if not text:
        raise ValueError("text is empty")
    return max_match_loop(text, vocabulary)


MAXMATCH_WRONG["empty raises"] = (max_match_empty_raises, "empty string has no tokens")


# --------------------------------------------------------------------------- osa_distance
def osa_table(source, target, sub=1):
    n, m = len(source), len(target)
    D = np.zeros((n + 1, m + 1), dtype=int)
    D[:, 0], D[0, :] = range(n + 1), range(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            D[i, j] = min(D[i - 1, j] + 1, D[i, j - 1] + 1, D[i - 1, j - 1] + sub * (source[i - 1] != target[j - 1]))
            if i > 1 and j > 1 and source[i - 1] == target[j - 2] and source[i - 2] == target[j - 1]:
                D[i, j] = min(D[i, j], D[i - 2, j - 2] + 1)
    return int(D[n, m])


def levenshtein(a, b, sub=1):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (0 if ca == cb else sub)))
        prev = cur
    return prev[-1]


def damerau_unrestricted(a, b):  # true Damerau-Levenshtein: a swapped symbol may be edited again
    da: dict[str, int] = {}
    big = len(a) + len(b)
    D = [[big] * (len(b) + 2) for _ in range(len(a) + 2)]
    for i in range(len(a) + 1):
        D[i + 1][0], D[i + 1][1] = big, i
    for j in range(len(b) + 1):
        D[0][j + 1], D[1][j + 1] = big, j
    for i in range(1, len(a) + 1):
        db = 0
        for j in range(1, len(b) + 1):
            k, last = da.get(b[j - 1], 0), db
            cost = 0 if a[i - 1] == b[j - 1] else 1
            if cost == 0:
                db = j
            D[i + 1][j + 1] = min(
                D[i][j] + cost, D[i + 1][j] + 1, D[i][j + 1] + 1, D[k][last] + (i - k - 1) + 1 + (j - last - 1)
            )
        da[a[i - 1]] = i
    return D[-1][-1]


def osa_no_base_row(a, b):  # forgets D[0, j] = j: insertions at the start are free
    if not a:
        return 0
    return osa_table(a, b)


OSA_WRONG = {
    # requirement: a swap of two adjacent symbols costs 1
    "Levenshtein": (levenshtein, "transposition"),
    # requirement: insertions, deletions and substitutions cost 1
    "substitution 2": (lambda a, b: osa_table(a, b, sub=2), "cost 1"),
    # requirement: no symbol is edited again after a swap (OSA, not Damerau)
    "unrestricted Damerau": (damerau_unrestricted, "edited twice"),
    # requirement: either string may be empty
    "empty source": (osa_no_base_row, "insertions"),
    # requirement: an int
    "float": (lambda a, b: float(osa_table(a, b)), "int"),
}


# --------------------------------------------------------------------------- first_merges (by hand)
def merges_by_counting():  # a correct answer computed with Counter, not written by hand
    words = {tuple(w): c for w, c in HAND_BPE_CORPUS.items()}
    out = []
    for _ in range(3):
        counts = Counter()
        for w, c in words.items():
            for pair in zip(w, w[1:]):
                counts[pair] += c
        best = counts.most_common(1)[0][0]
        out.append(best)
        words = {tuple(merge_pair(list(w), best, best[0] + best[1])): c for w, c in words.items()}
    return out


FIRST_MERGES_RIGHT = {
    "by hand": [("u", "g"), ("u", "n"), ("h", "ug")],
    "by counting": merges_by_counting(),
}
FIRST_MERGES_WRONG = {
    # requirement: a list
    "tuple of merges": (tuple(FIRST_MERGES_RIGHT["by hand"]), "list"),
    # requirement: pairs, not new symbols
    "new symbols": (["ug", "un", "hug"], "pair it joins"),
    # requirement: tuples of two strings
    "lists": ([["u", "g"], ["u", "n"], ["h", "ug"]], "tuple of two strings"),
    # requirement: three merges
    "two merges": ([("u", "g"), ("u", "n")], "three"),
    # requirement: recount after each merge
    "no recount": ([("u", "g"), ("p", "u"), ("u", "n")], "Recount"),
    # requirement: weighted by the word's count
    "unweighted": ([("u", "g"), ("h", "ug"), ("u", "n")], "Weight"),
    # requirement: the most frequent pair (a wrong pick at step 3)
    "wrong third": ([("u", "g"), ("u", "n"), ("p", "un")], "Merge 3"),
    # requirement: in the order learned (the right three merges, first two swapped)
    "order": ([("u", "n"), ("u", "g"), ("h", "ug")], "Merge 1"),
    # not assigned
    "None": (None, "None"),
}


# --------------------------------------------------------------------------- bpe_encode
def encode_ids_dict_loop(text, merges):  # written with a rank loop instead of min(...)
    out = []
    for chunk in pretokenize(text):
        ids = list(chunk.encode("utf-8"))
        while True:
            ranked = [(merges[p], k) for k, p in enumerate(zip(ids, ids[1:])) if p in merges]
            if not ranked:
                break
            new = min(ranked)[0]
            pair = next(p for p, v in merges.items() if v == new)
            ids = merge_pair(ids, pair, new)
        out.extend(ids)
    return out


def encode_ids_split(text, merges):  # cuts at whitespace instead of pretokenize: loses the spaces
    out = []
    for word in text.split():
        out.extend(encode_ids_dict_loop(word, merges))
    return out


def _apply_merges(ids, merges):  # earliest merge first, over the whole id list
    while len(ids) > 1:
        pair = min(zip(ids, ids[1:]), key=lambda p: merges.get(p, math.inf))
        if pair not in merges:
            break
        ids = merge_pair(ids, pair, merges[pair])
    return ids


def encode_ids_right_to_left(text, merges):  # merges overlapping pairs from the right
    mirrored = {(right, left): new for (left, right), new in merges.items()}
    return [i for chunk in pretokenize(text) for i in _apply_merges(list(chunk.encode("utf-8"))[::-1], mirrored)[::-1]]


def encode_ids_whole_text(text, merges):  # never cuts into chunks: merges cross chunk boundaries
    return _apply_merges(list(text.encode("utf-8")), merges)


BPE_ENCODE_WRONG = {
    # requirement: the earliest merge first, wherever it is
    "leftmost pair": (encode_ids_leftmost, "learned first"),
    # requirement: UTF-8 bytes
    "code points": (encode_ids_characters, "UTF-8"),
    # requirement: merges never cross chunks
    "whole text": (encode_ids_whole_text, "chunk"),
    # requirement: chunks by pretokenize (spaces kept)
    "split at spaces": (encode_ids_split, "pretokenize"),
    # requirement: left to right without overlaps
    "right to left": (encode_ids_right_to_left, "left to right"),
    # requirement: a list of int
    "numpy array": (lambda t, m: np.array(encode_ids_dict_loop(t, m)), "list"),
}


def encode_ids_empty_raises(text, merges):  # requirement: the empty string gives []
    if not text:
        raise ValueError("nothing to encode")
    return encode_ids_dict_loop(text, merges)


def encode_ids_empty_gives_zero(text, merges):  # requirement: the empty string gives [] (not a padding id)
    return encode_ids_dict_loop(text, merges) or [0]


BPE_ENCODE_WRONG["empty raises"] = (encode_ids_empty_raises, "empty string")
BPE_ENCODE_WRONG["empty gives [0]"] = (encode_ids_empty_gives_zero, "empty string")


# --------------------------------------------------------------------------- unigram_log_likelihood
def loglik_numpy(text, log_probs):  # a numpy forward pass over a padded lattice
    alpha = np.full(len(text) + 1, -np.inf)
    alpha[0] = 0.0
    for j in range(1, len(text) + 1):
        terms = [alpha[i] + log_probs[text[i:j]] for i in range(j) if text[i:j] in log_probs]
        alpha[j] = np.logaddexp.reduce(terms) if terms else -np.inf
    if not np.isfinite(alpha[-1]):
        raise ValueError("no segmentation")
    return float(alpha[-1])


def loglik_base2(text, log_probs):
    return loglik_ok(text, log_probs) / math.log(2) if text else 0.0


def loglik_returns_minus_inf(text, log_probs):
    try:
        return loglik_ok(text, log_probs)
    except ValueError:
        return -math.inf


def loglik_empty_raises(text, log_probs):
    if not text:
        raise ValueError("empty")
    return loglik_ok(text, log_probs)


UNIGRAM_WRONG = {
    # requirement: a sum over all segmentations
    "Viterbi max": (loglik_viterbi, "sum"),
    # requirement: log space (long strings)
    "raw probabilities": (loglik_raw_probs, "logsumexp"),
    # requirement: natural log
    "base 2": (loglik_base2, "natural log"),
    # requirement: raise ValueError when no segmentation exists
    "-inf": (loglik_returns_minus_inf, "raise ValueError"),
    # requirement: 0.0 for the empty string
    "empty raises": (loglik_empty_raises, "empty string"),
}


# --------------------------------------------------------------------------- the page's helper is off
def max_match_by_the_helper(text, vocabulary):  # one call of the page's helper: not the exercise
    from nlp_helpers.tokenization.segmentation import max_match

    return max_match(text, vocabulary)


MAXMATCH_WRONG["calls the page's max_match"] = (max_match_by_the_helper, "build it yourself")


# --------------------------------------------------------------------------- the tests
CASES = [
    (check_find_prices, {"regex": prices_regex, "scanner": prices_scanner}, PRICES_WRONG),
    (check_max_match, {"loop": max_match_loop, "recursive": max_match_recursive}, MAXMATCH_WRONG),
    (check_osa_distance, {"table": osa_table, "rapidfuzz": OSA.distance}, OSA_WRONG),
    (check_first_merges, FIRST_MERGES_RIGHT, FIRST_MERGES_WRONG),
    (check_bpe_encode, {"huggingface": encode_ids_huggingface, "rank loop": encode_ids_dict_loop}, BPE_ENCODE_WRONG),
    (check_unigram_log_likelihood, {"python": loglik_ok, "numpy": loglik_numpy}, UNIGRAM_WRONG),
]


@pytest.mark.parametrize(
    ("checker", "answer"),
    [(c, a) for c, right, _ in CASES for a in right.values()],
    ids=[f"{c.__name__}-{name}" for c, right, _ in CASES for name in right],
)
def test_correct_answers_in_different_styles_are_accepted(checker, answer):
    result = checker(answer)
    assert result.passed, str(result)


@pytest.mark.parametrize(
    ("checker", "answer", "hint"),
    [(c, a, h) for c, _, wrong in CASES for a, h in wrong.values()],
    ids=[f"{c.__name__}-{name}" for c, _, wrong in CASES for name in wrong],
)
def test_typical_wrong_answers_are_rejected_with_a_hint_naming_the_mistake(checker, answer, hint):
    result = checker(answer)
    assert result.status == "wrong", str(result)
    assert hint.lower() in result.message.lower(), str(result)
    assert_hint_tells_not(checker, result.message)


def test_every_exercise_has_two_right_answers_and_several_wrong_ones():
    for _, right, wrong in CASES:
        assert len(right) >= 2 and len(wrong) >= 4


def test_the_by_hand_answer_is_the_hand_worked_one():
    # Worked on paper (and in the Hugging Face course's BPE example): u g 20, then u n 16, then h ug 15.
    assert merges_by_counting() == [("u", "g"), ("u", "n"), ("h", "ug")]
    assert check_first_merges(...).status == "not yet"
