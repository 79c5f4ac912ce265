"""Frequency and presence penalties against a hand-worked example (OpenAI's documented formula)."""

from __future__ import annotations

import numpy as np
import pytest

from nlp_helpers.sampling.penalties import apply_frequency_presence_penalty


def test_hand_worked():
    logits = [1.0, -2.0, 0.5, 3.0]
    prev = [3, 3, 1]  # token 3 twice, token 1 once
    got = apply_frequency_presence_penalty(logits, prev, frequency_penalty=0.5, presence_penalty=0.25)
    # token 1: -2 - 0.5 - 0.25; token 3: 3 - 2 * 0.5 - 0.25; others unchanged
    np.testing.assert_allclose(got, [1.0, -2.75, 0.5, 1.75], rtol=1e-12)


def test_nothing_seen_changes_nothing_and_input_is_not_modified():
    logits = np.array([0.1, 0.2])
    out = apply_frequency_presence_penalty(logits, [], 1.0, 1.0)
    np.testing.assert_array_equal(out, logits)
    out[0] = 5
    assert logits[0] == 0.1


def test_bad_inputs():
    with pytest.raises(ValueError, match="previous_ids"):
        apply_frequency_presence_penalty([0.0, 1.0], [2], 0.1)
    with pytest.raises(ValueError, match="previous_ids"):
        apply_frequency_presence_penalty([0.0, 1.0], [0.5], 0.1)
    with pytest.raises(TypeError, match="frequency_penalty"):
        apply_frequency_presence_penalty([0.0, 1.0], [0], "a")
    with pytest.raises(ValueError, match="presence_penalty"):
        apply_frequency_presence_penalty([0.0, 1.0], [0], 0.0, float("nan"))
    with pytest.raises(ValueError, match="logits"):
        apply_frequency_presence_penalty([[0.0, 1.0]], [0], 0.1)
