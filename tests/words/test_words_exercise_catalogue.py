"""Catalogues of typical answers to the exercises of the words chapter (book/words/*.ipynb).

For each exercise: the requirements its statement names, at least one typical wrong answer per
requirement (each must be rejected with a hint that names the actual mistake), and at least two
correct answers written in different styles (each must be accepted). The correct answers are
written here independently of the checkers' references.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from rapidfuzz.distance import OSA

from nlp_helpers.words.exercises import check_find_prices, check_max_match, check_osa_distance
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


# --------------------------------------------------------------------------- the tests
CASES = [
    (check_find_prices, {"regex": prices_regex, "scanner": prices_scanner}, PRICES_WRONG),
    (check_max_match, {"loop": max_match_loop, "recursive": max_match_recursive}, MAXMATCH_WRONG),
    (check_osa_distance, {"table": osa_table, "rapidfuzz": OSA.distance}, OSA_WRONG),
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
