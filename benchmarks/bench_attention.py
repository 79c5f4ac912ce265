"""Our numpy attention against PyTorch: agreement and time, on the same float64 inputs.

Rows: scaled dot-product attention vs ``torch.nn.functional.scaled_dot_product_attention``,
multi-head attention vs ``torch.nn.MultiheadAttention``, one encoder layer vs
``torch.nn.TransformerEncoderLayer`` (post-norm, ReLU, dropout 0), and the sinusoidal
positional encoding vs the Annotated Transformer's torch formula.

Targets: agreement to 1e-10 (float64 on both sides); numpy within 10x of torch's CPU
time (numpy has no fused kernels; the helpers are for teaching, not for speed).

Run: ``python -m benchmarks.bench_attention``.
"""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F

from benchmarks.timing import best_of
from nlp_helpers.attention.positional import positional_encoding
from nlp_helpers.attention.self_attention import (
    causal_mask,
    multi_head_attention,
    scaled_dot_product_attention,
)
from nlp_helpers.attention.transformer import encoder_layer, encoder_params_from_torch

AGREE = 1e-10
SLOWER = 10.0


def _best(fn, repeat: int = 5) -> float:
    return best_of(fn, repeat)[1]


def _row(helper, reference, diff, ours, ref, note):
    met = diff <= AGREE and ours <= SLOWER * ref
    return {
        "helper": helper,
        "reference": reference,
        "agreement": f"max |diff| {diff:.1e}",
        "ours_s": ours,
        "reference_s": ref,
        "target": f"|diff| <= {AGREE:g}, time <= {SLOWER:g}x torch",
        "met": met,
        "note": note,
    }


def run() -> list[dict]:
    rows = []
    rng = np.random.default_rng(0)
    B, H, T, d_k = 8, 8, 256, 64
    Q, K, V = (rng.normal(size=(B, H, T, d_k)) for _ in range(3))
    mask = causal_mask(T)
    Qt, Kt, Vt = (torch.tensor(a) for a in (Q, K, V))
    mask_t = torch.tensor(mask)
    with torch.no_grad():
        ref = F.scaled_dot_product_attention(Qt, Kt, Vt, attn_mask=mask_t).numpy()
    ours = scaled_dot_product_attention(Q, K, V, mask)[0]
    rows.append(
        _row(
            "attention.scaled_dot_product_attention",
            "torch.nn.functional.scaled_dot_product_attention",
            float(np.abs(ours - ref).max()),
            _best(lambda: scaled_dot_product_attention(Q, K, V, mask)),
            _best(lambda: F.scaled_dot_product_attention(Qt, Kt, Vt, attn_mask=mask_t)),
            f"B={B}, H={H}, T={T}, d_k={d_k}, causal mask, float64",
        )
    )

    d_model, n_heads = 512, 8
    torch.manual_seed(0)
    mha = torch.nn.MultiheadAttention(d_model, n_heads, batch_first=True, dtype=torch.float64).eval()
    X = rng.normal(size=(4, 128, d_model))
    Xt = torch.tensor(X)
    W = mha.in_proj_weight.detach().numpy()
    b = mha.in_proj_bias.detach().numpy()
    args = (
        W[:d_model].T,
        W[d_model : 2 * d_model].T,
        W[2 * d_model :].T,
        mha.out_proj.weight.detach().numpy().T,
        n_heads,
    )
    kw = dict(
        b_Q=b[:d_model], b_K=b[d_model : 2 * d_model], b_V=b[2 * d_model :], b_O=mha.out_proj.bias.detach().numpy()
    )
    with torch.no_grad():
        ref = mha(Xt, Xt, Xt, need_weights=False)[0].numpy()
        t_ref = _best(lambda: mha(Xt, Xt, Xt, need_weights=False))
    ours = multi_head_attention(X, *args, **kw)[0]
    rows.append(
        _row(
            "attention.multi_head_attention",
            "torch.nn.MultiheadAttention",
            float(np.abs(ours - ref).max()),
            _best(lambda: multi_head_attention(X, *args, **kw)),
            t_ref,
            f"B=4, T=128, d_model={d_model}, {n_heads} heads, float64",
        )
    )

    layer = torch.nn.TransformerEncoderLayer(
        d_model, n_heads, 2048, dropout=0.0, batch_first=True, dtype=torch.float64
    ).eval()
    params = encoder_params_from_torch(layer)
    with torch.no_grad():
        ref = layer(Xt).numpy()
        t_ref = _best(lambda: layer(Xt))
    ours = encoder_layer(X, params, n_heads)[0]
    rows.append(
        _row(
            "transformer.encoder_layer",
            "torch.nn.TransformerEncoderLayer",
            float(np.abs(ours - ref).max()),
            _best(lambda: encoder_layer(X, params, n_heads)),
            t_ref,
            "post-norm, ReLU, d_ff=2048, dropout 0, float64",
        )
    )

    def torch_pe(n, d):
        pe = torch.zeros(n, d, dtype=torch.float64)
        pos = torch.arange(n, dtype=torch.float64)[:, None]
        div = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * -(math.log(10000.0) / d))
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        return pe

    rows.append(
        _row(
            "positional.positional_encoding",
            "Annotated Transformer PositionalEncoding (torch)",
            float(np.abs(positional_encoding(2048, 512) - torch_pe(2048, 512).numpy()).max()),
            _best(lambda: positional_encoding(2048, 512)),
            _best(lambda: torch_pe(2048, 512)),
            "2048 positions x 512 dimensions",
        )
    )
    return rows


if __name__ == "__main__":
    for r in run():
        print(
            f"{r['helper']:<40} vs {r['reference']:<50} {r['agreement']:<20} "
            f"ours {r['ours_s'] * 1e3:8.2f} ms  ref {r['reference_s'] * 1e3:8.2f} ms  met={r['met']}  ({r['note']})"
        )
