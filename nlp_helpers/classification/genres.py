"""A three-class task for softmax regression: is a Shakespeare passage from a comedy, history or tragedy?

The labels are the three sections of the First Folio (1623), the first collected edition of the
plays: 14 comedies, 10 histories and 12 tragedies (*Troilus and Cressida*, printed between the
histories and the tragedies, is counted as a tragedy, its Folio title; *Cymbeline* closes the
Folio's tragedies). *Pericles*, which is not in the Folio, and the poems are left out. The text
is that of the ``shakespeare`` package, split into sentences by :mod:`nlp_helpers.data.splits`.

A passage is ``sentences_per_passage`` consecutive sentences of one play. The split holds out
whole plays (two per genre), so a classifier must recognise the genre, not the characters'
names. Like every data definition in the book it ignores ``NLP_SEED_OFFSET``.
"""

from __future__ import annotations

import functools

import pandas as pd

from nlp_helpers._checks import check_int
from nlp_helpers.data.splits import shakespeare_sentences

__all__ = ["FOLIO_GENRES", "TEST_PLAYS", "genre_passages", "genre_split"]

FOLIO_GENRES: dict[str, tuple[str, ...]] = {
    "comedy": (
        "tempest",
        "two_gentlemen_of_verona",
        "merry_wives_of_windsor",
        "measure_for_measure",
        "comedy_of_errors",
        "much_ado_about_nothing",
        "loves_labours_lost",
        "midsummer_nights_dream",
        "merchant_of_venice",
        "as_you_like_it",
        "taming_of_the_shrew",
        "alls_well_that_ends_well",
        "twelfth_night",
        "winters_tale",
    ),
    "history": (
        "john",
        "richard_ii",
        "henry_iv_part_1",
        "henry_iv_part_2",
        "henry_v",
        "henry_vi_part_1",
        "henry_vi_part_2",
        "henry_vi_part_3",
        "richard_iii",
        "henry_viii",
    ),
    "tragedy": (
        "troilus_and_cressida",
        "coriolanus",
        "tragedy_of_titus_andronicus",
        "romeo_and_juliet",
        "timon_of_athens",
        "julius_caesar",
        "macbeth",
        "hamlet",
        "lear",
        "othello",
        "antony_and_cleopatra",
        "cymbeline",
    ),
}
# Held out: two well-known plays of each genre.
TEST_PLAYS = ("twelfth_night", "merchant_of_venice", "henry_v", "richard_iii", "macbeth", "othello")


def genre_passages(sentences_per_passage: int = 10) -> pd.DataFrame:
    """Every passage of the 36 Folio plays: columns ``play``, ``genre`` and ``tokens`` (a list of str).

    Passages do not overlap; a play's last incomplete passage is dropped.
    """
    n = check_int("sentences_per_passage", sentences_per_passage, minimum=1)
    return _passages(n).copy()


@functools.lru_cache(maxsize=4)
def _passages(n: int) -> pd.DataFrame:
    rows = []
    for genre, plays in FOLIO_GENRES.items():
        for play in plays:
            sentences = shakespeare_sentences(play)
            for start in range(0, len(sentences) - n + 1, n):
                tokens = [tok for sentence in sentences[start : start + n] for tok in sentence]
                rows.append({"play": play, "genre": genre, "tokens": tokens})
    return pd.DataFrame(rows)


def genre_split(sentences_per_passage: int = 10) -> dict[str, pd.DataFrame]:
    """``{"train", "test"}`` passages: the plays of :data:`TEST_PLAYS` form the test set, the rest train."""
    frame = genre_passages(sentences_per_passage)
    held_out = frame["play"].isin(TEST_PLAYS)
    return {"train": frame[~held_out].reset_index(drop=True), "test": frame[held_out].reset_index(drop=True)}
