"""The checkers of the subword-tokenization chapter accept correct answers and reject the typical wrong ones."""

from __future__ import annotations

import math

import numpy as np
import pytest
from tokenizers import Tokenizer, models, pre_tokenizers

from nlp_helpers.exercises.checker import STRICT_ENV
from nlp_helpers.tokenization.bpe import merge_pair, pretokenize
from nlp_helpers.tokenization.byte_level import ByteLevelBPE, bytes_to_unicode
from nlp_helpers.tokenization.exercises import (
    BPE_ID_MERGES,
    check_bpe_encode,
    check_unigram_log_likelihood,
)
from nlp_helpers.tokenization.unigram import viterbi_segment
from tests.exercise_helpers import stub


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
    with pytest.raises(AssertionError, match="sum"):
        check_unigram_log_likelihood(loglik_viterbi)
    assert check_unigram_log_likelihood(loglik_ok).passed
