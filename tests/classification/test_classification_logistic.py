"""Logistic and softmax regression: SLP3's worked numbers, torch autograd, and scikit-learn's optimum."""

from __future__ import annotations

import warnings
from itertools import pairwise

import numpy as np
import pytest
import scipy.sparse as sp
import torch
from sklearn.linear_model import LogisticRegression as SkLogisticRegression

from nlp_helpers.classification.logistic_regression import (
    LogisticRegression,
    SoftmaxRegression,
    binary_cross_entropy,
    logistic_gradient,
    sigmoid,
    softmax,
    softmax_cross_entropy,
)


@pytest.fixture(scope="module")
def data():
    g = np.random.default_rng(0)
    X = g.normal(size=(200, 8))
    y = (X @ g.normal(size=8) + g.normal(size=200) > 0).astype(int)
    y3 = np.argmax(X[:, :3] + g.normal(size=(200, 3)), axis=1)
    return X, y, y3


def test_slp3_sentiment_example_and_sgd_step():
    x = np.array([3, 2, 1, 3, 0, np.log(66)])
    w = np.array([2.5, -5.0, -1.2, 0.5, 2.0, 0.7])
    assert round(float(sigmoid(w @ x + 0.1)), 2) == 0.70  # SLP3 ch. 5: P(+|x) = .70
    gw, gb = logistic_gradient(np.zeros(2), 0.0, np.array([[3.0, 2.0]]), np.array([1.0]))
    np.testing.assert_allclose(np.append(gw, gb), [-1.5, -1.0, -0.5])  # SLP3: theta^1 = (.15, .1, .05) at eta .1
    np.testing.assert_allclose(-0.1 * np.append(gw, gb), [0.15, 0.1, 0.05])


def test_sigmoid_and_softmax_are_stable():
    np.testing.assert_allclose(sigmoid([-1000.0, 0.0, 1000.0]), [0.0, 0.5, 1.0])
    z = np.array([[1000.0, 0.0], [0.0, 0.0]])
    np.testing.assert_allclose(softmax(z), [[1.0, 0.0], [0.5, 0.5]])
    # two-class softmax is the sigmoid of the difference
    np.testing.assert_allclose(softmax(np.array([[0.3, 1.7]]))[0, 1], sigmoid(1.4), rtol=1e-12)


def test_loss_and_gradient_equal_torch_autograd(data):
    X, y, y3 = data
    w, b, l2 = np.random.default_rng(1).normal(size=8), -0.2, 0.05
    wt, bt = torch.tensor(w, requires_grad=True), torch.tensor(b, requires_grad=True)
    loss = torch.nn.functional.binary_cross_entropy_with_logits(torch.tensor(X) @ wt + bt, torch.tensor(y * 1.0))
    (loss + l2 / 2 * (wt * wt).sum()).backward()
    gw, gb = logistic_gradient(w, b, X, y, l2=l2)
    # float64 on both sides; torch's fused kernel differs from ours in the last bits (~1e-10 absolute)
    np.testing.assert_allclose(gw, wt.grad.numpy(), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(gb, bt.grad.item(), rtol=1e-7, atol=1e-9)
    assert np.isclose(binary_cross_entropy(X @ w + b, y), loss.item(), rtol=1e-7)
    logits = np.random.default_rng(2).normal(size=(200, 3))
    ref = torch.nn.functional.cross_entropy(torch.tensor(logits), torch.tensor(y3))
    assert np.isclose(softmax_cross_entropy(logits, y3), ref.item(), rtol=1e-7)


def test_l2_logistic_regression_equals_sklearn(data):
    X, y, _ = data
    l2 = 0.05
    ours = LogisticRegression(l2=l2, tol=1e-12, max_iter=20000).fit(X, y)
    ref = SkLogisticRegression(C=1 / (l2 * len(y)), tol=1e-12, max_iter=10000).fit(X, y)
    np.testing.assert_allclose(ours.coef_, ref.coef_[0], atol=1e-6)
    assert abs(ours.intercept_ - ref.intercept_[0]) < 1e-6
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X)[:, 1], atol=1e-6)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    # the same on a sparse input
    sparse = LogisticRegression(l2=l2, tol=1e-12, max_iter=20000).fit(sp.csr_matrix(X), y)
    np.testing.assert_allclose(sparse.coef_, ours.coef_, atol=1e-9)


def test_l1_logistic_regression_equals_sklearn_saga(data):
    X, y, _ = data
    l1 = 0.02
    ours = LogisticRegression(l1=l1, tol=1e-12, max_iter=50000).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = SkLogisticRegression(C=1 / (l1 * len(y)), l1_ratio=1.0, solver="saga", tol=1e-12, max_iter=100000).fit(
            X, y
        )
    np.testing.assert_allclose(ours.coef_, ref.coef_[0], atol=1e-5)
    assert np.sum(ours.coef_ == 0) == np.sum(np.abs(ref.coef_) < 1e-8) >= 1  # L1 zeroes weights exactly


def test_plain_gradient_descent_loss_decreases(data):
    X, y, _ = data
    losses = [
        LogisticRegression(l2=0.01, step=0.2, accelerated=False, max_iter=k, tol=0).fit(X, y).loss(X, y)
        for k in (1, 5, 20, 100)
    ]
    assert all(a > b for a, b in pairwise(losses))


def test_softmax_regression_equals_sklearn_multinomial(data):
    X, _, y3 = data
    l2 = 0.05
    ours = SoftmaxRegression(l2=l2, tol=1e-12, max_iter=20000).fit(X, y3)
    ref = SkLogisticRegression(C=1 / (l2 * len(y3)), tol=1e-12, max_iter=10000).fit(X, y3)
    np.testing.assert_allclose(ours.coef_, ref.coef_, atol=1e-6)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), atol=1e-6)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    assert ours.decision_function(X).shape == (200, 3)


def test_softmax_regression_lbfgs_equals_sklearn_multinomial(data):
    X, _, y3 = data
    l2 = 0.05
    ours = SoftmaxRegression(l2=l2, tol=1e-10, max_iter=5000, solver="lbfgs").fit(X, y3)
    ref = SkLogisticRegression(C=1 / (l2 * len(y3)), tol=1e-12, max_iter=10000).fit(X, y3)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), atol=1e-6)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    assert 0 < ours.n_iter_ < 5000  # converged before the cap
    with pytest.raises(ValueError, match="solver"):
        SoftmaxRegression(solver="newton")


def test_softmax_regression_lbfgs_equals_gd_on_sparse_features():
    g = np.random.default_rng(3)
    X = sp.random(300, 80, density=0.1, random_state=4, data_rvs=lambda n: np.ones(n), format="csr")
    y = g.integers(0, 4, 300)
    fast = SoftmaxRegression(l2=1e-2, tol=1e-10, max_iter=5000, solver="lbfgs").fit(X, y)
    slow = SoftmaxRegression(l2=1e-2, tol=1e-12, max_iter=50000).fit(X, y)
    np.testing.assert_allclose(fast.predict_proba(X), slow.predict_proba(X), atol=1e-6)


def test_two_class_softmax_with_double_l2_is_logistic_regression(data):
    X, y, _ = data
    soft = SoftmaxRegression(l2=0.1, tol=1e-12, max_iter=20000).fit(X, np.where(y == 1, "pos", "neg"))
    logi = LogisticRegression(l2=0.05, tol=1e-12, max_iter=20000).fit(X, y)
    np.testing.assert_allclose(soft.predict_proba(X)[:, 1], logi.predict_proba(X), atol=1e-7)
    assert list(soft.classes_) == ["neg", "pos"]


def test_bad_input_names_the_argument(data):
    X, y, y3 = data
    with pytest.raises(ValueError, match="l2"):
        LogisticRegression(l2=-1)
    with pytest.raises(ValueError, match="max_iter"):
        LogisticRegression(max_iter=0)
    with pytest.raises(TypeError, match="accelerated"):
        LogisticRegression(accelerated="no")
    with pytest.raises(ValueError, match="y"):
        LogisticRegression().fit(X, y3)  # three classes for a binary model
    with pytest.raises(ValueError, match="X"):
        LogisticRegression().fit(np.full((3, 2), np.nan), [0, 1, 0])
    with pytest.raises(RuntimeError, match="fit"):
        LogisticRegression().predict(X)
    with pytest.raises(ValueError, match="columns"):
        LogisticRegression(max_iter=5).fit(X, y).predict(X[:, :3])
    with pytest.raises(ValueError, match="w"):
        logistic_gradient(np.zeros(3), 0.0, X, y)
    with pytest.raises(ValueError, match="y"):
        softmax_cross_entropy(np.zeros((2, 3)), [0, 3])
    with pytest.raises(ValueError, match="two classes"):
        SoftmaxRegression().fit(X, np.zeros(len(X)))
    with pytest.raises(ValueError, match="y"):
        SoftmaxRegression().fit(X, y[:10])
    assert "l2=0.0" in repr(SoftmaxRegression())
