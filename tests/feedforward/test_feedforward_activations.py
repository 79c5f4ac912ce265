"""Activations and their derivatives against torch (values and autograd), plus bad input."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from nlp_helpers.feedforward.activations import (
    ACTIVATIONS,
    activate,
    activation_derivative,
    softmax,
)

TORCH = {
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
    "relu": torch.relu,
    "leaky_relu": F.leaky_relu,
    "elu": F.elu,
    "selu": torch.selu,
}
Z = np.concatenate([np.linspace(-12, 12, 97) + 0.0137, [-800.0, 800.0]])  # no exact 0 (kink)


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_values_and_derivatives_match_torch_autograd(name):
    t = torch.tensor(Z, requires_grad=True)
    TORCH[name](t).sum().backward()
    np.testing.assert_allclose(activate(Z, name), TORCH[name](t).detach().numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(activation_derivative(Z, name), t.grad.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_float32_stays_float32_and_matches_torch(name):
    z = np.linspace(-6, 6, 50, dtype=np.float32) + np.float32(0.01)
    got = activate(z, name)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, TORCH[name](torch.from_numpy(z)).numpy(), rtol=1e-4, atol=1e-6)


def test_sigmoid_worked_values_and_tanh_identity():
    # sigma(0) = 1/2, sigma'(0) = 1/4 (the maximum); tanh(z) = 2 sigma(2z) - 1 (the lecture notes)
    assert activate(0.0, "sigmoid") == 0.5 and activation_derivative(0.0, "sigmoid") == 0.25
    assert activation_derivative(Z, "sigmoid").max() <= 0.25
    np.testing.assert_allclose(np.tanh(Z), 2 * activate(2 * Z, "sigmoid") - 1, atol=1e-12)
    assert np.isfinite(activate(Z, "sigmoid")).all()


def test_relu_kink_gets_zero_gradient_like_torch():
    t = torch.zeros(3, requires_grad=True)
    torch.relu(t).sum().backward()
    np.testing.assert_array_equal(activation_derivative(np.zeros(3), "relu"), t.grad.numpy())


def test_softmax_matches_torch_and_survives_large_scores():
    z = np.array([[1.0, 2.0, 3.0], [1000.0, 1000.0, -1000.0]])
    np.testing.assert_allclose(softmax(z), torch.softmax(torch.tensor(z), -1).numpy(), rtol=1e-12)
    np.testing.assert_allclose(softmax(z[0], temperature=2.0), torch.softmax(torch.tensor(z[0]) / 2, -1).numpy())
    np.testing.assert_allclose(softmax(z, axis=0).sum(0), 1.0)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="name"):
        activate([1.0], "swish")
    with pytest.raises(ValueError, match="name"):
        activation_derivative([1.0], "gelu")
    with pytest.raises(TypeError, match="z"):
        activate(["a", "b"], "relu")
    with pytest.raises(ValueError, match="z"):
        activate([1.0, np.nan], "relu")
    with pytest.raises(ValueError, match="z"):
        softmax(np.array([]))
    with pytest.raises(ValueError, match="temperature"):
        softmax([1.0, 2.0], temperature=0.0)
