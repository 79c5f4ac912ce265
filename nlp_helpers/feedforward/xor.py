"""The XOR problem: why one linear layer cannot compute it and two layers can.

``XOR_X`` holds the four inputs (0,0), (0,1), (1,0), (1,1) and ``XOR_Y`` their labels 0, 1, 1, 0.
:func:`best_linear_fit` is the least-squares linear model ``w . x + b`` for them: the best a
linear unit can do is predict 0.5 for every input (Minsky & Papert's observation, in numbers).

``XOR_WEIGHTS`` is the hand-set two-layer ReLU network of Goodfellow et al. (2016, sec. 6.1) used in
Jurafsky & Martin (SLP3, ch. 6): h = relu(W x + b), y = U h, with W = [[1, 1], [1, 1]],
b = (0, -1), U = (1, -2). The lecture notes state the XOR argument without weights.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers._checks import check_array
from nlp_helpers.feedforward.activations import activate

__all__ = ["XOR_WEIGHTS", "XOR_X", "XOR_Y", "best_linear_fit", "xor_network"]

XOR_X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])  # (4, 2)
XOR_Y = np.array([0, 1, 1, 0])  # (4,)
XOR_WEIGHTS = {"W": np.array([[1.0, 1.0], [1.0, 1.0]]), "b": np.array([0.0, -1.0]), "U": np.array([1.0, -2.0])}


def best_linear_fit(X, y) -> tuple[np.ndarray, float, np.ndarray]:
    """Least-squares ``(w, b, predictions)`` of a linear model ``X w + b`` for targets ``y``."""
    X = check_array("X", X, ndim=2)
    y = check_array("y", y, ndim=1)
    if len(X) != len(y):
        raise ValueError(f"X has {len(X)} rows but y has {len(y)} targets")
    A = np.hstack([X, np.ones((len(X), 1))])  # a column of ones carries the bias
    coef = np.linalg.lstsq(A, y, rcond=None)[0]
    return coef[:-1], float(coef[-1]), A @ coef


def xor_network(X, weights: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Hidden layer ``(B, 2)`` and output ``(B,)`` of the two-layer ReLU network (default ``XOR_WEIGHTS``)."""
    X = check_array("X", X, ndim=2, shape=(None, 2))
    w = XOR_WEIGHTS if weights is None else weights
    if not isinstance(w, dict) or not {"W", "b", "U"} <= set(w):
        raise ValueError("weights must be a dict with keys 'W' (2, 2), 'b' (2,), 'U' (2,)")
    W = check_array("weights['W']", w["W"], shape=(2, 2))
    b = check_array("weights['b']", w["b"], shape=(2,))
    U = check_array("weights['U']", w["U"], shape=(2,))
    h = activate(X @ W.T + b, "relu")  # (B, 2)
    return h, h @ U
