"""Bad and edge inputs of the sampling chapter's helpers, table-driven (the runner is ``tests/bad_inputs.py``).

``BAD`` rows must raise an error naming the argument; ``EDGE`` rows have a documented result.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from nlp_helpers.sampling import distributions as S  # noqa: E402
from nlp_helpers.sampling import generate as SG  # noqa: E402
from nlp_helpers.sampling import llm as L  # noqa: E402
from tests.bad_inputs import Bad, Edge, bad, edge, run_bad, run_edge

NAN, INF = math.nan, math.inf


BAD = [
    # --- sampling: huge logits, temperatures, k and p (test_sampling covers the common cases)
    bad("sampling.entropy-strings", lambda: S.entropy(["a", "b"]), TypeError, "probs must be array-like"),
    bad("sampling.entropy-3d", lambda: S.entropy(np.full((1, 1, 2), 0.5)), ValueError, "probs must be"),
    bad("sampling.entropy-negative", lambda: S.entropy([1.5, -0.5]), ValueError, "probs must be non-negative"),
    bad("sampling.min_p_filter-nan", lambda: S.min_p_filter([1.0, 2.0], NAN), ValueError, "min_p must be a finite"),
    bad(
        "sampling.min_p_filter-logits-inf",
        lambda: S.min_p_filter([INF, 1.0], 0.1),
        ValueError,
        r"logits must not contain NaN or \+inf",
    ),
    bad("sampling.top_k_filter-k-float", lambda: S.top_k_filter([1.0, 2.0], 1.0), TypeError, "k must be an integer"),
    bad("sampling.top_p_filter-p-none", lambda: S.top_p_filter([1.0, 2.0], None), TypeError, "p must be a number"),
    bad("sampling.top_p_filter-p-above-1", lambda: S.top_p_filter([1.0, 2.0], 1.5), ValueError, "p must be <= 1"),
    bad(
        "sampling.apply_temperature-negative", lambda: S.apply_temperature([1.0, 2.0], -1.0), ValueError, "temperature"
    ),
    bad(
        "sampling.process_logits-temperature-0",
        lambda: S.process_logits([1.0, 2.0], 0.0),
        ValueError,
        "temperature must be > 0",
    ),
    bad(
        "sampling.process_logits-top_p-0",
        lambda: S.process_logits([1.0, 2.0], 1.0, top_p=0.0),
        ValueError,
        "top_p must be > 0",
    ),
    bad(
        "sampling.apply_repetition_penalty-float-ids",
        lambda: S.apply_repetition_penalty([1.0, 2.0], [0.5], 1.2),
        ValueError,
        "previous_ids",
    ),
    bad(
        "sampling.apply_repetition_penalty-zero",
        lambda: S.apply_repetition_penalty([1.0, 2.0], [0], 0.0),
        ValueError,
        "penalty must be > 0",
    ),
    bad("sampling.greedy-empty", lambda: S.greedy([]), ValueError, "logits must have shape"),
    bad("sampling.greedy-none", lambda: S.greedy(None), ValueError, "logits must have shape"),
    bad("sampling.sample-num_samples-bool", lambda: S.sample([0.0, 1.0], num_samples=True), TypeError, "num_samples"),
    bad("sampling.softmax-temperature-str", lambda: S.softmax([1.0], "1"), TypeError, "temperature must be a number"),
    # --- sampling_generate
    bad("sampling_generate.distinct_n-order-0", lambda: SG.distinct_n([[1, 2]], 0), ValueError, "n must be >= 1"),
    bad("sampling_generate.distinct_n-str", lambda: SG.distinct_n("abc", 1), TypeError, "sequences"),
    bad(
        "sampling_generate.repetition_rate-order-0",
        lambda: SG.repetition_rate([[1, 2]], 0),
        ValueError,
        "n must be >= 1",
    ),
    bad(
        "sampling_generate.repetition_rate-too-short", lambda: SG.repetition_rate([[1, 2]], 3), ValueError, "no 3-gram"
    ),
    bad(
        "sampling_generate.repetition_rate-empty",
        lambda: SG.repetition_rate([]),
        ValueError,
        "sequences must not be empty",
    ),
    bad(
        "sampling_generate.generate-negative-temperature",
        lambda: SG.generate(None, None, "hi", 3, temperature=-1),
        ValueError,
        "temperature",
    ),
    bad("sampling_generate.generate-top_p-0", lambda: SG.generate(None, None, "hi", 3, top_p=0.0), ValueError, "top_p"),
    bad(
        "sampling_generate.generate-unknown-strategy",
        lambda: SG.generate(None, None, "hi", 3, top_z=1),
        ValueError,
        "top_z",
    ),
    bad(
        "sampling_generate.generate_many-no-settings",
        lambda: SG.generate_many(None, None, "hi", [], 3),
        ValueError,
        "settings must not be empty",
    ),
    bad(
        "sampling_generate.generate_many-setting-not-dict",
        lambda: SG.generate_many(None, None, "hi", [0.7], 3),
        TypeError,
        "setting",
    ),
    bad(
        "sampling_generate.generate_many-zero-tokens",
        lambda: SG.generate_many(None, None, "hi", [{}], 0),
        ValueError,
        "max_new_tokens",
    ),
    bad(
        "sampling_generate.generate_many-empty-prompt",
        lambda: SG.generate_many(None, None, "", [{}], 2),
        ValueError,
        "prompt",
    ),
    bad(
        "sampling_generate.generate_batch-no-prompts",
        lambda: SG.generate_batch(None, None, [], [{}], 2),
        ValueError,
        "prompts must not be empty",
    ),
    bad(
        "sampling_generate.generate_batch-empty-prompt",
        lambda: SG.generate_batch(None, None, ["hi", ""], [{}], 2),
        ValueError,
        r"prompts\[1\]",
    ),
    bad(
        "sampling_generate.generate_many-bad-penalty",
        lambda: SG.generate_many(None, None, "hi", [{"repetition_penalty": 0}], 2),
        ValueError,
        "repetition_penalty",
    ),
    # --- llm (the argument checks run before the model is touched)
    bad(
        "llm.next_token_logits-empty-prompt",
        lambda: L.next_token_logits(None, None, ""),
        ValueError,
        "prompt must be a non-empty",
    ),
    bad("llm.top_next_tokens-k-0", lambda: L.top_next_tokens(None, None, "hi", 0), ValueError, "k must be >= 1"),
    bad("llm.logit_lens-k-0", lambda: L.logit_lens(None, None, "hi", k=0), ValueError, "k must be >= 1"),
    bad(
        "llm.sequence_log_probs-empty-text",
        lambda: L.sequence_log_probs(None, None, ""),
        ValueError,
        "text must be a non-empty",
    ),
]


EDGE = [
    # --- sampling: huge logits, temperature 0, k >= V (documented in the module docstring)
    edge(
        "sampling.filtered_probs-huge-logits",
        lambda: S.filtered_probs([1.7e308, 0.0], 0.5),
        lambda p: np.array_equal(p, [1.0, 0.0]),
    ),
    edge(
        "sampling.filtered_probs-huge-negative-logit",
        lambda: S.filtered_probs([-1.5e308], 0.5),
        lambda p: np.array_equal(p, [1.0]),
    ),
    edge(
        "sampling.softmax-plus-minus-1e30",
        lambda: S.softmax([1e30, -1e30, 0.0]),
        lambda p: np.array_equal(p, [1.0, 0.0, 0.0]),
    ),
    edge(
        "sampling.sample-huge-logits-is-a-valid-id",
        lambda: S.sample([1.7e308, 0.0], 0.5, generator=0),
        lambda t: t == 0,
    ),
    edge(
        "sampling.apply_temperature-overflow-is-shifted",
        lambda: S.apply_temperature([1.7e308, 0.0], 0.5),
        lambda x: x[0] == 0 and x[1] == -INF,
    ),
    edge(
        "sampling.softmax-temperature-0-ties-share",
        lambda: S.softmax([1.0, 3.0, 3.0], 0.0),
        lambda p: np.array_equal(p, [0.0, 0.5, 0.5]),
    ),
    edge(
        "sampling.top_k_filter-k-above-vocabulary",
        lambda: S.top_k_filter([1.0, 2.0], 10),
        lambda x: np.array_equal(x, [1.0, 2.0]),
    ),
    edge("sampling.min_p_filter-0-keeps-all", lambda: S.min_p_filter([1.0, -5.0], 0.0), lambda x: np.isfinite(x).all()),
    edge("sampling.greedy-ties-lowest-id", lambda: S.greedy([[0.0, 2.0, 2.0]]), lambda i: list(i) == [1]),
    edge(
        "sampling.apply_repetition_penalty-no-history",
        lambda: S.apply_repetition_penalty([1.0, -1.0], [], 2.0),
        lambda x: np.array_equal(x, [1.0, -1.0]),
    ),
    edge(
        "sampling_generate.distinct_n-short-sequences-ignored",
        lambda: SG.distinct_n([[1], [1, 2]], 2),
        lambda v: v == 1.0,
    ),
    edge(
        "sampling_generate.Generation-mean_log_prob",
        lambda: SG.Generation("p", {}, np.zeros((1, 2), int), np.log([[0.5, 0.25]])).mean_log_prob,
        lambda v: v == pytest.approx(np.log(0.5 * 0.25) / 2),
    ),
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_a_clear_error_naming_the_argument(case: Bad) -> None:
    run_bad(case)


@pytest.mark.parametrize("case", EDGE)
def test_edge_input_gives_the_documented_result(case: Edge) -> None:
    run_edge(case)
