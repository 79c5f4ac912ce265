"""Laws that must hold for every input (hypothesis), for the sampling helpers.

Settings and strategies are shared (``tests/strategies.py``): 50 derandomized examples per law.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from nlp_helpers.llm.gpt import CharTokenizer
from nlp_helpers.sampling import distributions as S
from nlp_helpers.sampling.generate import distinct_n, repetition_rate
from tests.strategies import PROPERTY, TEMPERATURE, logits


@PROPERTY
@given(
    logits(),
    TEMPERATURE,
    st.one_of(st.none(), st.integers(1, 20)),
    st.one_of(st.none(), st.floats(1e-6, 1.0)),
    st.one_of(st.none(), st.floats(0.0, 1.0)),
)
def test_filtered_probs_are_a_distribution_even_for_huge_logits(x, t, k, p, mp):
    """Every filter chain, every temperature (0 = greedy), logits up to 1.5e308: non-negative, sums to 1, no NaN."""
    probs = S.filtered_probs(x, t, k, p, mp)
    assert np.isfinite(probs).all()
    assert (probs >= 0).all() and probs.sum() == pytest.approx(1.0, abs=1e-12)
    assert probs[np.argmax(x)] > 0  # the most likely token always survives
    assert (probs[np.isneginf(x)] == 0).all()  # a removed token never comes back
    soft = S.softmax(x, t)
    assert np.isfinite(soft).all() and soft.sum() == pytest.approx(1.0, abs=1e-12)


@PROPERTY
@given(
    logits(),
    st.floats(1e-3, 5.0),
    st.one_of(st.none(), st.integers(1, 20)),
    st.one_of(st.none(), st.floats(1e-6, 1.0)),
    st.integers(0, 2**32 - 1),
)
def test_a_sampled_token_is_always_a_valid_id_with_nonzero_probability(x, t, k, p, seed):
    token = S.sample(x, t, k, p, generator=seed)
    assert 0 <= token < x.size
    assert S.filtered_probs(x, t, k, p)[token] > 0


@PROPERTY
@given(
    logits(max_v=10, allow_neg_inf=False).filter(lambda x: np.abs(x).max() <= 50),
    st.floats(-1e3, 1e3),
    st.floats(0.05, 5.0),
    st.integers(1, 12),
    st.floats(0.01, 1.0),
)
def test_probabilities_do_not_change_when_every_logit_is_shifted(x, shift, t, k, p):
    """softmax(z + c) = softmax(z): the filters compare logits and probabilities, never absolute values."""
    # In floating point, z + c can merge two logits that differ by less than c's rounding step (0 and 1.6e-20
    # both become 1.0): the shifted logits are then a different input, with a tie the original did not have.
    y = x + shift
    assume(np.array_equal(x[:, None] < x[None, :], y[:, None] < y[None, :]))
    np.testing.assert_allclose(S.filtered_probs(x + shift, t, k, p), S.filtered_probs(x, t, k, p), atol=1e-9)


@PROPERTY
@given(logits(max_v=15), st.integers(1, 20), st.floats(1e-3, 1.0), st.floats(0.0, 1.0))
def test_top_k_and_min_p_are_idempotent_and_top_p_never_brings_a_token_back(x, k, p, mp):
    """Top-k and min-p filter twice = once (min-p compares probability *ratios*, which renormalising keeps).

    Top-p is not idempotent: renormalised survivors are more likely, so a second pass may cut the
    nucleus further; but it can never re-admit a removed token.
    """
    for f in (lambda z: S.top_k_filter(z, k), lambda z: S.min_p_filter(z, mp)):
        once = f(x)
        np.testing.assert_array_equal(np.isfinite(f(once)), np.isfinite(once))
    once = np.isfinite(S.top_p_filter(x, p))
    twice = np.isfinite(S.top_p_filter(S.top_p_filter(x, p), p))
    assert not (twice & ~once).any() and twice.any()


@PROPERTY
@given(logits(max_v=15, allow_neg_inf=False).filter(lambda x: np.abs(x).max() <= 50))
def test_entropy_lies_between_zero_and_log_v(x):
    h = S.entropy(S.softmax(x))
    assert -1e-12 <= h <= math.log(x.size) + 1e-9
    assert S.entropy(S.softmax(x, 0.0)) == pytest.approx(math.log(np.sum(x == x.max())))  # uniform over the maxima


@PROPERTY
@given(st.text(st.sampled_from("abcé中🙂 \n"), min_size=1, max_size=40))
def test_char_tokenizer_round_trip(text):
    tok = CharTokenizer.from_text(text)
    assert tok.decode(tok.encode(text)) == text


@PROPERTY
@given(st.lists(st.lists(st.integers(0, 3), max_size=8), min_size=1, max_size=4), st.integers(1, 3))
def test_distinct_n_and_repetition_rate_are_fractions(seqs, n):
    assume(any(len(s) >= n for s in seqs))
    assert 0 < distinct_n(seqs, n) <= 1
    assert 0 <= repetition_rate(seqs, n) < 1
