"""The chapter's checkers accept the reference solutions and reject typical wrong or unusable answers."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.exercises.checker import STRICT_ENV
from nlp_helpers.feedforward.exercises import (
    check_adamw_step,
    check_backprop_by_hand,
    check_binary_cross_entropy,
    check_inverted_dropout,
    check_layer_norm_backward,
    check_tanh_via_sigmoid,
)
from nlp_helpers.feedforward.lm_exercises import check_perplexity_by_hand
from tests.exercise_helpers import stub


@pytest.fixture(autouse=True)
def lenient(monkeypatch):
    monkeypatch.delenv(STRICT_ENV, raising=False)  # these tests look at the feedback, not at CI failures


# ----- reference solutions (as in book/feedforward/networks.ipynb and training.ipynb) -------------------------------------
def perplexity_by_hand():
    return 2**1.75


def backprop_by_hand():
    return {"w1": 12.0, "b1": 6.0, "w2": 6.0}


def adamw_step(params, grads, state, lr, weight_decay, b1=0.9, b2=0.999):
    t = state["t"] = state.get("t", 0) + 1
    new = []
    for i, (p, g) in enumerate(zip(params, grads)):
        m, v = state.setdefault(i, (torch.zeros_like(p), torch.zeros_like(p)))
        m.mul_(b1).add_((1 - b1) * g)
        v.mul_(b2).add_((1 - b2) * g * g)
        m_hat, v_hat = m / (1 - b1**t), v / (1 - b2**t)
        new.append(p * (1 - lr * weight_decay) - lr * m_hat / (v_hat.sqrt() + 1e-8))
    return new


def _sigmoid(t):
    e = np.exp(-np.abs(t))
    return np.where(t >= 0, 1 / (1 + e), e / (1 + e))


def tanh_via_sigmoid(z):
    return 2 * _sigmoid(2 * np.asarray(z, dtype=float)) - 1


def binary_cross_entropy(y_pred, y_true):
    y_pred, y_true = np.asarray(y_pred, dtype=float), np.asarray(y_true, dtype=float)
    if y_pred.shape != y_true.shape:
        raise ValueError("shapes differ")
    return float(-np.mean(y_true * np.log(y_pred) + (1 - y_true) * np.log(1 - y_pred)))


def inverted_dropout(x, p, gen):
    if not 0 <= p < 1:
        raise ValueError("p")
    keep = gen.random(np.shape(x)) >= p
    return np.where(keep, np.asarray(x) / (1 - p), 0.0)


def layer_norm_backward(x, dy, eps=1e-5):
    mu = x.mean(axis=1, keepdims=True)
    sigma = np.sqrt(x.var(axis=1, keepdims=True) + eps)
    x_hat = (x - mu) / sigma
    return (dy - dy.mean(axis=1, keepdims=True) - x_hat * (dy * x_hat).mean(axis=1, keepdims=True)) / sigma


CASES = [
    (check_tanh_via_sigmoid, tanh_via_sigmoid),
    (check_binary_cross_entropy, binary_cross_entropy),
    (check_inverted_dropout, inverted_dropout),
    (check_layer_norm_backward, layer_norm_backward),
    (check_backprop_by_hand, backprop_by_hand),
    (check_adamw_step, adamw_step),
    (check_perplexity_by_hand, perplexity_by_hand),
]


@pytest.mark.parametrize(("checker", "solution"), CASES)
def test_reference_solution_passes(checker, solution):
    result = checker(solution)
    assert result.passed, str(result)


@pytest.mark.parametrize(("checker", "solution"), CASES)
def test_stub_is_not_yet(checker, solution):
    assert checker(stub).status == "not yet"


@pytest.mark.parametrize("checker", [c for c, _ in CASES])
@pytest.mark.parametrize("answer", [None, float("nan"), "text", [], 42])
def test_unusable_answers_are_wrong_without_crashing(checker, answer):
    result = checker(lambda *args, **kwargs: answer)
    assert result.status == "wrong" and result.message


@pytest.mark.parametrize("checker", [c for c, _ in CASES])
def test_non_function_is_wrong(checker):
    result = checker("tanh")
    assert result.status == "wrong" and "function" in result.message


def test_strict_mode_raises_on_a_wrong_answer(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(AssertionError):
        check_tanh_via_sigmoid(lambda z: np.zeros_like(z))


def test_typical_mistakes_are_rejected_with_a_hint():
    naive = lambda z: 2 / (1 + np.exp(-2 * z)) - 1
    with np.errstate(over="ignore"):
        assert check_tanh_via_sigmoid(naive).passed  # np.exp overflow -> inf -> 2/inf = 0: still -1
    assert not check_tanh_via_sigmoid(lambda z: 2 * _sigmoid(z) - 1)  # forgot the 2 inside
    assert not check_binary_cross_entropy(lambda p, y: float(-np.mean(y * np.log(p))))  # drops the y=0 term
    assert not check_binary_cross_entropy(lambda p, y: float(-np.sum(y * np.log(p) + (1 - y) * np.log(1 - p))))
    no_check = lambda p, y: float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    assert "ValueError" in check_binary_cross_entropy(no_check).message
    assert not check_inverted_dropout(lambda x, p, gen: np.where(gen.random(np.shape(x)) >= p, x, 0.0))  # no rescale
    assert not check_inverted_dropout(lambda x, p, gen: np.where(gen.random(np.shape(x)) < p, x / (1 - p), 0.0))
    no_mean = lambda x, dy, eps=1e-5: (dy - x * 0) / np.sqrt(x.var(1, keepdims=True) + eps)
    assert not check_layer_norm_backward(no_mean)
    no_xhat_term = lambda x, dy, eps=1e-5: (dy - dy.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + eps)
    result = check_layer_norm_backward(no_xhat_term)
    assert result.status == "wrong" and "x_hat" in result.message
