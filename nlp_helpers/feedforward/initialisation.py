"""Weight initialisation, and how signals and gradients travel through a deep stack of layers.

Three schemes for a weight matrix of shape ``(fan_out, fan_in)``:

* ``"small"``: N(0, 0.01^2), the "small random weights" of older practice;
* ``"glorot"``: U(-a, a) with a = sqrt(6 / (fan_in + fan_out)) (Glorot & Bengio 2010), which keeps
  the variance of activations and of gradients roughly constant across layers for tanh/sigmoid;
* ``"he"``: N(0, 2 / fan_in) (He et al. 2015), which does the same for ReLU (half the units are 0).

:func:`depth_profile` builds a deep stack of ``Linear`` + activation layers in torch, pushes a random
batch through it, back-propagates a loss and reports per layer the standard deviation of the
activations and the norm of the weight gradient: the measurement behind "sigmoid gradients vanish".
Left out: orthogonal and LSUV initialisation, biases other than zero.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import torch

from nlp_helpers._checks import check_choice, check_int, check_type
from nlp_helpers.feedforward.activations import ACTIVATIONS
from nlp_helpers.seeds import torch_generator

__all__ = ["INITS", "depth_profile", "init_weight"]

INITS = ("small", "glorot", "he")


def _init(fan_out: int, fan_in: int, init: str, gen: np.random.Generator) -> np.ndarray:
    if init == "small":
        return gen.normal(0.0, 0.01, size=(fan_out, fan_in))
    if init == "glorot":
        a = np.sqrt(6.0 / (fan_in + fan_out))
        return gen.uniform(-a, a, size=(fan_out, fan_in))
    return gen.normal(0.0, np.sqrt(2.0 / fan_in), size=(fan_out, fan_in))  # he


def init_weight(fan_out: int, fan_in: int, init: str = "glorot", gen: np.random.Generator | None = None) -> np.ndarray:
    """A ``(fan_out, fan_in)`` float64 weight matrix drawn by the scheme ``init`` (see module docstring)."""
    fan_out = check_int("fan_out", fan_out, minimum=1)
    fan_in = check_int("fan_in", fan_in, minimum=1)
    check_choice("init", init, INITS)
    if gen is None:
        gen = np.random.default_rng()
    check_type("gen", gen, np.random.Generator)
    return _init(fan_out, fan_in, init, gen)


_TORCH_ACT = {
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
    "relu": torch.relu,
    "leaky_relu": torch.nn.functional.leaky_relu,
    "elu": torch.nn.functional.elu,
    "selu": torch.selu,
}


def _profile(depth, width, activation, init, seed, batch):
    gen = torch_generator(seed)
    np_gen = np.random.default_rng(int(torch.randint(2**31, (1,), generator=gen)))
    x = torch.randn(batch, width, generator=gen, dtype=torch.float64)
    weights = [torch.tensor(_init(width, width, init, np_gen), requires_grad=True) for _ in range(depth)]
    act, stds = _TORCH_ACT[activation], []
    for W in weights:
        x = act(x @ W.T)
        stds.append(x.std().item())
    # A loss that asks every output unit to move: the gradient reaching layer 1 shows what survives.
    x.pow(2).mean().backward()
    norms = [W.grad.norm().item() for W in weights]
    return pd.DataFrame({"layer": np.arange(1, depth + 1), "activation_std": stds, "weight_grad_norm": norms})


def depth_profile(
    depth: int = 10, width: int = 64, activation: str = "sigmoid", init: str = "glorot", seed: int = 0, batch: int = 256
) -> pd.DataFrame:
    """Per layer of a ``depth``-layer stack (``width`` units, no biases): activation std and weight-gradient norm.

    Returns a DataFrame with columns ``layer`` (1 = nearest the input), ``activation_std`` and
    ``weight_grad_norm`` (Frobenius norm of dL/dW for L = mean of the squared last activations).
    """
    depth = check_int("depth", depth, minimum=1)
    width = check_int("width", width, minimum=1)
    check_choice("activation", activation, ACTIVATIONS)
    check_choice("init", init, INITS)
    seed = check_int("seed", seed, minimum=0)
    batch = check_int("batch", batch, minimum=2)
    return _profile(depth, width, activation, init, seed, batch)
