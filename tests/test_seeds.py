"""The seed offset: every seed of the book shifts by $NLP_SEED_OFFSET, and bad values say what is wrong."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.seeds import manual_seed, rng, seed, seed_offset, torch_generator


def test_without_an_offset_seeds_are_unchanged(monkeypatch):
    monkeypatch.delenv("NLP_SEED_OFFSET", raising=False)
    assert seed_offset() == 0 and seed(0) == 0 and seed(5) == 5
    assert rng(3).integers(1 << 30) == np.random.default_rng(3).integers(1 << 30)


def test_the_offset_shifts_every_kind_of_generator(monkeypatch):
    monkeypatch.setenv("NLP_SEED_OFFSET", "7")
    assert seed_offset() == 7 and seed(2) == 9
    assert rng(2).integers(1 << 30) == np.random.default_rng(9).integers(1 << 30)
    manual_seed(1)
    a = torch.rand(3)
    torch.manual_seed(8)
    assert torch.equal(a, torch.rand(3))
    assert torch.equal(
        torch.rand(2, generator=torch_generator(0)), torch.rand(2, generator=torch.Generator().manual_seed(7))
    )
    assert manual_seed(0) is None  # nothing for a notebook cell to print


@pytest.mark.parametrize("raw", ["-1", "two", "1.5"])
def test_a_bad_offset_names_the_variable(monkeypatch, raw):
    monkeypatch.setenv("NLP_SEED_OFFSET", raw)
    with pytest.raises(ValueError, match="NLP_SEED_OFFSET"):
        seed(0)


def test_a_bad_seed_names_the_argument(monkeypatch):
    monkeypatch.delenv("NLP_SEED_OFFSET", raising=False)
    with pytest.raises(ValueError, match="n must be >= 0"):
        seed(-1)
    with pytest.raises(TypeError, match="n must be an integer"):
        rng(1.0)
