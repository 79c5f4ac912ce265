"""Catalogues of typical answers to the exercises of the subword-tokenization chapter (book/tokenization/bpe.ipynb and unigram.ipynb).

For each exercise: the requirements its statement names, at least one typical wrong answer per
requirement (each must be rejected with a hint that names the actual mistake), and at least two
correct answers written in different styles (each must be accepted). The correct answers are
written here independently of the checkers' references.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from nlp_helpers.tokenization.bpe import merge_pair, pretokenize
from nlp_helpers.tokenization.exercises import (
    HAND_BPE_CORPUS,
    check_bpe_encode,
    check_first_merges,
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


# --------------------------------------------------------------------------- the tests
CASES = [
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
