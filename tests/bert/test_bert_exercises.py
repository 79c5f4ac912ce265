"""The checkers of the BERT chapter accept correct answers and reject the typical wrong ones."""

from __future__ import annotations

import pytest

from nlp_helpers.bert.exercises import (
    TINY_VOCAB,
    check_greedy_wordpiece,
    check_mlm_by_hand,
)
from nlp_helpers.exercises.checker import STRICT_ENV
from tests.exercise_helpers import stub


# --------------------------------------------------------------------------- WordPiece
def wp_ok(word, vocab):
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
        else:
            return ["[UNK]"]
        pieces.append(piece)
        start = end
    return pieces


def wp_partial_unk(word, vocab):
    """Keeps the pieces found so far and adds [UNK] for the rest."""
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
        else:
            return pieces + ["[UNK]"]
        pieces.append(piece)
        start = end
    return pieces


def wp_shortest_first(word, vocab):
    pieces, start = [], 0
    while start < len(word):
        for end in range(start + 1, len(word) + 1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
        else:
            return ["[UNK]"]
        pieces.append(piece)
        start = end
    return pieces


def wp_no_hashes(word, vocab):
    return [p.removeprefix("##") for p in wp_ok(word, vocab)]


def test_wordpiece_checker():
    assert wp_ok("unaffable", TINY_VOCAB) == ["un", "##aff", "##able"]
    assert check_greedy_wordpiece(wp_ok).passed
    assert check_greedy_wordpiece(stub).status == "not yet"
    assert "whole word" in check_greedy_wordpiece(wp_partial_unk).message
    assert check_greedy_wordpiece(wp_shortest_first).status == "wrong"
    assert "'##" in check_greedy_wordpiece(wp_no_hashes).message


# --------------------------------------------------------------------------- MLM by hand
def mlm_ok():
    ordinary = 200 * (128 - 2)  # [CLS] and [SEP] are never selected
    return ordinary * 0.15, ordinary * 0.15 * 0.8, 0.15 * 0.1


def mlm_counts_special():
    return 200 * 128 * 0.15, 200 * 128 * 0.15 * 0.8, 0.015


def mlm_mask_of_all():
    return 3780.0, 200 * 126 * 0.8, 0.015


def mlm_share_of_selected():
    return 3780.0, 3024.0, 0.1


def mlm_random_counts_as_visible():
    return 3780.0, 3024.0, 0.15 * 0.2


def test_mlm_by_hand_checker():
    assert check_mlm_by_hand(mlm_ok).passed
    assert check_mlm_by_hand(stub).status == "not yet"
    assert "[CLS] and [SEP]" in check_mlm_by_hand(mlm_counts_special).message
    assert "selected positions only" in check_mlm_by_hand(mlm_mask_of_all).message
    assert check_mlm_by_hand(lambda: 3780).status == "wrong"


def test_strict_mode_raises_on_a_wrong_answer(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(AssertionError, match="WordPiece by hand"):
        check_greedy_wordpiece(wp_partial_unk)
    assert check_greedy_wordpiece(wp_ok).passed
