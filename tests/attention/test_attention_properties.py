"""Laws that must hold for every input (hypothesis), for the attention helpers.

Settings and strategies are shared (``tests/strategies.py``): 50 derandomized examples per law.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from nlp_helpers.attention import self_attention as A
from nlp_helpers.attention.positional import alibi_bias
from nlp_helpers.attention.transformer import layer_norm
from tests.strategies import PROPERTY, attention_inputs


@PROPERTY
@given(attention_inputs())
def test_attention_rows_sum_to_one_or_are_zero_when_fully_masked(inputs):
    """The documented convention: a query with no allowed key (or no key at all) gets zero weights and output."""
    Q, K, V, mask = inputs
    assume(np.isfinite(Q @ K.T).all() and np.abs(Q @ K.T).max(initial=0) < 1e300)
    out, w = A.scaled_dot_product_attention(Q, K, V, mask)
    assert np.isfinite(w).all() and np.isfinite(out).all()
    allowed = mask.any(axis=1)
    np.testing.assert_allclose(w.sum(axis=1)[allowed], 1.0, atol=1e-12)
    assert (w[~allowed] == 0).all() and (out[~allowed] == 0).all()
    assert (w[~mask] == 0).all()  # a masked key gets exactly zero weight


@PROPERTY
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 4), st.integers(1, 6)),
        elements=st.one_of(st.floats(-1e30, 1e30), st.just(-math.inf)),
    ),
    arrays(np.bool_, st.tuples(st.integers(1, 4), st.integers(1, 6))),
)
def test_masked_softmax_rows_sum_to_one_or_zero(scores, mask):
    assume(mask.shape == scores.shape)
    w = A.softmax(scores, mask)
    allowed = (mask & np.isfinite(scores)).any(axis=-1)
    assert np.isfinite(w).all() and (w >= 0).all()
    np.testing.assert_allclose(w.sum(axis=-1)[allowed], 1.0, atol=1e-12)
    assert (w[~allowed] == 0).all()


@PROPERTY
@given(st.integers(1, 3), st.integers(1, 4), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_every_head_of_multi_head_attention_is_a_distribution(n_heads, T, d_k, seed):
    rng = np.random.default_rng(seed)
    d_model = n_heads * d_k
    X = rng.normal(size=(2, T, d_model)) * 10
    W = [rng.normal(size=(d_model, d_model)) for _ in range(4)]
    mask = A.causal_mask(T)
    _, w = A.multi_head_attention(X, *W, n_heads, mask)
    assert w.shape == (2, n_heads, T, T)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, atol=1e-12)
    assert (w[..., ~mask] == 0).all()


@PROPERTY
@given(st.integers(1, 6), st.integers(1, 6), st.floats(0.0, 4.0))
def test_alibi_bias_is_a_penalty_that_is_zero_on_the_diagonal(n_q, n_k, slope):
    b = alibi_bias(n_q, n_k, slope)
    assert (b <= 0).all()
    idx = np.arange(min(n_q, n_k))
    assert (b[idx, idx] == 0).all()


@PROPERTY
@given(
    arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(2, 6)), elements=st.floats(-1, 1)),
    st.sampled_from([1.0, 1e-100, 1e100, 1e300]),
)
def test_layer_norm_gives_mean_zero_and_unit_variance_at_any_scale(x, scale):
    assume(np.ptp(x, axis=-1).min() > 1e-3)  # a (nearly) constant row has no spread to normalise
    y = layer_norm(x * scale, eps=0.0)
    np.testing.assert_allclose(y.mean(axis=-1), 0.0, atol=1e-9)
    np.testing.assert_allclose(y.var(axis=-1), 1.0, atol=1e-9)
    np.testing.assert_allclose(y, layer_norm(x, eps=0.0), atol=1e-9)  # normalising removes the scale
