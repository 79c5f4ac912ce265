"""Catalogue of the exercises of ``book/classification/softmax_regression``: requirements, correct answers in
several styles (accepted) and typical wrong answers (rejected with a hint naming the mistake).

* ``softmax_gradient(W, b, X, y)``: (grad_W (K, d), grad_b (K,)) of the mean cross-entropy, equal to autograd's;
  prediction minus truth (not truth minus prediction); the mean, not the sum; every class's row moves (not
  only the true class's); grad_W not transposed; grad_b right too; no overflow for scores near ±1000.
* ``one_vs_rest(X, y, n_classes, eta, lam, steps)``: (W (K, d), b (K,)); row k trained on "class k" = 1 (not
  the reverse); sigmoid per row, not a joint softmax; L2 on the weights only, and not left out; a class with
  no example still gets a finite row.
"""

from __future__ import annotations

import numpy as np
import torch

from nlp_helpers.classification import softmax_regression_exercises as ex
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def _probs(W, b, X):
    Z = X @ W.T + b
    Z = Z - Z.max(axis=1, keepdims=True)
    return np.exp(Z) / np.exp(Z).sum(axis=1, keepdims=True)


def grad_numpy(W, b, X, y):
    E = _probs(W, b, X) - np.eye(W.shape[0])[y]
    return E.T @ X / len(y), E.mean(axis=0)


def grad_torch(W, b, X, y):
    Wt, bt = torch.tensor(W, requires_grad=True), torch.tensor(b, requires_grad=True)
    logp = torch.log_softmax(torch.tensor(X) @ Wt.T + bt, dim=1)
    loss = -logp[torch.arange(len(y)), torch.tensor(y)].mean()
    loss.backward()
    return Wt.grad.numpy(), bt.grad.numpy()


def grad_sign(W, b, X, y):
    gW, gb = grad_numpy(W, b, X, y)
    return -gW, -gb


def grad_sum(W, b, X, y):
    gW, gb = grad_numpy(W, b, X, y)
    return gW * len(y), gb * len(y)


def grad_true_class_only(W, b, X, y):
    P = _probs(W, b, X)
    E = -np.eye(W.shape[0])[y] * (1 - P)
    return E.T @ X / len(y), E.mean(axis=0)


def grad_transposed(W, b, X, y):
    gW, gb = grad_numpy(W, b, X, y)
    return gW.T, gb


def grad_bias_sum(W, b, X, y):
    gW, gb = grad_numpy(W, b, X, y)
    return gW, gb * len(y) + 1.0


def grad_unstable(W, b, X, y):
    with np.errstate(over="ignore", invalid="ignore"):
        Z = np.exp(X @ W.T + b)
        E = Z / Z.sum(axis=1, keepdims=True) - np.eye(W.shape[0])[y]
    return E.T @ X / len(y), E.mean(axis=0)


def _ovr(X, y, K, eta, lam, steps, *, flip=False, joint=False, bias_l2=False):
    n, d = X.shape
    W, b = np.zeros((K, d)), np.zeros(K)
    T = np.eye(K)[y]
    T = 1 - T if flip else T
    for _ in range(steps):
        Z = X @ W.T + b
        P = _probs(W, b, X) if joint else 1 / (1 + np.exp(-Z))
        E = P - T
        W, b = W - eta * (E.T @ X / n + lam * W), b - eta * (E.mean(axis=0) + (lam * b if bias_l2 else 0))
    return W, b


def ovr_matrix(X, y, n_classes, eta, lam, steps):
    return _ovr(X, y, n_classes, eta, lam, steps)


def ovr_loops(X, y, n_classes, eta, lam, steps):
    n, d = X.shape
    W, b = np.zeros((n_classes, d)), np.zeros(n_classes)
    for k in range(n_classes):
        t = (y == k).astype(float)
        w, bk = np.zeros(d), 0.0
        for _ in range(steps):
            e = 1 / (1 + np.exp(-(X @ w + bk))) - t
            w, bk = w - eta * (X.T @ e / n + lam * w), bk - eta * e.mean()
        W[k], b[k] = w, bk
    return W, b


def ovr_flipped(X, y, n_classes, eta, lam, steps):
    return _ovr(X, y, n_classes, eta, lam, steps, flip=True)


def ovr_softmax(X, y, n_classes, eta, lam, steps):
    return _ovr(X, y, n_classes, eta, lam, steps, joint=True)


def ovr_bias_l2(X, y, n_classes, eta, lam, steps):
    return _ovr(X, y, n_classes, eta, lam, steps, bias_l2=True)


def ovr_no_l2(X, y, n_classes, eta, lam, steps):
    return _ovr(X, y, n_classes, eta, 0.0, steps)


def ovr_seen_classes_only(X, y, n_classes, eta, lam, steps):
    W, b = _ovr(X, y, n_classes, eta, lam, steps)
    missing = [k for k in range(n_classes) if not np.any(y == k)]
    W[missing], b[missing] = 0.0, 0.0  # an untrained row
    return W, b


def ovr_transposed(X, y, n_classes, eta, lam, steps):
    W, b = _ovr(X, y, n_classes, eta, lam, steps)
    return W.T, b


CATALOGUE = {
    ex.check_softmax_gradient: Catalogue(
        correct=[grad_numpy, grad_torch],
        wrong=[
            Wrong(grad_sign, "wrong sign"),
            Wrong(grad_sum, "mean over the examples"),
            Wrong(grad_true_class_only, "only the true class"),
            Wrong(grad_transposed, "transpose"),
            Wrong(grad_bias_sum, "dL/db"),
            Wrong(grad_unstable, "overflows"),
        ],
    ),
    ex.check_one_vs_rest: Catalogue(
        correct=[ovr_matrix, ovr_loops],
        wrong=[
            Wrong(ovr_flipped, "not class k"),
            Wrong(ovr_softmax, "softmax"),
            Wrong(ovr_bias_l2, "biases"),
            Wrong(ovr_no_l2, "without the L2"),
            Wrong(ovr_seen_classes_only, "no training example"),
            Wrong(ovr_transposed, "transpose"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
