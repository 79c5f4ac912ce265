"""Catalogue of the perplexity page's second exercise: requirements, correct answers in two styles (accepted)
and typical wrong answers (rejected with a hint naming the mistake).

* ``corpus_perplexity(sentence_logprobs)``: the tokens of all sentences pooled (not the mean of the
  sentences' perplexities, nor of their cross-entropies); base 2; a Python float; no underflow on 100,000
  tokens; an empty sentence adds nothing; a zero probability (-inf) gives inf; no tokens at all raises
  ValueError; a log2 probability above 0, or NaN, raises ValueError.
"""

from __future__ import annotations

import math

import numpy as np

from nlp_helpers.ngram.perplexity_exercises import check_corpus_perplexity
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def _validate(values):
    if not values:
        raise ValueError("no tokens")
    if any(math.isnan(v) or v > 0 for v in values):
        raise ValueError("a log2 probability must be <= 0")


def pooled_loop(sentence_logprobs):
    bits, n = 0.0, 0
    for sentence in sentence_logprobs:
        for lp in sentence:
            if math.isnan(lp) or lp > 0:
                raise ValueError(f"{lp} is not a log2 probability")
            bits -= lp
            n += 1
    if n == 0:
        raise ValueError("the corpus has no tokens")
    return 2.0 ** (bits / n)


def pooled_numpy(sentence_logprobs):
    flat = np.concatenate([np.asarray(s, dtype=float) for s in sentence_logprobs] or [np.zeros(0)])
    if flat.size == 0 or np.isnan(flat).any() or (flat > 0).any():
        raise ValueError("need at least one token, every log2 probability <= 0")
    return float(2.0 ** -flat.mean())


def mean_of_perplexities(sentence_logprobs):
    values = [v for s in sentence_logprobs for v in s]
    _validate(values)
    return float(np.mean([2.0 ** -np.mean(s) for s in sentence_logprobs if s]))


def mean_of_cross_entropies(sentence_logprobs):
    values = [v for s in sentence_logprobs for v in s]
    _validate(values)
    return float(2.0 ** np.mean([-np.mean(s) for s in sentence_logprobs if s]))


def natural_exponent(sentence_logprobs):
    values = [v for s in sentence_logprobs for v in s]
    _validate(values)
    return math.exp(-sum(values) / len(values))


def multiplies_probabilities(sentence_logprobs):
    values = [v for s in sentence_logprobs for v in s]
    _validate(values)
    product = math.prod(2.0**v for v in values)
    return product ** (-1 / len(values)) if product > 0 else math.inf


def zero_division_on_empty(sentence_logprobs):
    values = [v for s in sentence_logprobs for v in s]
    if any(math.isnan(v) or v > 0 for v in values):
        raise ValueError("bad value")
    return 2.0 ** (-sum(values) / len(values))


def accepts_positive(sentence_logprobs):
    values = [v for s in sentence_logprobs for v in s]
    if not values or any(math.isnan(v) for v in values):
        raise ValueError("bad input")
    return 2.0 ** (-sum(values) / len(values))


def misses_nan(sentence_logprobs):
    values = [v for s in sentence_logprobs for v in s]
    if not values or any(v > 0 for v in values):
        raise ValueError("bad input")
    return 2.0 ** (-sum(values) / len(values))


def counts_empty_sentences(sentence_logprobs):  # "an empty sentence adds nothing": counted as one token here
    values = [v for s in sentence_logprobs for v in s]
    _validate(values)
    return 2.0 ** (-sum(values) / sum(max(len(s), 1) for s in sentence_logprobs))


def rejects_zero_probability(sentence_logprobs):  # "-inf makes the perplexity inf, not an error"
    values = [v for s in sentence_logprobs for v in s]
    _validate(values)
    if any(math.isinf(v) for v in values):
        raise ValueError("a token has probability 0")
    return 2.0 ** (-sum(values) / len(values))


def only_the_empty_list_raises(sentence_logprobs):  # "only empty sentences" also has no tokens
    if not sentence_logprobs:
        raise ValueError("empty corpus")
    values = [v for s in sentence_logprobs for v in s]
    if any(math.isnan(v) or v > 0 for v in values):
        raise ValueError("bad value")
    return 2.0 ** (-sum(values) / len(values))


def numpy_scalar(sentence_logprobs):
    return np.float64(pooled_loop(sentence_logprobs)) * np.ones(1)


CATALOGUE = {
    check_corpus_perplexity: Catalogue(
        correct=[pooled_loop, pooled_numpy],
        wrong=[
            Wrong(mean_of_perplexities, "averaged the perplexities"),
            Wrong(mean_of_cross_entropies, "weighs as much"),
            Wrong(natural_exponent, "not exp(H)"),
            Wrong(multiplies_probabilities, "underflows"),
            Wrong(zero_division_on_empty, "raise ValueError"),
            Wrong(accepts_positive, "above 1"),
            Wrong(misses_nan, "math.isnan"),
            Wrong(numpy_scalar, "Python float"),
            Wrong(counts_empty_sentences, "empty sentence has no tokens"),
            Wrong(rejects_zero_probability, ("should be inf", "-inf flow")),
            Wrong(only_the_empty_list_raises, ("[[], []]", "Sentences without tokens")),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)


def test_the_by_hand_numbers():
    # 1/2, 1/2 and 1/8: 5 bits over 3 tokens; the sentences alone have perplexities 2 and 8.
    assert pooled_loop([[-1.0, -1.0], [-3.0]]) == 2 ** (5 / 3)
    assert mean_of_perplexities([[-1.0, -1.0], [-3.0]]) == 5.0
