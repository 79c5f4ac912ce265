"""A two-layer feed-forward network in numpy, with backpropagation written out by hand.

The network of Jurafsky & Martin (SLP3, ch. 6) and the lecture notes, for a batch of rows ``X``::

    a = X W^T + b      # (B, H)  hidden pre-activations
    h = g(a)           # (B, H)  hidden layer
    z = h U^T + c      # (B, K)  output scores (logits)
    y = softmax(z)     # (B, K)  class probabilities
    L = mean_i -log y[i, label_i]

:func:`mlp_backward` applies the chain rule backwards through these five lines (Rumelhart et al.
1986); the tests check every gradient against torch autograd and the forward pass against
``torch.nn.Sequential(Linear, activation, Linear)`` with the same weights. The notes write the
output layer without a bias (``z = Uh``); we keep ``c`` because torch's ``Linear`` has one (set it to
zero to get the notes' network).

Parameters live in a dict ``{"W": (H, n), "b": (H,), "U": (K, H), "c": (K,)}`` so a reader can
print and change them. Left out: momentum, weight decay, more layers (the chapter's later sections
use torch for those).
"""

from __future__ import annotations

import numpy as np
from tqdm.auto import tqdm

from nlp_helpers._checks import check_array, check_choice, check_float, check_int, check_type
from nlp_helpers.display import hide_progress
from nlp_helpers.feedforward.activations import ACTIVATIONS, activate, activation_derivative, softmax
from nlp_helpers.feedforward.initialisation import INITS, init_weight
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["PARAM_NAMES", "cross_entropy", "init_mlp", "mlp_backward", "mlp_forward", "sgd_step", "train_mlp"]

PARAM_NAMES = ("W", "b", "U", "c")


def _check_params(params) -> dict[str, np.ndarray]:
    check_type("params", params, dict)
    missing = [k for k in PARAM_NAMES if k not in params]
    if missing:
        raise ValueError(f"params must have the keys {list(PARAM_NAMES)}; missing {missing}")
    p = {k: check_array(f"params['{k}']", params[k], ndim=2 if k in "WU" else 1, dtype=None) for k in PARAM_NAMES}
    H, K = p["W"].shape[0], p["U"].shape[0]
    if p["b"].shape != (H,) or p["U"].shape[1] != H or p["c"].shape != (K,):
        raise ValueError(
            f"params shapes do not fit together: W {p['W'].shape}, b {p['b'].shape}, "
            f"U {p['U'].shape}, c {p['c'].shape} (want (H, n), (H,), (K, H), (K,))"
        )
    return p


def _check_inputs(X, p: dict[str, np.ndarray]) -> np.ndarray:
    X = check_array("X", X, ndim=2)
    if X.shape[1] != p["W"].shape[1]:
        raise ValueError(f"X has {X.shape[1]} features per row but params['W'] expects {p['W'].shape[1]}")
    return X.astype(p["W"].dtype)


def _check_labels(y, n_rows: int, n_classes: int) -> np.ndarray:
    y = check_array("y", y, ndim=1, dtype=None)
    if y.dtype.kind not in "iu":
        raise TypeError(f"y must hold integer class labels, got dtype {y.dtype}")
    if len(y) != n_rows:
        raise ValueError(f"y has {len(y)} labels but there are {n_rows} rows")
    if len(y) and (y.min() < 0 or y.max() >= n_classes):
        raise ValueError(f"y must hold labels in 0..{n_classes - 1}, got {y.min()}..{y.max()}")
    return y.astype(np.int64)


def init_mlp(
    n_in: int, n_hidden: int, n_out: int, *, init: str = "glorot", seed: int = 0, dtype=np.float64
) -> dict[str, np.ndarray]:
    """Random weights (``init`` in :data:`~nlp_helpers.feedforward.initialisation.INITS`), zero biases."""
    n_in, n_hidden, n_out = (
        check_int(k, v, minimum=1) for k, v in (("n_in", n_in), ("n_hidden", n_hidden), ("n_out", n_out))
    )
    check_choice("init", init, INITS)
    gen = seeded_rng(check_int("seed", seed, minimum=0))
    return {
        "W": init_weight(n_hidden, n_in, init, gen).astype(dtype),
        "b": np.zeros(n_hidden, dtype),
        "U": init_weight(n_out, n_hidden, init, gen).astype(dtype),
        "c": np.zeros(n_out, dtype),
    }


def _forward(p, X, activation):
    a = X @ p["W"].T + p["b"]  # (B, H)
    h = activate(a, activation)  # (B, H)
    z = h @ p["U"].T + p["c"]  # (B, K)
    return softmax(z), {"X": X, "a": a, "h": h, "activation": activation}


def mlp_forward(params: dict, X, activation: str = "relu") -> tuple[np.ndarray, dict]:
    """Probabilities ``(B, K)`` for the rows of ``X`` ``(B, n)``, and the cache the backward pass needs."""
    p = _check_params(params)
    check_choice("activation", activation, ACTIVATIONS)
    return _forward(p, _check_inputs(X, p), activation)


def cross_entropy(probs, y) -> float:
    """Mean negative log-likelihood ``-mean_i log probs[i, y_i]`` of integer labels ``y`` (B,)."""
    probs = check_array("probs", probs, ndim=2)
    y = _check_labels(y, probs.shape[0], probs.shape[1])
    if len(y) == 0:
        raise ValueError("y must hold at least one label")
    return float(-np.mean(np.log(np.maximum(probs[np.arange(len(y)), y], np.finfo(probs.dtype).tiny))))


def _backward(p, cache, probs, y):
    B = len(y)
    dz = probs.copy()  # dL/dz of softmax + cross-entropy: y_hat - onehot(y), averaged over the batch
    dz[np.arange(B), y] -= 1.0
    dz /= B  # (B, K)
    dU = dz.T @ cache["h"]  # (K, H)
    dc = dz.sum(axis=0)  # (K,)
    dh = dz @ p["U"]  # (B, H)
    da = dh * activation_derivative(cache["a"], cache["activation"])  # (B, H): chain rule through g
    dW = da.T @ cache["X"]  # (H, n)
    db = da.sum(axis=0)  # (H,)
    return {"W": dW, "b": db, "U": dU, "c": dc}


def mlp_backward(params: dict, cache: dict, probs, y) -> dict[str, np.ndarray]:
    """Gradients of :func:`cross_entropy` (mean over the batch) w.r.t. every parameter, by the chain rule."""
    p = _check_params(params)
    check_type("cache", cache, dict)
    if not {"X", "a", "h", "activation"} <= set(cache):
        raise ValueError("cache must be the second value returned by mlp_forward")
    probs = check_array("probs", probs, ndim=2, dtype=None)
    if probs.shape != (cache["X"].shape[0], p["U"].shape[0]):
        raise ValueError(f"probs must have shape {(cache['X'].shape[0], p['U'].shape[0])}, got {probs.shape}")
    return _backward(p, cache, probs, _check_labels(y, probs.shape[0], probs.shape[1]))


def sgd_step(params: dict, grads: dict, lr: float) -> dict[str, np.ndarray]:
    """A new parameter dict ``theta - lr * grad`` (the inputs are not modified)."""
    p = _check_params(params)
    lr = check_float("lr", lr, minimum=0.0, min_inclusive=False)
    g = _check_params(grads)
    for k in PARAM_NAMES:
        if g[k].shape != p[k].shape:
            raise ValueError(f"grads['{k}'] has shape {g[k].shape} but params['{k}'] has {p[k].shape}")
    return {k: p[k] - lr * g[k] for k in PARAM_NAMES}


def _train(params, X, y, activation, lr, epochs, progress):
    losses = []
    for _ in tqdm(range(epochs), disable=not progress or hide_progress(), desc="MLP"):
        probs, cache = _forward(params, X, activation)
        losses.append(cross_entropy(probs, y))
        grads = _backward(params, cache, probs, y)
        params = {k: params[k] - lr * grads[k] for k in PARAM_NAMES}
    return params, losses


def train_mlp(
    X,
    y,
    n_hidden: int,
    *,
    n_out: int | None = None,
    activation: str = "relu",
    init: str = "glorot",
    lr: float = 0.5,
    epochs: int = 500,
    seed: int = 0,
    progress: bool = False,
) -> tuple[dict[str, np.ndarray], list[float]]:
    """Full-batch gradient descent on the cross-entropy; returns the parameters and the loss per epoch.

    ``X`` ``(B, n)``, integer labels ``y`` ``(B,)``; ``n_out`` defaults to ``max(y) + 1`` (at least 2).
    """
    X = check_array("X", X, ndim=2)
    labels = check_array("y", y, ndim=1, dtype=None)
    if labels.dtype.kind not in "iu" or len(labels) == 0:
        raise TypeError(f"y must be a non-empty array of integer class labels, got dtype {labels.dtype}")
    n_out = max(2, int(labels.max()) + 1) if n_out is None else check_int("n_out", n_out, minimum=2)
    y = _check_labels(labels, X.shape[0], n_out)
    check_choice("activation", activation, ACTIVATIONS)
    lr = check_float("lr", lr, minimum=0.0, min_inclusive=False)
    epochs = check_int("epochs", epochs, minimum=1)
    params = init_mlp(X.shape[1], n_hidden, n_out, init=init, seed=seed)
    return _train(params, X, y, activation, lr, epochs, progress)
