"""Checkers for the exercises of the page "The transformer: masks, heads, the decoder and positions"
(``book/attention/transformer.ipynb``).

* :func:`check_decoder_block`: a pre-norm, decoder-only (GPT-style) block written from numpy primitives (the
  package's attention, normalisation and layer functions switched off while the answer runs), compared with
  :func:`nlp_helpers.attention.transformer.encoder_layer` run with ``norm_first=True`` and a causal mask (itself
  tested against ``torch.nn.TransformerEncoderLayer``).

The checker also computes the answers of typical mistakes, so that a wrong answer gets a hint naming its mistake.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.attention import self_attention as sa
from nlp_helpers.attention import transformer as tr
from nlp_helpers.attention.self_attention import causal_mask, multi_head_attention
from nlp_helpers.attention.transformer import AttentionParams, EncoderLayerParams, encoder_layer, layer_norm
from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["check_decoder_block"]


def _ffn(x, W1, b1, W2, b2):
    return np.maximum(0, x @ W1 + b1) @ W2 + b2


def _block_variants(x, W_Q, W_K, W_V, W_O, W1, b1, W2, b2, n_heads) -> dict[str, np.ndarray]:
    """The outputs of typical mistakes, each with the hint that names it."""
    T = len(x)
    causal, future = causal_mask(T), np.triu(np.ones((T, T), dtype=bool))

    def attn(h, mask):
        return multi_head_attention(h, W_Q, W_K, W_V, W_O, n_heads, mask)[0]

    def pre(mask):
        h = x + attn(layer_norm(x), mask)
        return h + _ffn(layer_norm(h), W1, b1, W2, b2)

    h_post = layer_norm(x + attn(x, causal))
    ln_x = layer_norm(x)
    h_ln = ln_x + attn(ln_x, causal)
    return {
        "Token t may attend only to tokens 0..t: apply the causal mask in the attention.": pre(None),
        "The mask is the wrong way round: a token attends to itself and the tokens BEFORE it, not after it.": (
            pre(future)
        ),
        "That is post-norm, LN(x + f(x)); a pre-norm block normalises only each sublayer's input, x + f(LN(x)).": (
            layer_norm(h_post + _ffn(h_post, W1, b1, W2, b2))
        ),
        "The residual adds the block's input x itself, not its normalised copy LN(x).": (
            h_ln + _ffn(layer_norm(h_ln), W1, b1, W2, b2)
        ),
        "Each sublayer's output is added to its input (the residual connection); you dropped one.": (
            attn(layer_norm(x), causal) + _ffn(layer_norm(x + attn(layer_norm(x), causal)), W1, b1, W2, b2)
        ),
    }


def check_decoder_block(fn: Callable) -> CheckResult:
    """``fn(x, W_Q, W_K, W_V, W_O, W1, b1, W2, b2, n_heads)`` -> ``(T, d_model)``: one pre-norm causal block."""
    g = seeded_rng(41)
    cases = []
    for T, d, d_ff, n_heads in [(5, 8, 16, 2), (4, 6, 12, 3), (1, 4, 8, 1), (6, 8, 8, 4)]:
        x = g.normal(size=(T, d)) * 2 + 1  # not centred, not of unit scale: the layer norms matter
        W_Q, W_K, W_V, W_O = (g.normal(size=(d, d)) / np.sqrt(d) * 1.5 for _ in range(4))
        W1, b1 = g.normal(size=(d, d_ff)) / np.sqrt(d), g.normal(size=d_ff) * 0.1
        W2, b2 = g.normal(size=(d_ff, d)) / np.sqrt(d_ff), g.normal(size=d) * 0.1
        cases.append((x, W_Q, W_K, W_V, W_O, W1, b1, W2, b2, n_heads))
    # "from numpy primitives (no package functions)": the package's building blocks are switched off
    package = {
        name: getattr(module, name)
        for module, names in (
            (sa, ("softmax", "causal_mask", "scaled_dot_product_attention", "split_heads", "merge_heads")),
            (sa, ("multi_head_attention",)),
            (tr, ("layer_norm", "feed_forward", "encoder_layer", "decoder_layer", "torch_encoder_layer")),
        )
        for name in names
    }
    with Checker(
        "A decoder-only block",
        forbidden=package,
        forbidden_hint="Write the layer norm, the masked attention and the feed-forward layer with numpy.",
    ) as ex:
        for case in cases:
            x, W_Q, W_K, W_V, W_O, W1, b1, W2, b2, n_heads = case
            what = f"decoder_block(x of shape {x.shape}, ..., n_heads={n_heads})"
            got = ex.call(fn, *case)
            params = EncoderLayerParams(AttentionParams(W_Q, W_K, W_V, W_O), W1=W1, b1=b1, W2=W2, b2=b2)
            want, _ = encoder_layer(x, params, n_heads, causal_mask(len(x)), norm_first=True)
            g_arr = np.asarray(got, dtype=float)
            if g_arr.shape == want.shape and not np.allclose(g_arr, want, rtol=1e-6, atol=1e-8):
                for hint, wrong in _block_variants(*case).items():
                    if np.allclose(g_arr, wrong, rtol=1e-6, atol=1e-8):
                        ex.fail(f"{what} is not right. {hint}")
            ex.expect_close(
                got,
                want,
                what=what,
                hint="h = x + MHA(LN(x)) with the causal mask and the scores of each head divided by sqrt(d_h), "
                "then h + FFN(LN(h)); LN with the population variance and eps = 1e-5 inside the square root.",
            )
    return ex.result
