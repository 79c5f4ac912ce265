"""Scaled dot-product and multi-head attention in numpy, as in Vaswani et al. (2017).

What is here, in the order the chapter ``book/attention/`` builds it:

* :func:`softmax` - a numerically stable softmax that accepts a boolean mask;
* :func:`causal_mask`, :func:`padding_mask` - the two masks of a transformer;
* :func:`scaled_dot_product_attention` - ``softmax(Q K^T / sqrt(d_k)) V``;
* :func:`split_heads`, :func:`merge_heads`, :func:`multi_head_attention` -
  multi-head attention as "reshape, batched heads, concatenate, W_O".

Conventions (the same as ``torch.nn.functional.scaled_dot_product_attention``):

* Rows are tokens: ``X`` has shape ``(T, d_model)`` or ``(B, T, d_model)``, and a
  projection is ``X @ W`` with ``W`` of shape ``(d_model, width)``.
* A boolean mask is ``True`` where a query **may** attend to a key. Masked
  scores become ``-inf`` before the softmax, so they get exactly zero weight.
* A query whose every key is masked (the row of a padding token whose mask hides
  every key) gets **all-zero weights and a zero output** instead of the NaN that
  ``0 / 0`` would give. PyTorch's ``scaled_dot_product_attention`` does the same;
  ``torch.nn.MultiheadAttention`` returns NaN for such rows. With no keys at all
  (``K`` of shape ``(0, d_k)``) every query is such a query: empty weights, zero output.

Left out on purpose: dropout on the weights (training only), KV caching and
fused kernels (see ``benchmarks/bench_attention.py`` for the speed of PyTorch's).
"""

from __future__ import annotations

import numpy as np

from nlp_helpers._checks import check_array, check_int, check_nonempty

__all__ = [
    "softmax",
    "causal_mask",
    "padding_mask",
    "scaled_dot_product_attention",
    "split_heads",
    "merge_heads",
    "multi_head_attention",
]


def softmax(scores: np.ndarray, mask: np.ndarray | None = None, axis: int = -1) -> np.ndarray:
    """Softmax of ``scores`` along ``axis``; entries where ``mask`` is False get weight 0.

    Subtracting the row maximum first keeps ``exp`` from overflowing (scores of
    the worked example reach 29; real models reach hundreds). A row with no
    allowed entry returns zeros, not NaN. ``-inf`` scores are allowed (they are
    the additive form of a mask); NaN or ``+inf`` are not.
    """
    s = check_array("scores", scores, finite=False)
    if np.isnan(s).any() or np.isposinf(s).any():
        raise ValueError("scores must not contain NaN or +inf")
    keep = np.isfinite(s)
    if mask is not None:
        keep = keep & _as_mask("mask", mask, s.shape)
    s = np.where(keep, s, -np.inf)
    row_max = np.max(s, axis=axis, keepdims=True, initial=-np.inf)  # initial: an empty axis is a fully masked row
    row_max = np.where(np.isfinite(row_max), row_max, 0.0)  # fully masked row: any finite shift works
    e = np.where(keep, np.exp(s - row_max), 0.0)
    total = e.sum(axis=axis, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


def causal_mask(n: int) -> np.ndarray:
    """Boolean ``(n, n)`` mask, True on and below the diagonal: query ``i`` sees keys ``j <= i``."""
    n = check_int("n", n, minimum=1)
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(lengths, n: int) -> np.ndarray:
    """Boolean ``(B, n)`` mask, True for the real tokens of each sequence, False for padding.

    ``lengths[b]`` is the number of real tokens of sequence ``b`` (padding comes last).
    To hide padded **keys** from every query use ``m[:, None, :]`` (shape ``(B, 1, n)``);
    to also blank the padded **query rows**, as the lecture notes do, use
    ``m[:, :, None] & m[:, None, :]`` (those rows then get zero weights, see the module notes).
    """
    n = check_int("n", n, minimum=1)
    items = check_nonempty("lengths", lengths)
    for b, length in enumerate(items):
        check_int(f"lengths[{b}]", length, minimum=0, maximum=n)
    lengths_arr = np.asarray(items, dtype=int)
    return np.arange(n)[None, :] < lengths_arr[:, None]


def scaled_dot_product_attention(
    Q: np.ndarray, K: np.ndarray, V: np.ndarray, mask: np.ndarray | None = None, *, bias: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``softmax(Q K^T / sqrt(d_k) + bias) V`` with an optional boolean ``mask``.

    Shapes: ``Q`` ``(..., n_q, d_k)``, ``K`` ``(..., n_k, d_k)``, ``V`` ``(..., n_k, d_v)``;
    leading (batch, head) axes must match. ``mask`` (True = may attend) and ``bias``
    (added to the scaled scores, e.g. ALiBi's distance penalty) broadcast to
    ``(..., n_q, n_k)``. Returns ``(output (..., n_q, d_v), weights (..., n_q, n_k))``.
    """
    Q = check_array("Q", Q, ndim=(2, 3, 4))
    K = check_array("K", K, ndim=Q.ndim)
    V = check_array("V", V, ndim=Q.ndim)
    if Q.shape[-1] != K.shape[-1]:
        raise ValueError(f"Q and K must have the same last dimension d_k, got Q {Q.shape} and K {K.shape}")
    if K.shape[-2] != V.shape[-2]:
        raise ValueError(f"K and V must have the same number of rows (keys), got K {K.shape} and V {V.shape}")
    if Q.shape[:-2] != K.shape[:-2] or K.shape[:-2] != V.shape[:-2]:
        raise ValueError(f"Q, K, V must share their leading (batch/head) axes, got {Q.shape}, {K.shape}, {V.shape}")
    d_k = Q.shape[-1]
    if d_k == 0:
        raise ValueError(f"Q and K must have d_k >= 1 columns, got Q {Q.shape} and K {K.shape}")
    with np.errstate(over="ignore", invalid="ignore"):
        scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(d_k)  # (..., n_q, n_k)
    if not np.isfinite(scores).all():
        raise ValueError("Q and K are too large: Q K^T / sqrt(d_k) overflows float64 (scale them down)")
    if bias is not None:
        scores = scores + _broadcast("bias", check_array("bias", bias), scores.shape)
    weights = softmax(scores, mask)
    return weights @ V, weights


def split_heads(X: np.ndarray, n_heads: int) -> np.ndarray:
    """``(B, T, n_heads * d_k)`` -> ``(B, n_heads, T, d_k)``: reshape, then put heads next to the batch axis."""
    X = check_array("X", X, ndim=3)
    n_heads = check_int("n_heads", n_heads, minimum=1)
    B, T, width = X.shape
    if width % n_heads:
        raise ValueError(f"the projection width {width} must be divisible by n_heads={n_heads}")
    return X.reshape(B, T, n_heads, width // n_heads).transpose(0, 2, 1, 3)


def merge_heads(X: np.ndarray) -> np.ndarray:
    """``(B, n_heads, T, d_v)`` -> ``(B, T, n_heads * d_v)``: the concatenation of the heads' outputs."""
    X = check_array("X", X, ndim=4)
    B, H, T, d_v = X.shape
    return X.transpose(0, 2, 1, 3).reshape(B, T, H * d_v)


def multi_head_attention(
    X: np.ndarray,
    W_Q: np.ndarray,
    W_K: np.ndarray,
    W_V: np.ndarray,
    W_O: np.ndarray,
    n_heads: int,
    mask: np.ndarray | None = None,
    *,
    memory: np.ndarray | None = None,
    b_Q: np.ndarray | None = None,
    b_K: np.ndarray | None = None,
    b_V: np.ndarray | None = None,
    b_O: np.ndarray | None = None,
    bias: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Multi-head attention: project, split into heads, attend in one batched call, concatenate, ``@ W_O``.

    ``X``: queries' input ``(T, d_model)`` or ``(B, T, d_model)``. ``memory``: the keys'
    and values' input ``(S, d_model)`` / ``(B, S, d_model)`` for cross-attention
    (default ``X``: self-attention). ``W_Q``, ``W_K``: ``(d_model, n_heads * d_k)``;
    ``W_V``: ``(d_model, n_heads * d_v)``; ``W_O``: ``(n_heads * d_v, d_model_out)``;
    ``b_*`` optional biases of matching widths. ``mask`` (True = may attend) broadcasts
    to ``(n_q, n_k)`` or ``(B, n_q, n_k)``; it is shared by all heads. ``bias`` broadcasts
    to ``(B, n_heads, n_q, n_k)`` (per-head ALiBi biases have shape ``(n_heads, n_q, n_k)``).
    Returns ``(output (B?, T, d_model_out), weights (B?, n_heads, T, S))``; the batch axis
    is present only if ``X`` had one.
    """
    X = check_array("X", X, ndim=(2, 3))
    unbatched = X.ndim == 2
    memory = X if memory is None else check_array("memory", memory, ndim=X.ndim)
    if unbatched:
        X, memory = X[None], memory[None]
    if memory.shape[0] != X.shape[0] or memory.shape[2] != X.shape[2]:
        raise ValueError(f"memory must have shape (B, S, d_model) matching X {X.shape}, got {memory.shape}")
    n_heads = check_int("n_heads", n_heads, minimum=1)
    d_model = X.shape[-1]
    W_Q = check_array("W_Q", W_Q, shape=(d_model, None))
    W_K = check_array("W_K", W_K, shape=W_Q.shape)
    W_V = check_array("W_V", W_V, shape=(d_model, None))
    W_O = check_array("W_O", W_O, shape=(W_V.shape[1], None))
    for name, W in (("W_Q", W_Q), ("W_V", W_V)):
        if W.shape[1] % n_heads:
            raise ValueError(
                f"{name} has {W.shape[1]} columns, not divisible by n_heads={n_heads} "
                f"(with d_model={d_model} the usual choice is d_k = d_model / n_heads, so d_model must be divisible by n_heads)"
            )
    Q = _project(X, W_Q, b_Q, "b_Q")  # (B, T, n_heads * d_k)
    K = _project(memory, W_K, b_K, "b_K")  # (B, S, n_heads * d_k)
    V = _project(memory, W_V, b_V, "b_V")  # (B, S, n_heads * d_v)
    B, T, S = X.shape[0], X.shape[1], memory.shape[1]
    if mask is not None:
        mask = _as_mask("mask", mask, (B, T, S))[:, None]  # same mask for every head
    if bias is not None:
        bias = _broadcast("bias", check_array("bias", bias), (B, n_heads, T, S))
    # The heads become a batch axis: one call attends with all of them at once.
    Z, weights = scaled_dot_product_attention(
        split_heads(Q, n_heads), split_heads(K, n_heads), split_heads(V, n_heads), mask, bias=bias
    )
    out = _project(merge_heads(Z), W_O, b_O, "b_O")  # (B, T, d_model_out)
    return (out[0], weights[0]) if unbatched else (out, weights)


def _project(X: np.ndarray, W: np.ndarray, b: np.ndarray | None, b_name: str) -> np.ndarray:
    out = X @ W
    if b is not None:
        out = out + check_array(b_name, b, shape=(W.shape[1],))
    return out


def _broadcast(name: str, arr: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    try:
        return np.broadcast_to(arr, shape)
    except ValueError:
        raise ValueError(f"{name} of shape {arr.shape} does not broadcast to the scores' shape {shape}") from None


def _as_mask(name: str, mask, shape: tuple[int, ...]) -> np.ndarray:
    m = np.asarray(mask)
    if m.dtype != bool:
        raise TypeError(f"{name} must be a boolean array (True = may attend), got dtype {m.dtype}")
    return _broadcast(name, m, shape)
