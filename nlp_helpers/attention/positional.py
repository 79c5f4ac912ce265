"""Telling a transformer where each token is: sinusoidal encodings and ALiBi biases.

Attention is blind to order (permute the tokens and the outputs permute with them),
so position must be added. This module implements, in numpy:

* :func:`positional_encoding` - the fixed sinusoids of Vaswani et al. (2017), written
  as in the lecture notes: ``PE(pos, x) = sin(pos / 10000^(x/d))`` for even ``x`` and
  ``cos(pos / 10000^((x-1)/d))`` for odd ``x``, positions counted from 0;
* :func:`offset_matrix` - the matrix ``M_k`` with ``PE(pos + k) = PE(pos) @ M_k`` for
  every ``pos`` (a rotation per sin/cos pair), the reason relative offsets are easy
  for attention to read off;
* :func:`alibi_slopes`, :func:`alibi_bias` - Attention with Linear Biases (Press et
  al., 2022; the lecture notes): no vectors at all, a penalty ``-m |i - j|`` added to the scores.

Learned absolute positions (a trainable ``(max_len, d_model)`` table, as in BERT and
GPT-2) need gradients, so they live in the torch toy model of ``attention_toy``.
Left out: rotary embeddings (RoPE) and relative-position attention (Shaw et al.).
"""

from __future__ import annotations

import numpy as np

from nlp_helpers._checks import check_array, check_float, check_int

__all__ = ["positional_encoding", "pe_frequencies", "offset_matrix", "alibi_slopes", "alibi_bias"]


def pe_frequencies(d_model: int, base: float = 10000.0) -> np.ndarray:
    """Angular frequency of every dimension, shape ``(d_model,)``: ``1 / base^((x - x % 2) / d_model)``.

    Dimensions ``2i`` and ``2i + 1`` share a frequency; it falls geometrically from 1
    (a period of 2 pi positions) to about ``1 / base`` (a period of ~63,000 positions for 10000).
    """
    d_model = check_int("d_model", d_model, minimum=1)
    base = check_float("base", base, minimum=1.0, min_inclusive=False)
    x = np.arange(d_model)
    return 1.0 / base ** ((x - x % 2) / d_model)


def positional_encoding(n_positions: int, d_model: int, base: float = 10000.0) -> np.ndarray:
    """The sinusoidal positional encoding table, shape ``(n_positions, d_model)``; row ``pos`` encodes position ``pos``.

    Even columns are sines, odd columns cosines of the same angle ``pos * pe_frequencies(d_model)``.
    """
    n_positions = check_int("n_positions", n_positions, minimum=1)
    angles = np.arange(n_positions)[:, None] * pe_frequencies(d_model, base)[None, :]  # (n_positions, d_model)
    even = np.arange(d_model) % 2 == 0
    return np.where(even, np.sin(angles), np.cos(angles))


def offset_matrix(k: int, d_model: int, base: float = 10000.0) -> np.ndarray:
    """``(d_model, d_model)`` matrix ``M_k`` with ``PE(pos + k) = PE(pos) @ M_k`` for every position.

    From ``sin(a + b) = sin a cos b + cos a sin b`` and ``cos(a + b) = cos a cos b - sin a sin b``:
    each (sin, cos) pair is rotated by the angle ``k * omega``, whatever ``pos`` is. ``k`` may be
    negative. ``d_model`` must be even (a lone last sine has no cosine partner to rotate with).
    """
    k = check_int("k", k)
    d_model = check_int("d_model", d_model, minimum=2)
    if d_model % 2:
        raise ValueError(f"d_model must be even for an offset matrix (sin/cos pairs), got {d_model}")
    M = np.zeros((d_model, d_model))
    for x, w in zip(range(0, d_model, 2), pe_frequencies(d_model, base)[::2]):
        c, s = np.cos(k * w), np.sin(k * w)
        M[x : x + 2, x : x + 2] = [[c, -s], [s, c]]  # row vector [sin, cos] @ rotation
    return M


def alibi_slopes(n_heads: int) -> np.ndarray:
    """ALiBi's per-head slopes ``m_h``, shape ``(n_heads,)``: the geometric sequence ``2^(-8h/n)``, h = 1..n.

    For a head count that is not a power of two, Press et al. take the slopes of the next lower
    power of two and fill up with every other slope of the next higher one; so do we.
    """
    n_heads = check_int("n_heads", n_heads, minimum=1)

    def power_of_two(n: int) -> list[float]:
        return [2.0 ** (-8.0 * h / n) for h in range(1, n + 1)]

    lower = 2 ** int(np.floor(np.log2(n_heads)))
    slopes = power_of_two(lower)
    if lower < n_heads:
        slopes += power_of_two(2 * lower)[0::2][: n_heads - lower]
    return np.asarray(slopes)


def alibi_bias(n_queries: int, n_keys: int | None = None, slopes=1.0) -> np.ndarray:
    """The linear distance penalty ``-m |i - j|`` to add to attention scores.

    ``slopes`` a number gives one ``(n_queries, n_keys)`` matrix (the lecture notes use ``m = 1``:
    ``softmax(k q_i + [-i, ..., -1, 0, -1, ..., -(n - i)])``); an array of ``H`` slopes gives
    ``(H, n_queries, n_keys)``, one penalty per head. Combine with :func:`~nlp_helpers.attention.self_attention.causal_mask`
    for a decoder, where only ``j <= i`` matters.
    """
    n_queries = check_int("n_queries", n_queries, minimum=1)
    n_keys = n_queries if n_keys is None else check_int("n_keys", n_keys, minimum=1)
    m = check_array("slopes", slopes, ndim=(0, 1))
    if (m < 0).any():
        raise ValueError("slopes must be >= 0 (a negative slope would reward distant tokens)")
    distance = np.abs(np.arange(n_queries)[:, None] - np.arange(n_keys)[None, :])  # (n_q, n_k)
    return -m[..., None, None] * distance if m.ndim else -float(m) * distance
