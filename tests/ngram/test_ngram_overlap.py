"""Tests of nlp_helpers.ngram.overlap: the longest n-gram a sample shares with the training text.

Reference: a brute-force search over the set of every n-gram of every training sentence.
"""

from __future__ import annotations

import pytest

from nlp_helpers.data.splits import shakespeare_sentences
from nlp_helpers.ngram.models import NGramLM
from nlp_helpers.ngram.overlap import TrainingText
from nlp_helpers.seeds import rng as seeded_rng


def all_ngrams(sentences):
    return {tuple(s[i:j]) for s in sentences for i in range(len(s)) for j in range(i + 1, len(s) + 1)}


def brute_force_longest(words, sentences, grams=None):
    grams = all_ngrams(sentences) if grams is None else grams
    best = []
    for i in range(len(words)):
        for j in range(i + 1, len(words) + 1):
            if tuple(words[i:j]) in grams and j - i > len(best):
                best = list(words[i:j])
    return best


def test_hand_worked():
    text = TrainingText([["i", "am", "sam"], ["sam", "i", "am"]])
    assert text.longest_shared_ngram(["sam", "i", "am", "sam"]) == ["sam", "i", "am"]
    # "am sam i" spans the line break between the two sentences: not a shared run
    assert text.longest_shared_ngram(["am", "sam", "i"]) == ["am", "sam"]
    assert text.longest_shared_ngram(["zebra"]) == []
    assert text.longest_shared_ngram([]) == []
    # a token is matched whole, never as part of a longer token
    assert text.longest_shared_ngram(["a", "m"]) == []
    assert text.contains(["i", "am"]) and not text.contains(["am", "i"])


def test_matches_brute_force_on_model_samples():
    """A 17-word verbatim run inside a sample that is not a whole training sentence is found."""
    sentences = shakespeare_sentences("othello")[:400]
    text, grams = TrainingText(sentences), all_ngrams(sentences)
    lm = NGramLM(4, "mle").fit(sentences)
    gen = seeded_rng(3)
    found_long = 0
    for seed in range(12):
        for order in (1, 2, 3, 4):
            words = lm.generate(25, seed=seed, order=order)
            assert text.longest_shared_ngram(words) == brute_force_longest(words, sentences, grams)
    for _ in range(30):  # splice two training sentences: the longer piece is a shared run
        a, b = (sentences[int(i)] for i in gen.integers(len(sentences), size=2))
        words = a[: len(a) // 2] + ["zzz"] + b
        got = text.longest_shared_ngram(words)
        assert got == brute_force_longest(words, sentences, grams)
        found_long += len(got) >= 17
    assert found_long > 0


@pytest.mark.parametrize(
    "bad,exc,match",
    [
        ("to be", TypeError, "words"),
        ([["x"]], ValueError, "words"),
        (["two words"], ValueError, "words"),
        ([""], ValueError, "words"),
    ],
)
def test_bad_words(bad, exc, match):
    with pytest.raises(exc, match=match):
        TrainingText([["a", "b"]]).longest_shared_ngram(bad)


def test_bad_sentences_and_ngram():
    with pytest.raises(ValueError, match="sentences"):
        TrainingText([])
    with pytest.raises(TypeError, match=r"sentences\[0\]"):
        TrainingText(["a b"])
    with pytest.raises(ValueError, match=r"sentences\[1\]"):
        TrainingText([["a"], ["b c"]])
    with pytest.raises(ValueError, match="ngram"):
        TrainingText([["a"]]).contains([])
