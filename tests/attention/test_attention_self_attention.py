"""nlp_helpers.attention.self_attention against PyTorch: SDPA, nn.MultiheadAttention, masks, heads; and bad input."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from nlp_helpers.attention.self_attention import (
    causal_mask,
    merge_heads,
    multi_head_attention,
    padding_mask,
    scaled_dot_product_attention,
    softmax,
    split_heads,
)
from nlp_helpers.seeds import manual_seed
from nlp_helpers.seeds import rng as seeded_rng

TOL = dict(rtol=1e-10, atol=1e-12)  # float64 on both sides


def rng(seed=0):
    return seeded_rng(seed)


def t(a):
    return torch.as_tensor(a, dtype=torch.float64)


# ---- softmax and masks -------------------------------------------------------------------------


def test_softmax_matches_torch_and_survives_huge_scores():
    s = rng().normal(size=(4, 7)) * 300  # exp(300) overflows without the max shift
    np.testing.assert_allclose(softmax(s), torch.softmax(t(s), -1).numpy(), **TOL)


def test_softmax_with_mask_equals_minus_inf_and_fully_masked_rows_are_zero():
    s = rng(1).normal(size=(3, 4))
    m = np.array([[1, 1, 0, 0], [0, 0, 0, 0], [1, 1, 1, 1]], dtype=bool)
    w = softmax(s, m)
    ref = torch.softmax(t(np.where(m, s, -np.inf)), -1).numpy()  # NaN in the fully masked row
    np.testing.assert_allclose(w[[0, 2]], ref[[0, 2]], **TOL)
    assert np.isnan(ref[1]).all() and w[1].tolist() == [0.0] * 4
    np.testing.assert_allclose(softmax(np.where(m, s, -np.inf)), w, **TOL)  # additive -inf form


def test_causal_and_padding_masks():
    np.testing.assert_array_equal(causal_mask(3), [[1, 0, 0], [1, 1, 0], [1, 1, 1]])
    np.testing.assert_array_equal(padding_mask([2, 0, 3], 3), [[1, 1, 0], [0, 0, 0], [1, 1, 1]])
    ref = ~torch.triu(torch.ones(5, 5, dtype=torch.bool), diagonal=1)  # torch's is_causal convention
    np.testing.assert_array_equal(causal_mask(5), ref.numpy())


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: causal_mask(0), ValueError, "n must be >= 1"),
        (lambda: causal_mask(2.0), TypeError, "n must be an integer"),
        (lambda: padding_mask([3, 5], 4), ValueError, r"lengths\[1\] must be <= 4"),
        (lambda: padding_mask([], 4), ValueError, "lengths must not be empty"),
        (lambda: padding_mask([-1], 4), ValueError, r"lengths\[0\] must be >= 0"),
        (lambda: softmax(np.array([1.0, np.nan])), ValueError, "scores must not contain NaN"),
        (lambda: softmax(np.zeros((2, 3)), np.ones((2, 3))), TypeError, "mask must be a boolean array"),
        (lambda: softmax(np.zeros((2, 3)), np.ones((3, 2), bool)), ValueError, "mask of shape"),
    ],
)
def test_mask_and_softmax_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


# ---- scaled dot-product attention vs torch -----------------------------------------------------


@pytest.mark.parametrize("mask_kind", [None, "causal", "padding", "random"])
def test_sdpa_matches_torch(mask_kind):
    r = rng(2)
    B, H, n, d_k, d_v = 2, 3, 5, 4, 6
    Q, K, V = r.normal(size=(B, H, n, d_k)), r.normal(size=(B, H, n, d_k)), r.normal(size=(B, H, n, d_v))
    mask = {
        None: None,
        "causal": causal_mask(n),
        "padding": padding_mask([5, 3], n)[:, None, None, :],
        "random": r.random((B, H, n, n)) > 0.3,
    }[mask_kind]
    out, w = scaled_dot_product_attention(Q, K, V, mask)
    ref = F.scaled_dot_product_attention(t(Q), t(K), t(V), attn_mask=None if mask is None else torch.as_tensor(mask))
    np.testing.assert_allclose(out, ref.numpy(), **TOL)
    np.testing.assert_allclose(w.sum(-1)[w.sum(-1) > 0], 1.0, **TOL)


def test_sdpa_fully_masked_rows_give_zero_output_like_torch_sdpa():
    r = rng(3)
    Q, K, V = r.normal(size=(4, 3)), r.normal(size=(5, 3)), r.normal(size=(5, 2))
    valid = padding_mask([3], 5)[0]
    q_valid = np.array([True, True, False, False])
    mask = q_valid[:, None] & valid[None, :]  # the slides' padding mask: padded rows fully masked
    out, w = scaled_dot_product_attention(Q, K, V, mask)
    assert np.isfinite(out).all() and np.isfinite(w).all()
    assert (out[2:] == 0).all() and (w[2:] == 0).all()
    ref = F.scaled_dot_product_attention(t(Q)[None], t(K)[None], t(V)[None], attn_mask=torch.as_tensor(mask)[None])[0]
    np.testing.assert_allclose(out, ref.numpy(), **TOL)


def test_sdpa_bias_is_added_to_the_scaled_scores():
    r = rng(4)
    Q, K, V, b = r.normal(size=(3, 2)), r.normal(size=(4, 2)), r.normal(size=(4, 2)), r.normal(size=(3, 4))
    out, _ = scaled_dot_product_attention(Q, K, V, bias=b)
    ref = F.scaled_dot_product_attention(t(Q)[None], t(K)[None], t(V)[None], attn_mask=t(b)[None])[0]
    np.testing.assert_allclose(out, ref.numpy(), **TOL)


def test_sdpa_by_hand_on_a_two_token_example():
    # q = (1, 0); keys (2, 0) and (0, 2); d_k = 2 -> scores 2/sqrt2 and 0 -> weights e^s / sum.
    Q, K, V = np.array([[1.0, 0.0]]), np.array([[2.0, 0.0], [0.0, 2.0]]), np.array([[1.0], [3.0]])
    out, w = scaled_dot_product_attention(Q, K, V)
    a = np.exp(np.sqrt(2)) / (np.exp(np.sqrt(2)) + 1)
    np.testing.assert_allclose(w, [[a, 1 - a]])
    np.testing.assert_allclose(out, [[a * 1 + (1 - a) * 3]])


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((np.zeros((2, 3)), np.zeros((2, 4)), np.zeros((2, 4))), "same last dimension d_k"),
        ((np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((3, 3))), "same number of rows"),
        ((np.zeros((2, 2, 3)), np.zeros((3, 2, 3)), np.zeros((3, 2, 3))), "share their leading"),
        ((np.zeros(3), np.zeros(3), np.zeros(3)), "Q must have 2 or 3 or 4 dimensions"),
        ((np.zeros((2, 3)), np.zeros((2, 2, 3)), np.zeros((2, 3))), "K must have 2 dimensions"),
    ],
)
def test_sdpa_shape_errors_name_the_argument(args, match):
    with pytest.raises(ValueError, match=match):
        scaled_dot_product_attention(*args)


def test_sdpa_rejects_a_mask_of_the_wrong_shape():
    with pytest.raises(ValueError, match=r"mask of shape \(3, 3\) does not broadcast"):
        scaled_dot_product_attention(np.zeros((2, 4)), np.zeros((2, 4)), np.zeros((2, 4)), causal_mask(3))


# ---- multi-head attention vs torch.nn.MultiheadAttention --------------------------------------


def _torch_mha(d_model, n_heads, seed, bias=True):
    manual_seed(seed)
    mha = torch.nn.MultiheadAttention(d_model, n_heads, bias=bias, batch_first=True, dtype=torch.float64)
    if bias:  # torch initialises biases to 0; make them matter
        with torch.no_grad():
            mha.in_proj_bias.normal_()
            mha.out_proj.bias.normal_()
    return mha.eval()


def _ours(mha):
    d = mha.embed_dim
    W = mha.in_proj_weight.detach().numpy()
    b = mha.in_proj_bias.detach().numpy() if mha.in_proj_bias is not None else None
    kw = {} if b is None else dict(b_Q=b[:d], b_K=b[d : 2 * d], b_V=b[2 * d :], b_O=mha.out_proj.bias.detach().numpy())
    return (W[:d].T, W[d : 2 * d].T, W[2 * d :].T, mha.out_proj.weight.detach().numpy().T), kw


@pytest.mark.parametrize("n_heads", [1, 2, 4, 8])
@pytest.mark.parametrize("masked", [False, True])
def test_mha_matches_torch_self_attention(n_heads, masked):
    d, B, T = 16, 3, 7
    mha = _torch_mha(d, n_heads, seed=n_heads)
    X = rng(n_heads).normal(size=(B, T, d))
    Ws, kw = _ours(mha)
    mask = causal_mask(T) if masked else None
    out, w = multi_head_attention(X, *Ws, n_heads, mask, **kw)
    ref, ref_w = mha(
        t(X),
        t(X),
        t(X),
        attn_mask=None if mask is None else torch.as_tensor(~mask),
        need_weights=True,
        average_attn_weights=False,
    )
    np.testing.assert_allclose(out, ref.detach().numpy(), **TOL)
    np.testing.assert_allclose(w, ref_w.detach().numpy(), **TOL)
    assert w.shape == (B, n_heads, T, T)


def test_mha_cross_attention_with_key_padding_matches_torch():
    d, n_heads = 12, 3
    mha = _torch_mha(d, n_heads, seed=7)
    r = rng(7)
    Y, memory = r.normal(size=(2, 4, d)), r.normal(size=(2, 6, d))
    valid = padding_mask([6, 2], 6)
    Ws, kw = _ours(mha)
    out, w = multi_head_attention(Y, *Ws, n_heads, valid[:, None, :], memory=memory, **kw)
    ref, _ = mha(t(Y), t(memory), t(memory), key_padding_mask=torch.as_tensor(~valid))
    np.testing.assert_allclose(out, ref.detach().numpy(), **TOL)
    assert w.shape == (2, n_heads, 4, 6) and (w[1, :, :, 2:] == 0).all()


def test_mha_unbatched_input_and_no_biases():
    mha = _torch_mha(8, 2, seed=3, bias=False)
    X = rng(3).normal(size=(5, 8))
    Ws, _ = _ours(mha)
    out, w = multi_head_attention(X, *Ws, 2)
    ref, _ = mha(t(X), t(X), t(X))
    np.testing.assert_allclose(out, ref.detach().numpy(), **TOL)
    assert out.shape == (5, 8) and w.shape == (2, 5, 5)


def test_mha_equals_per_head_loop_and_concatenation():
    """The reshape trick is the textbook 'run each head, concatenate, W_O'."""
    r = rng(5)
    X = r.normal(size=(5, 6))
    W_Q, W_K, W_V, W_O = (r.normal(size=(6, 6)) for _ in range(4))
    out, _ = multi_head_attention(X, W_Q, W_K, W_V, W_O, 3)
    heads = []
    for h in range(3):
        cols = slice(2 * h, 2 * h + 2)
        z, _ = scaled_dot_product_attention(X @ W_Q[:, cols], X @ W_K[:, cols], X @ W_V[:, cols])
        heads.append(z)
    np.testing.assert_allclose(out, np.concatenate(heads, axis=1) @ W_O, **TOL)


def test_split_and_merge_heads_are_inverse():
    X = rng(6).normal(size=(2, 5, 12))
    assert split_heads(X, 4).shape == (2, 4, 5, 3)
    np.testing.assert_array_equal(merge_heads(split_heads(X, 4)), X)
    np.testing.assert_array_equal(split_heads(X, 4)[0, 1], X[0, :, 3:6])  # head 1 = columns 3..5


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(n_heads=4), ValueError, r"W_Q has 6 columns, not divisible by n_heads=4 .*d_model must be divisible"),
        (dict(n_heads=0), ValueError, "n_heads must be >= 1"),
        (dict(W_K=np.zeros((6, 4))), ValueError, r"W_K must have shape \(6, 6\)"),
        (dict(W_Q=np.zeros((5, 6))), ValueError, r"W_Q must have shape \(6, any\)"),
        (dict(W_O=np.zeros((4, 6))), ValueError, r"W_O must have shape \(6, any\)"),
        (dict(mask=np.ones((3, 3), bool)), ValueError, "mask of shape"),
        (dict(mask=np.ones((5, 5))), TypeError, "boolean"),
        (dict(memory=np.zeros((4, 5))), ValueError, "memory must have shape"),
        (dict(b_Q=np.zeros(5)), ValueError, r"b_Q must have shape \(6\)"),
        (dict(X=np.zeros(6)), ValueError, "X must have 2 or 3 dimensions"),
    ],
)
def test_mha_errors_name_the_argument(kwargs, error, match):
    r = rng(8)
    args = dict(
        X=r.normal(size=(5, 6)),
        W_Q=r.normal(size=(6, 6)),
        W_K=r.normal(size=(6, 6)),
        W_V=r.normal(size=(6, 6)),
        W_O=r.normal(size=(6, 6)),
        n_heads=2,
    )
    args.update(kwargs)
    with pytest.raises(error, match=match):
        multi_head_attention(**args)
