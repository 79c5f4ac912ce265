"""Checkers for the exercises of the chapter *BERT* (``book/bert/``).

Each ``check_*`` calls the student's function on small inputs, compares it with
the book's helpers (:mod:`nlp_helpers.bert.wordpiece`, :mod:`nlp_helpers.bert.topics`,
:mod:`nlp_helpers.bert.qa`) and with values worked out by
hand, and tries the edge case students forget.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from nlp_helpers.bert.qa import best_span
from nlp_helpers.bert.topics import c_tf_idf_from_counts
from nlp_helpers.bert.wordpiece import wordpiece_word
from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import rng as seeded_rng

__all__ = [
    "TINY_VOCAB",
    "check_greedy_wordpiece",
    "MLM_BATCH",
    "check_mlm_by_hand",
    "check_masked_max",
    "check_c_tf_idf",
    "check_answer_or_abstain",
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


def check_masked_max(masked_max: Callable) -> CheckResult:
    """``masked_max(hidden, attention_mask)``: element-wise max of the (B, T, d) vectors where the mask is 1."""
    with Checker("Max pooling with an attention mask") as ex:
        hidden = np.array([[[1.0, -2.0], [3.0, -4.0], [9.0, 9.0]], [[-5.0, -1.0], [-3.0, -7.0], [0.0, 0.0]]])
        mask = np.array([[1, 1, 0], [1, 1, 0]])
        got = ex.call(masked_max, hidden, mask)
        by_hand = [[3.0, -2.0], [-3.0, -1.0]]
        if np.shape(got) != (2, 2):
            ex.fail(f"masked_max should return a (B, d) = (2, 2) array, got shape {np.shape(got)}.")
        if np.allclose(got, [[9.0, 9.0], [0.0, 0.0]]) or np.allclose(got, [[9.0, 9.0], [-3.0, -1.0]]):
            ex.fail("a padding position won the max: padding must never take part, however large its values.")
        if np.allclose(got, [[3.0, 0.0], [0.0, 0.0]]):
            ex.fail(
                "multiplying by the mask turns padding into 0, which beats negative real values: "
                "give padding a value that can never win a max (not 0) before taking it."
            )
        if np.allclose(got, [[2.0, -3.0], [-4.0, -4.0]]):
            ex.fail("that is the mean of the real tokens; max pooling takes the largest value per dimension.")
        ex.expect_close(got, by_hand, what="masked_max on the 2-sentence example", hint="Max over the real tokens.")
        rng = seeded_rng(3)
        hidden = rng.normal(size=(3, 6, 4)) - 5.0
        lengths = np.array([6, 3, 1])
        mask = (np.arange(6)[None, :] < lengths[:, None]).astype(int)
        hidden[mask == 0] = np.inf
        want = np.stack([hidden[b, : lengths[b]].max(axis=0) for b in range(3)])
        ex.expect_close(
            ex.call(masked_max, hidden, mask),
            want,
            what="masked_max on a (3, 6, 4) batch with inf at every padding position",
            hint="Each sentence has its own real tokens; padding values (here inf) must never win.",
        )
        ex.expect_raises(
            ValueError,
            masked_max,
            np.zeros((1, 3, 2)),
            np.zeros((1, 3), dtype=int),
            what="masked_max with a sentence whose mask is all 0",
            hint="A sentence without real tokens has no max: raise ValueError naming attention_mask "
            "instead of returning -inf.",
            mentions="attention_mask",
        )
    return ex.result


def check_answer_or_abstain(answer_or_abstain: Callable) -> CheckResult:
    """``answer_or_abstain(start, end, allowed, max_len, threshold)``: the best span, or None to abstain."""
    with Checker("Extractive QA with no-answer", allow_none=True, forbidden={"best_span": best_span}) as ex:

        def want(s, e, ok, max_len, threshold):
            span = best_span(s, e, max_len, ok)
            return None if s[0] + e[0] > s[span[0]] + e[span[1]] + threshold else tuple(int(v) for v in span)

        def ask(s, e, ok, max_len, threshold, what, hint):
            got = ex.call(answer_or_abstain, s, e, ok, max_len, threshold)
            ex.expect(
                got is None
                or (
                    isinstance(got, tuple)
                    and len(got) == 2
                    and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in got)
                ),
                f"{what}: return a tuple of two ints (i, j) or None, got {type(got).__name__} {got!r:.60}.",
            )
            if got is not None:
                got = (int(got[0]), int(got[1]))
            expected = want(s, e, ok, max_len, threshold)
            if got is None and expected is not None:
                ex.fail(
                    f"{what}: your function returned None (abstained) where the answer is the span {expected}. "
                    "If you did not mean to abstain, did you forget `return`? " + hint
                )
            ex.expect_equal(got, want(s, e, ok, max_len, threshold), what=what, hint=hint)

        ok = np.array([False, False, True, True, True])
        # By hand: best span (2, 3) scores 2 + 3 = 5; the null score at [CLS] is 4 + 2 = 6.
        start = np.array([4.0, 9.0, 2.0, 1.0, -1.0])
        end = np.array([2.0, 9.0, 0.0, 3.0, -2.0])
        ask(
            start,
            end,
            ok,
            3,
            1.5,
            "answer_or_abstain on the 5-token example, threshold 1.5",
            "The best passage span is (2, 3) (2 + 3 = 5; position 1 is the question, never part of a span). "
            "The null score start[0] + end[0] = 6 does not beat 5 + 1.5, so answer with the span: "
            "return a tuple (i, j), or None to abstain.",
        )
        ask(
            start,
            end,
            ok,
            3,
            0.0,
            "the same logits with threshold 0",
            "The null score is start[0] + end[0] (the [CLS] position), here 6; the best passage span scores 5, "
            "and 6 > 5 + 0, so the model abstains: return None.",
        )
        ask(
            start,
            end,
            ok,
            3,
            1.0,
            "the same logits with threshold 1.0 (a tie: 6 = 5 + 1)",
            "On a tie (null = span + threshold) answer with the span: abstain only when strictly greater.",
        )
        ask(
            start,
            end,
            ok,
            1,
            2.5,
            "max_len 1, threshold 2.5",
            "The span must respect max_len (here one token, best (3, 3) = 4) and start <= end.",
        )
        backwards = np.array([-9.0, 0.0, 0.0, 0.0, 9.0]), np.array([-9.0, 0.0, 0.0, 5.0, 0.0])
        ask(
            *backwards,
            np.array([False, True, True, True, True]),
            4,
            0.0,
            "answer_or_abstain when the best end comes before the best start",
            "Search over pairs i <= j (the separate argmaxes give end 3 before start 4).",
        )
        rng = seeded_rng(4)
        for _ in range(6):
            s_, e_ = rng.normal(size=10), rng.normal(size=10)
            ok_ = rng.random(10) < 0.6
            ok_[0], ok_[5] = False, True
            ask(
                s_,
                e_,
                ok_,
                3,
                float(rng.normal()),
                "answer_or_abstain on random logits",
                "Compare the best valid span's score (both ends allowed, i <= j < i + max_len) with start[0] + end[0].",
            )
    return ex.result
