"""Checkers for the exercises of the LLM sampling chapter (``book/sampling.ipynb``).

Each checker calls the student's function on hand-made inputs, compares with
:mod:`nlp_helpers.sampling.distributions`, and tests one edge case students tend to forget.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.sampling.distributions import softmax, top_k_filter, top_p_filter
from nlp_helpers.sampling.generate import distinct_n

__all__ = [
    "check_softmax_with_temperature",
    "check_top_k_probs",
    "check_nucleus",
    "check_sample_index",
    "check_distinct_n",
]


def check_softmax_with_temperature(fn: Callable) -> CheckResult:
    """``fn(logits, temperature)`` -> ``softmax(logits / temperature)``; ``T = 0``: greedy (ties share); ``T < 0``: ValueError."""
    with Checker("Softmax with temperature") as ex:
        logits = np.array([2.0, 1.0, 0.1, -1.0])
        for t in (1.0, 0.5, 2.0):
            got = ex.call(fn, logits.copy(), t)
            ex.expect_close(
                got,
                softmax(logits, t),
                what=f"softmax_with_temperature({logits.tolist()}, {t})",
                hint="Divide the logits by the temperature, exponentiate, and divide by the sum.",
            )
        big = np.array([1000.0, 999.0, 0.0])
        got = ex.call(fn, big.copy(), 1.0)
        ex.expect_close(
            got,
            softmax(big),
            what="softmax_with_temperature([1000, 999, 0], 1)",
            hint="exp(1000) overflows: subtract the largest logit before exponentiating (the result is the same).",
        )
        try:
            got = fn(logits.copy(), 0.0)
        except ValueError as exc:
            ex.fail(
                f"softmax_with_temperature(logits, 0) raised ValueError ({exc}). Temperature 0 is the limit T -> 0, "
                "greedy decoding: return all the probability on the largest logit instead of raising."
            )
        except Exception:  # noqa: BLE001 - reported the usual way, with the line number
            got = ex.call(fn, logits.copy(), 0.0)
        ex.expect_close(
            got,
            np.array([1.0, 0.0, 0.0, 0.0]),
            what="softmax_with_temperature(logits, 0)",
            hint="Temperature 0 is the limit T -> 0, greedy decoding: all the probability on the largest logit "
            "(do not divide by 0; handle T = 0 before dividing).",
        )
        tied = np.array([3.0, 1.0, 3.0])
        got = ex.call(fn, tied.copy(), 0.0)
        ex.expect_close(
            got,
            np.array([0.5, 0.0, 0.5]),
            what="softmax_with_temperature([3, 1, 3], 0)",
            hint="At T = 0 several tokens may share the largest logit: split the mass equally between them "
            "(that is the limit of softmax(logits / T) as T -> 0).",
        )
        ex.expect_raises(
            ValueError,
            fn,
            logits.copy(),
            -1.0,
            what="softmax_with_temperature(logits, -1)",
            hint="Negative temperatures are meaningless: raise ValueError for temperature < 0.",
        )
    return ex.result


def check_top_k_probs(fn: Callable) -> CheckResult:
    """``fn(logits, k)`` -> probabilities renormalised over the k largest logits (ties with the k-th kept), 0 elsewhere."""
    with Checker("Top-k probabilities") as ex:
        logits = np.array([1.0, 3.0, 0.5, 2.0, -1.0])
        for k in (1, 2, 3):
            got = ex.call(fn, logits.copy(), k)
            ex.expect_close(
                got,
                softmax(top_k_filter(logits, k)),
                what=f"top_k_probs({logits.tolist()}, {k})",
                hint="Keep the k largest logits, set the others to -inf (or their probability to 0), renormalise.",
            )
        got = ex.call(fn, logits.copy(), 10)
        ex.expect_close(
            got,
            softmax(logits),
            what="top_k_probs(logits, k=10) with only 5 tokens",
            hint="When k is at least the vocabulary size, nothing is removed.",
        )
        ties = np.array([2.0, 1.0, 1.0, 0.0])
        got = ex.call(fn, ties.copy(), 2)
        ex.expect_close(
            got,
            softmax(top_k_filter(ties, 2)),
            what="top_k_probs([2, 1, 1, 0], 2)",
            hint="Two tokens tie for 2nd place: keep every token whose logit is >= the k-th largest, "
            "so the result does not depend on token order.",
        )
    return ex.result


def check_nucleus(fn: Callable) -> CheckResult:
    """``fn(probs, p)`` -> sorted list of the token indices in the nucleus (smallest top set with mass >= p)."""
    with Checker("The nucleus of top-p sampling") as ex:
        probs = np.array([0.05, 0.4, 0.1, 0.3, 0.15])
        for p in (0.5, 0.7, 0.9, 1.0):
            want = sorted(int(i) for i in np.flatnonzero(np.isfinite(top_p_filter(np.log(probs), p))))
            got = ex.call(fn, probs.copy(), p)
            ex.expect_equal(
                sorted(int(i) for i in got),
                want,
                what=f"nucleus({probs.tolist()}, {p})",
                hint="Sort the tokens by probability (largest first) and add them until the running "
                "total reaches p; the token that crosses p belongs to the nucleus.",
            )
        peaked = np.array([0.02, 0.95, 0.03])
        got = ex.call(fn, peaked.copy(), 0.9)
        ex.expect_equal(
            sorted(int(i) for i in got),
            [1],
            what="nucleus([0.02, 0.95, 0.03], 0.9)",
            hint="The top token alone already holds more than p: the nucleus is just that token.",
        )
    return ex.result


def _sample_index_reference(probs: np.ndarray, u: float) -> int:
    return int((np.cumsum(probs) <= u).sum())


def check_sample_index(fn: Callable) -> CheckResult:
    """``fn(probs, u)`` -> the index i with cdf[i-1] <= u < cdf[i] (inverse-CDF sampling for a given u in [0, 1))."""
    with Checker("Inverse-CDF sampling") as ex:
        probs = np.array([0.1, 0.0, 0.6, 0.3])
        for u in (0.0, 0.05, 0.1, 0.35, 0.69999, 0.7, 0.95):
            got = ex.call(fn, probs.copy(), u)
            ex.expect_equal(
                int(got),
                _sample_index_reference(probs, u),
                what=f"sample_index({probs.tolist()}, u={u})",
                hint="Return the first index whose cumulative probability is strictly greater than u.",
            )
        ex.expect_equal(
            int(ex.call(fn, probs.copy(), 0.1)),
            2,
            what="sample_index(probs, 0.1) where probs[1] = 0",
            hint="A token with probability 0 must never be drawn: compare u < cdf[i], not u <= cdf[i].",
        )
        # The empirical frequencies over a grid of u values must reproduce the probabilities.
        grid = (np.arange(1000) + 0.5) / 1000
        counts = np.bincount([int(ex.call(fn, probs.copy(), float(u))) for u in grid], minlength=len(probs))
        ex.expect_close(
            counts / 1000,
            probs,
            what="frequencies over 1000 evenly spaced u",
            atol=1e-3,
            hint="Each token should be drawn for a fraction of u values equal to its probability.",
        )
    return ex.result


def check_distinct_n(fn: Callable) -> CheckResult:
    """``fn(sequences, n)`` -> distinct n-grams / all n-grams, pooled over all sequences."""
    with Checker("Distinct-n") as ex:
        seqs = [["the", "cat", "sat"], ["the", "cat", "ran"], ["a", "dog"]]
        for n in (1, 2):
            ex.expect_close(
                ex.call(fn, seqs, n),
                distinct_n(seqs, n),
                what=f"distinct_n({seqs}, {n})",
                hint="Collect the n-grams of every sequence in one list; divide the number of distinct "
                "ones by the total.",
            )
        ex.expect_close(
            ex.call(fn, seqs, 3),
            distinct_n(seqs, 3),
            what=f"distinct_n({seqs}, 3)",
            hint='A sequence shorter than n (["a", "dog"] for n = 3) has no n-grams and adds nothing.',
        )
        loop = [["go", "go", "go", "go"]]
        ex.expect_close(
            ex.call(fn, loop, 1),
            0.25,
            what='distinct_n([["go", "go", "go", "go"]], 1)',
            hint="Four unigrams, one distinct: 1/4.",
        )
    return ex.result
