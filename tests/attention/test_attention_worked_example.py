"""Seed 001's worked encoder layer, step by step, against its printed tables (nlp_helpers.attention.worked_example).

Each step is recomputed from the *previous step's printed, rounded* numbers, as the slides did, and must
agree with the printed table to half a unit of its last printed decimal. Plain numpy is used for the
arithmetic where the chapter uses nlp_helpers, so the two check each other.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nlp_helpers.attention.positional import positional_encoding
from nlp_helpers.attention.self_attention import multi_head_attention, softmax
from nlp_helpers.attention.transformer import (
    AttentionParams,
    EncoderLayerParams,
    encoder_layer,
    feed_forward,
    layer_norm,
)
from nlp_helpers.attention.worked_example import WorkedExample, labelled, load_worked_example, printed_agreement

HALF = 0.5 + 1e-6


@pytest.fixture(scope="module")
def ex():
    return load_worked_example()


def test_the_example_has_the_seeds_shapes_and_tokens(ex):
    assert isinstance(ex, WorkedExample)
    assert ex.tokens == ("when", "you", "play", "game", "of", "thrones")
    assert ex.vocab_ids == (5, 17, 7, 12, 15, 19)
    assert (ex.d_model, ex.d_k, ex.layer_norm_epsilon) == (6, 4, 1e-4)
    assert ex["W_Q"].shape == (6, 4) and ex["W_O"].shape == (4, 6) and ex["softmax_printed"].shape == (6, 6)
    with pytest.raises(KeyError, match="no table 'W_X'"):
        ex["W_X"]


def test_tables_are_copies(ex):
    a = ex["W_Q"]
    a[0, 0] = 99.0
    assert ex["W_Q"][0, 0] == 0.52


def test_step_by_step_from_the_printed_numbers(ex):
    pe = np.array(
        [
            [np.sin(p / 10000 ** (x / 6)) if x % 2 == 0 else np.cos(p / 10000 ** ((x - 1) / 6)) for x in range(6)]
            for p in range(6)
        ]
    )
    assert printed_agreement(pe, ex["positional_encoding_printed"], 4) <= HALF
    X = ex["static_embedding_rows_are_tokens"] + pe
    assert printed_agreement(X, ex["X_printed_rounded_2dp"], 2) <= HALF
    X2 = ex["X_printed_rounded_2dp"]
    assert printed_agreement(X2 @ ex["W_Q"], ex["Q_printed"], 2) <= HALF
    assert printed_agreement(X2 @ ex["W_V"], ex["V_printed"], 2) <= HALF
    K = X2 @ ex["W_K"]
    # the K table's 4th column is the erratum; the K^T slide (3.41 1.93 3.01 1.35 1.81 2.28) is right
    assert printed_agreement(K[:, :3], ex["K_printed"][:, :3], 2) <= HALF
    assert printed_agreement(K[:, 3], [3.41, 1.93, 3.01, 1.35, 1.81, 2.28], 2) <= HALF
    assert printed_agreement(K[:, 3], ex["K_printed"][:, 3], 2) > 2
    QKt = ex["Q_printed"] @ np.round(K, 2).T
    assert printed_agreement(QKt, ex["QKt_printed"], 2) <= HALF
    assert printed_agreement(ex["QKt_printed"][:4] / 2, ex["scaled_by_sqrt_dk_printed_first_4_rows"], 2) <= HALF
    e = np.exp(QKt / 2 - (QKt / 2).max(axis=1, keepdims=True))
    assert printed_agreement(e / e.sum(axis=1, keepdims=True), ex["softmax_printed"], 4) <= HALF
    assert printed_agreement(ex["softmax_printed"] @ ex["V_printed"], ex["Z_printed"], 4) <= HALF
    assert printed_agreement(ex["Z_printed"] @ ex["W_O"], ex["MHA_output_printed"], 2) <= HALF
    assert printed_agreement(X2 + ex["MHA_output_printed"], ex["add_printed"], 2) <= HALF
    a = ex["add_printed"]
    norm = (a - a.mean(1, keepdims=True)) / (a.std(1, ddof=1, keepdims=True) + 1e-4)
    assert printed_agreement(norm, ex["normalized_printed"], 4) <= HALF
    assert printed_agreement(ex["normalized_printed"] @ ex["W_ffn"], ex["XW_ffn_printed"], 4) <= HALF
    relu = np.maximum(0, ex["XW_ffn_printed"] + ex["b_ffn_inferred"])
    assert printed_agreement(relu, ex["relu_output_printed"], 4) <= HALF


def test_nlp_helpers_reproduce_the_slides_from_the_rounded_inputs(ex):
    X2 = ex["X_printed_rounded_2dp"]
    assert printed_agreement(positional_encoding(6, 6), ex["positional_encoding_printed"], 4) <= HALF
    Qr, Kr = np.round(X2 @ ex["W_Q"], 2), np.round(X2 @ ex["W_K"], 2)
    assert printed_agreement(softmax(Qr @ Kr.T / 2), ex["softmax_printed"], 4) <= HALF
    a = ex["add_printed"]
    assert printed_agreement(layer_norm(a, 1e-4, 1, eps_inside_sqrt=False), ex["normalized_printed"], 4) <= HALF


def test_full_precision_differs_from_the_slides_in_the_last_digits_only(ex):
    X = ex["static_embedding_rows_are_tokens"] + positional_encoding(6, 6)
    params = EncoderLayerParams(
        AttentionParams(ex["W_Q"], ex["W_K"], ex["W_V"], ex["W_O"]), W1=ex["W_ffn"], b1=ex["b_ffn_inferred"]
    )
    _, w, steps = encoder_layer(X, params, 1, eps=1e-4, ddof=1, eps_inside_sqrt=False, return_steps=True)
    diff = np.abs(w[0] - ex["softmax_printed"]).max()
    assert 5e-5 < diff < 3e-3
    assert w[0, 1, 0] == pytest.approx(0.9103, abs=5e-5)  # you -> when; the slides print 0.9111
    assert np.abs(steps["ffn_out"] - ex["relu_output_printed"]).max() < 0.01
    mha, _ = multi_head_attention(X, ex["W_Q"], ex["W_K"], ex["W_V"], ex["W_O"], 1)
    np.testing.assert_allclose(steps["attn_out"], mha)


def test_printed_agreement_and_labelled():
    assert printed_agreement([1.234], [1.23], 2) == pytest.approx(0.4)
    assert printed_agreement([1.236], [1.23], 2) == pytest.approx(0.6)
    with pytest.raises(ValueError, match="computed has shape"):
        printed_agreement(np.zeros(2), np.zeros(3), 2)
    with pytest.raises(ValueError, match="decimals must be <= 12"):
        printed_agreement(np.zeros(2), np.zeros(2), 20)
    df = labelled(np.arange(6.0).reshape(2, 3), ["a", "b"], "d")
    assert isinstance(df, pd.DataFrame) and list(df.columns) == ["d1", "d2", "d3"] and list(df.index) == ["a", "b"]
    with pytest.raises(ValueError, match="rows has 1 labels"):
        labelled(np.zeros((2, 3)), ["a"], "d")
    with pytest.raises(ValueError, match="columns has 2 labels"):
        labelled(np.zeros((2, 3)), ["a", "b"], ["x", "y"])


def test_reader_facing_aliases_name_the_same_tables() -> None:
    ex = load_worked_example()
    np.testing.assert_array_equal(ex["b_ffn"], ex["b_ffn_inferred"])
    np.testing.assert_array_equal(ex["E"], ex["static_embedding_rows_are_tokens"])
    with pytest.raises(KeyError, match="no table"):
        ex["b_ffn_printed_nowhere"]


def test_the_pages_chain_of_rounded_numbers_reproduces_the_printed_tables(ex):
    """The section page computes each step from the numbers it shows (rounded as shown); every table it shows
    rounds to the printed one. (The page itself asserts only its own claims.)"""
    PE = positional_encoding(6, 6)
    assert printed_agreement(PE, ex["positional_encoding_printed"], 4) <= HALF
    X_full = ex["E"] + PE
    X = np.round(X_full, 2)
    assert printed_agreement(X_full, ex["X_printed_rounded_2dp"], 2) <= HALF
    np.testing.assert_array_equal(X, ex["X_printed_rounded_2dp"])
    Q, K, V = X @ ex["W_Q"], X @ ex["W_K"], X @ ex["W_V"]
    assert printed_agreement(Q, ex["Q_printed"], 2) <= HALF and printed_agreement(V, ex["V_printed"], 2) <= HALF
    Q2, K2 = np.round(Q, 2), np.round(K, 2)
    # the K table's last column is off in three entries; the K the scores were computed from is not
    np.testing.assert_array_equal(np.delete(K2, 3, axis=1), np.delete(ex["K_printed"], 3, axis=1))
    np.testing.assert_allclose(K2[:, 3], [3.41, 1.93, 3.01, 1.35, 1.81, 2.28])
    QKt = Q2 @ K2.T
    assert printed_agreement(QKt, ex["QKt_printed"], 2) <= HALF
    assert printed_agreement(Q2 @ ex["K_printed"].T, ex["QKt_printed"], 2) > 5  # the K table cannot have produced it
    scores = QKt / np.sqrt(ex.d_k)
    scaled_printed = ex["scaled_by_sqrt_dk_printed_first_4_rows"]
    assert printed_agreement(ex["QKt_printed"][:4] / 2, scaled_printed, 2) <= HALF  # halves the rounded scores
    assert 0.6 < printed_agreement(scores[:4], scaled_printed, 2) < 0.8
    A = softmax(scores)
    assert printed_agreement(A, ex["softmax_printed"], 4) <= HALF
    Z = np.round(A, 4) @ np.round(V, 2)
    assert printed_agreement(Z, ex["Z_printed"], 4) <= HALF
    mha_out = np.round(Z, 4) @ ex["W_O"]
    assert printed_agreement(mha_out, ex["MHA_output_printed"], 2) <= HALF
    added = X + np.round(mha_out, 2)
    assert printed_agreement(added, ex["add_printed"], 2) <= HALF
    normed_printed = layer_norm(ex["add_printed"], 1e-4, 1, eps_inside_sqrt=False)
    assert printed_agreement(normed_printed, ex["normalized_printed"], 4) <= HALF
    normed = layer_norm(added, eps=1e-4, ddof=1, eps_inside_sqrt=False)
    h_in = np.round(normed, 4)
    assert printed_agreement(h_in @ ex["W_ffn"], ex["XW_ffn_printed"], 4) <= HALF
    relu = feed_forward(h_in, ex["W_ffn"], ex["b_ffn"])
    assert printed_agreement(relu, ex["relu_output_printed"], 4) <= HALF
