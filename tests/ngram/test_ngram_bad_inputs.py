"""Bad and edge inputs of the ngram chapter's helpers, table-driven (the runner is ``tests/bad_inputs.py``).

``BAD`` rows must raise an error naming the argument; ``EDGE`` rows have a documented result.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np
import pytest

from nlp_helpers.ngram import counts as NC  # noqa: E402
from nlp_helpers.ngram import models as NG  # noqa: E402
from tests.bad_inputs import Bad, Edge, bad, edge, run_bad, run_edge

NAN, INF = math.nan, math.inf


SENTS = (("the", "cat", "sat"), ("the", "dog", "sat"), ("a", "cat", "ran"))


@cache
def lm(smoothing: str = "laplace", n: int = 2) -> NG.NGramLM:
    return NG.NGramLM(n, smoothing).fit([list(s) for s in SENTS])


def _is_zero(x: Any) -> bool:
    return bool(np.all(np.asarray(x) == 0))


BAD = [
    # --- n-gram models (test_ngram covers the constructors and corpora)
    bad("ngram_counts.NGramCounts-order-0", lambda: NC.NGramCounts(0), ValueError, "n must be >= 1"),
    bad("ngram.StupidBackoff-order-0", lambda: NG.StupidBackoff(0), ValueError, "n must be >= 1"),
    bad("ngram.NGramLM.with_params-order-0", lambda: lm().with_params(n=0), ValueError, "n must be >= 1"),
    bad("ngram.NGramLM.n_distinct-order-0", lambda: lm().n_distinct(0), ValueError, "order must be >= 1"),
    bad("ngram.NGramLM.ngram_table-order-above-n", lambda: lm().ngram_table(3), ValueError, "order must be <= 2"),
    bad("ngram.NGramLM.generate-order-0", lambda: lm().generate(3, order=0), ValueError, "order must be >= 1"),
    bad(
        "ngram.NGramLM.generate-context-str",
        lambda: lm().generate(3, context="the cat"),
        TypeError,
        "context must be a sequence of tokens",
    ),
    bad("ngram.NGramLM.prob-context-none", lambda: lm().prob("cat", None), TypeError, "context must be a sequence"),
    bad(
        "ngram.NGramLM.ngram_count-str",
        lambda: lm().ngram_count("the"),
        TypeError,
        "ngram must be a sequence of tokens",
    ),
    bad(
        "ngram.NGramLM.continuation_count-list",
        lambda: lm().continuation_count(["cat"]),
        TypeError,
        "word must be a str",
    ),
    bad(
        "ngram.NGramLM.fit_lambdas-tol-nan",
        lambda: lm("interpolated").fit_lambdas([["the", "cat"]], tol=NAN),
        ValueError,
        "tol must be a finite",
    ),
    bad(
        "ngram.StupidBackoff.score-int",
        lambda: NG.StupidBackoff(2).fit([list(s) for s in SENTS]).score(1),
        TypeError,
        "word must be a str",
    ),
    bad(
        "ngram.NGramLM.perplexity-sentence-str",
        lambda: lm().perplexity(["the cat"]),
        TypeError,
        r"sentences\[0\] is a str",
    ),
]


EDGE = [
    # --- n-grams: unknown words, empty sentences, zero counts
    edge(
        "ngram.NGramLM.prob-unknown-word-is-unk",
        lambda: lm().prob("zebra", ["the"]),
        lambda p: p == lm().prob("<UNK>", ["the"]) > 0,
    ),
    edge(
        "ngram.NGramLM.perplexity-empty-sentence",
        lambda: lm().perplexity([[]]),
        lambda pp: pp >= 1 and math.isfinite(pp),
    ),
    edge(
        "ngram.NGramLM.perplexity-mle-unseen-is-inf",
        lambda: lm("mle").perplexity([["cat", "the"]]),
        lambda pp: pp == INF,
    ),
    edge("ngram.NGramLM.distribution-mle-unseen-context", lambda: lm("mle").distribution(["zebra"]), _is_zero),
    edge("ngram_counts.NGramCounts.ngram_count-unseen", lambda: lm().ngram_count(["cat", "the"]), lambda c: c == 0),
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_a_clear_error_naming_the_argument(case: Bad) -> None:
    run_bad(case)


@pytest.mark.parametrize("case", EDGE)
def test_edge_input_gives_the_documented_result(case: Edge) -> None:
    run_edge(case)
