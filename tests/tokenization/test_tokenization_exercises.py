"""The checkers of the tokenization chapter accept correct answers and reject the typical wrong ones."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from nltk import edit_distance as nltk_edit_distance
from rapidfuzz.distance import OSA
from tokenizers import Tokenizer, models, pre_tokenizers

from nlp_helpers.exercises.checker import STRICT_ENV
from nlp_helpers.tokenization.bpe import merge_pair, pretokenize
from nlp_helpers.tokenization.byte_level import ByteLevelBPE, bytes_to_unicode
from nlp_helpers.tokenization.exercises import (
    BPE_ID_MERGES,
    MAXMATCH_VOCAB,
    check_bpe_encode,
    check_find_prices,
    check_max_match,
    check_osa_distance,
    check_unigram_log_likelihood,
)
from nlp_helpers.tokenization.unigram import viterbi_segment
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


# --------------------------------------------------------------------------- byte-level BPE encode
def encode_ids_huggingface(text, merges):
    """An independent right answer: Hugging Face's byte-level BPE model built from the same merge table.

    The vocabulary maps GPT-2's printable stand-in of each byte to the byte's value and every merged
    symbol to its new id; the merges are listed in the order of their ids (their rank). Hugging Face's
    ``ByteLevel`` pre-tokenizer applies GPT-2's split pattern, so nothing of the checker is reused.
    """
    byte_char = bytes_to_unicode()
    spelled = {b: c for b, c in byte_char.items()}  # id -> the token's string in GPT-2's alphabet
    vocab = {c: b for b, c in byte_char.items()}
    hf_merges = []
    for (left, right), new in sorted(merges.items(), key=lambda kv: kv[1]):
        spelled[new] = spelled[left] + spelled[right]
        vocab[spelled[new]] = new
        hf_merges.append((spelled[left], spelled[right]))
    tok = Tokenizer(models.BPE(vocab=vocab, merges=hf_merges))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    return tok.encode(text).ids if text else []


def encode_ids_leftmost(text, merges):  # applies the leftmost known pair instead of the earliest merge
    out = []
    for chunk in pretokenize(text):
        ids = list(chunk.encode("utf-8"))
        while True:
            pairs = [p for p in zip(ids, ids[1:]) if p in merges]
            if not pairs:
                break
            ids = merge_pair(ids, pairs[0], merges[pairs[0]])
        out.extend(ids)
    return out


def encode_ids_characters(text, merges):  # code points instead of bytes
    out = []
    for chunk in pretokenize(text):
        ids = [ord(c) for c in chunk]
        while len(ids) > 1:
            pair = min(zip(ids, ids[1:]), key=lambda p: merges.get(p, math.inf))
            if pair not in merges:
                break
            ids = merge_pair(ids, pair, merges[pair])
        out.extend(ids)
    return out


def test_bpe_encode_checker_accepts_huggingface_bpe_built_from_the_same_merges():
    # The Hugging Face answer agrees with our byte-level BPE (trained separately) on text with
    # contractions and two-byte characters: it is a right answer that shares no code with the checker.
    byte_bpe = ByteLevelBPE.train(["hello hello world, héllo wörld! low lower lowest " * 3], 40)
    char_to_id = {c: b for b, c in bytes_to_unicode().items()}
    merges, token_id = {}, dict(char_to_id)
    for k, (left, right) in enumerate(byte_bpe.merges):
        merges[(token_id[left], token_id[right])] = 256 + k
        token_id.setdefault(left + right, 256 + k)
    for text in ["hello world", "héllo lowest wörld!", "I don't"]:
        assert encode_ids_huggingface(text, merges) == [token_id[t] for t in byte_bpe.encode(text)]
    assert encode_ids_huggingface("hello", BPE_ID_MERGES) == [259]  # h+e, l+l, he+ll, hell+o: worked by hand
    assert encode_ids_huggingface("abc", {(98, 99): 256, (97, 98): 257}) == [97, 256]
    assert check_bpe_encode(encode_ids_huggingface).passed
    assert check_bpe_encode(stub).status == "not yet"
    assert "learned first" in check_bpe_encode(encode_ids_leftmost).message
    assert "UTF-8" in check_bpe_encode(encode_ids_characters).message
    assert BPE_ID_MERGES[(ord("l"), ord("l"))] == 256


# --------------------------------------------------------------------------- Unigram likelihood
def loglik_ok(text, log_probs):
    longest = max(map(len, log_probs))
    alpha = [0.0] + [-math.inf] * len(text)
    for j in range(1, len(text) + 1):
        terms = [alpha[i] + log_probs[text[i:j]] for i in range(max(0, j - longest), j) if text[i:j] in log_probs]
        if terms:
            alpha[j] = float(np.logaddexp.reduce(terms))
    if alpha[-1] == -math.inf:
        raise ValueError("no segmentation")
    return alpha[-1]


def loglik_viterbi(text, log_probs):  # max instead of sum
    return viterbi_segment(text, log_probs)[1]


def loglik_raw_probs(text, log_probs):  # multiplies probabilities: underflows on long strings
    longest = max(map(len, log_probs))
    p = [1.0] + [0.0] * len(text)
    for j in range(1, len(text) + 1):
        p[j] = sum(
            p[i] * math.exp(log_probs[text[i:j]]) for i in range(max(0, j - longest), j) if text[i:j] in log_probs
        )
    if p[-1] == 0 and text:
        raise ValueError("no segmentation")
    return math.log(p[-1]) if p[-1] > 0 else -math.inf


def test_unigram_log_likelihood_checker():
    # hand-worked: "ab" under {a: log .5, b: log .5, ab: log .25} has two segmentations, .25 + .25
    lp = {"a": math.log(0.5), "b": math.log(0.5), "ab": math.log(0.25)}
    assert math.isclose(loglik_ok("ab", lp), math.log(0.5), rel_tol=1e-12)
    assert check_unigram_log_likelihood(loglik_ok).passed
    assert check_unigram_log_likelihood(stub).status == "not yet"
    assert "sum" in check_unigram_log_likelihood(loglik_viterbi).message
    assert "logsumexp" in check_unigram_log_likelihood(loglik_raw_probs).message


def test_strict_mode_raises_for_wrong_answers(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(AssertionError, match="transpositions"):
        check_osa_distance(levenshtein)
    assert check_osa_distance(osa_ok).passed
