"""The n-gram chapter's checkers accept the reference solutions and reject typical mistakes."""

from __future__ import annotations

import math
from collections import Counter, defaultdict

import pytest

from nlp_helpers.exercises.checker import STRICT_ENV
from nlp_helpers.ngram.exercises import (
    check_add_k_prob,
    check_bigram_mle,
    check_continuation_counts,
    check_kn_bigram_prob,
    check_sentence_perplexity,
)


# ----- reference solutions (the same as in book/ngram.ipynb) ---------------------------------
def _bigrams(sentences):
    for s in sentences:
        toks = ["<s>", *s, "</s>"]
        yield from zip(toks, toks[1:])


def bigram_mle(sentences, prev, word):
    pairs = Counter(_bigrams(sentences))
    context = sum(c for (h, _), c in pairs.items() if h == prev)
    return pairs[(prev, word)] / context if context else 0.0


def add_k_prob(bigram_count, context_count, vocab_size, k):
    if k <= 0:
        raise ValueError(f"k must be > 0, got {k}")
    return (bigram_count + k) / (context_count + k * vocab_size)


def sentence_perplexity(lm, sentence):
    toks = ["<s>"] * (lm.n - 1) + list(sentence) + ["</s>"]
    logs = [math.log2(lm.prob(toks[i], toks[i - lm.n + 1 : i] if lm.n > 1 else [])) for i in range(lm.n - 1, len(toks))]
    return 2 ** (-sum(logs) / len(logs))


def continuation_counts(sentences):
    left = defaultdict(set)
    for prev, word in _bigrams(sentences):
        left[word].add(prev)
    return {w: len(s) for w, s in left.items()}


def kn_bigram_prob(sentences, prev, word, d=0.75):
    words = {w for s in sentences for w in s}
    word = word if word in words or word == "</s>" else "<UNK>"
    prev = prev if prev in words or prev == "<s>" else "<UNK>"
    pairs = Counter(_bigrams(sentences))
    cont = continuation_counts(sentences)
    n_types, vocab_size = len(pairs), len(words) + 2
    p_base = max(cont.get(word, 0) - d, 0) / n_types + d * len(cont) / n_types / vocab_size
    followers = [c for (h, _), c in pairs.items() if h == prev]
    if not followers:
        return p_base
    c_h = sum(followers)
    return max(pairs[(prev, word)] - d, 0) / c_h + d * len(followers) / c_h * p_base


@pytest.mark.parametrize(
    "checker,solution",
    [
        (check_bigram_mle, bigram_mle),
        (check_add_k_prob, add_k_prob),
        (check_sentence_perplexity, sentence_perplexity),
        (check_continuation_counts, continuation_counts),
        (check_kn_bigram_prob, kn_bigram_prob),
    ],
)
def test_reference_solutions_pass(checker, solution):
    result = checker(solution)
    assert result.passed, str(result)


def _stub(*args):
    raise NotImplementedError


@pytest.mark.parametrize(
    "checker",
    [check_bigram_mle, check_add_k_prob, check_sentence_perplexity, check_continuation_counts, check_kn_bigram_prob],
)
def test_stubs_are_not_yet(checker):
    assert checker(_stub).status == "not yet"


# ----- typical wrong answers -------------------------------------------------------------
def bigram_mle_no_padding(sentences, prev, word):
    pairs = Counter(p for s in sentences for p in zip(s, s[1:]))
    context = sum(c for (h, _), c in pairs.items() if h == prev)
    return pairs[(prev, word)] / context if context else 0.0


def bigram_mle_divides_by_zero(sentences, prev, word):
    pairs = Counter(_bigrams(sentences))
    return pairs[(prev, word)] / sum(c for (h, _), c in pairs.items() if h == prev)


def add_k_forgets_vocabulary(bigram_count, context_count, vocab_size, k):
    if k <= 0:
        raise ValueError("k")
    return (bigram_count + k) / (context_count + k)


def add_k_no_check(bigram_count, context_count, vocab_size, k):
    return (bigram_count + k) / (context_count + k * vocab_size)


def perplexity_without_end(lm, sentence):
    toks = ["<s>"] * (lm.n - 1) + list(sentence)
    logs = [math.log2(lm.prob(toks[i], toks[i - lm.n + 1 : i] if lm.n > 1 else [])) for i in range(lm.n - 1, len(toks))]
    return 2 ** (-sum(logs) / len(logs))


def perplexity_counts_start(lm, sentence):
    toks = ["<s>"] * (lm.n - 1) + list(sentence) + ["</s>"]
    logs = [math.log2(lm.prob(toks[i], toks[i - lm.n + 1 : i] if lm.n > 1 else [])) for i in range(lm.n - 1, len(toks))]
    return 2 ** (-sum(logs) / (len(logs) + 1))


def continuation_counts_with_duplicates(sentences):
    left = Counter(word for _, word in _bigrams(sentences))
    return dict(left)


def kn_without_uniform_base(sentences, prev, word, d=0.75):
    pairs = Counter(_bigrams(sentences))
    cont = continuation_counts(sentences)
    p_base = cont.get(word, 0) / len(pairs)  # nltk's base: no mass for unseen words
    followers = [c for (h, _), c in pairs.items() if h == prev]
    if not followers:
        return p_base
    c_h = sum(followers)
    return max(pairs[(prev, word)] - d, 0) / c_h + d * len(followers) / c_h * p_base


def kn_with_raw_unigram(sentences, prev, word, d=0.75):
    words = {w for s in sentences for w in s}
    word = word if word in words or word == "</s>" else "<UNK>"
    unigrams = Counter(w for _, w in _bigrams(sentences))
    pairs = Counter(_bigrams(sentences))
    p_base = max(unigrams[word] - d, 0) / sum(unigrams.values()) + d * len(unigrams) / sum(unigrams.values()) / (
        len(words) + 2
    )
    followers = [c for (h, _), c in pairs.items() if h == prev]
    if not followers:
        return p_base
    c_h = sum(followers)
    return max(pairs[(prev, word)] - d, 0) / c_h + d * len(followers) / c_h * p_base


@pytest.mark.parametrize(
    "checker,wrong,fragment",
    [
        (check_bigram_mle, bigram_mle_no_padding, "<s>"),
        (check_bigram_mle, bigram_mle_divides_by_zero, "ZeroDivisionError"),
        (check_add_k_prob, add_k_forgets_vocabulary, "vocabulary size"),
        (check_add_k_prob, add_k_no_check, "k must be > 0"),
        (check_sentence_perplexity, perplexity_without_end, "</s>"),
        (check_sentence_perplexity, perplexity_counts_start, "</s>"),
        (check_continuation_counts, continuation_counts_with_duplicates, "distinct"),
        (check_kn_bigram_prob, kn_without_uniform_base, "base level"),
        (check_kn_bigram_prob, kn_with_raw_unigram, "base level"),
    ],
)
def test_wrong_answers_are_rejected_with_a_hint(checker, wrong, fragment):
    result = checker(wrong)
    assert result.status == "wrong", str(result)
    assert fragment in result.message


def test_strict_mode_raises(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(AssertionError):
        check_add_k_prob(add_k_forgets_vocabulary)
