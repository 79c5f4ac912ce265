"""Layer norm, batch norm and dropout against torch."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.feedforward.normalisation import batch_norm, dropout, layer_norm

X = np.random.default_rng(0).normal(2.0, 3.0, size=(6, 5))


def test_layer_norm_matches_torch_with_gain_and_bias():
    g, b = np.linspace(0.5, 2, 5), np.linspace(-1, 1, 5)
    want = torch.nn.functional.layer_norm(torch.tensor(X), (5,), torch.tensor(g), torch.tensor(b), eps=1e-5)
    np.testing.assert_allclose(layer_norm(X, g, b), want.numpy(), rtol=1e-10)
    np.testing.assert_allclose(layer_norm(X).mean(1), 0, atol=1e-12)


def test_layer_norm_float32_relative_1e4():
    x32 = X.astype(np.float32)
    want = torch.nn.functional.layer_norm(torch.from_numpy(x32), (5,)).numpy()
    got = layer_norm(x32)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_batch_norm_matches_batchnorm1d_in_training_mode():
    bn = torch.nn.BatchNorm1d(5, dtype=torch.float64).train()
    with torch.no_grad():
        bn.weight.copy_(torch.arange(1.0, 6.0))
        bn.bias.fill_(0.5)
    np.testing.assert_allclose(
        batch_norm(X, np.arange(1.0, 6.0), np.full(5, 0.5)), bn(torch.tensor(X)).detach().numpy(), rtol=1e-10
    )


def test_dropout_mask_expectation_and_eval_mode():
    x = np.ones((400, 250))
    out = dropout(x, 0.25, np.random.default_rng(1))
    # 100,000 Bernoulli draws: sd of the zero share is 0.0014, we allow 0.01
    assert abs((out == 0).mean() - 0.25) < 0.01 and abs(out.mean() - 1.0) < 0.02
    np.testing.assert_allclose(np.unique(out), [0.0, 1 / 0.75])
    t = torch.nn.Dropout(0.25).train()(torch.ones(400, 250))
    assert abs(float((t == 0).float().mean()) - (out == 0).mean()) < 0.02  # same law as torch's
    np.testing.assert_array_equal(dropout(x, 0.25, np.random.default_rng(1), training=False), x)
    np.testing.assert_array_equal(dropout(x, 0.25, np.random.default_rng(1)), out)  # deterministic given gen


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="x"):
        layer_norm(np.ones(3))
    with pytest.raises(ValueError, match="gain"):
        layer_norm(X, np.ones(4))
    with pytest.raises(ValueError, match="eps"):
        layer_norm(X, eps=0.0)
    with pytest.raises(ValueError, match="x"):
        batch_norm(np.ones((1, 3)))
    with pytest.raises(ValueError, match="p"):
        dropout(X, 1.0, np.random.default_rng(0))
    with pytest.raises(TypeError, match="gen"):
        dropout(X, 0.5, 0)
    with pytest.raises(TypeError, match="x"):
        dropout(["a"], 0.5, np.random.default_rng(0))
