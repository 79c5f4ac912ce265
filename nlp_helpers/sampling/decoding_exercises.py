"""Checkers for the exercises of the page "Decoding beyond sampling" (``book/decoding.ipynb``).

Each checker calls the student's function on hand-made inputs, compares with
:mod:`nlp_helpers.sampling.penalties`, :mod:`nlp_helpers.sampling.distributions` and
:mod:`nlp_helpers.sampling.speculative`, and tests an edge case students tend to forget.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.sampling.distributions import min_p_filter
from nlp_helpers.sampling.penalties import apply_frequency_presence_penalty
from nlp_helpers.sampling.speculative import greedy_decode

__all__ = ["check_frequency_presence", "check_min_p_mask", "check_speculative_greedy"]


def check_frequency_presence(fn: Callable) -> CheckResult:
    """``fn(logits, previous_ids, frequency_penalty, presence_penalty)`` -> penalised logits."""
    with Checker("Frequency and presence penalties") as ex:
        logits = np.array([2.0, -1.0, 0.5, 3.0])
        prev = [3, 3, 1, 3]
        got = ex.call(fn, logits.copy(), list(prev), 0.5, 0.0)
        ex.expect_close(
            got,
            apply_frequency_presence_penalty(logits, prev, 0.5, 0.0),
            what="the frequency penalty 0.5 alone",
            hint="Token 3 was generated three times: subtract 3 * 0.5 from its logit (count every occurrence).",
        )
        got = ex.call(fn, logits.copy(), list(prev), 0.0, 1.0)
        ex.expect_close(
            got,
            apply_frequency_presence_penalty(logits, prev, 0.0, 1.0),
            what="the presence penalty 1.0 alone",
            hint="The presence penalty is paid once per distinct token seen, however often it appeared.",
        )
        got = ex.call(fn, logits.copy(), [], 0.5, 1.0)
        ex.expect_close(got, logits, what="no previous tokens", hint="With nothing generated yet, change nothing.")
    return ex.result


def check_min_p_mask(fn: Callable) -> CheckResult:
    """``fn(probs, min_p)`` -> boolean mask of the tokens min-p keeps."""
    with Checker("The min-p mask") as ex:
        probs = np.array([0.5, 0.3, 0.1, 0.06, 0.04])
        for mp in (0.1, 0.2, 0.5):
            want = np.isfinite(min_p_filter(np.log(probs), mp))
            got = ex.call(fn, probs, mp)
            if np.asarray(got, dtype=bool).tolist() == (probs > mp * probs.max()).tolist() != want.tolist():
                ex.fail(
                    f"min_p_mask(probs, {mp}) drops a token exactly at the threshold min_p * max(p): use >= rather "
                    "than >, tokens at the threshold stay."
                )
            ex.expect_equal(
                np.asarray(got, dtype=bool).tolist(),
                want.tolist(),
                what=f"min_p_mask(probs, {mp})",
                hint="Keep token j when p_j >= min_p * max(p): the threshold scales with the top probability.",
            )
        flat = np.full(4, 0.25)
        got = ex.call(fn, flat, 1.0)
        ex.expect_equal(
            np.asarray(got, dtype=bool).tolist(),
            [True] * 4,
            what="min_p_mask(uniform, 1.0)",
            hint="Use >= rather than >: tokens exactly at the threshold stay.",
        )
    return ex.result


class _Counter:
    """A toy 'model' ids -> logits (T, V) that counts its calls."""

    def __init__(self, table: np.ndarray) -> None:
        self.table, self.calls = table, 0

    def __call__(self, ids):
        self.calls += 1
        ids = [int(i) for i in ids]
        rows = [self.table[(ids[max(0, t - 1)] * 7 + ids[t] + t) % len(self.table)] for t in range(len(ids))]
        return np.array(rows)


def check_speculative_greedy(fn: Callable) -> CheckResult:
    """``fn(target, draft, input_ids, num_draft, max_new_tokens)`` -> the target's greedy ids (prompt included)."""
    with Checker("Greedy speculative decoding") as ex:
        g = np.random.default_rng(0)
        table = g.normal(size=(13, 6))
        noisy = table + g.normal(scale=0.6, size=table.shape)  # a draft that agrees often, not always
        prompt = [1, 4, 2]
        want, greedy_calls = greedy_decode(_Counter(table), prompt, 12)
        for draft_table, name in ((table, "a perfect draft"), (noisy, "an imperfect draft")):
            target = _Counter(table)
            got = ex.call(fn, target, _Counter(draft_table), list(prompt), 4, 12)
            ex.expect_equal(
                [int(t) for t in got],
                want,
                what=f"the tokens with {name}",
                hint="Keep drafted tokens while they equal the target's argmax at the position before them; at the "
                "first disagreement append the target's own token and start a new round. Return prompt + 12 tokens.",
            )
            ex.expect(
                target.calls < greedy_calls,
                f"with {name} the target was called {target.calls} times, no fewer than plain greedy decoding "
                f"({greedy_calls}). Score all drafted tokens with ONE target call per round (its logits (T, V) "
                "cover every position).",
            )
        target = _Counter(table)
        ex.call(fn, target, _Counter(table), list(prompt), 4, 10)
        ex.expect(
            target.calls <= 2,
            f"with a perfect draft and 4 drafted tokens per round, 10 tokens need 2 target calls (5 tokens per "
            f"round); yours made {target.calls}. When every drafted token is accepted, keep the target's next "
            "token too (a bonus token).",
        )
    return ex.result
