"""The numpy two-layer network: hand-written backward vs torch autograd, forward vs torch.nn, XOR."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.feedforward.activations import ACTIVATIONS
from nlp_helpers.feedforward.initialisation import INITS, depth_profile, init_weight
from nlp_helpers.feedforward.mlp import (
    PARAM_NAMES,
    cross_entropy,
    init_mlp,
    mlp_backward,
    mlp_forward,
    sgd_step,
    train_mlp,
)
from nlp_helpers.feedforward.xor import (
    XOR_WEIGHTS,
    XOR_X,
    XOR_Y,
    best_linear_fit,
    xor_network,
)

TORCH_ACT = {
    "sigmoid": torch.nn.Sigmoid(),
    "tanh": torch.nn.Tanh(),
    "relu": torch.nn.ReLU(),
    "leaky_relu": torch.nn.LeakyReLU(),
    "elu": torch.nn.ELU(),
    "selu": torch.nn.SELU(),
}


def _torch_net(params, activation, dtype=torch.float64):
    H, n = params["W"].shape
    K = params["U"].shape[0]
    net = torch.nn.Sequential(torch.nn.Linear(n, H), TORCH_ACT[activation], torch.nn.Linear(H, K)).to(dtype)
    with torch.no_grad():
        net[0].weight.copy_(torch.tensor(params["W"]))
        net[0].bias.copy_(torch.tensor(params["b"]))
        net[2].weight.copy_(torch.tensor(params["U"]))
        net[2].bias.copy_(torch.tensor(params["c"]))
    return net


def _random_case(seed, activation, dtype=np.float64):
    gen = np.random.default_rng(seed)
    params = init_mlp(5, 7, 4, init="he", seed=seed, dtype=dtype)
    params["b"] = gen.normal(size=7).astype(dtype)  # non-zero biases exercise db and dc
    params["c"] = gen.normal(size=4).astype(dtype)
    X = gen.normal(size=(9, 5)).astype(dtype)
    y = gen.integers(0, 4, size=9)
    return params, X, y


@pytest.mark.parametrize("activation", ACTIVATIONS)
def test_hand_backward_equals_torch_autograd_float64(activation):
    params, X, y = _random_case(3, activation)
    probs, cache = mlp_forward(params, X, activation)
    grads = mlp_backward(params, cache, probs, y)
    net = _torch_net(params, activation)
    logits = net(torch.tensor(X))
    loss = torch.nn.functional.cross_entropy(logits, torch.tensor(y))
    loss.backward()
    np.testing.assert_allclose(probs, torch.softmax(logits, -1).detach().numpy(), rtol=1e-12)
    assert cross_entropy(probs, y) == pytest.approx(loss.item(), rel=1e-12)
    ref = {"W": net[0].weight.grad, "b": net[0].bias.grad, "U": net[2].weight.grad, "c": net[2].bias.grad}
    for k in PARAM_NAMES:
        np.testing.assert_allclose(grads[k], ref[k].numpy(), rtol=1e-9, atol=1e-12)


def test_hand_backward_equals_autograd_float32_relative_1e4():
    params, X, y = _random_case(5, "tanh", dtype=np.float32)
    probs, cache = mlp_forward(params, X, "tanh")
    assert probs.dtype == np.float32
    grads = mlp_backward(params, cache, probs, y)
    net = _torch_net(params, "tanh", torch.float32)
    torch.nn.functional.cross_entropy(net(torch.tensor(X)), torch.tensor(y)).backward()
    ref = {"W": net[0].weight.grad, "b": net[0].bias.grad, "U": net[2].weight.grad, "c": net[2].bias.grad}
    for k in PARAM_NAMES:
        np.testing.assert_allclose(grads[k], ref[k].numpy(), rtol=1e-4, atol=1e-6)


def test_sgd_step_and_training_match_torch_sgd():
    params, X, y = _random_case(1, "relu")
    net = _torch_net(params, "relu")
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    p = params
    for _ in range(5):
        probs, cache = mlp_forward(p, X, "relu")
        p = sgd_step(p, mlp_backward(p, cache, probs, y), 0.1)
        opt.zero_grad()
        torch.nn.functional.cross_entropy(net(torch.tensor(X)), torch.tensor(y)).backward()
        opt.step()
    np.testing.assert_allclose(p["W"], net[0].weight.detach().numpy(), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(p["c"], net[2].bias.detach().numpy(), rtol=1e-9, atol=1e-12)


@pytest.mark.trains
def test_train_mlp_learns_xor_on_every_seed():
    # measured: final loss 0.004..0.02 on seeds 0-9; we ask for < 0.1
    for seed in range(5):
        params, losses = train_mlp(XOR_X, XOR_Y, 8, activation="tanh", lr=1.0, epochs=600, seed=seed)
        probs, _ = mlp_forward(params, XOR_X, "tanh")
        assert (probs.argmax(1) == XOR_Y).all() and losses[-1] < 0.1 and losses[-1] < losses[0]


def test_xor_hand_set_network_and_best_linear_fit():
    h, out = xor_network(XOR_X)
    np.testing.assert_array_equal(out, XOR_Y)  # Goodfellow et al. (2016) sec. 6.1
    np.testing.assert_array_equal(h, [[0, 0], [1, 0], [1, 0], [2, 1]])
    w, b, pred = best_linear_fit(XOR_X, XOR_Y)
    np.testing.assert_allclose(pred, 0.5)
    np.testing.assert_allclose(w, 0, atol=1e-12)
    assert b == pytest.approx(0.5)
    # AND is linear: least squares recovers w = (1/2, 1/2), b = -1/4
    w_and, b_and, _ = best_linear_fit(XOR_X, [0, 0, 0, 1])
    np.testing.assert_allclose(w_and, [0.5, 0.5])
    assert b_and == pytest.approx(-0.25)
    assert XOR_WEIGHTS["U"].tolist() == [1.0, -2.0]


@pytest.mark.parametrize("init", INITS)
def test_init_weight_scales(init):
    W = init_weight(400, 300, init, np.random.default_rng(0))
    want = {"small": 0.01, "glorot": np.sqrt(2 / 700), "he": np.sqrt(2 / 300)}[init]
    assert W.shape == (400, 300) and W.std() == pytest.approx(want, rel=0.02)


def test_depth_profile_shows_vanishing_sigmoid_gradients():
    # measured over seeds 0-9: sigmoid layer1/layer10 gradient ratio < 1e-4; relu+he > 0.3
    for seed in range(3):
        sig = depth_profile(10, 64, "sigmoid", "glorot", seed=seed).weight_grad_norm
        relu = depth_profile(10, 64, "relu", "he", seed=seed).weight_grad_norm
        assert sig.iloc[0] / sig.iloc[-1] < 1e-3 and relu.iloc[0] / relu.iloc[-1] > 0.1
    small = depth_profile(10, 64, "tanh", "small", seed=0)
    assert list(small.columns) == ["layer", "activation_std", "weight_grad_norm"]
    assert small.activation_std.iloc[-1] < 1e-6


def test_bad_input_names_the_argument():
    params, X, y = _random_case(0, "relu")
    with pytest.raises(ValueError, match="X"):
        mlp_forward(params, X[:, :3])
    with pytest.raises(ValueError, match="activation"):
        mlp_forward(params, X, "swish")
    with pytest.raises(ValueError, match="params"):
        mlp_forward({"W": params["W"]}, X)
    with pytest.raises(ValueError, match="params"):
        mlp_forward({**params, "b": np.zeros(3)}, X)
    probs, cache = mlp_forward(params, X)
    with pytest.raises(ValueError, match="y"):
        mlp_backward(params, cache, probs, y[:-1])
    with pytest.raises(ValueError, match="y"):
        cross_entropy(probs, np.full(len(y), 9))
    with pytest.raises(TypeError, match="y"):
        cross_entropy(probs, y.astype(float))
    with pytest.raises(ValueError, match="cache"):
        mlp_backward(params, {}, probs, y)
    with pytest.raises(ValueError, match="lr"):
        sgd_step(params, params, lr=-1.0)
    with pytest.raises(ValueError, match="n_hidden"):
        init_mlp(2, 0, 2)
    with pytest.raises(ValueError, match="init"):
        init_weight(2, 2, "xavier")
    with pytest.raises(ValueError, match="depth"):
        depth_profile(0)
    with pytest.raises(ValueError, match="X"):
        best_linear_fit(np.ones((3, 2)), np.ones(4))
    with pytest.raises(ValueError, match="weights"):
        xor_network(XOR_X, {"W": np.eye(2)})
    with pytest.raises(ValueError, match="epochs"):
        train_mlp(XOR_X, XOR_Y, 4, epochs=0)


def test_train_mlp_checks_labels_before_using_them():
    with pytest.raises(TypeError, match="y"):
        train_mlp(XOR_X, np.array(["a", "b", "a", "b"]), 4)
    with pytest.raises(ValueError, match="y"):
        train_mlp(XOR_X, XOR_Y[:3], 4)
