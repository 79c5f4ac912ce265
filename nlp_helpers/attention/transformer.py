"""The transformer's layers in numpy: layer norm, the position-wise FFN, encoder and decoder layers.

Built on :mod:`nlp_helpers.attention.self_attention`. An encoder layer is (Vaswani et al., 2017)::

    post-norm (the paper, the lecture notes):  h = LN(x + MHA(x));        out = LN(h + FFN(h))
    pre-norm  (GPT-2 and most LLMs):  h = x + MHA(LN(x));        out = h + FFN(LN(h))

and a decoder layer adds cross-attention between the two: queries from the decoder,
keys and values from the encoder's output ("memory").

Weights follow the row convention ``X @ W`` (``W`` is ``(d_in, d_out)``), the transpose of
``torch.nn.Linear.weight``. :func:`encoder_params_from_torch`, :func:`decoder_params_from_torch`
and :func:`torch_encoder_layer` convert between the two, so the tests can check every layer
against ``torch.nn.TransformerEncoderLayer``/``TransformerDecoderLayer`` with the same weights.

Left out: dropout (training only) and activations other than ReLU and GELU.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import numpy as np

from nlp_helpers._checks import check_array, check_choice, check_float, check_int
from nlp_helpers.attention.self_attention import multi_head_attention

__all__ = [
    "layer_norm",
    "feed_forward",
    "AttentionParams",
    "EncoderLayerParams",
    "DecoderLayerParams",
    "encoder_layer",
    "decoder_layer",
    "encoder_params_from_torch",
    "decoder_params_from_torch",
    "torch_encoder_layer",
]


def layer_norm(
    x: np.ndarray,
    eps: float = 1e-5,
    ddof: int = 0,
    *,
    eps_inside_sqrt: bool = True,
    gamma: np.ndarray | None = None,
    beta: np.ndarray | None = None,
) -> np.ndarray:
    """Normalise each row (token) of ``x`` ``(..., d)`` to mean 0 and standard deviation 1.

    ``torch.nn.LayerNorm`` (the default here): ``(x - mean) / sqrt(var + eps)`` with the
    population variance (``ddof=0``). The Annotated Transformer: ``(x - mean) / (s + eps)`` with the
    sample standard deviation ``s`` (``ddof=1``, ``eps_inside_sqrt=False``, ``eps=1e-4``).
    ``gamma``/``beta`` ``(d,)`` are the learned scale and shift (default 1 and 0).
    """
    x = check_array("x", x)
    ddof = check_int("ddof", ddof, minimum=0, maximum=1)
    if x.ndim < 1 or x.shape[-1] < 1 + ddof:
        raise ValueError(
            f"x must have at least {1 + ddof} features in its last axis for ddof={ddof}, got shape {x.shape}"
        )
    eps = check_float("eps", eps, minimum=0.0)
    big = np.abs(x).max(axis=-1, keepdims=True) if x.size else np.zeros(x.shape[:-1] + (1,))
    if (big > 1e150).any():
        # Squares of entries near 1e308 overflow: normalise x / m instead, with eps / m^2 (or eps / m outside
        # the root), which is the same number written so that nothing overflows.
        m = np.where(big > 1e150, big, 1.0)
        centred = x / m - (x / m).mean(axis=-1, keepdims=True)
        var = (centred**2).sum(axis=-1, keepdims=True) / (x.shape[-1] - ddof)
        scale = np.sqrt(var + eps / m / m) if eps_inside_sqrt else np.sqrt(var) + eps / m
    else:
        centred = x - x.mean(axis=-1, keepdims=True)
        var = (centred**2).sum(axis=-1, keepdims=True) / (x.shape[-1] - ddof)
        scale = np.sqrt(var + eps) if eps_inside_sqrt else np.sqrt(var) + eps
    if np.any(scale == 0):
        raise ValueError("a row of x is constant and eps=0: its standard deviation is 0 (use eps > 0)")
    out = centred / scale
    d = x.shape[-1]
    if gamma is not None:
        out = out * check_array("gamma", gamma, shape=(d,))
    if beta is not None:
        out = out + check_array("beta", beta, shape=(d,))
    return out


def feed_forward(
    x: np.ndarray,
    W1: np.ndarray,
    b1: np.ndarray,
    W2: np.ndarray | None = None,
    b2: np.ndarray | None = None,
    activation: str = "relu",
) -> np.ndarray:
    """The position-wise FFN ``act(x W1 + b1) W2 + b2``, applied to every token (row) independently.

    ``x`` ``(..., d_model)``, ``W1`` ``(d_model, d_ff)``, ``b1`` ``(d_ff,)``, ``W2`` ``(d_ff, d_out)``,
    ``b2`` ``(d_out,)``. Without ``W2`` it returns ``act(x W1 + b1)``: the lecture notes' one-layer FFN.
    """
    x = check_array("x", x)
    W1 = check_array("W1", W1, shape=(x.shape[-1], None))
    b1 = check_array("b1", b1, shape=(W1.shape[1],))
    check_choice("activation", activation, ["relu", "gelu"])
    hidden = x @ W1 + b1
    if activation == "relu":
        hidden = np.maximum(hidden, 0.0)
    else:  # exact GELU, as torch's default: x * Phi(x)
        from scipy.special import erf

        hidden = 0.5 * hidden * (1.0 + erf(hidden / np.sqrt(2.0)))
    if W2 is None:
        if b2 is not None:
            raise ValueError("b2 given without W2")
        return hidden
    W2 = check_array("W2", W2, shape=(W1.shape[1], None))
    out = hidden @ W2
    return out if b2 is None else out + check_array("b2", b2, shape=(W2.shape[1],))


@dataclass
class AttentionParams:
    """Weights of one multi-head attention block (row convention, see the module docstring)."""

    W_Q: np.ndarray
    W_K: np.ndarray
    W_V: np.ndarray
    W_O: np.ndarray
    b_Q: np.ndarray | None = None
    b_K: np.ndarray | None = None
    b_V: np.ndarray | None = None
    b_O: np.ndarray | None = None

    def __call__(self, X, n_heads, mask=None, memory=None):
        b = {"b_Q": self.b_Q, "b_K": self.b_K, "b_V": self.b_V, "b_O": self.b_O}
        return multi_head_attention(X, self.W_Q, self.W_K, self.W_V, self.W_O, n_heads, mask, memory=memory, **b)


@dataclass
class EncoderLayerParams:
    """One encoder layer: self-attention, FFN (``W2=None``: one layer, as in the lecture notes), two layer norms."""

    attn: AttentionParams
    W1: np.ndarray
    b1: np.ndarray
    W2: np.ndarray | None = None
    b2: np.ndarray | None = None
    ln1: tuple[np.ndarray | None, np.ndarray | None] = (None, None)  # (gamma, beta)
    ln2: tuple[np.ndarray | None, np.ndarray | None] = (None, None)


@dataclass
class DecoderLayerParams:
    """One decoder layer: masked self-attention, cross-attention, FFN and three layer norms."""

    self_attn: AttentionParams
    cross_attn: AttentionParams
    W1: np.ndarray
    b1: np.ndarray
    W2: np.ndarray | None = None
    b2: np.ndarray | None = None
    ln1: tuple = (None, None)
    ln2: tuple = (None, None)
    ln3: tuple = (None, None)


@dataclass
class _Norm:
    eps: float
    ddof: int
    eps_inside_sqrt: bool
    steps: dict = field(default_factory=dict)

    def __call__(self, x, gb):
        return layer_norm(x, self.eps, self.ddof, eps_inside_sqrt=self.eps_inside_sqrt, gamma=gb[0], beta=gb[1])


def _residual(x, sublayer, gb, norm: _Norm, norm_first: bool, name: str):
    """One residual sublayer, post-norm ``LN(x + f(x))`` or pre-norm ``x + f(LN(x))``; records its steps.

    ``sublayer(x)`` returns ``(output, extra)``: attention weights, or ``None`` for the FFN.
    """
    out, extra = sublayer(norm(x, gb) if norm_first else x)
    if norm_first:
        y = x + out
    else:
        y = norm(x + out, gb)
        norm.steps[f"{name}_add"] = x + out
    norm.steps[f"{name}_out"] = out
    norm.steps[name] = y
    return y, extra


def _ffn_sublayer(params, activation: str):
    """``x -> (FFN(x), None)`` for :func:`_residual`, from a layer's ``W1, b1, W2, b2``."""

    def sublayer(x):
        return feed_forward(x, params.W1, params.b1, params.W2, params.b2, activation), None

    return sublayer


def encoder_layer(
    X: np.ndarray,
    params: EncoderLayerParams,
    n_heads: int,
    mask: np.ndarray | None = None,
    *,
    norm_first: bool = False,
    eps: float = 1e-5,
    ddof: int = 0,
    eps_inside_sqrt: bool = True,
    activation: str = "relu",
    return_steps: bool = False,
):
    """One encoder layer on ``X`` ``(T, d_model)`` or ``(B, T, d_model)``; returns ``(output, weights)``.

    ``norm_first=False`` is the post-norm layer of the paper and the lecture notes; ``True`` is pre-norm.
    ``eps``/``ddof``/``eps_inside_sqrt`` choose the layer-norm convention (see :func:`layer_norm`).
    ``return_steps=True`` returns ``(output, weights, steps)`` with every intermediate matrix
    (``attn_out``, ``attn_add``, ``attn``, ``ffn_out``, ``ffn_add``, ``ffn``) for teaching.
    """
    if not isinstance(params, EncoderLayerParams):
        raise TypeError(
            f"params must be EncoderLayerParams (e.g. from encoder_params_from_torch), got {type(params).__name__}"
        )
    norm = _Norm(eps, ddof, eps_inside_sqrt)
    h, weights = _residual(X, partial(params.attn, n_heads=n_heads, mask=mask), params.ln1, norm, norm_first, "attn")
    out, _ = _residual(h, _ffn_sublayer(params, activation), params.ln2, norm, norm_first, "ffn")
    return (out, weights, norm.steps) if return_steps else (out, weights)


def decoder_layer(
    Y: np.ndarray,
    memory: np.ndarray,
    params: DecoderLayerParams,
    n_heads: int,
    *,
    self_mask: np.ndarray | None = None,
    memory_mask: np.ndarray | None = None,
    norm_first: bool = False,
    eps: float = 1e-5,
    activation: str = "relu",
):
    """One decoder layer on ``Y`` ``(T, d_model)`` given the encoder output ``memory`` ``(S, d_model)``.

    ``self_mask`` is usually ``causal_mask(T)`` (no peeking at later target tokens); ``memory_mask``
    hides padded source tokens. Returns ``(output, self_weights (H, T, T), cross_weights (H, T, S))``
    (with a leading batch axis if ``Y`` has one).
    """
    if not isinstance(params, DecoderLayerParams):
        raise TypeError(
            f"params must be DecoderLayerParams (e.g. from decoder_params_from_torch), got {type(params).__name__}"
        )
    norm = _Norm(eps, 0, True)
    self_attn = partial(params.self_attn, n_heads=n_heads, mask=self_mask)
    h, w_self = _residual(Y, self_attn, params.ln1, norm, norm_first, "self")
    cross_attn = partial(params.cross_attn, n_heads=n_heads, mask=memory_mask, memory=memory)
    h, w_cross = _residual(h, cross_attn, params.ln2, norm, norm_first, "cross")
    out, _ = _residual(h, _ffn_sublayer(params, activation), params.ln3, norm, norm_first, "ffn")
    return out, w_self, w_cross


# ---- conversion to and from torch.nn (torch is imported only here) -------------------------------


def _np(t) -> np.ndarray:
    return t.detach().cpu().double().numpy()


def _attention_from_torch(mha) -> AttentionParams:
    d = mha.embed_dim
    W, b = _np(mha.in_proj_weight), (None if mha.in_proj_bias is None else _np(mha.in_proj_bias))
    bias = (lambda i: None) if b is None else (lambda i: b[i * d : (i + 1) * d])
    return AttentionParams(
        W_Q=W[:d].T,
        W_K=W[d : 2 * d].T,
        W_V=W[2 * d :].T,
        W_O=_np(mha.out_proj.weight).T,
        b_Q=bias(0),
        b_K=bias(1),
        b_V=bias(2),
        b_O=None if mha.out_proj.bias is None else _np(mha.out_proj.bias),
    )


def _ln(norm) -> tuple[np.ndarray, np.ndarray]:
    return _np(norm.weight), _np(norm.bias)


def _check_torch_layer(layer, kind: str) -> None:
    import torch

    expected = getattr(torch.nn, kind)
    if not isinstance(layer, expected):
        raise TypeError(f"layer must be a torch.nn.{kind}, got {type(layer).__name__}")


def encoder_params_from_torch(layer) -> EncoderLayerParams:
    """The weights of a ``torch.nn.TransformerEncoderLayer`` as :class:`EncoderLayerParams` (float64)."""
    _check_torch_layer(layer, "TransformerEncoderLayer")
    return EncoderLayerParams(
        attn=_attention_from_torch(layer.self_attn),
        W1=_np(layer.linear1.weight).T,
        b1=_np(layer.linear1.bias),
        W2=_np(layer.linear2.weight).T,
        b2=_np(layer.linear2.bias),
        ln1=_ln(layer.norm1),
        ln2=_ln(layer.norm2),
    )


def decoder_params_from_torch(layer) -> DecoderLayerParams:
    """The weights of a ``torch.nn.TransformerDecoderLayer`` as :class:`DecoderLayerParams` (float64)."""
    _check_torch_layer(layer, "TransformerDecoderLayer")
    return DecoderLayerParams(
        self_attn=_attention_from_torch(layer.self_attn),
        cross_attn=_attention_from_torch(layer.multihead_attn),
        W1=_np(layer.linear1.weight).T,
        b1=_np(layer.linear1.bias),
        W2=_np(layer.linear2.weight).T,
        b2=_np(layer.linear2.bias),
        ln1=_ln(layer.norm1),
        ln2=_ln(layer.norm2),
        ln3=_ln(layer.norm3),
    )


def _pad_heads(W: np.ndarray, n_heads: int, head_dim: int, axis: int) -> np.ndarray:
    """Zero-pad every head's block of width ``w / n_heads`` along ``axis`` to ``head_dim``."""
    blocks = np.split(W, n_heads, axis=axis)
    pad = [(0, 0)] * W.ndim
    pad[axis] = (0, head_dim - blocks[0].shape[axis])
    return np.concatenate([np.pad(b, pad) for b in blocks], axis=axis)


def torch_encoder_layer(params: EncoderLayerParams, n_heads: int, *, norm_first: bool = False, eps: float = 1e-5):
    """A float64 ``torch.nn.TransformerEncoderLayer`` (ReLU, dropout 0) holding ``params``' weights.

    torch ties each head's width to ``d_model / n_heads``; narrower heads (the lecture notes have
    ``d_k = 4`` with ``d_model = 6``) are zero-padded, and ``W_Q`` is multiplied by
    ``sqrt(head_dim / d_k)`` so that torch's division by ``sqrt(head_dim)`` equals ours by
    ``sqrt(d_k)``. A one-layer FFN (``W2=None``) becomes ``linear2 = identity``, which needs
    ``d_ff == d_model``. Layer norms use torch's convention (population variance, ``eps``).
    """
    import torch

    if not isinstance(params, EncoderLayerParams):
        raise TypeError(f"params must be EncoderLayerParams, got {type(params).__name__}")
    n_heads = check_int("n_heads", n_heads, minimum=1)
    a = params.attn
    d_model = a.W_Q.shape[0]
    if d_model % n_heads:
        raise ValueError(f"torch needs d_model divisible by n_heads, got d_model={d_model} and n_heads={n_heads}")
    head_dim = d_model // n_heads
    d_k, d_v = a.W_Q.shape[1] // n_heads, a.W_V.shape[1] // n_heads
    if d_k > head_dim or d_v > head_dim:
        raise ValueError(
            f"heads wider than d_model / n_heads = {head_dim} do not fit torch's layout (d_k={d_k}, d_v={d_v})"
        )
    d_ff = params.W1.shape[1]
    W2, b2 = params.W2, params.b2
    if W2 is None:
        if d_ff != d_model:
            raise ValueError(f"a one-layer FFN maps into torch only when d_ff == d_model, got {d_ff} and {d_model}")
        W2, b2 = np.eye(d_model), np.zeros(d_model)
    layer = torch.nn.TransformerEncoderLayer(
        d_model,
        n_heads,
        dim_feedforward=d_ff,
        dropout=0.0,
        activation="relu",
        layer_norm_eps=eps,
        batch_first=True,
        norm_first=norm_first,
        dtype=torch.float64,
    )
    zeros = np.zeros(d_model)
    pad = lambda W: _pad_heads(W, n_heads, head_dim, axis=1)  # noqa: E731
    in_w = np.concatenate([pad(a.W_Q) * np.sqrt(head_dim / d_k), pad(a.W_K), pad(a.W_V)], axis=1).T
    bias_q = zeros if a.b_Q is None else _pad_heads(a.b_Q, n_heads, head_dim, 0) * np.sqrt(head_dim / d_k)
    bias_k = zeros if a.b_K is None else _pad_heads(a.b_K, n_heads, head_dim, 0)
    bias_v = zeros if a.b_V is None else _pad_heads(a.b_V, n_heads, head_dim, 0)
    t = lambda v: torch.as_tensor(np.ascontiguousarray(v), dtype=torch.float64)  # noqa: E731
    with torch.no_grad():
        layer.self_attn.in_proj_weight.copy_(t(in_w))
        layer.self_attn.in_proj_bias.copy_(t(np.concatenate([bias_q, bias_k, bias_v])))
        layer.self_attn.out_proj.weight.copy_(t(_pad_heads(a.W_O, n_heads, head_dim, axis=0).T))
        layer.self_attn.out_proj.bias.copy_(t(zeros if a.b_O is None else a.b_O))
        layer.linear1.weight.copy_(t(params.W1.T))
        layer.linear1.bias.copy_(t(params.b1))
        layer.linear2.weight.copy_(t(W2.T))
        layer.linear2.bias.copy_(t(b2))
        for norm, (g, b) in ((layer.norm1, params.ln1), (layer.norm2, params.ln2)):
            norm.weight.copy_(t(np.ones(d_model) if g is None else g))
            norm.bias.copy_(t(zeros if b is None else b))
    return layer.eval()
