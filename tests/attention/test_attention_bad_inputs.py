"""Bad and edge inputs of the attention chapter's helpers, table-driven (the runner is ``tests/bad_inputs.py``).

``BAD`` rows must raise an error naming the argument; ``EDGE`` rows have a documented result.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np
import pytest
import torch

from nlp_helpers.attention import positional as P  # noqa: E402
from nlp_helpers.attention import self_attention as A  # noqa: E402
from nlp_helpers.attention import transformer as TR  # noqa: E402
from nlp_helpers.attention import worked_example as AE  # noqa: E402
from tests.bad_inputs import Bad, Edge, bad, edge, run_bad, run_edge

NAN, INF = math.nan, math.inf


@cache
def enc_params() -> TR.EncoderLayerParams:
    eye = np.eye(4)
    return TR.EncoderLayerParams(TR.AttentionParams(eye, eye, eye, eye), eye, np.zeros(4))


@cache
def dec_params() -> TR.DecoderLayerParams:
    attn = enc_params().attn
    return TR.DecoderLayerParams(attn, attn, np.eye(4), np.zeros(4))


def padded_self_attention() -> tuple[np.ndarray, np.ndarray]:
    """Self-attention over 3 positions of which the last is padding, with padded query rows blanked (seed 001)."""
    m = A.padding_mask([2], 3)
    return A.multi_head_attention(np.ones((1, 3, 4)), *[np.eye(4)] * 4, 2, mask=m[:, :, None] & m[:, None, :])


def rng() -> np.random.Generator:
    return np.random.default_rng(0)


def _is_zero(x: Any) -> bool:
    return bool(np.all(np.asarray(x) == 0))


BAD = [
    # --- attention
    bad(
        "attention.softmax-axis-out-of-range",
        lambda: A.softmax([[1.0, 2.0]], axis=5),
        (ValueError, IndexError),
        "axis 5",
    ),
    bad(
        "attention.scaled_dot_product_attention-d_k-0",
        lambda: A.scaled_dot_product_attention(np.zeros((2, 0)), np.zeros((2, 0)), np.zeros((2, 3))),
        ValueError,
        "d_k >= 1",
    ),
    bad(
        "attention.scaled_dot_product_attention-overflow",
        lambda: A.scaled_dot_product_attention(np.full((2, 3), 1e200), np.full((2, 3), 1e200), np.zeros((2, 3))),
        ValueError,
        "Q and K are too large",
    ),
    bad(
        "attention.scaled_dot_product_attention-bias-nan",
        lambda: A.scaled_dot_product_attention(
            np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 3)), bias=np.full((2, 2), NAN)
        ),
        ValueError,
        "bias",
    ),
    bad(
        "attention.split_heads-zero-heads",
        lambda: A.split_heads(np.zeros((1, 2, 4)), 0),
        ValueError,
        "n_heads must be >= 1",
    ),
    bad("attention.split_heads-not-divisible", lambda: A.split_heads(np.zeros((1, 2, 4)), 3), ValueError, "n_heads=3"),
    bad("attention.split_heads-2d", lambda: A.split_heads(np.zeros((2, 4)), 2), ValueError, "X must have 3 dimensions"),
    bad("attention.merge_heads-3d", lambda: A.merge_heads(np.zeros((1, 2, 4))), ValueError, "X must have 4 dimensions"),
    bad(
        "attention.merge_heads-nan",
        lambda: A.merge_heads(np.full((1, 1, 1, 1), NAN)),
        ValueError,
        "X must contain only finite",
    ),
    bad("attention.padding_mask-str", lambda: A.padding_mask("ab", 2), TypeError, "lengths"),
    bad("attention.causal_mask-float", lambda: A.causal_mask(2.0), TypeError, "n must be an integer"),
    bad(
        "attention.multi_head_attention-memory-width",
        lambda: A.multi_head_attention(np.zeros((2, 4)), *[np.eye(4)] * 4, 2, memory=np.zeros((3, 5))),
        ValueError,
        "memory must have shape",
    ),
    # --- positional
    bad("positional.pe_frequencies-d_model-0", lambda: P.pe_frequencies(0), ValueError, "d_model must be >= 1"),
    bad("positional.pe_frequencies-base-inf", lambda: P.pe_frequencies(4, INF), ValueError, "base must be a finite"),
    bad("positional.positional_encoding-no-positions", lambda: P.positional_encoding(0, 4), ValueError, "n_positions"),
    bad("positional.offset_matrix-k-float", lambda: P.offset_matrix(1.5, 4), TypeError, "k must be an integer"),
    bad("positional.alibi_slopes-zero-heads", lambda: P.alibi_slopes(0), ValueError, "n_heads"),
    bad("positional.alibi_bias-nan-slope", lambda: P.alibi_bias(3, slopes=NAN), ValueError, "slopes"),
    bad(
        "positional.alibi_bias-2d-slopes",
        lambda: P.alibi_bias(3, slopes=np.ones((2, 2))),
        ValueError,
        "slopes must have 0 or 1",
    ),
    # --- transformer
    bad("transformer.layer_norm-scalar", lambda: TR.layer_norm(3.0), ValueError, "x must have at least 1 features"),
    bad(
        "transformer.layer_norm-eps-nan",
        lambda: TR.layer_norm(np.ones((2, 3)), eps=NAN),
        ValueError,
        "eps must be a finite",
    ),
    bad(
        "transformer.feed_forward-activation",
        lambda: TR.feed_forward(np.ones((2, 3)), np.ones((3, 4)), np.ones(4), activation="tanh"),
        ValueError,
        "activation",
    ),
    bad(
        "transformer.encoder_layer-params-dict",
        lambda: TR.encoder_layer(np.ones((2, 4)), {}, 2),
        TypeError,
        "params must be EncoderLayerParams",
    ),
    bad(
        "transformer.encoder_layer-zero-heads",
        lambda: TR.encoder_layer(np.ones((2, 4)), enc_params(), 0),
        ValueError,
        "n_heads must be >= 1",
    ),
    bad(
        "transformer.decoder_layer-params-encoder",
        lambda: TR.decoder_layer(np.ones((2, 4)), np.ones((2, 4)), enc_params(), 2),
        TypeError,
        "params must be DecoderLayerParams",
    ),
    bad(
        "transformer.encoder_params_from_torch-none",
        lambda: TR.encoder_params_from_torch(None),
        TypeError,
        "layer must be a torch.nn.TransformerEncoderLayer",
    ),
    bad(
        "transformer.decoder_params_from_torch-encoder-layer",
        lambda: TR.decoder_params_from_torch(torch.nn.TransformerEncoderLayer(4, 2)),
        TypeError,
        "TransformerDecoderLayer",
    ),
    bad(
        "transformer.torch_encoder_layer-zero-heads",
        lambda: TR.torch_encoder_layer(enc_params(), 0),
        ValueError,
        "n_heads must be >= 1",
    ),
    bad(
        "transformer.AttentionParams-wrong-width",
        lambda: TR.AttentionParams(np.eye(3), np.eye(3), np.eye(3), np.eye(3))(np.ones((2, 4)), 1),
        ValueError,
        "W_Q must have shape",
    ),
    # --- attention_example
    bad(
        "attention_example.printed_agreement-empty",
        lambda: AE.printed_agreement([], [], 2),
        ValueError,
        "must not be empty",
    ),
    bad(
        "attention_example.printed_agreement-nan", lambda: AE.printed_agreement([NAN], [1.0], 2), ValueError, "computed"
    ),
    bad(
        "attention_example.labelled-1d",
        lambda: AE.labelled(np.ones(2), ["a"], "d"),
        ValueError,
        "matrix must have 2 dimensions",
    ),
    bad(
        "attention_example.WorkedExample-unknown-table",
        lambda: AE.load_worked_example()["nope"],
        KeyError,
        "no table 'nope'",
    ),
]


EDGE = [
    # --- attention: fully masked rows and empty axes give zeros, never NaN
    edge("attention.softmax-empty-axis", lambda: A.softmax(np.zeros((2, 0))), lambda w: w.shape == (2, 0)),
    edge("attention.softmax-all-minus-inf", lambda: A.softmax([[-INF, -INF]]), _is_zero),
    edge(
        "attention.scaled_dot_product_attention-no-keys",
        lambda: A.scaled_dot_product_attention(np.ones((2, 3)), np.zeros((0, 3)), np.zeros((0, 4))),
        lambda r: r[0].shape == (2, 4) and _is_zero(r[0]) and r[1].shape == (2, 0),
    ),
    edge(
        "attention.multi_head_attention-padded-query-rows",
        lambda: padded_self_attention(),
        lambda r: _is_zero(r[0][0, 2]) and _is_zero(r[1][0, :, 2]) and np.allclose(r[1][0, :, :2].sum(-1), 1),
    ),
    edge(
        "attention.split_heads-merge_heads-round-trip",
        lambda: A.merge_heads(A.split_heads(np.arange(24.0).reshape(1, 3, 8), 4)),
        lambda x: np.array_equal(x, np.arange(24.0).reshape(1, 3, 8)),
    ),
    edge(
        "transformer.encoder_layer-fully-masked",
        lambda: TR.encoder_layer(
            np.random.default_rng(0).normal(size=(2, 4)), enc_params(), 2, mask=np.zeros((2, 2), bool)
        )[0],
        lambda y: np.isfinite(y).all(),
    ),
    edge(
        "transformer.layer_norm-huge-values",
        lambda: TR.layer_norm(np.array([[1e300, -1e300, 0.0]])),
        lambda y: np.allclose(y, [[np.sqrt(1.5), -np.sqrt(1.5), 0.0]]),
    ),
    edge(
        "transformer.DecoderLayerParams-runs",
        lambda: TR.decoder_layer(np.eye(2, 4), np.eye(3, 4), dec_params(), 2)[2],
        lambda w: w.shape == (2, 2, 3) and np.allclose(w.sum(-1), 1),
    ),
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_a_clear_error_naming_the_argument(case: Bad) -> None:
    run_bad(case)


@pytest.mark.parametrize("case", EDGE)
def test_edge_input_gives_the_documented_result(case: Edge) -> None:
    run_edge(case)
