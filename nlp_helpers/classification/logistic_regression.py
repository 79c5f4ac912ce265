"""Logistic and softmax (multinomial) regression from scratch, trained by full-batch gradient descent.

Follows Jurafsky & Martin (SLP3, ch. 5). Binary: ``P(y=1 | x) = sigmoid(w . x + b)``, trained to
minimise the mean cross-entropy plus a penalty,

    J(w, b) = 1/n sum_i [log(1 + exp(z_i)) - y_i z_i] + l2/2 ||w||^2 + l1 ||w||_1,   z_i = w . x_i + b,

whose gradient (without the L1 term) is ``X^T (sigmoid(z) - y) / n + l2 w`` and ``mean(sigmoid(z) - y)``
for the bias. Softmax: ``P(y=k | x) = softmax(W x + b)_k`` with gradient ``X^T (P - Y) / n + l2 W``.
The bias is never penalised.

The optimiser is gradient descent with step ``1 / L`` (``L`` bounds the curvature of ``J``, estimated
by power iteration), by default with Nesterov momentum and restarts (FISTA; Beck & Teboulle 2009);
the L1 term is handled by soft-thresholding after each step (proximal gradient), which sets weights
exactly to zero. With ``l2 = 1 / (C n)`` the optimum is scikit-learn's ``LogisticRegression(C=C)``
(``penalty="l1"`` likewise), which the tests check. ``SoftmaxRegression(solver="lbfgs")`` minimises the
same objective with SciPy's L-BFGS-B (Liu & Nocedal 1989) instead, which reaches the minimum in far
fewer steps when there are many ill-conditioned features.

Left out: stochastic mini-batches (the chapter writes one SGD step by hand), elastic net, class weights.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.optimize import minimize
from scipy.special import expit, logsumexp

from nlp_helpers._checks import check_array, check_choice, check_float, check_int

__all__ = [
    "LogisticRegression",
    "SoftmaxRegression",
    "binary_cross_entropy",
    "logistic_gradient",
    "sigmoid",
    "softmax",
    "softmax_cross_entropy",
]


def sigmoid(z: Any) -> np.ndarray:
    """``1 / (1 + exp(-z))`` elementwise, without overflow for large ``|z|``."""
    return expit(check_array("z", z))


def binary_cross_entropy(logits: Any, y: Any) -> float:
    """Mean of ``-[y log sigmoid(z) + (1 - y) log(1 - sigmoid(z))]`` computed from the logits ``z``."""
    z = check_array("logits", logits, ndim=1)
    y = _check_binary("y", y, len(z))
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def logistic_gradient(w: Any, b: float, X: Any, y: Any, l2: float = 0.0) -> tuple[np.ndarray, float]:
    """Gradient of the mean cross-entropy + ``l2/2 ||w||^2`` at ``(w, b)``: returns ``(dJ/dw (d,), dJ/db)``."""
    X = _check_X(X)
    w = check_array("w", w, shape=(X.shape[1],))
    b = check_float("b", b)
    y = _check_binary("y", y, X.shape[0])
    l2 = check_float("l2", l2, minimum=0.0)
    error = expit(X @ w + b) - y  # (n,)  predicted minus true probability
    return np.asarray(X.T @ error) / len(y) + l2 * w, float(error.mean())


def softmax(z: Any, axis: int = -1) -> np.ndarray:
    """``exp(z_k) / sum_j exp(z_j)`` along ``axis``, computed stably (max subtracted)."""
    z = check_array("z", z)
    return np.exp(z - logsumexp(z, axis=axis, keepdims=True))


def softmax_cross_entropy(logits: Any, y: Any) -> float:
    """Mean of ``-log softmax(z_i)[y_i]`` for logits (n, K) and integer classes ``y`` (n,) in [0, K)."""
    z = check_array("logits", logits, ndim=2)
    y = check_array("y", y, shape=(z.shape[0],), dtype=None)
    if y.dtype.kind not in "iu" or y.min() < 0 or y.max() >= z.shape[1]:
        raise ValueError(f"y must hold integer class indices in [0, {z.shape[1]})")
    return float(np.mean(logsumexp(z, axis=1) - z[np.arange(len(y)), y]))


def _check_X(X: Any) -> np.ndarray | sp.csr_matrix:
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=float)
        if not np.all(np.isfinite(X.data)):
            raise ValueError("X must contain only finite numbers (found NaN or inf)")
        return X
    return check_array("X", X, ndim=2)


def _check_binary(name: str, y: Any, n: int) -> np.ndarray:
    y = check_array(name, y, shape=(n,))
    if not np.all((y == 0) | (y == 1)):
        raise ValueError(f"{name} must contain only 0 and 1")
    return y


def _curvature_bound(X: np.ndarray | sp.csr_matrix, n_iter: int = 50) -> float:
    """Largest eigenvalue of ``[X 1]^T [X 1] / n`` by power iteration (+5% margin)."""
    v = np.ones(X.shape[1] + 1) / np.sqrt(X.shape[1] + 1)
    lam = 0.0
    for _ in range(n_iter):
        u = X @ v[:-1] + v[-1]
        v_new = np.append(np.asarray(X.T @ u), u.sum()) / X.shape[0]
        lam = float(np.linalg.norm(v_new))
        if lam == 0.0:
            return 1.0
        v = v_new / lam
    return 1.05 * lam


def _descend(
    grad: Callable[[np.ndarray], np.ndarray],
    theta: np.ndarray,
    step: float,
    l1_mask: np.ndarray,
    l1: float,
    max_iter: int,
    tol: float,
    accelerated: bool,
) -> tuple[np.ndarray, int]:
    """(Accelerated) proximal gradient descent from ``theta``; returns the final point and the step count."""
    y, t = theta.copy(), 1.0
    for it in range(1, max_iter + 1):
        new = y - step * grad(y)
        if l1 > 0:  # soft-thresholding: the proximal step of l1 ||w||_1
            new = np.where(l1_mask, np.sign(new) * np.maximum(np.abs(new) - step * l1, 0.0), new)
        if accelerated:
            if np.dot(y - new, new - theta) > 0:  # momentum points uphill: restart it
                t = 1.0
            t_next = (1 + np.sqrt(1 + 4 * t * t)) / 2
            y = new + (t - 1) / t_next * (new - theta)
            t = t_next
        else:
            y = new
        change = np.max(np.abs(new - theta))
        theta = new
        if change <= tol * max(1.0, np.max(np.abs(theta))):
            return theta, it
    return theta, max_iter


def _lbfgs(
    X: np.ndarray | sp.csr_matrix, idx: np.ndarray, k: int, l2: float, max_iter: int, tol: float
) -> tuple[np.ndarray, int]:
    """Minimise the softmax objective over ``theta = [W (d, K) ravelled, b (K,)]`` with L-BFGS-B."""
    n, d = X.shape
    rows = np.arange(n)

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        W, b = theta[: d * k].reshape(d, k), theta[d * k :]
        Z = np.asarray(X @ W) + b  # (n, K)
        lse = logsumexp(Z, axis=1)
        error = np.exp(Z - lse[:, None])  # (n, K)  P - Y below
        error[rows, idx] -= 1.0
        loss = float(np.mean(lse - Z[rows, idx]) + l2 / 2 * np.sum(W * W))
        return loss, np.concatenate([(np.asarray(X.T @ error) / n + l2 * W).ravel(), error.mean(axis=0)])

    result = minimize(
        objective,
        np.zeros(d * k + k),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": max_iter, "gtol": tol, "ftol": 1e-15, "maxcor": 20},
    )
    return result.x, int(result.nit)


class _LinearModel:
    def __init__(
        self,
        l2: float = 0.0,
        l1: float = 0.0,
        max_iter: int = 1000,
        tol: float = 1e-6,
        step: float | None = None,
        accelerated: bool = True,
    ) -> None:
        self.l2 = check_float("l2", l2, minimum=0.0)
        self.l1 = check_float("l1", l1, minimum=0.0)
        self.max_iter = check_int("max_iter", max_iter, minimum=1)
        self.tol = check_float("tol", tol, minimum=0.0)
        self.step = None if step is None else check_float("step", step, minimum=0.0, min_inclusive=False)
        if not isinstance(accelerated, bool):
            raise TypeError(f"accelerated must be True or False, got {type(accelerated).__name__}")
        self.accelerated = accelerated

    def __repr__(self) -> str:
        return f"{type(self).__name__}(l2={self.l2}, l1={self.l1}, max_iter={self.max_iter}, tol={self.tol})"

    def _check_fitted(self) -> None:
        if not hasattr(self, "coef_"):
            raise RuntimeError(f"this {type(self).__name__} is not fitted yet: call .fit(X, y) first")

    def _check_X_predict(self, X: Any) -> np.ndarray | sp.csr_matrix:
        self._check_fitted()
        X = _check_X(X)
        if X.shape[1] != self.n_features_:
            raise ValueError(f"X has {X.shape[1]} columns but the model was fitted on {self.n_features_}")
        return X


class LogisticRegression(_LinearModel):
    """Binary logistic regression (labels 0/1) with optional L2 (``l2``) and L1 (``l1``) penalties.

    ``X`` is (n, d), dense or ``scipy.sparse``. After :meth:`fit`: ``coef_`` (d,), ``intercept_``,
    ``n_iter_``. ``step=None`` uses ``1 / L``; ``accelerated=False`` is plain gradient descent.
    """

    def fit(self, X: Any, y: Any) -> LogisticRegression:
        X = _check_X(X)
        y = _check_binary("y", y, X.shape[0])
        self.n_features_ = X.shape[1]
        step = self.step or 1.0 / (0.25 * _curvature_bound(X) + self.l2)
        n, d = X.shape

        def grad(theta: np.ndarray) -> np.ndarray:
            error = expit(X @ theta[:d] + theta[d]) - y  # (n,)
            return np.append(np.asarray(X.T @ error) / n + self.l2 * theta[:d], error.mean())

        mask = np.arange(d + 1) < d  # the bias is not penalised
        theta, self.n_iter_ = _descend(
            grad, np.zeros(d + 1), step, mask, self.l1, self.max_iter, self.tol, self.accelerated
        )
        self.coef_, self.intercept_ = theta[:d], float(theta[d])
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """The logits ``w . x + b``, shape (n,)."""
        X = self._check_X_predict(X)
        return np.asarray(X @ self.coef_) + self.intercept_

    def predict_proba(self, X: Any) -> np.ndarray:
        """``P(y = 1 | x)``, shape (n,)."""
        return expit(self.decision_function(X))

    def predict(self, X: Any) -> np.ndarray:
        """1 where ``P(y = 1 | x) > 0.5``, else 0; shape (n,)."""
        return (self.decision_function(X) > 0).astype(int)

    def loss(self, X: Any, y: Any) -> float:
        """The training objective ``J(w, b)``: mean cross-entropy plus the penalties."""
        z = self.decision_function(X)
        penalty = self.l2 / 2 * np.dot(self.coef_, self.coef_) + self.l1 * np.abs(self.coef_).sum()
        return binary_cross_entropy(z, y) + float(penalty)


class SoftmaxRegression(_LinearModel):
    """Multinomial logistic regression: ``P(y=k | x) = softmax(W x + b)_k`` with an L2 penalty on ``W``.

    Labels may be any ints or strs; ``classes_`` holds them sorted. After :meth:`fit`: ``coef_``
    (K, d), ``intercept_`` (K,), ``n_iter_``. ``solver`` is ``"gd"`` (gradient descent as above, with
    ``step`` and ``accelerated``) or ``"lbfgs"`` (L-BFGS-B, stopping when the largest gradient entry is
    below ``tol``).
    """

    def __init__(
        self,
        l2: float = 0.0,
        max_iter: int = 1000,
        tol: float = 1e-6,
        step: float | None = None,
        accelerated: bool = True,
        solver: str = "gd",
    ) -> None:
        super().__init__(l2=l2, l1=0.0, max_iter=max_iter, tol=tol, step=step, accelerated=accelerated)
        self.solver = check_choice("solver", solver, ["gd", "lbfgs"])

    def fit(self, X: Any, y: Any) -> SoftmaxRegression:
        X = _check_X(X)
        labels = np.asarray(y)
        if labels.shape != (X.shape[0],):
            raise ValueError(f"y must have shape ({X.shape[0]},), got {labels.shape}")
        self.classes_, idx = np.unique(labels, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError("y must contain at least two classes")
        self.n_features_ = X.shape[1]
        n, d, k = X.shape[0], X.shape[1], len(self.classes_)
        onehot = np.eye(k)[idx]  # (n, K)

        def grad(theta: np.ndarray) -> np.ndarray:
            W, b = theta[: d * k].reshape(d, k), theta[d * k :]
            error = softmax(np.asarray(X @ W) + b) - onehot  # (n, K)  P - Y
            return np.concatenate([(np.asarray(X.T @ error) / n + self.l2 * W).ravel(), error.mean(axis=0)])

        if self.solver == "lbfgs":
            theta, self.n_iter_ = _lbfgs(X, idx, k, self.l2, self.max_iter, self.tol)
        else:
            step = self.step or 1.0 / (0.5 * _curvature_bound(X) + self.l2)
            mask = np.arange(d * k + k) < d * k
            theta, self.n_iter_ = _descend(
                grad, np.zeros(d * k + k), step, mask, 0.0, self.max_iter, self.tol, self.accelerated
            )
        self.coef_, self.intercept_ = theta[: d * k].reshape(d, k).T.copy(), theta[d * k :]
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """The logits ``W x + b``, shape (n, K)."""
        X = self._check_X_predict(X)
        return np.asarray(X @ self.coef_.T) + self.intercept_

    def predict_proba(self, X: Any) -> np.ndarray:
        """``P(y = k | x)``, shape (n, K); rows sum to 1."""
        return softmax(self.decision_function(X), axis=1)

    def predict(self, X: Any) -> np.ndarray:
        """The most probable class of each row, shape (n,)."""
        return self.classes_[np.argmax(self.decision_function(X), axis=1)]
