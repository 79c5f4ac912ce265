"""Checkers for the exercises of the chapter *BERT* (``book/bert/``).

Each ``check_*`` calls the student's function on small inputs, compares it with
the book's helpers (:mod:`nlp_helpers.bert.wordpiece`, :mod:`nlp_helpers.bert.mlm`,
:mod:`nlp_helpers.bert.minilm`, :mod:`nlp_helpers.bert.topics`, :mod:`nlp_helpers.bert.qa`) and with values worked out by
hand, and tries the edge case students forget.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from nlp_helpers.bert.minilm import mean_pool
from nlp_helpers.bert.mlm import corrupt
from nlp_helpers.bert.qa import best_span
from nlp_helpers.bert.topics import c_tf_idf_from_counts
from nlp_helpers.bert.wordpiece import wordpiece_word
from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import rng as seeded_rng

__all__ = [
    "TINY_VOCAB",
    "check_greedy_wordpiece",
    "check_corrupt",
    "check_masked_mean",
    "check_c_tf_idf",
    "check_answer_span",
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


def check_corrupt(apply_80_10_10: Callable) -> CheckResult:
    """``apply_80_10_10(ids, selected, u, random_ids, mask_id)``: BERT's 80/10/10 corruption with given draws."""
    with Checker("The 80/10/10 rule") as ex:
        ids = np.array([5, 6, 7, 8, 9, 10])
        selected = np.array([True, True, True, False, False, True])
        u = np.array([0.10, 0.85, 0.95, 0.10, 0.85, 0.80])
        random_ids = np.array([20, 21, 22, 23, 24, 25])
        got = ex.call(apply_80_10_10, ids.copy(), selected, u, random_ids, 1)
        by_hand = [1, 21, 7, 8, 9, 25]  # mask, random, keep, untouched, untouched, random (u = 0.8 exactly)
        ex.expect_equal(
            list(np.asarray(got).tolist()),
            by_hand,
            what="apply_80_10_10 on the 6-token example",
            hint="Selected: u < 0.8 -> mask_id, 0.8 <= u < 0.9 -> random_ids, else keep. "
            "Unselected positions never change, whatever their u.",
        )
        ex.expect_equal(
            by_hand, corrupt(ids, selected, u, random_ids, 1).tolist(), what="the book's corrupt (self-check)"
        )
        rng = seeded_rng(0)
        ids = rng.integers(5, 100, (4, 50))
        selected = rng.random(ids.shape) < 0.15
        u, random_ids = rng.random(ids.shape), rng.integers(5, 100, ids.shape)
        given = ids.copy()
        got = ex.call(apply_80_10_10, given, selected, u, random_ids, 3)
        ex.expect_close(
            got,
            corrupt(ids, selected, u, random_ids, 3),
            what="apply_80_10_10 on a (4, 50) batch",
            hint="Work element-wise with boolean masks so that a (B, T) batch works as well.",
        )
        ex.expect(
            np.array_equal(given, ids),
            "apply_80_10_10 changed the ids array it was given. Work on a copy "
            "(ids.copy()): the original ids are the labels the model must predict.",
        )
    return ex.result


def check_masked_mean(masked_mean: Callable) -> CheckResult:
    """``masked_mean(hidden, attention_mask)``: mean of the (B, T, d) vectors where the (B, T) mask is 1."""
    with Checker("Mean pooling with an attention mask") as ex:
        hidden = np.array([[[1.0, 2.0], [3.0, 4.0], [100.0, 100.0]], [[0.0, 1.0], [-50.0, 7.0], [9.0, 9.0]]])
        mask = np.array([[1, 1, 0], [1, 0, 0]])
        got = ex.call(masked_mean, hidden, mask)
        ex.expect_close(
            got,
            [[2.0, 3.0], [0.0, 1.0]],
            what="masked_mean on the 2-sentence example",
            hint="Sum the real tokens' vectors over T and divide by the number of real tokens "
            "(mask.sum over T), not by T: padding must not count.",
        )
        padded = np.array([[[1.0, 2.0], [3.0, 4.0], [np.inf, -np.inf]]])
        got = ex.call(masked_mean, padded, np.array([[1, 1, 0]]))
        ex.expect_close(
            got,
            [[2.0, 3.0]],
            what="masked_mean with inf in a padding position",
            hint="Multiplying by the mask does not remove a padding value of inf (inf * 0 = nan): select the real "
            "tokens instead, e.g. np.where(mask[..., None] == 1, hidden, 0.0), then sum.",
        )
        rng = seeded_rng(1)
        hidden = rng.normal(size=(3, 7, 5))
        mask = (np.arange(7)[None, :] < np.array([[7], [4], [1]])).astype(int)
        ex.expect_close(
            ex.call(masked_mean, hidden, mask),
            mean_pool(hidden, mask),
            what="masked_mean on a (3, 7, 5) batch",
            hint="Each sentence has its own number of real tokens.",
        )
    return ex.result


def check_c_tf_idf(c_tf_idf_scores: Callable) -> CheckResult:
    """``c_tf_idf_scores(counts)``: c-TF-IDF of a (C, V) matrix of word counts per class (natural log)."""
    with Checker("c-TF-IDF") as ex:
        counts = np.array([[4.0, 0.0, 1.0], [1.0, 3.0, 1.0]])
        # By hand: 5 words per class on average; word totals 5, 3, 2; tf normalised per class.
        idf = [math.log(1 + 5 / 5), math.log(1 + 5 / 3), math.log(1 + 5 / 2)]
        by_hand = [[0.8 * idf[0], 0.0, 0.2 * idf[2]], [0.2 * idf[0], 0.6 * idf[1], 0.2 * idf[2]]]
        got = ex.call(c_tf_idf_scores, counts)
        ex.expect_close(
            got,
            by_hand,
            what="c_tf_idf_scores([[4, 0, 1], [1, 3, 1]])",
            hint="tf_{w,c} / (words in class c) * ln(1 + (average words per class) / (count of w in all classes)). "
            "Use the natural logarithm (np.log).",
        )
        ex.expect_close(by_hand, c_tf_idf_from_counts(counts), what="the book's c_tf_idf_from_counts (self-check)")
        counts = np.array([[10.0, 0.0, 2.0, 1.0], [1.0, 1.0, 1.0, 1.0], [0.0, 5.0, 5.0, 0.0]])
        ex.expect_close(
            ex.call(c_tf_idf_scores, counts),
            c_tf_idf_from_counts(counts),
            what="c_tf_idf_scores on classes of different sizes (13, 4 and 10 words)",
            hint="Normalise each class by its own number of words; the average in the IDF is over classes.",
        )
    return ex.result


def check_answer_span(answer_span: Callable) -> CheckResult:
    """``answer_span(start_logits, end_logits, allowed, max_len)``: the best span ``(i, j)`` of a QA model."""
    with Checker("Extractive QA: the best answer span") as ex:
        start = np.array([5.0, 0.0, 3.0, 1.0, 0.0])
        end = np.array([5.0, 0.0, 0.5, 2.0, 9.0])
        allowed = np.array([False, True, True, True, True])
        # By hand: [CLS] (position 0) is not allowed; start 2 (3.0) + end 4 (9.0) = 12 is the best.
        ex.expect_equal(
            tuple(int(v) for v in ex.call(answer_span, start, end, allowed, 5)),
            (2, 4),
            what="answer_span on the 5-token example (max_len 5)",
            hint="Score every pair i <= j as start[i] + end[j], skipping positions that are not allowed "
            "([CLS] and the question): the answer must lie in the passage.",
        )
        ex.expect_equal(
            tuple(int(v) for v in ex.call(answer_span, start, end, allowed, 2)),
            (3, 4),
            what="answer_span with max_len 2",
            hint="A span (i, j) has j - i + 1 tokens; with max_len 2 only j <= i + 1 is allowed.",
        )
        backwards = np.array([0.0, 0.0, 0.0, 9.0]), np.array([9.0, 0.0, 1.0, 0.0])
        ex.expect_equal(
            tuple(int(v) for v in ex.call(answer_span, *backwards, np.ones(4, bool), 4)),
            best_span(*backwards, 4),
            what="answer_span when the best end comes before the best start",
            hint="Taking argmax(start) and argmax(end) separately can give an end before the start; "
            "search over pairs with i <= j.",
        )
        rng = seeded_rng(2)
        for _ in range(5):
            s_, e_ = rng.normal(size=12), rng.normal(size=12)
            ok = rng.random(12) < 0.7
            ok[3] = True
            ex.expect_equal(
                tuple(int(v) for v in ex.call(answer_span, s_, e_, ok, 4)),
                best_span(s_, e_, 4, ok),
                what="answer_span on random logits",
                hint="Both ends of the span must be allowed positions.",
            )
    return ex.result
