"""Activation functions of neural networks and their derivatives, in numpy.

Follows the list in Jurafsky & Martin (SLP3, ch. 6) and the lecture notes: sigmoid, tanh, ReLU,
leaky ReLU, ELU, SELU (Klambauer et al. 2017's constants) and softmax. Each derivative is written
in closed form (the tests compare it with torch autograd), so the chapter can show why the
sigmoid's gradient vanishes: sigma'(z) = sigma(z) (1 - sigma(z)) <= 1/4, and ~0 for large |z|.

Left out: the derivative of ReLU-like functions *at* 0, which does not exist; like PyTorch we use
the right-hand value for ELU/SELU and 0 for ReLU (and the negative slope for leaky ReLU).
"""

from __future__ import annotations

import numpy as np

from nlp_helpers._checks import check_array, check_choice, check_float

__all__ = ["ACTIVATIONS", "activate", "activation_derivative", "softmax"]

ACTIVATIONS = ("sigmoid", "tanh", "relu", "leaky_relu", "elu", "selu")
LEAKY_SLOPE = 0.01  # torch.nn.LeakyReLU's default negative slope
SELU_ALPHA = 1.6732632423543772
SELU_SCALE = 1.0507009873554805


def _sigmoid(z: np.ndarray) -> np.ndarray:
    # exp of a negative number only, so large |z| never overflows
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _forward(z: np.ndarray, name: str) -> np.ndarray:
    if name == "sigmoid":
        return _sigmoid(z)
    if name == "tanh":
        return np.tanh(z)
    if name == "relu":
        return np.maximum(z, 0.0)
    if name == "leaky_relu":
        return np.where(z > 0, z, LEAKY_SLOPE * z)
    neg = np.expm1(np.minimum(z, 0.0))  # e^z - 1 on the negative side only
    if name == "elu":
        return np.where(z > 0, z, neg)
    return SELU_SCALE * np.where(z > 0, z, SELU_ALPHA * neg)  # selu


def _derivative(z: np.ndarray, name: str) -> np.ndarray:
    if name == "sigmoid":
        s = _sigmoid(z)
        return s * (1.0 - s)
    if name == "tanh":
        return 1.0 - np.tanh(z) ** 2
    if name == "relu":
        return (z > 0).astype(z.dtype)
    if name == "leaky_relu":
        return np.where(z > 0, 1.0, LEAKY_SLOPE).astype(z.dtype)
    expo = np.exp(np.minimum(z, 0.0))
    if name == "elu":
        return np.where(z > 0, 1.0, expo).astype(z.dtype)
    return (SELU_SCALE * np.where(z > 0, 1.0, SELU_ALPHA * expo)).astype(z.dtype)  # selu


def _float_array(name: str, value) -> np.ndarray:
    """``value`` as a float array (float32 stays float32, integers become float64)."""
    arr = check_array(name, value, dtype=None)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be an array of real numbers, got dtype {arr.dtype}")
    return arr.astype(np.float32 if arr.dtype == np.float32 else np.float64)


def activate(z, name: str = "relu") -> np.ndarray:
    """Apply the activation ``name`` (one of :data:`ACTIVATIONS`) elementwise to ``z`` (any shape)."""
    check_choice("name", name, ACTIVATIONS)
    return _forward(_float_array("z", z), name)


def activation_derivative(z, name: str = "relu") -> np.ndarray:
    """d activation(z) / dz elementwise (same shape as ``z``); ReLU's kink at 0 gets 0."""
    check_choice("name", name, ACTIVATIONS)
    return _derivative(_float_array("z", z), name)


def softmax(z, axis: int = -1, temperature: float = 1.0) -> np.ndarray:
    """exp(z / T) normalised along ``axis``; shifted by the max so large scores do not overflow."""
    temperature = check_float("temperature", temperature, minimum=0.0, min_inclusive=False)
    arr = _float_array("z", z)
    if arr.ndim == 0 or arr.size == 0:
        raise ValueError(f"z must be a non-empty vector or matrix of scores, got shape {arr.shape}")
    arr = arr / temperature
    e = np.exp(arr - arr.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
