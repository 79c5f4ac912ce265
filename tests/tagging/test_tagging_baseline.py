"""Accuracy, ambiguity statistics and the most-frequent-tag baseline: hand-worked cases and nltk."""

from __future__ import annotations

import pytest

from nlp_helpers.data.ud import ewt_sentences
from nlp_helpers.tagging.baseline import (
    MostFrequentTagTagger,
    ambiguity_stats,
    check_tagged_sentences,
    tag_accuracy,
)

TINY = [
    [("I", "PRON"), ("saw", "VERB"), ("a", "DET"), ("saw", "NOUN")],
    [("the", "DET"), ("saw", "NOUN")],
    [("I", "PRON"), ("run", "VERB")],
]


def test_ambiguity_stats_by_hand():
    # types: I, saw, a, the, run -> only "saw" has two tags; its 3 tokens of 8
    assert ambiguity_stats(TINY) == {
        "n_types": 5,
        "n_tokens": 8,
        "ambiguous_type_share": 1 / 5,
        "ambiguous_token_share": 3 / 8,
    }


def test_tag_accuracy_by_hand_and_bad_input():
    assert tag_accuracy([["A", "B"], ["C"]], [["A", "C"], ["C"]]) == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="sentences"):
        tag_accuracy([["A"]], [["A"], ["B"]])
    with pytest.raises(ValueError, match="sentence 0"):
        tag_accuracy([["A", "B"]], [["A"]])
    with pytest.raises(ValueError, match="gold_tags"):
        tag_accuracy([], [])
    with pytest.raises(ValueError, match="at least one token"):
        tag_accuracy([[]], [[]])


def test_most_frequent_tag_by_hand():
    tagger = MostFrequentTagTagger().fit(TINY)
    # saw: NOUN 2, VERB 1; unknown words get the commonest tag overall (DET, PRON, NOUN, VERB all 2:
    # the first seen, PRON)
    assert tagger.tag(["I", "saw", "zebras"]) == ["PRON", "NOUN", "PRON"]
    assert tagger.tag([]) == []


def test_most_frequent_tag_agrees_with_nltk_unigram_tagger():
    from nltk.tag import DefaultTagger, UnigramTagger

    train, dev = ewt_sentences("train"), ewt_sentences("dev")
    ours = MostFrequentTagTagger().fit(train)
    theirs = UnigramTagger(train, backoff=DefaultTagger("NOUN"))
    words = [[w for w, _ in s] for s in dev]
    gold = [[t for _, t in s] for s in dev]
    a = tag_accuracy(gold, [ours.tag(w) for w in words])
    b = tag_accuracy(gold, [[t for _, t in theirs.tag(w)] for w in words])
    assert a == pytest.approx(b, abs=2e-3)  # only ties between equally frequent tags may differ


def test_bad_corpora_name_the_argument():
    with pytest.raises(ValueError, match="sentences"):
        MostFrequentTagTagger().fit([])
    with pytest.raises(TypeError, match="sentences"):
        MostFrequentTagTagger().fit([["I", "PRON"]])
    with pytest.raises(TypeError, match="corpus"):
        check_tagged_sentences("corpus", ["I PRON"])
    with pytest.raises(RuntimeError, match="fit"):
        MostFrequentTagTagger().tag(["I"])
    with pytest.raises(TypeError, match="words"):
        MostFrequentTagTagger().fit(TINY).tag("I saw")
    with pytest.raises(ValueError, match="sentences"):
        ambiguity_stats([])
