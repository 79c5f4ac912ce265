"""The sampling chapter's checkers accept correct answers and reject the typical wrong ones."""

from __future__ import annotations

import numpy as np
import pytest

from nlp_helpers.exercises.checker import STRICT_ENV
from nlp_helpers.sampling import exercises as ex
from tests.exercise_helpers import stub

# ---- reference answers (independent of nlp_helpers.sampling.distributions) -------------------------------------


def good_softmax(logits, temperature):
    if temperature < 0:
        raise ValueError("temperature")
    if temperature == 0:  # the limit T -> 0: greedy, ties share the mass
        top = np.asarray(logits, float) == np.max(logits)
        return top / top.sum()
    z = np.asarray(logits, float) / temperature
    e = np.exp(z - z.max())
    return e / e.sum()


def good_top_k(logits, k):
    logits = np.asarray(logits, float)
    kth = np.sort(logits)[::-1][min(k, logits.size) - 1]
    e = np.where(logits >= kth, np.exp(logits - logits.max()), 0.0)
    return e / e.sum()


def good_nucleus(probs, p):
    order = np.argsort(probs)[::-1]
    cum = np.cumsum(probs[order])
    return sorted(order[: int(np.searchsorted(cum, p - 1e-12)) + 1].tolist())


def good_sample_index(probs, u):
    return int(np.searchsorted(np.cumsum(probs), u, side="right"))


def good_distinct(seqs, n):
    grams = [tuple(s[i : i + n]) for s in seqs for i in range(len(s) - n + 1)]
    return len(set(grams)) / len(grams)


# ---- the checks -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "checker, good",
    [
        (ex.check_softmax_with_temperature, good_softmax),
        (ex.check_top_k_probs, good_top_k),
        (ex.check_nucleus, good_nucleus),
        (ex.check_sample_index, good_sample_index),
        (ex.check_distinct_n, good_distinct),
    ],
)
def test_reference_answers_pass_and_stubs_are_not_yet(checker, good):
    assert checker(good).status == "correct"
    assert checker(stub).status == "not yet"


def test_softmax_checker_rejects_typical_mistakes():
    def no_max_shift(logits, t):
        if t <= 0:
            return good_softmax(logits, t)
        with np.errstate(over="ignore", invalid="ignore"):
            e = np.exp(np.asarray(logits, float) / t)
            return e / e.sum()

    def multiplies(logits, t):
        return good_softmax(np.asarray(logits) * t * t, t)  # logits * t instead of / t

    def no_check(logits, t):
        z = np.asarray(logits, float) / t if t else np.asarray(logits, float)
        e = np.exp(z - z.max())
        return e / e.sum()

    def rejects_zero(logits, t):  # the old convention: T = 0 is an error instead of greedy
        if t <= 0:
            raise ValueError("temperature must be > 0")
        return good_softmax(logits, t)

    def argmax_only(logits, t):  # T = 0 picks one of the tied maxima instead of sharing
        if t == 0:
            return np.eye(len(logits))[int(np.argmax(logits))]
        return good_softmax(logits, t)

    r = ex.check_softmax_with_temperature(no_max_shift)
    assert r.status == "wrong" and "subtract the largest logit" in r.message
    assert ex.check_softmax_with_temperature(multiplies).status == "wrong"
    r = ex.check_softmax_with_temperature(no_check)
    assert r.status == "wrong" and "greedy" in r.message
    r = ex.check_softmax_with_temperature(rejects_zero)
    assert r.status == "wrong" and "Temperature 0 is the limit" in r.message
    r = ex.check_softmax_with_temperature(argmax_only)
    assert r.status == "wrong" and "split the mass equally" in r.message


def test_top_k_checker_rejects_splitting_ties_and_forgetting_to_renormalise():
    def argsort_k(logits, k):  # keeps exactly k tokens, splitting ties by index
        logits = np.asarray(logits, float)
        keep = np.argsort(-logits, kind="stable")[:k]
        e = np.zeros_like(logits)
        e[keep] = np.exp(logits[keep] - logits.max())
        return e / e.sum()

    def not_renormalised(logits, k):
        p = np.exp(logits - np.max(logits))
        p /= p.sum()
        kth = np.sort(p)[::-1][min(k, len(p)) - 1]
        return np.where(p >= kth, p, 0.0)

    r = ex.check_top_k_probs(argsort_k)
    assert r.status == "wrong" and "tie" in r.message
    assert ex.check_top_k_probs(not_renormalised).status == "wrong"


def test_nucleus_checker_rejects_dropping_the_crossing_token():
    def strict(probs, p):  # keeps tokens only while the total stays below p
        order = np.argsort(probs)[::-1]
        kept, total = [], 0.0
        for i in order:
            if total + probs[i] > p:
                break
            kept.append(int(i))
            total += probs[i]
        return sorted(kept)

    assert ex.check_nucleus(strict).status == "wrong"


def test_sample_index_checker_rejects_off_by_one_and_zero_probability_picks():
    def left(probs, u):  # side="left": draws a zero-probability token at a boundary
        return int(np.searchsorted(np.cumsum(probs), u, side="left"))

    def argmax(probs, u):
        return int(np.argmax(probs))

    r = ex.check_sample_index(left)
    assert r.status == "wrong"
    assert ex.check_sample_index(argmax).status == "wrong"


def test_distinct_checker_rejects_averaging_per_sequence_and_crashing_on_short_sequences():
    def per_sequence(seqs, n):
        vals = [len(set(tuple(s[i : i + n]) for i in range(len(s) - n + 1))) / max(1, len(s) - n + 1) for s in seqs]
        return float(np.mean(vals))

    def crashes_on_short(seqs, n):
        for s in seqs:
            if len(s) < n:
                raise IndexError("sequence too short")
        return good_distinct(seqs, n)

    assert ex.check_distinct_n(per_sequence).status == "wrong"
    r = ex.check_distinct_n(crashes_on_short)
    assert r.status == "wrong" and "IndexError" in r.message


def test_strict_mode_turns_a_wrong_answer_into_an_assertion(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(AssertionError, match="Distinct-n"):
        ex.check_distinct_n(lambda seqs, n: 0.5)
