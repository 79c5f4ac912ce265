"""Every random seed of the book goes through here, so a whole chapter can be re-run on other draws.

A chapter or test never calls ``np.random.default_rng(0)`` or ``torch.manual_seed(0)`` directly;
it asks for ``rng(0)`` or ``manual_seed(0)``. These add the integer in the environment variable
``NLP_SEED_OFFSET`` (default 0) to the seed. Running a notebook with ``NLP_SEED_OFFSET=7`` then
repeats every experiment on fresh random draws, which is how the book checks that what its prose
says about a trained or sampled result holds on other seeds, not just on the one it was written with
(``make robust`` runs every chapter under several offsets).

Fixed *data definitions* (the train/validation/test split of a corpus) deliberately do not use the
offset: every chapter must evaluate on the same held-out text.
"""

from __future__ import annotations

import os

import numpy as np

from nlp_helpers._checks import check_int

__all__ = ["seed_offset", "seed", "rng", "manual_seed", "torch_generator"]

OFFSET_VARIABLE = "NLP_SEED_OFFSET"


def seed_offset() -> int:
    """The non-negative integer in ``$NLP_SEED_OFFSET`` (0 when unset or empty)."""
    raw = os.environ.get(OFFSET_VARIABLE, "").strip()
    if not raw:
        return 0
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{OFFSET_VARIABLE} must be a non-negative integer, got {raw!r}") from None
    if value < 0:
        raise ValueError(f"{OFFSET_VARIABLE} must be a non-negative integer, got {raw!r}")
    return value


def seed(n: int) -> int:
    """The seed to use for the experiment a chapter numbers ``n``: ``n + $NLP_SEED_OFFSET``.

    >>> seed(3)  # with NLP_SEED_OFFSET unset
    3
    """
    return check_int("n", n, minimum=0) + seed_offset()


def rng(n: int) -> np.random.Generator:
    """A numpy ``Generator`` seeded with ``seed(n)``."""
    return np.random.default_rng(seed(n))


def manual_seed(n: int) -> None:
    """Seed torch's global generator (weight initialisation, dropout) with ``seed(n)``.

    Returns ``None`` (unlike ``torch.manual_seed``), so a notebook cell that ends with it prints nothing.
    """
    import torch

    torch.manual_seed(seed(n))


def torch_generator(n: int):
    """A fresh ``torch.Generator`` seeded with ``seed(n)`` (for shuffling and sampling)."""
    import torch

    return torch.Generator().manual_seed(seed(n))
