"""Catalogues of typical answers to the exercises of the words chapter (book/words/*.ipynb).

For each exercise: the requirements its statement names, at least one typical wrong answer per
requirement (each must be rejected with a hint that names the actual mistake), and at least two
correct answers written in different styles (each must be accepted). The correct answers are
written here independently of the checkers' references.
"""

from __future__ import annotations

import math
import re
from functools import cache

import numpy as np
import pytest
from rapidfuzz.distance import OSA

from nlp_helpers.words.exercises import (
    check_find_prices,
    check_max_match,
    check_osa_distance,
    check_unigram_segment,
)
from tests.exercise_helpers import assert_hint_tells_not


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


# --------------------------------------------------------------------------- the page's helper is off
def max_match_by_the_helper(text, vocabulary):  # one call of the page's helper: not the exercise
    from nlp_helpers.words.segmentation import max_match

    return max_match(text, vocabulary)


MAXMATCH_WRONG["calls the page's max_match"] = (max_match_by_the_helper, "build it yourself")


# --------------------------------------------------------------------------- unigram_segment
def _check_log_probs(log_probs, unknown_log_prob):
    if any(lp > 0 for lp in log_probs.values()):
        raise ValueError("log_probs: every value must be a log probability <= 0")
    if unknown_log_prob > 0:
        raise ValueError("unknown_log_prob must be <= 0")


def segment_forward(text, log_probs, unknown_log_prob):  # best[j] from best[i], back-pointers
    _check_log_probs(log_probs, unknown_log_prob)
    return forward_unchecked(text, log_probs, unknown_log_prob)


def forward_unchecked(text, log_probs, unknown_log_prob):
    longest = max(map(len, log_probs), default=1)
    best, back = [0.0] + [-math.inf] * len(text), [0] * (len(text) + 1)
    for j in range(1, len(text) + 1):
        for i in range(max(0, j - longest), j):
            w = text[i:j]
            lp = log_probs[w] if w in log_probs else (unknown_log_prob if len(w) == 1 else None)
            if lp is not None and best[i] + lp > best[j]:
                best[j], back[j] = best[i] + lp, i
    out, j = [], len(text)
    while j:
        out.append(text[back[j] : j])
        j = back[j]
    return out[::-1]


def segment_memo_suffix(text, log_probs, unknown_log_prob):  # recursion over suffixes, memoised
    _check_log_probs(log_probs, unknown_log_prob)

    @cache
    def best(i):  # (score, tokens) of the best split of text[i:]
        if i == len(text):
            return 0.0, ()
        options = []
        for j in range(i + 1, len(text) + 1):
            w = text[i:j]
            if w in log_probs or j == i + 1:
                score, rest = best(j)
                options.append((log_probs.get(w, unknown_log_prob) + score, (w, *rest)))
        return max(options, key=lambda o: o[0])

    return list(best(0)[1])


def segment_greedy(text, log_probs, unknown_log_prob):  # MaxMatch: the longest word, not the most probable
    _check_log_probs(log_probs, unknown_log_prob)
    return max_match_loop(text, set(log_probs))


def segment_fewest_words(text, log_probs, unknown_log_prob):  # minimises the number of tokens instead
    _check_log_probs(log_probs, unknown_log_prob)
    return forward_unchecked(text, dict.fromkeys(log_probs, -1.0), -1.0)


def segment_single_chars_unknown(text, log_probs, unknown_log_prob):  # every single character scores as unknown
    _check_log_probs(log_probs, unknown_log_prob)
    return segment_forward(text, {w: lp for w, lp in log_probs.items() if len(w) > 1}, unknown_log_prob)


def segment_short_words(text, log_probs, unknown_log_prob):  # words of at most 4 characters only
    _check_log_probs(log_probs, unknown_log_prob)
    return segment_forward(text, {w: lp for w, lp in log_probs.items() if len(w) <= 4}, unknown_log_prob)


def segment_unknown_run(text, log_probs, unknown_log_prob):  # glues a run of unknown characters into one token
    out = []
    for t in segment_forward(text, log_probs, unknown_log_prob):
        if out and t not in log_probs and out[-1] not in log_probs:
            out[-1] += t
        else:
            out.append(t)
    return out


def segment_drops_unknown(text, log_probs, unknown_log_prob):
    return [t for t in segment_forward(text, log_probs, unknown_log_prob) if t in log_probs]


def segment_adds_unknowns_to_log_probs(text, log_probs, unknown_log_prob):  # changes the caller's dictionary
    _check_log_probs(log_probs, unknown_log_prob)
    for c in set(text) - set(log_probs):
        log_probs[c] = unknown_log_prob
    return segment_forward(text, log_probs, unknown_log_prob)


def segment_no_checks(text, log_probs, unknown_log_prob):  # accepts probabilities above 1
    return forward_unchecked(text, log_probs, unknown_log_prob)


def segment_vague_error(text, log_probs, unknown_log_prob):  # rejects bad input without naming the argument
    if any(lp > 0 for lp in log_probs.values()) or unknown_log_prob > 0:
        raise ValueError("bad input")
    return segment_forward(text, log_probs, unknown_log_prob)


def segment_checks_log_probs_only(text, log_probs, unknown_log_prob):
    if any(lp > 0 for lp in log_probs.values()):
        raise ValueError("log_probs: every value must be a log probability <= 0")
    return forward_unchecked(text, log_probs, unknown_log_prob)


def segment_rejects_zero(text, log_probs, unknown_log_prob):  # a probability of 1 is a probability too
    if any(lp >= 0 for lp in log_probs.values()) or unknown_log_prob >= 0:
        raise ValueError("log_probs and unknown_log_prob must be negative")
    return forward_unchecked(text, log_probs, unknown_log_prob)


def segment_empty_raises(text, log_probs, unknown_log_prob):
    if not text:
        raise ValueError("text is empty")
    return segment_forward(text, log_probs, unknown_log_prob)


def segment_with_score(text, log_probs, unknown_log_prob):  # returns (tokens, log probability)
    tokens = segment_forward(text, log_probs, unknown_log_prob)
    return tokens, sum(log_probs.get(t, unknown_log_prob) for t in tokens)


def segment_by_the_later_helper(text, log_probs, unknown_log_prob):  # the subword chapter's Viterbi
    from nlp_helpers.tokenization.unigram import viterbi_segment

    _check_log_probs(log_probs, unknown_log_prob)
    if not text:
        return []
    pieces = {**dict.fromkeys(set(text), unknown_log_prob), **log_probs}
    return viterbi_segment(text, pieces)[0]


SEGMENT_WRONG = {
    # requirement: the most probable segmentation, not the longest-match one
    "greedy longest match": (segment_greedy, "greedy longest-match"),
    # requirement: maximise the total log probability, not the number of words
    "fewest words": (segment_fewest_words, "fewer tokens"),
    # requirement: a character that is a word of log_probs scores its own log probability
    "known characters scored as unknown": (segment_single_chars_unknown, "scores its own log probability"),
    # requirement: words of any length
    "words of at most 4 characters": (segment_short_words, "every word text[i:j] that ends there"),
    # requirement: an unknown character is a token of one character
    "unknown run": (segment_unknown_run, "one character on its own"),
    "drops unknown": (segment_drops_unknown, "never drop"),
    # requirement: a list of tokens
    "tokens and score": (segment_with_score, "list of tokens"),
    # requirement: the empty string gives []
    "empty raises": (segment_empty_raises, "empty string has no tokens"),
    # requirement: ValueError naming the argument
    "no input checks": (segment_no_checks, "log probability above 0 in log_probs should raise ValueError"),
    "error names no argument": (segment_vague_error, "does not name `log_probs`"),
    "unknown_log_prob not checked": (segment_checks_log_probs_only, "unknown_log_prob above 0"),
    "rejects a log probability of 0": (segment_rejects_zero, "probability of 0"),
    # (the caller's data stays as it was)
    "adds unknown characters to log_probs": (segment_adds_unknowns_to_log_probs, "modified its input"),
    # build it yourself
    "calls the subword chapter's viterbi_segment": (segment_by_the_later_helper, "build it yourself"),
}


# --------------------------------------------------------------------------- the tests
CASES = [
    (check_find_prices, {"regex": prices_regex, "scanner": prices_scanner}, PRICES_WRONG),
    (check_max_match, {"loop": max_match_loop, "recursive": max_match_recursive}, MAXMATCH_WRONG),
    (check_osa_distance, {"table": osa_table, "rapidfuzz": OSA.distance}, OSA_WRONG),
    (check_unigram_segment, {"forward": segment_forward, "memoised suffixes": segment_memo_suffix}, SEGMENT_WRONG),
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
