"""nlp_helpers.attention.transformer against torch.nn: LayerNorm, FFN, encoder and decoder layers (post- and pre-norm)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.attention.self_attention import causal_mask, padding_mask
from nlp_helpers.attention.transformer import (
    AttentionParams,
    EncoderLayerParams,
    decoder_layer,
    decoder_params_from_torch,
    encoder_layer,
    encoder_params_from_torch,
    feed_forward,
    layer_norm,
    torch_encoder_layer,
)
from nlp_helpers.seeds import manual_seed, torch_generator
from nlp_helpers.seeds import rng as seeded_rng

TOL = dict(rtol=1e-10, atol=1e-12)


def t(a):
    return torch.as_tensor(a, dtype=torch.float64)


def _randomise(module, seed):
    """torch initialises biases and LayerNorm to 0/1; give every parameter a value that matters."""
    g = torch_generator(seed)
    with torch.no_grad():
        for p in module.parameters():
            p.add_(0.3 * torch.randn(p.shape, generator=g, dtype=p.dtype))
    return module.eval()


# ---- layer norm and FFN ---------------------------------------------------------------------------


def test_layer_norm_matches_torch_with_affine_parameters():
    r = seeded_rng(0)
    x, g, b = r.normal(size=(3, 4, 10)) * 5 + 2, r.normal(size=10), r.normal(size=10)
    ln = torch.nn.LayerNorm(10, eps=1e-5, dtype=torch.float64)
    with torch.no_grad():
        ln.weight.copy_(t(g))
        ln.bias.copy_(t(b))
    np.testing.assert_allclose(layer_norm(x, gamma=g, beta=b), ln(t(x)).detach().numpy(), **TOL)


def test_the_slides_normalisation_uses_the_sample_std_plus_eps():
    x = np.array([13.12, 12.47, 9.03, 10.35, 8.09, 10.36])
    by_hand = (x - x.mean()) / (np.std(x, ddof=1) + 1e-4)
    np.testing.assert_allclose(layer_norm(x, 1e-4, ddof=1, eps_inside_sqrt=False), by_hand, **TOL)
    assert layer_norm(x, 1e-4, ddof=1, eps_inside_sqrt=False)[0] == pytest.approx(1.3176, abs=5e-5)  # seed 001
    assert layer_norm(x, 1e-4)[0] == pytest.approx(1.4434, abs=5e-5)  # torch's convention


def test_layer_norm_errors():
    with pytest.raises(ValueError, match="constant and eps=0"):
        layer_norm(np.ones((2, 3)), eps=0.0)
    with pytest.raises(ValueError, match="at least 2 features .* ddof=1"):
        layer_norm(np.ones((2, 1)), ddof=1)
    with pytest.raises(ValueError, match="ddof must be <= 1"):
        layer_norm(np.ones((2, 3)), ddof=2)
    with pytest.raises(ValueError, match=r"gamma must have shape \(3\)"):
        layer_norm(np.ones((2, 3)), gamma=np.ones(4))
    with pytest.raises(ValueError, match="eps must be >= 0"):
        layer_norm(np.ones((2, 3)), eps=-1.0)


@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_feed_forward_matches_torch(activation):
    manual_seed(0)
    net = torch.nn.Sequential(
        torch.nn.Linear(8, 32), torch.nn.ReLU() if activation == "relu" else torch.nn.GELU(), torch.nn.Linear(32, 8)
    ).double()
    x = seeded_rng(1).normal(size=(2, 5, 8))
    W1, b1 = net[0].weight.detach().numpy().T, net[0].bias.detach().numpy()
    W2, b2 = net[2].weight.detach().numpy().T, net[2].bias.detach().numpy()
    np.testing.assert_allclose(feed_forward(x, W1, b1, W2, b2, activation), net(t(x)).detach().numpy(), **TOL)


def test_feed_forward_one_layer_and_errors():
    x = np.array([[1.0, -2.0]])
    np.testing.assert_array_equal(feed_forward(x, np.eye(2), np.zeros(2)), [[1.0, 0.0]])
    with pytest.raises(ValueError, match=r"W1 must have shape \(2, any\)"):
        feed_forward(x, np.eye(3), np.zeros(3))
    with pytest.raises(ValueError, match="b2 given without W2"):
        feed_forward(x, np.eye(2), np.zeros(2), b2=np.zeros(2))
    with pytest.raises(ValueError, match="activation must be one of"):
        feed_forward(x, np.eye(2), np.zeros(2), activation="tanh")


# ---- encoder layer ----------------------------------------------------------------------------------


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("n_heads", [1, 2, 4])
def test_encoder_layer_matches_torch(norm_first, n_heads):
    manual_seed(n_heads)
    layer = _randomise(
        torch.nn.TransformerEncoderLayer(
            16, n_heads, 40, dropout=0.0, batch_first=True, norm_first=norm_first, dtype=torch.float64
        ),
        n_heads,
    )
    x = seeded_rng(n_heads).normal(size=(3, 7, 16))
    out, w = encoder_layer(x, encoder_params_from_torch(layer), n_heads, norm_first=norm_first)
    with torch.no_grad():
        ref = layer(t(x)).numpy()
    np.testing.assert_allclose(out, ref, **TOL)
    assert w.shape == (3, n_heads, 7, 7)


def test_encoder_layer_with_padding_and_causal_masks_matches_torch():
    manual_seed(3)
    layer = _randomise(
        torch.nn.TransformerEncoderLayer(12, 3, 24, dropout=0.0, batch_first=True, dtype=torch.float64), 3
    )
    x = seeded_rng(3).normal(size=(2, 6, 12))
    valid = padding_mask([6, 4], 6)
    mask = valid[:, None, :] & causal_mask(6)
    out, _ = encoder_layer(x, encoder_params_from_torch(layer), 3, mask)
    with torch.no_grad():
        ref = layer(
            t(x), src_mask=torch.as_tensor(~causal_mask(6)), src_key_padding_mask=torch.as_tensor(~valid)
        ).numpy()
    np.testing.assert_allclose(out[0], ref[0], **TOL)
    np.testing.assert_allclose(out[1, :4], ref[1, :4], **TOL)  # torch's fast path may zero padded rows


def test_encoder_layer_returns_its_steps():
    manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True, dtype=torch.float64)
    x = seeded_rng(0).normal(size=(4, 8))
    params = encoder_params_from_torch(layer)
    out, _, steps = encoder_layer(x, params, 2, return_steps=True)
    np.testing.assert_allclose(steps["attn_add"], x + steps["attn_out"], **TOL)
    np.testing.assert_allclose(
        steps["attn"], layer_norm(steps["attn_add"], gamma=params.ln1[0], beta=params.ln1[1]), **TOL
    )
    np.testing.assert_allclose(steps["ffn"], out, **TOL)


# ---- decoder layer ------------------------------------------------------------------------------------


@pytest.mark.parametrize("norm_first", [False, True])
def test_decoder_layer_matches_torch(norm_first):
    manual_seed(5)
    layer = _randomise(
        torch.nn.TransformerDecoderLayer(
            12, 3, 30, dropout=0.0, batch_first=True, norm_first=norm_first, dtype=torch.float64
        ),
        5,
    )
    r = seeded_rng(5)
    y, memory = r.normal(size=(2, 5, 12)), r.normal(size=(2, 7, 12))
    valid = padding_mask([7, 5], 7)
    out, w_self, w_cross = decoder_layer(
        y,
        memory,
        decoder_params_from_torch(layer),
        3,
        self_mask=causal_mask(5),
        memory_mask=valid[:, None, :],
        norm_first=norm_first,
    )
    with torch.no_grad():
        ref = layer(
            t(y),
            t(memory),
            tgt_mask=t(np.where(causal_mask(5), 0.0, -np.inf)),
            memory_key_padding_mask=torch.as_tensor(~valid),
        ).numpy()
    np.testing.assert_allclose(out, ref, **TOL)
    assert w_self.shape == (2, 3, 5, 5) and w_cross.shape == (2, 3, 5, 7)
    assert np.triu(w_self[0, 0], 1).max() == 0  # no peeking
    assert (w_cross[1, :, :, 5:] == 0).all()  # padded source tokens get no weight


# ---- torch_encoder_layer: our weights into torch --------------------------------------------------------


def test_torch_encoder_layer_round_trips_weights():
    manual_seed(2)
    layer = _randomise(
        torch.nn.TransformerEncoderLayer(12, 4, 20, dropout=0.0, batch_first=True, dtype=torch.float64), 2
    )
    params = encoder_params_from_torch(layer)
    rebuilt = torch_encoder_layer(params, 4)
    x = t(seeded_rng(2).normal(size=(1, 5, 12)))
    with torch.no_grad():
        np.testing.assert_allclose(rebuilt(x).numpy(), layer(x).numpy(), **TOL)


def test_torch_encoder_layer_accepts_narrow_heads_and_a_one_layer_ffn():
    """Heads narrower than d_model / n_heads (seed 001: d_k = 4, d_model = 6) are zero-padded for torch."""
    r = seeded_rng(4)
    for n_heads, d_k in ((1, 4), (2, 2)):
        params = EncoderLayerParams(
            AttentionParams(*(r.normal(size=(6, n_heads * d_k)) for _ in range(3)), r.normal(size=(n_heads * d_k, 6))),
            W1=r.normal(size=(6, 6)),
            b1=r.normal(size=6),
        )
        x = r.normal(size=(5, 6))
        ours, _ = encoder_layer(x, params, n_heads, eps=1e-4)
        with torch.no_grad():
            ref = torch_encoder_layer(params, n_heads, eps=1e-4)(t(x)[None])[0].numpy()
        np.testing.assert_allclose(ours, ref, **TOL)


def test_torch_encoder_layer_errors():
    r = seeded_rng(0)
    attn = AttentionParams(*(r.normal(size=(6, 6)) for _ in range(4)))
    with pytest.raises(ValueError, match="d_ff == d_model"):
        torch_encoder_layer(EncoderLayerParams(attn, W1=r.normal(size=(6, 8)), b1=np.zeros(8)), 1)
    with pytest.raises(ValueError, match="d_model divisible by n_heads"):
        torch_encoder_layer(EncoderLayerParams(attn, W1=r.normal(size=(6, 6)), b1=np.zeros(6)), 4)
    wide = AttentionParams(r.normal(size=(6, 8)), r.normal(size=(6, 8)), r.normal(size=(6, 8)), r.normal(size=(8, 6)))
    with pytest.raises(ValueError, match="heads wider than"):
        torch_encoder_layer(EncoderLayerParams(wide, W1=r.normal(size=(6, 6)), b1=np.zeros(6)), 2)
