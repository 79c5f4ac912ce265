"""Checkers for the exercises of the page "Architecture and pre-training" (``book/bert/pretraining.ipynb``).

Each ``check_*`` calls the student's function on small inputs, compares it with
the book's helpers (:mod:`nlp_helpers.bert.wordpiece`) and with values worked out by
hand, and tries the edge case students forget.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from nlp_helpers.bert.wordpiece import wordpiece_word
from nlp_helpers.exercises.checker import Checker, CheckResult

__all__ = [
    "TINY_VOCAB",
    "check_greedy_wordpiece",
    "MLM_BATCH",
    "check_mlm_by_hand",
]

# A tiny WordPiece vocabulary: word-initial pieces and "##" continuations.
TINY_VOCAB = {
    p: i
    for i, p in enumerate(
        [
            "[UNK]",
            "un",
            "play",
            "player",
            "the",
            "a",
            "##aff",
            "##able",
            "##a",
            "##ble",
            "##ing",
            "##s",
            "##er",
            "##ed",
            "##p",
            "##l",
            "##y",
            "p",
            "l",
        ]
    )
}


def check_greedy_wordpiece(greedy_wordpiece: Callable) -> CheckResult:
    """``greedy_wordpiece(word, vocab)``: greedy longest-match-first pieces, or ``["[UNK]"]`` for the whole word."""
    with Checker("WordPiece by hand") as ex:
        for word, by_hand in [
            ("unaffable", ["un", "##aff", "##able"]),
            ("playing", ["play", "##ing"]),
            ("players", ["player", "##s"]),
            ("played", ["play", "##ed"]),
        ]:
            got = ex.call(greedy_wordpiece, word, TINY_VOCAB)
            ex.expect_equal(
                list(got),
                by_hand,
                what=f"greedy_wordpiece({word!r}, TINY_VOCAB)",
                hint="Take the longest prefix in the vocabulary, then the longest '##' piece of the rest.",
            )
            ex.expect_equal(by_hand, wordpiece_word(word, TINY_VOCAB), what="the book's wordpiece_word (self-check)")
        got = ex.call(greedy_wordpiece, "player", TINY_VOCAB)
        ex.expect_equal(
            list(got),
            ["player"],
            what="greedy_wordpiece('player', TINY_VOCAB)",
            hint="'player' is in the vocabulary as a whole: the longest match wins over 'play' + '##er'.",
        )
        got = ex.call(greedy_wordpiece, "playz", TINY_VOCAB)
        ex.expect_equal(
            list(got),
            ["[UNK]"],
            what="greedy_wordpiece('playz', TINY_VOCAB)",
            hint="No piece matches 'z': BERT then replaces the *whole word* by [UNK], not just the rest.",
        )
        got = ex.call(greedy_wordpiece, "ply", TINY_VOCAB)
        ex.expect_equal(
            list(got),
            ["p", "##l", "##y"],
            what="greedy_wordpiece('ply', TINY_VOCAB)",
            hint="When no longer piece fits, fall back to single characters ('p', then '##l', '##y').",
        )
    return ex.result


#: The batch of the by-hand exercise: sequences, tokens per sequence (with [CLS] and [SEP]), p.
MLM_BATCH = {"sequences": 200, "length": 128, "special_per_sequence": 2, "p": 0.15}


def _three_numbers(ex: Checker, got: object) -> tuple[float, float, float]:
    if not isinstance(got, (tuple, list)) or len(got) != 3:
        ex.fail(f"mlm_by_hand() should return a tuple of three numbers, got {got!r}.")
    try:
        return float(got[0]), float(got[1]), float(got[2])
    except (TypeError, ValueError):
        ex.fail(f"mlm_by_hand() should return three numbers, got {got!r}.")
    raise AssertionError("unreachable")  # pragma: no cover


def check_mlm_by_hand(mlm_by_hand: Callable) -> CheckResult:
    """``mlm_by_hand()`` -> (expected selected positions, expected [MASK] inputs, share of visible targets)."""
    with Checker("Masked language modelling by hand") as ex:
        n, t, k, p = (MLM_BATCH[key] for key in ("sequences", "length", "special_per_sequence", "p"))
        ordinary = n * (t - k)
        want = (ordinary * p, ordinary * p * 0.8, p * 0.1)
        selected, masked, visible = _three_numbers(ex, ex.call(mlm_by_hand))
        if not math.isclose(selected, want[0], abs_tol=0.5):
            if math.isclose(selected, n * t * p, abs_tol=0.5):
                ex.fail("[CLS] and [SEP] are never selected: count only the 126 ordinary tokens of each sequence.")
            ex.fail(f"the expected number of selected positions is not {selected:g}: 15% of the ordinary tokens.")
        if not math.isclose(masked, want[1], abs_tol=0.5):
            if math.isclose(masked, ordinary * 0.8, abs_tol=0.5):
                ex.fail("80 % applies to the selected positions only, not to every ordinary token.")
            if math.isclose(masked, n * t * p * 0.8, abs_tol=0.5):
                ex.fail("[CLS] and [SEP] are never selected: count only the ordinary tokens.")
            ex.fail(f"the expected number of [MASK] inputs is not {masked:g}: 80% of the selected positions.")
        if not math.isclose(visible, want[2], abs_tol=5e-4):
            if math.isclose(visible, 0.1, abs_tol=5e-4):
                ex.fail(
                    "10 % of the *selected* tokens stay unchanged: as a share of all ordinary tokens, multiply by p."
                )
            if math.isclose(visible, p * 0.2, abs_tol=5e-4):
                ex.fail("a randomly replaced token is not its original: only the unchanged 10 % show the right token.")
            ex.fail(
                f"the share is not {visible:g}: which selected positions keep their own token, and what share of "
                "all ordinary tokens is that?"
            )
    return ex.result
