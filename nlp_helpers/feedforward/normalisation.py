"""Layer normalisation, batch normalisation and (inverted) dropout, forward passes in numpy.

* :func:`layer_norm` (Ba et al. 2016): each *row* (one example's hidden vector) is shifted to mean 0
  and scaled to variance 1 over its features, then multiplied by a gain and shifted by a bias. It
  does not depend on the batch, which is why transformers use it.
* :func:`batch_norm` (Ioffe & Szegedy 2015), training mode: each *feature* is normalised over the
  batch. The running averages used at test time are left out.
* :func:`dropout` (Srivastava et al. 2014), "inverted" as in PyTorch: during training each unit is
  zeroed with probability ``p`` and the survivors are divided by ``1 - p``, so the expected value of
  every unit is unchanged and nothing needs rescaling at test time.

The tests compare them with ``torch.nn.functional.layer_norm``, ``torch.nn.BatchNorm1d`` (training
mode) and the statistics of ``torch.nn.Dropout``. Backward passes are left to autograd (one is an
exercise of the chapter).
"""

from __future__ import annotations

import numpy as np

from nlp_helpers._checks import check_array, check_float, check_type

__all__ = ["batch_norm", "dropout", "layer_norm"]


def _float2d(name: str, x) -> np.ndarray:
    arr = check_array(name, x, ndim=2, dtype=None)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be an array of real numbers, got dtype {arr.dtype}")
    return arr.astype(np.float32 if arr.dtype == np.float32 else np.float64)


def _affine(name: str, value, size: int, default: float, dtype) -> np.ndarray:
    if value is None:
        return np.full(size, default, dtype=dtype)
    arr = check_array(name, value, ndim=1)
    if arr.shape != (size,):
        raise ValueError(f"{name} must have shape ({size},) to match the {size} features, got {arr.shape}")
    return arr.astype(dtype)


def layer_norm(x, gain=None, bias=None, eps: float = 1e-5) -> np.ndarray:
    """Normalise each row of ``x`` ``(B, d)`` over its ``d`` features, then ``* gain + bias`` (each ``(d,)``)."""
    x = _float2d("x", x)
    eps = check_float("eps", eps, minimum=0.0, min_inclusive=False)
    g = _affine("gain", gain, x.shape[1], 1.0, x.dtype)
    b = _affine("bias", bias, x.shape[1], 0.0, x.dtype)
    mu = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)  # biased variance (divide by d), as in the paper and torch
    return (x - mu) / np.sqrt(var + eps) * g + b


def batch_norm(x, gain=None, bias=None, eps: float = 1e-5) -> np.ndarray:
    """Training-mode batch normalisation: each column of ``x`` ``(B, d)`` normalised over the batch."""
    x = _float2d("x", x)
    if x.shape[0] < 2:
        raise ValueError(f"x must have at least 2 rows to normalise over the batch, got {x.shape[0]}")
    eps = check_float("eps", eps, minimum=0.0, min_inclusive=False)
    g = _affine("gain", gain, x.shape[1], 1.0, x.dtype)
    b = _affine("bias", bias, x.shape[1], 0.0, x.dtype)
    return (x - x.mean(axis=0)) / np.sqrt(x.var(axis=0) + eps) * g + b


def dropout(x, p: float, gen: np.random.Generator, training: bool = True) -> np.ndarray:
    """Inverted dropout: zero each entry with probability ``p``, scale the rest by ``1 / (1 - p)``.

    The mask is ``gen.random(x.shape) >= p``. With ``training=False`` returns ``x`` unchanged.
    """
    arr = check_array("x", x, dtype=None)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"x must be an array of real numbers, got dtype {arr.dtype}")
    p = check_float("p", p, minimum=0.0, maximum=1.0, max_inclusive=False)
    check_type("gen", gen, np.random.Generator)
    check_type("training", training, bool)
    arr = arr.astype(np.float32 if arr.dtype == np.float32 else np.float64)
    if not training or p == 0.0:
        return arr.copy()
    keep = gen.random(arr.shape) >= p
    return np.where(keep, arr / (1.0 - p), 0.0).astype(arr.dtype)
