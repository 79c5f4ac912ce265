"""The decoding page's checkers accept reference answers, reject typical mistakes, and say "not yet" to stubs."""

from __future__ import annotations

import numpy as np

from nlp_helpers.sampling.decoding_exercises import check_frequency_presence, check_min_p_mask, check_speculative_greedy
from nlp_helpers.sampling.speculative import speculative_greedy
from tests.exercise_helpers import stub


def _freq(logits, prev, fp, pp):
    counts = np.bincount(np.asarray(prev, dtype=int), minlength=len(logits))
    return np.asarray(logits) - counts * fp - (counts > 0) * pp


def _freq_once(logits, prev, fp, pp):  # counts each token once: a frequent mistake
    seen = np.zeros(len(logits))
    seen[list(set(prev))] = 1
    return np.asarray(logits) - seen * (fp + pp)


def test_frequency_presence_checker():
    assert check_frequency_presence(_freq).passed
    res = check_frequency_presence(_freq_once)
    assert not res.passed and "three times" in str(res)
    assert "not yet" in str(check_frequency_presence(stub)).lower()


def test_min_p_checker():
    assert check_min_p_mask(lambda p, m: np.asarray(p) >= m * np.max(p)).passed
    res = check_min_p_mask(lambda p, m: np.asarray(p) >= m)  # forgets to scale by the top probability
    assert not res.passed and "max(p)" in str(res)
    assert not check_min_p_mask(lambda p, m: np.asarray(p) > m * np.max(p)).passed
    assert "not yet" in str(check_min_p_mask(stub)).lower()


def _spec(target, draft, ids, k, n):
    return speculative_greedy(target, draft, ids, k, n).ids


def _plain_greedy(target, draft, ids, k, n):  # right tokens, one target call per token
    ids = list(ids)
    for _ in range(n):
        ids.append(int(np.argmax(target(ids)[-1])))
    return ids


def _no_bonus(target, draft, ids, k, n):  # discards the target's token when every draft is accepted
    ids, goal = list(ids), len(ids) + n
    while len(ids) < goal:
        guess = list(ids)
        for _ in range(min(k, goal - len(ids))):
            guess.append(int(np.argmax(draft(guess)[-1])))
        best = np.argmax(target(guess), axis=-1)
        start, keep = len(ids), 0
        while start + keep < len(guess) and guess[start + keep] == best[start - 1 + keep]:
            keep += 1
        new = (
            guess[start : start + keep]
            if keep == len(guess) - start
            else guess[start : start + keep] + [int(best[start - 1 + keep])]
        )
        ids += new[: goal - len(ids)]
    return ids


def test_speculative_checker():
    assert check_speculative_greedy(_spec).passed
    res = check_speculative_greedy(_plain_greedy)
    assert not res.passed and "ONE target call" in str(res)
    res = check_speculative_greedy(_no_bonus)
    assert not res.passed and "bonus" in str(res)
    assert not check_speculative_greedy(lambda t, d, ids, k, n: list(ids) + [0] * n).passed
    assert "not yet" in str(check_speculative_greedy(stub)).lower()
