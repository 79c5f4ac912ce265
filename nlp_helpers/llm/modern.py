"""The transformer block of today's decoder-only LLMs (Llama, SmolLM2), in numpy.

Four changes to the 2017 block, each a short function here:

* :func:`rms_norm` - RMSNorm (Zhang & Sennrich 2019): divide by the root mean square, no centring, no bias;
* :func:`apply_rope` - rotary position embeddings (Su et al. 2021, RoFormer), in the *half-split*
  convention of Llama and Hugging Face ``transformers``: dimension ``m`` of the first half is rotated
  together with dimension ``m + d/2``, by the angle ``position * base**(-2m/d)``;
* :func:`swiglu` - the SiLU-gated feed-forward network (Shazeer 2020): ``(silu(x Wg) * (x Wu)) Wd``;
* :func:`grouped_query_attention` - causal attention in which ``n_heads`` query heads share
  ``n_kv_heads`` key/value heads (Ainslie et al. 2023), with RoPE applied to queries and keys.

Weights follow the ``x @ W`` convention of this chapter (shape ``(d_in, d_out)``); a
``torch.nn.Linear`` weight is the transpose. The tests check every function against
``transformers.models.llama.modeling_llama``.

Left out: the KV cache (the chapter writes it out), RoPE scaling variants for long contexts,
attention biases and dropout.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers._checks import check_array, check_float, check_int
from nlp_helpers.attention.self_attention import causal_mask, scaled_dot_product_attention

__all__ = ["rope_angles", "apply_rope", "rms_norm", "silu", "swiglu", "grouped_query_attention"]


def rope_angles(positions, d: int, base: float = 10000.0) -> np.ndarray:
    """Rotation angles ``position * base**(-2m/d)`` for ``m = 0 .. d/2 - 1``: shape ``(T, d/2)``."""
    positions = check_array("positions", positions, ndim=1)
    d = check_int("d", d, minimum=2)
    if d % 2:
        raise ValueError(f"d must be even (dimensions are rotated in pairs), got {d}")
    base = check_float("base", base, minimum=1.0, min_inclusive=False)
    inv_freq = base ** (-np.arange(0, d, 2) / d)  # (d/2,)
    return positions[:, None] * inv_freq[None, :]


def apply_rope(x, positions, base: float = 10000.0) -> np.ndarray:
    """Rotate the last axis of ``x`` (shape ``(..., T, d)``, ``d`` even) by the position of each row.

    ``positions``: ``T`` numbers (usually ``0 .. T-1``). Half-split convention: the pair rotated
    together is ``(x[..., m], x[..., m + d/2])``. Returns a new array of the shape of ``x``.
    """
    x = check_array("x", x)
    if x.ndim < 2:
        raise ValueError(f"x must have shape (..., T, d) with at least 2 dimensions, got {x.shape}")
    T, d = x.shape[-2:]
    if d % 2:
        raise ValueError(f"x's last dimension d must be even (dimensions are rotated in pairs), got {d}")
    positions = check_array("positions", positions, ndim=1)
    if len(positions) != T:
        raise ValueError(f"positions must hold one position per row of x (T = {T}), got {len(positions)}")
    angles = rope_angles(positions, d, base)  # (T, d/2)
    return _rotate(x, np.cos(angles), np.sin(angles))


def _rotate(x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    # 2-d rotation of every pair (x1[m], x2[m]) by its angle
    return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)


def rms_norm(x, weight, eps: float = 1e-6) -> np.ndarray:
    """``weight * x / sqrt(mean(x**2) + eps)`` over the last axis; ``x`` of shape ``(..., d)``, ``weight (d,)``."""
    x = check_array("x", x)
    if x.ndim < 1 or x.shape[-1] == 0:
        raise ValueError(f"x must have a non-empty last axis, got shape {x.shape}")
    weight = check_array("weight", weight, shape=(x.shape[-1],))
    eps = check_float("eps", eps, minimum=0.0)
    return weight * x / np.sqrt(np.mean(x**2, axis=-1, keepdims=True) + eps)


def silu(x) -> np.ndarray:
    """SiLU (swish): ``x * sigmoid(x)``."""
    x = check_array("x", x)
    return x / (1.0 + np.exp(-x))


def swiglu(x, W_gate, W_up, W_down) -> np.ndarray:
    """The gated feed-forward network ``(silu(x W_gate) * (x W_up)) W_down``.

    ``x (..., d)``, ``W_gate`` and ``W_up (d, d_ff)``, ``W_down (d_ff, d_out)``.
    """
    x = check_array("x", x)
    d = x.shape[-1]
    W_gate = check_array("W_gate", W_gate, shape=(d, None))
    W_up = check_array("W_up", W_up, shape=(d, W_gate.shape[1]))
    W_down = check_array("W_down", W_down, shape=(W_gate.shape[1], None))
    return (silu(x @ W_gate) * (x @ W_up)) @ W_down


def grouped_query_attention(
    x,
    W_q,
    W_k,
    W_v,
    W_o,
    n_heads: int,
    n_kv_heads: int,
    positions=None,
    rope_base: float | None = 10000.0,
    causal: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """Multi-head attention where ``n_heads`` query heads share ``n_kv_heads`` key/value heads.

    ``x (T, d)``; ``W_q (d, n_heads*d_h)``; ``W_k, W_v (d, n_kv_heads*d_h)``; ``W_o (n_heads*d_h, d_out)``.
    Query head ``i`` uses key/value head ``i // (n_heads // n_kv_heads)``. RoPE (base ``rope_base``,
    ``None`` for none) rotates queries and keys at ``positions`` (default ``0 .. T-1``).
    Returns ``(output (T, d_out), weights (n_heads, T, T))``.
    """
    x = check_array("x", x, ndim=2)
    T, d = x.shape
    n_heads = check_int("n_heads", n_heads, minimum=1)
    n_kv_heads = check_int("n_kv_heads", n_kv_heads, minimum=1)
    if n_heads % n_kv_heads:
        raise ValueError(f"n_heads ({n_heads}) must be a multiple of n_kv_heads ({n_kv_heads})")
    W_q = check_array("W_q", W_q, shape=(d, None))
    if W_q.shape[1] % n_heads:
        raise ValueError(f"W_q's {W_q.shape[1]} columns must split into n_heads = {n_heads} heads")
    d_h = W_q.shape[1] // n_heads
    W_k = check_array("W_k", W_k, shape=(d, n_kv_heads * d_h))
    W_v = check_array("W_v", W_v, shape=(d, n_kv_heads * d_h))
    W_o = check_array("W_o", W_o, shape=(n_heads * d_h, None))
    positions = np.arange(T) if positions is None else check_array("positions", positions, shape=(T,))
    return _gqa(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, positions, rope_base, causal)


def _gqa(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, positions, rope_base, causal):
    T, d_h = x.shape[0], W_q.shape[1] // n_heads
    q = (x @ W_q).reshape(T, n_heads, d_h).transpose(1, 0, 2)  # (H, T, d_h)
    k = (x @ W_k).reshape(T, n_kv_heads, d_h).transpose(1, 0, 2)  # (H_kv, T, d_h)
    v = (x @ W_v).reshape(T, n_kv_heads, d_h).transpose(1, 0, 2)
    if rope_base is not None:
        q, k = apply_rope(q, positions, rope_base), apply_rope(k, positions, rope_base)
    group = n_heads // n_kv_heads
    k, v = np.repeat(k, group, axis=0), np.repeat(v, group, axis=0)  # share: (H, T, d_h)
    mask = causal_mask(T) if causal else None
    z, weights = scaled_dot_product_attention(q, k, v, mask)
    return z.transpose(1, 0, 2).reshape(T, n_heads * d_h) @ W_o, weights
