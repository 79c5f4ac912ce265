"""Tests of nlp_helpers.ngram.bpc: bits per character, hand-worked and against per-token sums."""

from __future__ import annotations

import math

import pytest

from nlp_helpers.ngram.bpc import bits_per_character, text_characters
from nlp_helpers.ngram.models import NGramLM


def test_text_characters_by_hand():
    assert text_characters([["a", "b"], ["a"]]) == len("a b\na\n") == 6
    assert text_characters([["to", "be", "."]]) == len("to be .\n")


def test_unigram_closed_vocabulary_by_hand():
    # tokens a, b, </s>, a, </s>: P(a) = 2/5, P(b) = 1/5, P(</s>) = 2/5
    lm = NGramLM(1, "mle").fit([["a", "b"], ["a"]])
    bits = -math.log2(2 / 5 * 1 / 5 * 2 / 5)
    assert bits_per_character(lm, [["a", "b"]]) == pytest.approx(bits / 4, rel=1e-12)  # "a b\n"


def test_unknown_words_pay_for_their_spelling():
    lm = NGramLM(1, "laplace").fit([["a", "a", "b"]], vocabulary=["a"])  # b is <UNK>
    spelling = NGramLM(1, "mle").fit([["b"], ["b", "c"]])  # P(b) = 2/5, P(c) = 1/5, P(</s>) = 2/5
    test = [["a", "bc"]]
    # Laplace unigram, V = {</s>, <UNK>, a}: counts a 2, <UNK> 1, </s> 1 of 4 tokens
    p_a, p_unk, p_end = 3 / 7, 2 / 7, 2 / 7
    word_bits = -math.log2(p_a * p_unk * p_end)
    spell_bits = -math.log2(2 / 5 * 1 / 5 * 2 / 5)  # b, c, </s>
    chars = len("a bc\n")
    assert bits_per_character(lm, test) == pytest.approx(word_bits / chars, rel=1e-12)
    assert bits_per_character(lm, test, spelling) == pytest.approx((word_bits + spell_bits) / chars, rel=1e-12)


def test_character_model_bpc_is_its_cross_entropy():
    """A character model whose </s> is the newline: bits per character = bits per token."""
    words = [["to", "be", "or", "not"], ["to", "be", "."], ["that", "is", "the", "question"]]
    chars = [list(" ".join(s)) for s in words]
    lm = NGramLM(3, "kneser_ney").fit(chars)
    total = -sum(lm.logprob(c, ["<s>", "<s>", *chars[1]][i : i + 2]) for i, c in enumerate([*chars[1], "</s>"]))
    assert total / text_characters([words[1]]) == pytest.approx(lm.cross_entropy([chars[1]]), rel=1e-12)


def test_bad_input():
    lm = NGramLM(1, "mle").fit([["a"]])
    with pytest.raises(TypeError, match="lm"):
        bits_per_character("model", [["a"]])
    with pytest.raises(TypeError, match="spelling"):
        bits_per_character(lm, [["a"]], spelling="abc")
    with pytest.raises(ValueError, match="sentences"):
        bits_per_character(lm, [])
    with pytest.raises(TypeError, match="sentences"):
        text_characters(["a b"])
