"""Catalogue of the exercises of "Architecture and pre-training": requirements, correct answers in several
styles (accepted) and typical wrong answers (rejected with a hint naming the mistake).

* ``greedy_wordpiece``: longest match first; ``##`` on continuation pieces; ``["[UNK]"]`` (a list) for the whole
  word.
* ``mlm_by_hand``: only ordinary tokens are selected; 80 % of the *selected* become [MASK]; the visible
  targets are the unchanged 10 % of the selected, as a share of all ordinary tokens; three numbers.
"""

from __future__ import annotations

from nlp_helpers.bert import exercises as ex
from tests.bert.test_bert_exercises import (
    mlm_counts_special,
    mlm_mask_of_all,
    mlm_ok,
    mlm_random_counts_as_visible,
    mlm_share_of_selected,
    wp_no_hashes,
    wp_ok,
    wp_partial_unk,
    wp_shortest_first,
)
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def wp_recursive(word, vocab, first=True):
    if not word:
        return []
    for end in range(len(word), 0, -1):
        piece = word[:end] if first else "##" + word[:end]
        if piece in vocab:
            rest = wp_recursive(word[end:], vocab, first=False)
            return ["[UNK]"] if rest == ["[UNK]"] else [piece, *rest]
    return ["[UNK]"]


def mlm_fractions():
    n_ordinary = 200 * 128 - 2 * 200
    selected = 0.15 * n_ordinary
    return (selected, 0.8 * selected, 0.1 * selected / n_ordinary)


def wp_list_of_unk_pieces(word, vocab):  # "return ["[UNK]"] for the whole word": a string, not a list
    pieces = wp_ok(word, vocab)
    return "[UNK]" if pieces == ["[UNK]"] else pieces


CATALOGUE = {
    ex.check_greedy_wordpiece: Catalogue(
        correct=[wp_ok, wp_recursive],
        wrong=[
            Wrong(wp_partial_unk, "whole word"),
            Wrong(wp_shortest_first, "longest"),
            Wrong(wp_no_hashes, "'##"),
            Wrong(wp_list_of_unk_pieces, "['[UNK]']"),
        ],
    ),
    ex.check_mlm_by_hand: Catalogue(
        correct=[mlm_ok, mlm_fractions],
        wrong=[
            Wrong(mlm_counts_special, "[CLS] and [SEP]"),
            Wrong(mlm_mask_of_all, "selected positions only"),
            Wrong(mlm_share_of_selected, "multiply by p"),
            Wrong(mlm_random_counts_as_visible, "randomly replaced"),
            Wrong(lambda: 3780, "tuple of three numbers"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
