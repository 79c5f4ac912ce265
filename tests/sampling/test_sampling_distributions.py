"""Tests of nlp_helpers.sampling.distributions: parity with transformers' logits warpers, sampling statistics, bad input.

The generation loop and the diversity measures are tested in test_sampling_generate.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.stats import chisquare
from transformers.generation import (
    LogitsProcessorList,
    MinPLogitsWarper,
    RepetitionPenaltyLogitsProcessor,
    TemperatureLogitsWarper,
    TopKLogitsWarper,
    TopPLogitsWarper,
)

from nlp_helpers.sampling import distributions as S
from nlp_helpers.seeds import rng as seeded_rng

RNG = seeded_rng(1234)


def hf(warper, logits: np.ndarray, input_ids=None) -> np.ndarray:
    """Apply a transformers warper to float64 logits (B, V) and return numpy."""
    return warper(input_ids, torch.from_numpy(np.atleast_2d(logits).copy())).numpy()


def random_logits(B=4, V=50, scale=3.0, rng=RNG):
    return rng.normal(size=(B, V)) * scale


@pytest.fixture(scope="module")
def smollm2():
    from nlp_helpers.data.smollm2 import load_smollm2

    return load_smollm2(verbose=False)


@pytest.fixture(scope="module")
def real_logits(smollm2):
    """Next-token logits of SmolLM2 for three prompts, (3, 49152)."""
    from nlp_helpers.sampling.llm import next_token_logits

    model, tok = smollm2
    prompts = ["The capital of France is", "Once upon a time", "def fibonacci(n):"]
    return np.stack([next_token_logits(model, tok, p) for p in prompts])


# ------------------------------------------------------------------ softmax, temperature
def test_softmax_matches_torch_at_several_temperatures():
    x = random_logits()
    for t in (0.3, 1.0, 2.5):
        np.testing.assert_allclose(S.softmax(x, t), torch.softmax(torch.from_numpy(x) / t, -1).numpy(), rtol=1e-12)


def test_softmax_is_stable_for_huge_logits_and_handles_minus_inf():
    p = S.softmax([1000.0, 999.0, -np.inf])
    np.testing.assert_allclose(p, [1 / (1 + math.exp(-1)), math.exp(-1) / (1 + math.exp(-1)), 0.0], rtol=1e-12)


def test_temperature_zero_is_the_limit_of_softmax():
    x = np.array([1.0, 3.0, 2.0])
    np.testing.assert_array_equal(S.softmax(x, 0), [0, 1, 0])
    np.testing.assert_allclose(S.softmax(x, 0.01), [0, 1, 0], atol=1e-40)
    # Tied maxima share the mass in the limit T -> 0.
    np.testing.assert_array_equal(S.softmax([2.0, 2.0, 0.0], 0), [0.5, 0.5, 0.0])


def test_temperature_matches_transformers():
    x = random_logits()
    for t in (0.2, 0.7, 1.0, 1.8):
        np.testing.assert_allclose(S.apply_temperature(x, t), hf(TemperatureLogitsWarper(t), x), rtol=1e-15)


def test_temperature_flattens_or_sharpens_entropy():
    x = random_logits(B=1)[0]
    h = [S.entropy(S.softmax(x, t)) for t in (0.25, 0.5, 1.0, 2.0, 4.0)]
    assert all(a < b for a, b in zip(h, h[1:]))
    assert h[-1] < math.log(x.size) + 1e-12


def test_entropy_hand_worked():
    assert S.entropy([0.5, 0.5]) == pytest.approx(math.log(2))
    assert S.entropy([1.0, 0.0, 0.0]) == 0.0
    assert S.entropy([0.25] * 4) == pytest.approx(math.log(4))


# -------------------------------------------------------------------- filters vs transformers
@pytest.mark.parametrize("k", [1, 2, 5, 17, 50, 80])
@pytest.mark.parametrize("keep", [1, 3])
def test_top_k_matches_transformers_on_random_logits(k, keep):
    x = random_logits()
    np.testing.assert_array_equal(S.top_k_filter(x, k, keep), hf(TopKLogitsWarper(k, min_tokens_to_keep=keep), x))


@pytest.mark.parametrize("p", [0.05, 0.3, 0.5, 0.9, 0.95, 0.999])
@pytest.mark.parametrize("keep", [1, 2, 5])
def test_top_p_matches_transformers_on_random_logits(p, keep):
    for scale in (0.3, 3.0, 10.0):  # flat to peaked distributions
        x = random_logits(V=300, scale=scale)
        np.testing.assert_array_equal(S.top_p_filter(x, p, keep), hf(TopPLogitsWarper(p, min_tokens_to_keep=keep), x))


@pytest.mark.parametrize("min_p", [0.0, 0.01, 0.1, 0.5, 1.0])
@pytest.mark.parametrize("keep", [1, 4])
def test_min_p_matches_transformers_on_random_logits(min_p, keep):
    x = random_logits(V=200)
    np.testing.assert_array_equal(
        S.min_p_filter(x, min_p, keep), hf(MinPLogitsWarper(min_p, min_tokens_to_keep=keep), x)
    )


def test_repetition_penalty_matches_transformers():
    x = random_logits(B=3, V=40)
    ids = RNG.integers(0, 40, size=(3, 12))
    for penalty in (0.8, 1.0, 1.3, 2.0):
        want = hf(RepetitionPenaltyLogitsProcessor(penalty), x, torch.from_numpy(ids))
        np.testing.assert_allclose(S.apply_repetition_penalty(x, ids, penalty), want, rtol=1e-15)


def test_combined_chain_matches_transformers_processor_list():
    x = random_logits(B=5, V=400, scale=4.0)
    for t, k, p, mp in [(0.7, 40, 0.9, None), (1.3, 100, 0.8, 0.05), (1.0, 5, 0.5, None), (0.5, None, 0.95, 0.1)]:
        chain = [TemperatureLogitsWarper(t)]
        chain += [TopKLogitsWarper(k)] if k else []
        chain += [TopPLogitsWarper(p)] + ([MinPLogitsWarper(mp)] if mp else [])
        want = hf(LogitsProcessorList(chain), x)
        np.testing.assert_allclose(S.process_logits(x, t, k, p, mp), want, rtol=1e-14)


@pytest.mark.slow
def test_filters_match_transformers_on_real_smollm2_logits(real_logits):
    x = real_logits
    for k in (1, 10, 50, 1000):
        np.testing.assert_array_equal(S.top_k_filter(x, k), hf(TopKLogitsWarper(k), x))
    for t in (0.5, 1.0, 1.5):
        for p in (0.5, 0.9, 0.95):
            xt = x / t
            np.testing.assert_array_equal(S.top_p_filter(xt, p), hf(TopPLogitsWarper(p), xt))
        for mp in (0.05, 0.2):
            np.testing.assert_array_equal(S.min_p_filter(x / t, mp), hf(MinPLogitsWarper(mp), x / t))
    # The whole chain, including a flat distribution (T = 1.5) whose nucleus has thousands of tokens.
    want = hf(LogitsProcessorList([TemperatureLogitsWarper(1.5), TopKLogitsWarper(5000), TopPLogitsWarper(0.95)]), x)
    got = S.process_logits(x, 1.5, 5000, 0.95)
    np.testing.assert_allclose(got, want, rtol=1e-14)
    assert (np.isfinite(got).sum(-1) > 256).any()  # exercises the full-sort fallback of the nucleus search


# ------------------------------------------------------------------------------- ties
def test_top_k_keeps_every_token_tied_with_the_kth_like_transformers():
    x = np.array([[3.0, 1.0, 2.0, 2.0, 2.0, 0.0]])
    got = S.top_k_filter(x, 2)
    np.testing.assert_array_equal(np.isfinite(got[0]), [True, False, True, True, True, False])
    np.testing.assert_array_equal(got, hf(TopKLogitsWarper(2), x))


def test_top_p_with_ties_inside_the_nucleus_matches_transformers():
    # probabilities 0.25, 0.25, 0.25, 0.125, 0.125 (exact in binary): for 0.5 < p <= 0.75 the nucleus is the three tied tokens.
    x = np.log(np.array([[0.125, 0.25, 0.25, 0.125, 0.25]]))
    for p in (0.6, 0.7, 0.9, 0.99):  # boundaries that neither split a tied group nor sit exactly on a sum
        np.testing.assert_array_equal(S.top_p_filter(x, p), hf(TopPLogitsWarper(p), x))


def test_top_p_with_ties_across_the_boundary_keeps_all_tied_tokens():
    # p = 0.5: the top token (0.4) needs one more; three tokens tie for 2nd place.
    x = np.log(np.array([[0.4, 0.15, 0.15, 0.15, 0.15]]))
    ours = np.isfinite(S.top_p_filter(x, 0.5))[0]
    theirs = np.isfinite(hf(TopPLogitsWarper(0.5), x))[0]
    np.testing.assert_array_equal(ours, [True, True, True, True, True])
    # transformers keeps only the tied token that its sort happens to put last ...
    assert theirs.sum() == 2 and theirs[0]
    # ... so the two differ only by tokens tied with the boundary token.
    extra = ours & ~theirs
    assert np.all(x[0, extra] == x[0, theirs & (x[0] < x[0].max())][0])


@settings(max_examples=60, deadline=None)
@given(
    arrays(np.float64, st.integers(2, 30), elements=st.sampled_from([-2.0, -1.0, 0.0, 0.5, 1.0, 3.0])),
    st.floats(0.05, 1.0),
    st.integers(1, 30),
    st.randoms(use_true_random=False),
)
def test_filters_depend_only_on_the_logits_not_on_token_order(x, p, k, rnd):
    """Heavily tied logits: permuting the vocabulary permutes the result (ties never split by index)."""
    perm = np.array(rnd.sample(range(x.size), x.size))
    for f in (lambda z: S.top_p_filter(z, p), lambda z: S.top_k_filter(z, k), lambda z: S.min_p_filter(z, p)):
        np.testing.assert_array_equal(f(x)[perm], f(x[perm]))
    probs = S.filtered_probs(x, 1.0, k, p)
    assert probs.sum() == pytest.approx(1.0)


@settings(max_examples=60, deadline=None)
@given(
    arrays(np.float64, st.integers(1, 40), elements=st.floats(-30, 30)),
    st.floats(0.05, 3.0),
    st.integers(1, 50),
    st.floats(0.01, 1.0),
    st.floats(0.0, 1.0),
)
def test_every_filter_leaves_a_distribution_that_sums_to_one(x, t, k, p, mp):
    for probs in (
        S.softmax(S.top_k_filter(x, k)),
        S.softmax(S.top_p_filter(x, p)),
        S.softmax(S.min_p_filter(x, mp)),
        S.filtered_probs(x, t, k, p, mp),
        S.filtered_probs(x, 0.0, k, p),
    ):
        assert probs.sum() == pytest.approx(1.0, abs=1e-12)
        assert (probs >= 0).all()
        assert probs[np.argmax(x)] > 0  # no filter ever removes the most likely token


def test_top_p_one_keeps_everything_and_tiny_p_keeps_the_top_token():
    x = random_logits(B=2)
    np.testing.assert_array_equal(S.top_p_filter(x, 1.0), x)
    got = S.top_p_filter(x, 1e-9)
    assert (np.isfinite(got).sum(-1) == 1).all()
    assert (np.argmax(got, -1) == np.argmax(x, -1)).all()


def test_filters_do_not_modify_their_input():
    x = random_logits()
    before = x.copy()
    S.process_logits(x, 0.7, 5, 0.9, 0.1, repetition_penalty=1.2, previous_ids=np.zeros((4, 3), dtype=int))
    np.testing.assert_array_equal(x, before)


# ------------------------------------------------------------------------------ sampling
def test_greedy_is_argmax_and_temperature_zero_is_greedy():
    x = random_logits(B=6)
    np.testing.assert_array_equal(S.greedy(x), x.argmax(-1))
    np.testing.assert_array_equal(S.sample(x, temperature=0, generator=0), x.argmax(-1))
    np.testing.assert_array_equal(S.sample(x, top_k=1, generator=0), x.argmax(-1))
    assert S.sample([0.0, 5.0, 5.0], temperature=0) == 1  # ties: the lowest id, like np.argmax


def test_seeded_sampling_is_reproducible():
    x = random_logits(B=8, V=1000, scale=1.0)
    a = S.sample(x, 0.9, top_p=0.95, generator=7)
    b = S.sample(x, 0.9, top_p=0.95, generator=seeded_rng(7))
    c = S.sample(x, 0.9, top_p=0.95, generator=8)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize(
    "setting", [dict(temperature=1.0), dict(temperature=0.8, top_k=6, top_p=0.9), dict(temperature=1.5, min_p=0.1)]
)
def test_sampling_frequencies_match_the_filtered_distribution(setting):
    """Chi-square goodness of fit on 20,000 draws; the unfiltered distribution is clearly rejected."""
    x = np.array([2.0, 1.5, 1.4, 1.0, 0.3, 0.0, -0.5, -1.0, -2.0, -3.0])
    n = 20_000
    draws = S.sample(np.tile(x, (n, 1)), generator=0, **setting)
    counts = np.bincount(draws, minlength=x.size)
    probs = S.filtered_probs(x, **setting)
    assert counts[probs == 0].sum() == 0  # removed tokens are never drawn
    support = probs > 0
    assert chisquare(counts[support], n * probs[support]).pvalue > 1e-3
    if not np.all(support) or setting["temperature"] != 1.0:
        raw = S.softmax(x)
        expected = n * raw[support] / raw[support].sum() if not np.all(support) else n * raw
        assert chisquare(counts[support], expected).pvalue < 1e-6  # the test has power


def test_sample_shapes_and_types():
    assert isinstance(S.sample([0.0, 1.0], generator=0), int)
    assert S.sample(np.zeros((3, 4)), generator=0).shape == (3,)


# ---------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(temperature=-0.1), "temperature"),
        (dict(temperature=float("nan")), "temperature"),
        (dict(temperature=float("inf")), "temperature"),
        (dict(top_k=0), "top_k"),
        (dict(top_k=2.5), "top_k"),
        (dict(top_p=0.0), "top_p"),
        (dict(top_p=1.01), "top_p"),
        (dict(top_p=-0.5), "top_p"),
        (dict(min_p=1.5), "min_p"),
    ],
)
def test_bad_strategy_arguments_raise_clear_errors(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        S.sample([1.0, 2.0], generator=0, **kwargs)
    with pytest.raises((ValueError, TypeError), match=match):
        S.filtered_probs([1.0, 2.0], **kwargs)


@pytest.mark.parametrize(
    "logits, match",
    [
        ([-np.inf, -np.inf], "every logit of a row is -inf"),
        ([[0.0, 1.0], [-np.inf, -np.inf]], "every logit of a row is -inf"),
        ([0.0, np.nan], "NaN"),
        ([0.0, np.inf], r"\+inf"),
        ([], "shape"),
        (np.zeros((2, 2, 2)), "shape"),
        (["a", "b"], "array-like"),
    ],
)
def test_bad_logits_raise_clear_errors(logits, match):
    with pytest.raises((ValueError, TypeError), match=match):
        S.sample(logits, generator=0)


def test_filter_argument_errors_name_the_argument():
    with pytest.raises(ValueError, match="k must be >= 1"):
        S.top_k_filter([1.0, 2.0], 0)
    with pytest.raises(ValueError, match="p must be > 0"):
        S.top_p_filter([1.0, 2.0], 0)
    with pytest.raises(ValueError, match="min_tokens_to_keep"):
        S.top_p_filter([1.0, 2.0], 0.5, min_tokens_to_keep=0)
    with pytest.raises(ValueError, match="temperature must be > 0"):
        S.apply_temperature([1.0], 0)
    with pytest.raises(ValueError, match="previous_ids"):
        S.apply_repetition_penalty([1.0, 2.0], [5], 1.2)
    with pytest.raises(ValueError, match="previous_ids is required"):
        S.process_logits([1.0, 2.0], repetition_penalty=1.2)
    with pytest.raises(TypeError, match="generator"):
        S.sample([1.0, 2.0], generator="seed")
    with pytest.raises(ValueError, match="sum to 1"):
        S.entropy([0.5, 0.6])


def test_num_samples_draws_independently_from_one_distribution():
    x = np.array([0.0, 1.0, 2.0, -np.inf])
    many = S.sample(x, 1.0, generator=0, num_samples=30_000)
    assert many.shape == (30_000,) and 3 not in many
    np.testing.assert_allclose(np.bincount(many, minlength=4) / 30_000, S.softmax(x), atol=0.01)
    # One row and n draws use the same random numbers as n rows and one draw each.
    np.testing.assert_array_equal(
        S.sample(x, 0.8, generator=5, num_samples=50), S.sample(np.tile(x, (50, 1)), 0.8, generator=5)
    )
    assert S.sample(np.zeros((2, 3)), generator=0, num_samples=4).shape == (2, 4)
    np.testing.assert_array_equal(S.sample(x, temperature=0, num_samples=3), [2, 2, 2])
    with pytest.raises(ValueError, match="num_samples"):
        S.sample(x, num_samples=0)
