"""The chapter's exercise checkers accept the reference answers, reject typical mistakes with a
specific hint, say "not yet" for the untouched stub, and answer "wrong" for unusable answers."""

from __future__ import annotations

import numpy as np
import pytest

from nlp_helpers.exercises.checker import STRICT_ENV
from nlp_helpers.tagging import exercises as ex
from nlp_helpers.tagging.crf import crf_log_partition
from nlp_helpers.tagging.features import word_shape
from nlp_helpers.tagging.spans import tag_spans
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


def _forward(em, tr):
    return crf_log_partition(em, tr)


CASES = {
    "check_word_shape": (lambda w: word_shape(w)),
    "check_bio_spans": (lambda tags: tag_spans(tags)),
    "check_span_prf": _prf,
    "check_viterbi": _fast_viterbi,
    "check_crf_forward": _forward,
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

    def forgets_last(tags):
        spans, cur = [], None
        for i, t in enumerate(tags):
            if cur and not (t.startswith("I-") and t[2:] == cur[0]):
                spans.append((cur[0], cur[1], i))
                cur = None
            if t.startswith("B-"):
                cur = (t[2:], i)
        return spans

    r = ex.check_bio_spans(forgets_last)
    assert r.status == "wrong" and "end" in r.message
    r = ex.check_bio_spans(lambda tags: [(k, s, e - 1) for k, s, e in tag_spans(tags)])
    assert r.status == "wrong" and "exclusive" in r.message

    r = ex.check_span_prf(lambda g, p: (len(set(g) & set(p)) / len(p), len(set(g) & set(p)) / len(g), 0.5))
    assert r.status == "wrong" and "harmonic" in r.message
    r = ex.check_span_prf(lambda g, p: _prf(g, p) if p else (1 / 0, 0, 0))
    assert r.status == "wrong" and "ZeroDivisionError" in r.message

    def no_reverse(s, tr, em):
        path, score = viterbi(s, tr, em)
        return path[::-1], score

    r = ex.check_viterbi(no_reverse)
    assert r.status == "wrong" and "reverse" in r.message
    r = ex.check_viterbi(lambda s, tr, em: (list(np.argmax(em, axis=1)), float(em.max(axis=1).sum())))
    assert r.status == "wrong" and "log score" in r.message

    r = ex.check_crf_forward(lambda em, tr: viterbi(np.zeros(len(tr)), tr, em)[1])
    assert r.status == "wrong" and "log-sum-exp" in r.message

    def naive(em, tr):
        alpha = np.exp(em[0])
        for t in range(1, len(em)):
            alpha = (alpha[:, None] * np.exp(tr)).sum(0) * np.exp(em[t])
        return float(np.log(alpha.sum()))

    with np.errstate(over="ignore", invalid="ignore"):
        r = ex.check_crf_forward(naive)
    assert r.status == "wrong" and "overflow" in r.message
