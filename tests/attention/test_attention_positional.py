"""nlp_helpers.attention.positional: the seed's PE table, an independent torch formula, offsets, ALiBi."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from nlp_helpers.attention.positional import (
    alibi_bias,
    alibi_slopes,
    offset_matrix,
    pe_frequencies,
    positional_encoding,
)
from nlp_helpers.attention.self_attention import causal_mask, scaled_dot_product_attention
from nlp_helpers.attention.worked_example import load_worked_example, printed_agreement


def annotated_transformer_pe(n: int, d: int) -> np.ndarray:
    """The Annotated Transformer's PositionalEncoding (exp/log form), in torch."""
    pe = torch.zeros(n, d, dtype=torch.float64)
    position = torch.arange(n, dtype=torch.float64)[:, None]
    div_term = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * -(math.log(10000.0) / d))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe.numpy()


def test_pe_reproduces_the_seeds_printed_table():
    printed = load_worked_example()["positional_encoding_printed"]
    assert printed_agreement(positional_encoding(6, 6), printed, 4) <= 0.5 + 1e-6


def test_pe_for_of_at_position_4_as_derived_on_the_slide():
    np.testing.assert_allclose(
        positional_encoding(5, 6)[4], [-0.7568, -0.6536, 0.1846, 0.9828, 0.0086, 1.0000], atol=5e-5
    )


@pytest.mark.parametrize(("n", "d"), [(50, 16), (7, 512), (1, 2)])
def test_pe_matches_the_annotated_transformers_formula(n, d):
    np.testing.assert_allclose(positional_encoding(n, d), annotated_transformer_pe(n, d), atol=1e-12)


def test_odd_d_model_ends_with_a_sine():
    pe = positional_encoding(4, 5)
    np.testing.assert_allclose(pe[:, 4], np.sin(np.arange(4) / 10000 ** (4 / 5)))


def test_frequencies_pair_up_and_fall_geometrically():
    w = pe_frequencies(8)
    np.testing.assert_allclose(w, [1, 1, 0.1, 0.1, 0.01, 0.01, 0.001, 0.001])


@pytest.mark.parametrize("k", [1, 3, -2, 17])
def test_pe_at_pos_plus_k_is_a_linear_map_of_pe_at_pos(k):
    pe = positional_encoding(60, 16)
    M = offset_matrix(k, 16)
    lo, hi = max(0, -k), min(60, 60 - k)
    np.testing.assert_allclose(pe[lo:hi] @ M, pe[lo + k : hi + k], atol=1e-12)
    np.testing.assert_allclose(M @ M.T, np.eye(16), atol=1e-12)  # a rotation: lengths preserved


def test_pe_dot_product_depends_only_on_the_offset():
    pe = positional_encoding(40, 32)
    G = pe @ pe.T
    for k in range(5):
        diag = np.diagonal(G, offset=k)
        np.testing.assert_allclose(diag, diag[0], atol=1e-10)
    np.testing.assert_allclose(np.diag(G), 16.0)


def test_alibi_slopes_are_the_papers():
    np.testing.assert_allclose(alibi_slopes(8), [2.0**-i for i in range(1, 9)])
    np.testing.assert_allclose(alibi_slopes(4), [2.0 ** (-2 * i) for i in range(1, 5)])
    # 6 heads: the 4 slopes of n=4, then every other slope of n=8 (1/2, 1/8)
    np.testing.assert_allclose(alibi_slopes(6), [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8])


def test_alibi_bias_is_seed_003s_distance_penalty():
    b = alibi_bias(5)
    # row i = [-i, ..., -1, 0, -1, ..., -(n - 1 - i)]
    np.testing.assert_array_equal(b[2], [-2, -1, 0, -1, -2])
    np.testing.assert_array_equal(b[0], [0, -1, -2, -3, -4])
    per_head = alibi_bias(3, 4, slopes=np.array([0.5, 0.25]))
    assert per_head.shape == (2, 3, 4)
    np.testing.assert_allclose(per_head[0, 0], [0, -0.5, -1, -1.5])


def test_alibi_makes_equal_scores_prefer_near_tokens():
    n = 6
    Q = K = np.ones((n, 2))  # every raw score is equal
    V = np.eye(n)
    _, w = scaled_dot_product_attention(Q, K, V, causal_mask(n), bias=alibi_bias(n))
    last = w[-1]
    assert np.all(np.diff(last) > 0)  # the closer the key, the larger the weight
    np.testing.assert_allclose(last, np.exp(-np.arange(n)[::-1]) / np.exp(-np.arange(n)).sum())


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: positional_encoding(0, 4), ValueError, "n_positions must be >= 1"),
        (lambda: positional_encoding(3, 0), ValueError, "d_model must be >= 1"),
        (lambda: positional_encoding(3, 4, base=1.0), ValueError, "base must be > 1"),
        (lambda: offset_matrix(1, 5), ValueError, "d_model must be even"),
        (lambda: offset_matrix(1.5, 4), TypeError, "k must be an integer"),
        (lambda: alibi_slopes(0), ValueError, "n_heads must be >= 1"),
        (lambda: alibi_bias(3, slopes=-1.0), ValueError, "slopes must be >= 0"),
        (lambda: alibi_bias(3, slopes=np.ones((2, 2))), ValueError, "slopes must have 0 or 1 dimensions"),
    ],
)
def test_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()
