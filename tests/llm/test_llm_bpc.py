"""Bits per character of TinyGPT by sliding windows, against brute-force scoring and a uniform model."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from nlp_helpers.llm.bpc import bits_per_character, char_logprobs, seed_study
from nlp_helpers.llm.gpt import TinyGPT, TinyGPTConfig
from tests.tiny_models import sharp_tiny_gpt


@pytest.fixture(scope="module")
def model():
    return sharp_tiny_gpt()


@pytest.fixture(scope="module")
def ids():
    return torch.randint(0, 13, (53,), generator=torch.Generator().manual_seed(1))


def brute_force(model, ids, stride):
    """Each character t scored from the first window [s, s + T] holding it as a target: context ids[s:t]."""
    T, n_pred = model.block_size, len(ids) - 1
    starts = list(range(0, n_pred - T + 1, stride))
    if starts[-1] + T < n_pred:
        starts.append(n_pred - T)
    out = []
    with torch.no_grad():
        for t in range(1, len(ids)):
            s = next(s for s in starts if s + 1 <= t <= s + T)
            logp = torch.log_softmax(model(ids[s:t][None])[0, -1].double(), -1)
            out.append(logp[ids[t]].item())
    return np.array(out)


@pytest.mark.parametrize("stride", [1, 3, 4, 8])
def test_sliding_windows_equal_scoring_every_character_on_its_own(model, ids, stride):
    got = char_logprobs(model, ids, stride=stride, batch_size=5)
    assert got.shape == (len(ids) - 1,)
    np.testing.assert_allclose(got, brute_force(model, ids, stride), rtol=1e-5)  # float32 logits


def test_stride_one_gives_every_character_the_full_context(model, ids):
    T = model.block_size
    with torch.no_grad():
        want = [
            torch.log_softmax(model(ids[max(0, t - T) : t][None])[0, -1].double(), -1)[ids[t]].item()
            for t in range(1, len(ids))
        ]
    np.testing.assert_allclose(char_logprobs(model, ids, stride=1), want, rtol=1e-5)


def test_non_overlapping_windows_equal_torch_cross_entropy(model, ids):
    T = model.block_size
    x = ids[: 6 * T].view(6, T)
    y = ids[1 : 6 * T + 1].view(6, T)
    with torch.no_grad():
        want = torch.nn.functional.cross_entropy(model(x).reshape(-1, 13), y.reshape(-1)).item()
    got = -char_logprobs(model, ids[: 6 * T + 1], stride=T).mean()
    assert got == pytest.approx(want, rel=1e-5)


def test_a_uniform_model_needs_log2_V_bits_and_short_texts_work():
    m = TinyGPT(TinyGPTConfig(vocab_size=13, block_size=8, n_layers=1, n_heads=1, d_model=4))
    with torch.no_grad():
        for p in m.parameters():
            p.zero_()  # all logits 0: P = 1/13 for every character
    ids = torch.tensor([1, 2, 3, 4, 5])  # shorter than block_size: one window
    assert bits_per_character(m, ids) == pytest.approx(math.log2(13), rel=1e-12)


def test_bad_inputs_name_the_argument(model, ids):
    with pytest.raises(TypeError, match="model"):
        char_logprobs(torch.nn.Linear(2, 2), ids)
    with pytest.raises(TypeError, match="ids"):
        char_logprobs(model, ids.numpy())
    with pytest.raises(TypeError, match="ids"):
        char_logprobs(model, ids.float())
    with pytest.raises(ValueError, match="ids"):
        char_logprobs(model, ids[:1])
    with pytest.raises(ValueError, match="stride"):
        char_logprobs(model, ids, stride=0)
    with pytest.raises(ValueError, match="stride"):
        char_logprobs(model, ids, stride=9)
    with pytest.raises(ValueError, match="batch_size"):
        bits_per_character(model, ids, batch_size=0)
    with pytest.raises(ValueError, match="ids"):
        char_logprobs(model, torch.tensor([1, 2, 99]))  # outside the vocabulary: caught by the model


def test_seed_study_has_five_seeds_of_each_neural_model_on_each_kernel_path():
    study = seed_study()
    assert {"model", "seed", "bpc", "kernel"} <= set(study.columns)
    for kernel, rows in study.groupby("kernel"):
        for name in ("TinyGPT", "LSTM"):
            assert rows[rows.model == name].seed.nunique() >= 5, (kernel, name)
    assert np.isfinite(study.bpc).all() and (study.bpc > 0).all()
