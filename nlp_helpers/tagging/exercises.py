"""Checkers for the exercises of the chapter *Sequence labelling* (``book/tagging.ipynb``).

Each ``check_*`` calls the student's function on small inputs, compares it with the chapter's
helpers (themselves tested against brute-force enumeration and seqeval) and tries the edge case
students forget, with a hint in every message.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.tagging.crf import crf_log_partition
from nlp_helpers.tagging.features import word_shape
from nlp_helpers.tagging.spans import tag_spans
from nlp_helpers.tagging.viterbi import viterbi

__all__ = ["check_bio_spans", "check_crf_forward", "check_span_prf", "check_viterbi", "check_word_shape"]


def check_word_shape(shape: Callable) -> CheckResult:
    """``shape(word)``: X for upper case, x for lower case, d for digits, other characters kept (long shape)."""
    with Checker("Word shapes") as ex:
        for word in ["DC10-30", "I.M.F", "Jane", "iPhone", "état", "2024", ""]:
            got = ex.call(shape, word)
            want = word_shape(word)
            if isinstance(got, str) and got == word_shape(word, short=True) and got != want:
                ex.fail(
                    f"shape({word!r}) should be {want!r}, got {got!r}: that is the *short* shape. "
                    "Map every character; do not collapse repeated symbols."
                )
            ex.expect_equal(
                got,
                want,
                what=f"shape({word!r})",
                hint="Upper-case letters become X, lower-case x, digits d; keep '.', '-' and "
                "other characters as they are (str.isupper/islower/isdigit work for é too).",
            )
    return ex.result


def check_bio_spans(bio_spans: Callable) -> CheckResult:
    """``bio_spans(tags)`` -> list of ``(type, start, end)`` (end exclusive) from well-formed IOB2 tags."""
    with Checker("Entities from IOB2 tags") as ex:
        cases = [
            (
                ["B-PER", "I-PER", "O", "B-LOC"],
                ("an entity at the very end of the sentence is easy to lose: close any open entity after the loop."),
            ),
            (
                ["O", "B-ORG", "I-ORG", "I-ORG", "O"],
                (
                    "an entity runs from its B- tag through the I- tags "
                    "of the same type; end is exclusive (one past the last)."
                ),
            ),
            (
                ["B-PER", "B-PER", "I-PER"],
                ("a B- tag always starts a new entity, even right after one of the same type."),
            ),
            (["B-LOC", "I-LOC", "B-ORG", "O"], "an entity ends where the next B- tag starts."),
            (["O", "O"], "no B- tag, no entity: return an empty list."),
            ([], "an empty sentence has no entities."),
        ]
        for tags, hint in cases:
            got = ex.call(bio_spans, list(tags))
            got = [tuple(s) for s in got]
            want = tag_spans(tags)
            if got == [(k, s, e - 1) for k, s, e in want] and want:
                ex.fail(
                    f"bio_spans({tags}) should be {want}, got {got}: make end exclusive "
                    "(one past the entity's last token), like Python slices."
                )
            ex.expect_equal(got, want, what=f"bio_spans({tags})", hint=hint)
    return ex.result


def check_span_prf(span_prf: Callable) -> CheckResult:
    """``span_prf(gold, pred)`` on lists of ``(type, start, end)`` spans -> ``(precision, recall, f1)``."""
    with Checker("Span precision, recall and F1") as ex:
        gold = [("PER", 0, 2), ("LOC", 5, 6), ("ORG", 8, 10)]
        pred = [("PER", 0, 2), ("LOC", 5, 7), ("ORG", 8, 10), ("PER", 12, 13)]
        got = ex.call(span_prf, list(gold), list(pred))
        p, r = 2 / 4, 2 / 3
        ex.expect_close(
            np.asarray(got, dtype=float),
            [p, r, 2 * p * r / (p + r)],
            what="span_prf(gold, pred)",
            hint="Precision = correct / predicted, recall = correct / gold; a span is correct "
            "only if type, start and end all match (('LOC', 5, 7) is wrong). "
            "F1 is their harmonic mean, 2PR / (P + R).",
        )
        got = ex.call(span_prf, [("PER", 0, 2), ("LOC", 4, 5)], [("ORG", 0, 2), ("LOC", 4, 5)])
        ex.expect_close(
            np.asarray(got, dtype=float),
            [0.5, 0.5, 0.5],
            what="span_prf([('PER', 0, 2), ('LOC', 4, 5)], [('ORG', 0, 2), ('LOC', 4, 5)])",
            hint="('ORG', 0, 2) has the right boundaries but the wrong type: it is not a correct entity. "
            "Compare whole (type, start, end) triples, not just (start, end).",
        )
        got = ex.call(span_prf, [("PER", 0, 1), ("PER", 3, 4)], [("PER", 0, 1), ("PER", 0, 1)])
        ex.expect_close(
            np.asarray(got, dtype=float),
            [1.0, 0.5, 2 / 3],
            what="span_prf with a duplicate prediction",
            hint="Compare sets of spans: predicting the same span twice counts once.",
        )
        got = ex.call(span_prf, list(gold), [])
        ex.expect_close(
            np.asarray(got, dtype=float),
            [0.0, 0.0, 0.0],
            what="span_prf(gold, [])",
            hint="With no predictions precision is 0/0: return 0 (as conlleval and seqeval do), "
            "and F1 0 when P + R = 0, instead of dividing by zero.",
        )
    return ex.result


def _problems():
    rng = np.random.default_rng(19)
    out = []
    for T, K in [(1, 3), (2, 2), (4, 3), (6, 4), (5, 2)]:
        out.append((rng.normal(size=K), rng.normal(size=(K, K)), rng.normal(size=(T, K))))
    return out


def check_viterbi(viterbi_fn: Callable) -> CheckResult:
    """``viterbi_fn(log_start, log_trans, log_emissions)`` -> ``(best_path, best_log_score)``."""
    with Checker("Viterbi from scratch") as ex:
        for log_start, log_trans, log_em in _problems():
            T, K = log_em.shape
            want_path, want_score = viterbi(log_start, log_trans, log_em)
            got = ex.call(viterbi_fn, log_start.copy(), log_trans.copy(), log_em.copy())
            path, score = got
            path = [int(k) for k in path]
            ex.expect(
                len(path) == T,
                f"with T={T} words the path should have {T} tags, got {len(path)}. "
                "One state per time step, including the first.",
            )
            ex.expect_close(
                score,
                want_score,
                what=f"the best log score (T={T}, K={K})",
                hint="Add log scores (never multiply them); v[t, j] = max_i (v[t-1, i] + "
                "log_trans[i, j]) + log_emissions[t, j], and the answer is max_j v[T-1, j].",
            )
            ex.expect_equal(
                path,
                want_path,
                what=f"the best path (T={T}, K={K})",
                hint="Store the argmax i for every (t, j) and follow these back-pointers from "
                "the best final state; remember to reverse the path.",
            )
    return ex.result


def check_crf_forward(crf_forward: Callable) -> CheckResult:
    """``crf_forward(emissions, transitions)`` -> log Z of a linear-chain CRF, by the forward algorithm."""
    with Checker("The CRF forward algorithm") as ex:
        for _start, trans, em in _problems():
            got = ex.call(crf_forward, em.copy(), trans.copy())
            want = crf_log_partition(em, trans)
            vit = viterbi(np.zeros(len(trans)), trans, em)[1]
            if np.isscalar(got) and np.isclose(float(got), vit) and not np.isclose(vit, want):
                ex.fail(
                    "you returned the score of the best path: the forward algorithm *sums* over all paths. "
                    "Replace max with log-sum-exp."
                )
            ex.expect_close(
                got,
                want,
                what=f"log Z for T={em.shape[0]}, K={em.shape[1]}",
                hint="alpha[0] = emissions[0]; alpha[t, j] = logsumexp_i(alpha[t-1, i] + "
                "transitions[i, j]) + emissions[t, j]; log Z = logsumexp_j alpha[T-1, j].",
            )
        big_em, big_trans = 400 * _problems()[3][2], 400 * _problems()[3][1]
        got = ex.call(crf_forward, big_em.copy(), big_trans.copy())
        ex.expect_close(
            got,
            crf_log_partition(big_em, big_trans),
            what="log Z with scores in the hundreds",
            hint="exp(400) overflows to inf: subtract the maximum before exponentiating "
            "(log-sum-exp trick), or use scipy.special.logsumexp / torch.logsumexp.",
        )
    return ex.result
