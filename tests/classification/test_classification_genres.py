"""The Shakespeare genre task: the Folio's three sections, passages, and a split that holds out whole plays."""

from __future__ import annotations

import pytest

from nlp_helpers.classification.genres import (
    FOLIO_GENRES,
    TEST_PLAYS,
    genre_passages,
    genre_split,
)
from nlp_helpers.data.corpora import shakespeare_plays
from nlp_helpers.data.splits import shakespeare_sentences


def test_folio_sections():
    # The First Folio (1623): 14 comedies, 10 histories, 12 tragedies (Troilus and Cressida counted
    # with the tragedies); Pericles and the poems are not in it.
    assert {k: len(v) for k, v in FOLIO_GENRES.items()} == {"comedy": 14, "history": 10, "tragedy": 12}
    plays = [p for ps in FOLIO_GENRES.values() for p in ps]
    assert len(set(plays)) == 36 and set(plays) <= set(shakespeare_plays())
    assert "pericles" not in plays and "sonnets" not in plays
    assert {"hamlet", "lear", "macbeth", "othello"} <= set(FOLIO_GENRES["tragedy"])
    assert "henry_v" in FOLIO_GENRES["history"] and "tempest" in FOLIO_GENRES["comedy"]


def test_passages_are_consecutive_sentences():
    frame = genre_passages(5)
    first = frame[frame["play"] == "hamlet"].iloc[0]["tokens"]
    assert first == [tok for s in shakespeare_sentences("hamlet")[:5] for tok in s]
    assert first[:2] == ["who's", "there"]
    assert len(frame[frame["play"] == "hamlet"]) == len(shakespeare_sentences("hamlet")) // 5


def test_split_holds_out_whole_plays():
    parts = genre_split()
    assert set(parts["test"]["play"]) == set(TEST_PLAYS)
    assert not set(parts["train"]["play"]) & set(TEST_PLAYS)
    assert set(parts["test"]["genre"]) == {"comedy", "history", "tragedy"}
    assert len(parts["train"]) + len(parts["test"]) == len(genre_passages())


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="sentences_per_passage"):
        genre_passages(0)
    with pytest.raises(TypeError, match="sentences_per_passage"):
        genre_split("10")
