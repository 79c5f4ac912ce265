"""nlp_helpers.llm.modern against transformers' Llama implementation (float64, tolerance 1e-10)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.llm.modern import (
    apply_rope,
    grouped_query_attention,
    rms_norm,
    rope_angles,
    silu,
    swiglu,
)

llama = pytest.importorskip("transformers.models.llama.modeling_llama")
from transformers import LlamaConfig  # noqa: E402

TOL = dict(rtol=1e-10, atol=1e-12)


def tiny_config(n_heads=6, n_kv_heads=2, theta=100000.0) -> LlamaConfig:
    return LlamaConfig(
        hidden_size=24,
        intermediate_size=40,
        num_attention_heads=n_heads,
        num_key_value_heads=n_kv_heads,
        num_hidden_layers=1,
        vocab_size=50,
        max_position_embeddings=64,
        rms_norm_eps=1e-5,
        rope_parameters={"rope_type": "default", "rope_theta": theta},
    )


def _np(linear: torch.nn.Linear) -> np.ndarray:
    return linear.weight.detach().numpy().T  # torch stores (out, in); we use x @ W


def test_rms_norm_matches_llama_rmsnorm():
    torch.manual_seed(0)
    norm = llama.LlamaRMSNorm(16, eps=1e-5).double()
    with torch.no_grad():
        norm.weight.copy_(torch.randn(16, dtype=torch.float64))
    x = torch.randn(2, 5, 16, dtype=torch.float64) * 3
    # LlamaRMSNorm normalises in float32 whatever the input dtype: float32 tolerance
    np.testing.assert_allclose(
        rms_norm(x.numpy(), norm.weight.detach().numpy(), 1e-5), norm(x).detach().numpy(), rtol=1e-6, atol=1e-6
    )


def test_rms_norm_hand_worked():
    # x = (3, 4): mean square 12.5, so x / sqrt(12.5) = (0.8485..., 1.1313...)
    np.testing.assert_allclose(rms_norm([3.0, 4.0], [1.0, 2.0], eps=0.0), [3 / 12.5**0.5, 8 / 12.5**0.5])


@pytest.mark.parametrize("theta", [10000.0, 100000.0])
def test_apply_rope_matches_llama(theta):
    config = tiny_config(theta=theta)
    rotary = llama.LlamaRotaryEmbedding(config)
    torch.manual_seed(1)
    d = 4  # head_dim = 24 / 6
    q = torch.randn(2, 6, 7, d, dtype=torch.float64)
    k = torch.randn(2, 2, 7, d, dtype=torch.float64)
    positions = torch.arange(3, 10)[None].expand(2, 7)
    cos, sin = rotary(q, positions)
    q_ref, k_ref = llama.apply_rotary_pos_emb(q, k, cos, sin)
    pos = np.arange(3, 10)
    # transformers computes the angles in float32: compare at float32 precision
    np.testing.assert_allclose(apply_rope(q.numpy(), pos, base=theta), q_ref.numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(apply_rope(k.numpy(), pos, base=theta), k_ref.numpy(), rtol=1e-5, atol=1e-5)


def test_apply_rope_hand_worked_and_relative():
    # d = 2, one pair: position p rotates (1, 0) by angle p (frequency base**0 = 1)
    out = apply_rope(np.array([[1.0, 0.0], [1.0, 0.0]]), [0, 1])
    np.testing.assert_allclose(out, [[1.0, 0.0], [np.cos(1), np.sin(1)]], atol=1e-15)
    # the point of RoPE: q_m . k_n depends only on m - n
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(1, 8)), rng.normal(size=(1, 8))
    dots = [apply_rope(q, [m], 100.0) @ apply_rope(k, [m - 3], 100.0).T for m in (3, 10, 50)]
    np.testing.assert_allclose(np.ravel(dots), dots[0].ravel()[0], rtol=1e-10)
    assert rope_angles(np.arange(4), 8).shape == (4, 4)


def test_swiglu_matches_llama_mlp():
    config = tiny_config()
    torch.manual_seed(2)
    mlp = llama.LlamaMLP(config).double()
    x = torch.randn(3, 24, dtype=torch.float64)
    ours = swiglu(x.numpy(), _np(mlp.gate_proj), _np(mlp.up_proj), _np(mlp.down_proj))
    np.testing.assert_allclose(ours, mlp(x).detach().numpy(), **TOL)
    np.testing.assert_allclose(silu([0.0, 1.0]), [0.0, 1 / (1 + np.exp(-1))])


@pytest.mark.parametrize("n_heads,n_kv_heads", [(6, 2), (6, 6), (6, 1)])
def test_grouped_query_attention_matches_llama_attention(n_heads, n_kv_heads):
    config = tiny_config(n_heads, n_kv_heads)
    config._attn_implementation = "eager"
    torch.manual_seed(3)
    attn = llama.LlamaAttention(config, layer_idx=0).double().eval()
    rotary = llama.LlamaRotaryEmbedding(config)
    T = 7
    x = torch.randn(1, T, 24, dtype=torch.float64)
    positions = torch.arange(T)[None]
    cos, sin = rotary(x, positions)
    causal = torch.triu(torch.full((T, T), float("-inf"), dtype=torch.float64), diagonal=1)[None, None]
    with torch.no_grad():
        ref, ref_w = attn(x, position_embeddings=(cos, sin), attention_mask=causal)
    ours, w = grouped_query_attention(
        x[0].numpy(),
        _np(attn.q_proj),
        _np(attn.k_proj),
        _np(attn.v_proj),
        _np(attn.o_proj),
        n_heads,
        n_kv_heads,
        rope_base=100000.0,
    )
    # transformers' rotary angles are float32: 1e-5 relative
    np.testing.assert_allclose(ours, ref[0].numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(w, ref_w[0].numpy(), rtol=1e-5, atol=1e-6)


def test_bad_inputs_name_the_argument():
    with pytest.raises(ValueError, match="d must be even"):
        apply_rope(np.ones((3, 5)), np.arange(3))
    with pytest.raises(ValueError, match="positions"):
        apply_rope(np.ones((3, 4)), np.arange(2))
    with pytest.raises(ValueError, match="x"):
        apply_rope(np.ones(4), np.arange(1))
    with pytest.raises(ValueError, match="base"):
        apply_rope(np.ones((3, 4)), np.arange(3), base=-1.0)
    with pytest.raises(ValueError, match="weight"):
        rms_norm(np.ones((2, 4)), np.ones(3))
    with pytest.raises(ValueError, match="eps"):
        rms_norm(np.ones((2, 4)), np.ones(4), eps=-1.0)
    with pytest.raises(ValueError, match="W_up"):
        swiglu(np.ones((2, 4)), np.ones((4, 6)), np.ones((4, 5)), np.ones((6, 4)))
    with pytest.raises(ValueError, match="n_kv_heads"):
        grouped_query_attention(np.ones((3, 6)), *[np.ones((6, 6))] * 4, n_heads=3, n_kv_heads=2)
    with pytest.raises(ValueError, match="W_k"):
        grouped_query_attention(
            np.ones((3, 6)), np.ones((6, 6)), np.ones((6, 6)), np.ones((6, 2)), np.ones((6, 6)), 3, 1
        )
    with pytest.raises(ValueError, match="x"):
        rms_norm(np.array([np.nan, 1.0]), np.ones(2))
