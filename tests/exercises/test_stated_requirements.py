"""Requirements a statement names, for chapters whose checkers have no catalogue of their own yet: each wrong
answer breaks only that requirement, and its checker rejects it with a hint naming it (the rule of
``tests.exercise_helpers.assert_verdict``)."""

from __future__ import annotations

import numpy as np
import pytest

from nlp_helpers.tfidf.exercises import check_cosine
from tests.exercise_helpers import Wrong, assert_verdict


def cosine_checks_the_first_vector_only(u, v):  # "raise ValueError if either is the zero vector"
    u, v = np.asarray(u, dtype=float), np.asarray(v, dtype=float)
    if not u.any():
        raise ValueError("u: the zero vector has no direction")
    norm_v = np.linalg.norm(v)
    return float(u @ v / (np.linalg.norm(u) * norm_v)) if norm_v else 0.0


@pytest.mark.parametrize(
    ("checker", "wrong"),
    [(check_cosine, Wrong(cosine_checks_the_first_vector_only, ("[0,0,0]", "check both")))],
    ids=["cosine-checks-the-first-vector-only"],
)
def test_a_wrong_answer_breaking_one_stated_requirement_is_rejected(checker, wrong) -> None:
    assert_verdict(checker, wrong.answer, wrong)


# ---------------------------------------------------------------- the unigram likelihood: every call guarded
def _segmentations(text: str):
    for cuts in range(2 ** max(len(text) - 1, 0)):  # one bit per gap between two characters
        pieces, start = [], 0
        for i in range(1, len(text)):
            if cuts >> (i - 1) & 1:
                pieces.append(text[start:i])
                start = i
        yield [*pieces, text[start:]] if text else []


def unigram_brute_force(text, log_probs):  # every segmentation: 2^(n-1) of them, hopeless for 1,200 characters
    import math

    scores = [sum(log_probs[p] for p in seg) for seg in _segmentations(text) if all(p in log_probs for p in seg)]
    if not scores:
        raise ValueError("text: no segmentation into known pieces")
    top = max(scores)
    return top + math.log(sum(math.exp(s - top) for s in scores))


def unigram_memoised_recursion(text, log_probs):  # right, but one level of recursion per character
    import math
    from functools import cache

    @cache
    def alpha(j):
        if j == 0:
            return 0.0
        terms = [alpha(i) + log_probs[text[i:j]] for i in range(max(0, j - 8), j) if text[i:j] in log_probs]
        if not terms:
            return -math.inf
        top = max(terms)
        return top + math.log(sum(math.exp(t - top) for t in terms)) if top > -math.inf else -math.inf

    value = alpha(len(text))
    if value == -math.inf:
        raise ValueError("text: no segmentation into known pieces")
    return value


def unigram_interrupted_on_the_long_text(text, log_probs):  # Ctrl-C while the long text is being scored
    if len(text) > 100:
        raise KeyboardInterrupt
    return unigram_memoised_recursion(text, log_probs)


def test_the_unigram_checker_gives_every_answer_a_verdict(monkeypatch) -> None:
    import time

    from nlp_helpers.exercises.checker import STRICT_ENV, TIME_SCALE_ENV
    from nlp_helpers.tokenization.exercises import check_unigram_log_likelihood

    monkeypatch.delenv(STRICT_ENV, raising=False)
    monkeypatch.setenv(TIME_SCALE_ENV, "0.2")  # a 1 s CPU limit: the verdict comes within seconds, load or not
    start = time.monotonic()
    result = check_unigram_log_likelihood(unigram_brute_force)
    assert result.status == "wrong" and "did not return within" in result.message and "CPU time" in result.message
    assert time.monotonic() - start < 60
    result = check_unigram_log_likelihood(unigram_memoised_recursion)
    assert result.status == "wrong" and "RecursionError" in result.message and "forget" not in result.message
    result = check_unigram_log_likelihood(unigram_interrupted_on_the_long_text)
    assert result.status == "not yet" and "interrupted while" in result.message, result
