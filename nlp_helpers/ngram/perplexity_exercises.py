"""Checkers for the exercises of the perplexity page (``book/ngram/perplexity.ipynb``).

``check_corpus_perplexity`` compares the student's corpus perplexity with the definition
(Jurafsky & Martin, SLP3 section 3.3): the tokens of all sentences pooled, ``2 ** (-(1/N) sum log2 P)``.
Its cases are hand-worked (powers of two) and aimed at the typical mistakes: averaging the sentences'
own perplexities or cross-entropies, the natural exponent, multiplying probabilities (which underflows),
and the edge cases the statement names (a zero probability, empty sentences, no tokens, P > 1, NaN).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from nlp_helpers.exercises.checker import Checker, CheckResult

__all__ = ["check_corpus_perplexity"]


def _close(a: object, b: float, rel: float = 1e-9) -> bool:
    try:
        return math.isclose(float(a), b, rel_tol=rel)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False


def check_corpus_perplexity(corpus_perplexity: Callable) -> CheckResult:
    """``corpus_perplexity(sentence_logprobs)``: one perplexity over the pooled tokens of all sentences."""
    with Checker("The perplexity of a corpus") as ex:
        # Two sentences (not the statement's by-hand corpus): 1/4, 1/4 (4 bits) and 1/32 (5 bits): 9 bits
        # over 3 tokens. The mean of the sentences' perplexities is (4 + 32) / 2, of their cross-entropies 3.5.
        corpus = [[-2.0, -2.0], [-5.0]]
        want = 2.0**3
        got = ex.call(corpus_perplexity, corpus)
        ex.expect(
            isinstance(got, float),
            f"corpus_perplexity should return a Python float, got {type(got).__name__} ({got!r}).",
        )
        ex.expect(
            not _close(got, (4 + 32) / 2),
            f"corpus_perplexity([[-2, -2], [-5]]) should be {want:.6g}, got {got!r}: you averaged the "
            "perplexities of the sentences. Pool the tokens instead: one cross-entropy over all the tokens of the "
            "corpus, then 2 to its power.",
        )
        ex.expect(
            not _close(got, 2 ** ((2 + 5) / 2)),
            f"corpus_perplexity([[-2, -2], [-5]]) should be {want:.6g}, got {got!r}: you averaged the "
            "cross-entropies of the sentences, so a one-token sentence weighs as much as a long one. Weigh every "
            "token equally: total bits divided by the total number of tokens.",
        )
        ex.expect(
            not _close(got, math.exp(3)),
            f"corpus_perplexity([[-2, -2], [-5]]) should be {want:.6g}, got {got!r}: the log "
            "probabilities are in base 2 (bits), so the perplexity is 2 ** H, not exp(H).",
        )
        ex.expect_close(
            got,
            want,
            what="corpus_perplexity([[-2.0, -2.0], [-5.0]])",
            rtol=1e-9,
            hint="Sum the log2 probabilities of every token of every sentence, divide by the number of tokens, "
            "negate, and raise 2 to that power.",
        )
        # Unequal lengths, with an empty sentence that contributes nothing.
        ex.expect_close(
            ex.call(corpus_perplexity, [[-2.0, -2.0, -2.0], [], [-5.0]]),
            2.0 ** (11 / 4),
            what="corpus_perplexity([[-2, -2, -2], [], [-5]])",
            rtol=1e-9,
            hint="An empty sentence has no tokens: it adds nothing to the bits or to the count of tokens.",
        )
        # 100,000 tokens of 20 bits each: the product of the probabilities underflows to 0.
        long = [[-20.0] * 1000 for _ in range(100)]
        got, error = ex.try_call(corpus_perplexity, long)
        ex.expect(
            error is None,
            f"corpus_perplexity of 100 sentences of 1,000 tokens of probability 2**-20 raised "
            f"{type(error).__name__}: {error}. Work with the sum of the log probabilities; never turn them into "
            "probabilities and multiply them (the product underflows to 0).",
        )
        ex.expect(
            _close(got, 2.0**20),
            f"corpus_perplexity of 100,000 tokens of probability 2**-20 should be 2**20 = {2**20:,}, got {got!r}: "
            "multiplying the probabilities underflows to 0. Add the log probabilities instead.",
        )
        # A zero probability: log2 P = -inf gives an infinite perplexity, not an error.
        got, error = ex.try_call(corpus_perplexity, [[-1.0, -math.inf], [-2.0]])
        ex.expect(
            error is None and isinstance(got, float) and got == math.inf,
            "corpus_perplexity([[-1, -inf], [-2]]) should be inf (one token has probability 0), got "
            + (f"{type(error).__name__}: {error}" if error is not None else repr(got))
            + ". Let -inf flow through the sum: 2 ** (+inf) is inf.",
        )
        ex.expect_raises(
            ValueError,
            corpus_perplexity,
            [],
            what="corpus_perplexity([])",
            hint="A corpus without tokens has no perplexity (0/0): raise ValueError.",
        )
        ex.expect_raises(
            ValueError,
            corpus_perplexity,
            [[], []],
            what="corpus_perplexity([[], []])",
            hint="Sentences without tokens: there is still nothing to average over, so raise ValueError.",
        )
        ex.expect_raises(
            ValueError,
            corpus_perplexity,
            [[-1.0, 0.5]],
            what="corpus_perplexity([[-1.0, 0.5]])",
            hint="A log2 probability above 0 is a probability above 1: check every value and raise ValueError.",
        )
        ex.expect_raises(
            ValueError,
            corpus_perplexity,
            [[-1.0], [math.nan]],
            what="corpus_perplexity([[-1.0], [nan]])",
            hint="NaN is not a log probability (NaN compares False with everything, so test it with math.isnan).",
        )
    return ex.result
