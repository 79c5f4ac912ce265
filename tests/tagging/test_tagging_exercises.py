"""The chapter's exercise checkers accept the reference answers, reject typical mistakes with a
specific hint, say "not yet" for the untouched stub, and answer "wrong" for unusable answers."""

from __future__ import annotations

import numpy as np
import pytest

from nlp_helpers.exercises.checker import STRICT_ENV
from nlp_helpers.tagging import exercises as ex
from nlp_helpers.tagging.features import word_shape
from nlp_helpers.tagging.viterbi import viterbi


@pytest.fixture(autouse=True)
def lenient(monkeypatch):
    monkeypatch.delenv(STRICT_ENV, raising=False)


def stub(*args, **kwargs):
    raise NotImplementedError


def _prf(gold, pred):
    gold, pred = set(gold), set(pred)
    c = len(gold & pred)
    p = c / len(pred) if pred else 0.0
    r = c / len(gold) if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def _fast_viterbi(s, tr, em):
    return viterbi(s, tr, em)


def _bio_dp(em, tr, tags):  # the enumeration is too slow for the checker's 40-word case: the DP it is tested against
    return ex._bio_dp(em, tr, tags)


CASES = {
    "check_word_shape": (lambda w: word_shape(w)),
    "check_viterbi": _fast_viterbi,
    "check_bio_viterbi": _bio_dp,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_reference_answers_pass_and_stub_is_not_yet(name):
    check = getattr(ex, name)
    assert check(CASES[name]).status == "correct"
    assert check(stub).status == "not yet"


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize(
    "answer",
    [lambda *a: None, lambda *a: float("nan"), lambda *a: "text", lambda *a: [], "not a function", None],
    ids=["returns-None", "returns-NaN", "returns-str", "returns-empty", "str", "None"],
)
def test_unusable_answers_are_wrong_not_a_crash(name, answer):
    assert getattr(ex, name)(answer).status == "wrong"


def test_typical_mistakes_get_specific_hints():
    r = ex.check_word_shape(lambda w: word_shape(w, short=True))
    assert r.status == "wrong" and "short" in r.message
    r = ex.check_word_shape(lambda w: "".join("X" if c.isupper() else "x" if c.islower() else "d" for c in w))
    assert r.status == "wrong" and "keep" in r.message

    def no_reverse(s, tr, em):
        path, score = viterbi(s, tr, em)
        return path[::-1], score

    r = ex.check_viterbi(no_reverse)
    assert r.status == "wrong" and "reverse" in r.message
    r = ex.check_viterbi(lambda s, tr, em: (list(np.argmax(em, axis=1)), float(em.max(axis=1).sum())))
    assert r.status == "wrong" and "log score" in r.message

    r = ex.check_hand_viterbi({"v1_PRON": 1 / 6, "v2_VERB": 0.04, "v2_NOUN": 1 / 60, "best": ["PRON", "VERB"]})
    assert r.status == "correct"
    r = ex.check_hand_viterbi(...)
    assert r.status == "not yet"


def test_hand_values_follow_the_tiny_corpus_by_hand():
    # worked on paper: pi(PRON) = 2/4, b(me | PRON) = 2/6, a(PRON, VERB) = 3/5, b(saw | VERB) = 2/5,
    # a(PRON, NOUN) = 2/5, b(saw | NOUN) = 1/4
    v = ex._hand_values()
    assert np.isclose(v["v1_PRON"], 1 / 6) and np.isclose(v["v2_VERB"], 1 / 25) and np.isclose(v["v2_NOUN"], 1 / 60)


def test_bio_brute_force_is_valid_and_beats_every_valid_sequence():
    import itertools

    for em, tr, tags in ex._bio_problems():
        best = ex._brute_bio(em, tr, tags)
        assert ex._valid(best)
        idx = [tags.index(t) for t in best]
        top = em[np.arange(len(em)), idx].sum() + sum(tr[a, b] for a, b in zip(idx, idx[1:]))
        for path in itertools.product(range(len(tags)), repeat=min(len(em), 3)):
            if len(path) == len(em) and ex._valid([tags[j] for j in path]):
                s = em[np.arange(len(em)), path].sum() + sum(tr[a, b] for a, b in zip(path, path[1:]))
                assert s <= top + 1e-12
