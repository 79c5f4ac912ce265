"""Checkers for the exercises of the page "Classifying sequences with RNNs" (``book/rnn/classify.ipynb``).

* :func:`check_masked_pool`: mean or max pooling of a padded batch of RNN states, each sequence pooled over
  its own length only, compared with :func:`masked_pool_reference` (which equals the pooling of the package's
  ``SequenceClassifier`` in the chapter's tests).

The checker also computes the answers of typical mistakes, so that a wrong answer gets a hint naming its mistake.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["check_masked_pool", "masked_pool_reference"]

_HOWS = ("mean", "max")


def masked_pool_reference(states: np.ndarray, lengths: Sequence[int], how: str) -> np.ndarray:
    """``(B, H)``: the mean or max over time of ``states[b, :lengths[b]]`` for each sequence ``b``.

    ``states`` is a padded batch ``(B, T, H)``; ``lengths`` holds ``B`` integers in ``[1, T]``; ``how`` is
    ``"mean"`` or ``"max"``. ValueError names the argument at fault.
    """
    states = np.asarray(states, dtype=float)
    if states.ndim != 3:
        raise ValueError(f"states must be a (B, T, H) array, got shape {states.shape}")
    if how not in _HOWS:
        raise ValueError(f"how must be 'mean' or 'max', got {how!r}")
    B, T, _ = states.shape
    lengths = [int(n) for n in lengths]
    if len(lengths) != B or any(not 1 <= n <= T for n in lengths):
        raise ValueError(f"lengths must be {B} integers in [1, {T}], got {lengths}")
    return _pool(states, lengths, how)


def _pool(states: np.ndarray, lengths: list[int], how: str, *, shift: int = 0, over_all: bool = False) -> np.ndarray:
    """The pooling itself; ``shift`` and ``over_all`` make the typical mistakes the checker recognises."""
    rows = []
    for b, n in enumerate(lengths):
        kept = states[b] if over_all else states[b, : max(n + shift, 1)]
        rows.append(kept.mean(axis=0) if how == "mean" else kept.max(axis=0))
    return np.stack(rows)


def _batch(seed: int, lengths: list[int], T: int, H: int) -> np.ndarray:
    """A padded batch as a packed RNN leaves it: real states in (-1, 1), zeros after each length.

    The first feature is negative at every real step, so that a maximum taken over the padding shows."""
    g = seeded_rng(seed)
    states = np.tanh(g.normal(size=(len(lengths), T, H)))
    states[:, :, 0] = -np.abs(states[:, :, 0]) - 0.05
    for b, n in enumerate(lengths):
        states[b, n:] = 0.0
    return states


def check_masked_pool(masked_pool: Callable) -> CheckResult:
    """``masked_pool(states, lengths, how)`` -> ``(B, H)``: mean or max of each sequence's first ``lengths[b]``
    states; ValueError for an unknown ``how`` and for a length outside ``[1, T]``."""
    cases = [([3, 5, 1], 5, 4), ([2, 2], 4, 3), ([6, 6], 6, 2)]  # the last one has no padding at all
    mistakes = {
        "over_all": "you pooled over all T positions, the padding included: only the first lengths[b] states "
        "of sequence b are real.",
        "short": "you left out each sequence's last real state: positions 0 to lengths[b] - 1 are all real.",
        "long": "you included one padded position after each sequence: stop at position lengths[b] - 1.",
    }
    with Checker("Masked pooling over a padded batch", reference=masked_pool_reference) as ex:
        for seed, (lengths, T, H) in enumerate(cases):
            states = _batch(40 + seed, lengths, T, H)
            for how in _HOWS:
                what = f"masked_pool(states of shape {states.shape}, lengths={lengths}, how={how!r})"
                got = ex.call(masked_pool, states, lengths, how)
                want = masked_pool_reference(states, lengths, how)
                arr = np.asarray(got, dtype=float)
                if arr.shape == want.shape and not np.allclose(arr, want, rtol=1e-6, atol=1e-9):
                    variants = {
                        "over_all": _pool(states, lengths, how, over_all=True),
                        "short": _pool(states, lengths, how, shift=-1),
                        "long": _pool(states, lengths, how, shift=1),
                    }
                    for key, wrong in variants.items():
                        if np.allclose(arr, wrong, rtol=1e-6, atol=1e-9):
                            ex.fail(f"{what}: {mistakes[key]}")
                ex.expect(
                    arr.shape == want.shape,
                    f"{what} should return one vector per sequence, shape {want.shape} (B, H), got {arr.shape}: "
                    "pool over the time axis (axis 1) only.",
                )
                ex.expect_close(
                    got,
                    want,
                    what=what,
                    hint="For each sequence b, take the states at positions 0 to lengths[b] - 1 and pool them "
                    f"with the {how} of each feature.",
                )
        states = _batch(45, [2, 3], 3, 2)
        ex.expect_raises(
            ValueError,
            masked_pool,
            states,
            [2, 3],
            "sum",
            what="masked_pool(..., how='sum')",
            hint="how must be 'mean' or 'max': raise ValueError naming `how` for anything else.",
            mentions="how",
        )
        for bad in ([0, 3], [2, 4]):
            ex.expect_raises(
                ValueError,
                masked_pool,
                states,
                bad,
                "mean",
                what=f"masked_pool(states of shape {states.shape}, lengths={bad}, 'mean')",
                hint="A sequence has at least one real state and at most T: raise ValueError naming `lengths` "
                "for a length outside [1, T], at either end.",
                mentions="lengths",
            )
    return ex.result
