"""Scoring predicted distributions: ``char_log_distributions`` and ``prediction_quality``.

References: brute-force scoring with full contexts and ``torch.log_softmax``; ``F.cross_entropy``
(bits per character); ``scipy.stats.entropy`` (entropy in bits); a hand-worked expected
calibration error; and targets drawn from the predictions themselves (calibrated by construction).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from scipy.stats import entropy

from nlp_helpers.llm.bpc import char_log_distributions, char_logprobs
from nlp_helpers.llm.recipe import prediction_quality
from tests.tiny_models import sharp_tiny_gpt


@pytest.fixture(scope="module")
def model():
    return sharp_tiny_gpt()


@pytest.fixture(scope="module")
def ids():
    return torch.randint(0, 13, (41,), generator=torch.Generator().manual_seed(1))


@pytest.mark.parametrize("stride", [1, 3, 8])
def test_distributions_hold_char_logprobs_and_are_normalised(model, ids, stride):
    dist = char_log_distributions(model, ids, stride=stride, batch_size=3)
    assert dist.shape == (len(ids) - 1, 13) and dist.dtype == np.float64
    np.testing.assert_array_equal(dist[np.arange(len(ids) - 1), ids[1:].numpy()], char_logprobs(model, ids, stride))
    np.testing.assert_allclose(np.exp(dist).sum(axis=1), 1.0, rtol=1e-12)


def test_stride_one_distributions_equal_full_context_log_softmax(model, ids):
    T = model.block_size
    with torch.no_grad():
        want = np.stack(
            [torch.log_softmax(model(ids[max(0, t - T) : t][None])[0, -1].double(), -1).numpy() for t in range(1, 41)]
        )
    np.testing.assert_allclose(char_log_distributions(model, ids, stride=1), want, rtol=1e-5, atol=1e-6)


def test_distributions_leave_the_training_mode_as_it_was(model, ids):
    model.train()
    char_log_distributions(model, ids)
    assert model.training
    model.eval()


def test_bpc_and_entropy_equal_torch_and_scipy():
    logits = torch.randn(50, 7, generator=torch.Generator().manual_seed(3), dtype=torch.float64) * 3
    y = torch.randint(0, 7, (50,), generator=torch.Generator().manual_seed(4))
    logp = F.log_softmax(logits, -1).numpy()
    got = prediction_quality(logp, y.numpy())
    assert got["bpc"] == pytest.approx(F.cross_entropy(logits, y).item() / math.log(2), rel=1e-12)
    assert got["entropy"] == pytest.approx(entropy(np.exp(logp), base=2, axis=1).mean(), rel=1e-12)


def test_hand_worked_accuracy_confidence_and_calibration_error():
    # top-1 probabilities 0.9 (right), 0.75 (wrong), 0.55 (right), 0.7 (right); 5 bins of width 0.2:
    # (0.8, 1]: acc 1, conf 0.9; (0.6, 0.8]: acc 1/2, conf 0.725; (0.4, 0.6]: acc 1, conf 0.55
    # ECE = (1 * 0.1 + 2 * 0.225 + 1 * 0.45) / 4 = 0.25
    p = np.array([[0.9, 0.1], [0.75, 0.25], [0.45, 0.55], [0.3, 0.7]])
    got = prediction_quality(np.log(p), np.array([0, 1, 1, 1]), n_bins=5)
    assert got["accuracy"] == pytest.approx(0.75)
    assert got["confidence"] == pytest.approx(0.725)
    assert got["ece"] == pytest.approx(0.25, abs=1e-12)
    # one bin: |accuracy - confidence|
    assert prediction_quality(np.log(p), np.array([0, 1, 1, 1]), n_bins=1)["ece"] == pytest.approx(0.025)


def test_calibrated_by_construction_and_over_confident_predictions():
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(100_000, 5)) * 2
    logp = logits - np.logaddexp.reduce(logits, axis=1, keepdims=True)
    p = np.exp(logp)
    y = (rng.random((len(p), 1)) > p.cumsum(axis=1)).sum(axis=1)  # drawn from each row's distribution
    calibrated = prediction_quality(logp, y)
    assert calibrated["ece"] < 0.01  # sampling noise of 100,000 draws: about 0.003
    assert calibrated["accuracy"] == pytest.approx(calibrated["confidence"], abs=0.01)
    sharp = 2 * logits  # the same ranking, sharper: over-confident
    sharp_logp = sharp - np.logaddexp.reduce(sharp, axis=1, keepdims=True)
    over = prediction_quality(sharp_logp, y)
    assert over["accuracy"] == calibrated["accuracy"]
    assert over["confidence"] - over["accuracy"] > 0.05 and over["ece"] > 0.05
    assert over["entropy"] < calibrated["entropy"] and over["bpc"] > calibrated["bpc"]


def test_zero_probabilities_give_finite_entropy():
    with np.errstate(divide="ignore"):
        logp = np.log(np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0]]))
    got = prediction_quality(logp, np.array([0, 1]))
    assert got["entropy"] == pytest.approx(0.5) and got["bpc"] == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("logp", "y", "kw", "match"),
    [
        (np.zeros((0, 3)), np.zeros(0, int), {}, "log_probs must be a non-empty float array"),
        (np.log(np.full(3, 1 / 3)), np.zeros(3, int), {}, r"shape \(N, V\)"),
        (np.zeros((2, 3), int), np.zeros(2, int), {}, "log_probs must be a non-empty float array"),
        (np.full((2, 3), np.nan), np.zeros(2, int), {}, "got nan or \\+inf"),
        (np.zeros((2, 3)), np.zeros(2, int), {}, "log_probs must be normalised"),
        (np.log(np.full((2, 3), 1 / 3)), np.zeros(3, int), {}, r"targets must be an integer array of shape \(2,\)"),
        (np.log(np.full((2, 3), 1 / 3)), np.zeros(2), {}, "targets must be an integer array"),
        (np.log(np.full((2, 3), 1 / 3)), np.array([0, 3]), {}, r"targets must be token ids in \[0, 3\)"),
        (np.log(np.full((2, 3), 1 / 3)), np.array([0, 1]), {"n_bins": 0}, "n_bins must be >= 1"),
    ],
)
def test_prediction_quality_bad_input_names_the_argument(logp, y, kw, match):
    with pytest.raises(ValueError, match=match):
        prediction_quality(logp, y, **kw)


def test_char_log_distributions_bad_input(model):
    with pytest.raises(TypeError, match="model must be"):
        char_log_distributions("gpt", torch.tensor([1, 2]))
    with pytest.raises(ValueError, match="ids must hold at least 2 tokens"):
        char_log_distributions(model, torch.tensor([1]))
    with pytest.raises(ValueError, match=r"stride must be <= 8"):
        char_log_distributions(model, torch.tensor([1, 2, 3]), stride=9)
