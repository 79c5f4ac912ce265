"""The paired bootstrap test: is system A really better than system B on this test set?

Follows Berg-Kirkpatrick, Burkett & Klein (2012) as told in Jurafsky & Martin (SLP3, ch. 4).
With ``delta(x) = M(A, x) - M(B, x)`` the observed difference of a metric (accuracy by default)
on the test set ``x``, draw ``n_samples`` bootstrap test sets ``x_i`` (``|x|`` items drawn with
replacement from ``x``, the same items for both systems: the test is *paired*) and count

    p = |{i : delta(x_i) >= 2 delta(x)}| / n_samples.

The bootstrap distribution of ``delta(x_i)`` is centred on ``delta(x)``, not on 0 as the null
hypothesis ``delta <= 0`` would have it; shifting it by ``delta(x)`` gives the threshold
``2 delta(x)``. A small ``p`` (say below 0.01) rejects the null hypothesis that A is not better.

Left out: approximate randomization (a chapter exercise), corrections for multiple comparisons.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from nlp_helpers._checks import check_int, check_nonempty
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["bootstrap_deltas", "paired_bootstrap"]

_CHUNK = 500  # bootstrap samples drawn at once: (500, n) indices keep memory small


def _check_rng(rng: Any) -> np.random.Generator:
    if rng is None:
        return seeded_rng(0)
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return seeded_rng(int(rng))
    raise TypeError(f"rng must be None, an int seed or a numpy Generator, got {type(rng).__name__}")


def _check_inputs(gold: Any, pred_a: Any, pred_b: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    arrays = []
    for name, value in (("gold", gold), ("pred_a", pred_a), ("pred_b", pred_b)):
        if isinstance(value, (str, bytes)):
            raise TypeError(f"{name} must be a sequence of labels, not a single {type(value).__name__}")
        arr = np.asarray(check_nonempty(name, value))
        if arr.ndim != 1:
            raise ValueError(f"{name} must be a 1-d sequence of labels, got shape {arr.shape}")
        arrays.append(arr)
    if not len(arrays[0]) == len(arrays[1]) == len(arrays[2]):
        raise ValueError(
            f"gold, pred_a and pred_b must have the same length, got "
            f"{len(arrays[0])}, {len(arrays[1])} and {len(arrays[2])}"
        )
    return arrays[0], arrays[1], arrays[2]


def bootstrap_deltas(
    gold: Sequence[Any],
    pred_a: Sequence[Any],
    pred_b: Sequence[Any],
    n_samples: int = 10000,
    rng: Any = None,
    metric: Callable[[np.ndarray, np.ndarray], float] | None = None,
) -> tuple[float, np.ndarray]:
    """The observed ``delta(x)`` and the ``delta(x_i)`` of ``n_samples`` paired bootstrap samples (shape (B,)).

    ``metric(gold, pred) -> float`` defaults to accuracy. ``rng`` is ``None`` (seed 0 of
    ``nlp_helpers.seeds``), an int seed, or a ``numpy.random.Generator``. Sample ``i`` uses the
    indices ``rng.integers(0, n, size=n)``, the ``i``-th such draw from ``rng``.
    """
    gold, pred_a, pred_b = _check_inputs(gold, pred_a, pred_b)
    n_samples = check_int("n_samples", n_samples, minimum=1)
    generator = _check_rng(rng)
    if metric is not None and not callable(metric):
        raise TypeError(f"metric must be a function metric(gold, pred) -> float, got {type(metric).__name__}")
    if metric is None:
        return _accuracy_deltas(gold, pred_a, pred_b, n_samples, generator)
    return _metric_deltas(gold, pred_a, pred_b, n_samples, generator, metric)


def _accuracy_deltas(
    gold: np.ndarray, a: np.ndarray, b: np.ndarray, n_samples: int, rng: np.random.Generator
) -> tuple[float, np.ndarray]:
    diff = (a == gold).astype(float) - (b == gold).astype(float)  # (n,) per-item difference in correctness
    n, deltas = len(gold), []
    for start in range(0, n_samples, _CHUNK):
        idx = rng.integers(0, n, size=(min(_CHUNK, n_samples - start), n))  # (chunk, n)
        deltas.append(diff[idx].mean(axis=1))
    return float(diff.mean()), np.concatenate(deltas)


def _metric_deltas(
    gold: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    n_samples: int,
    rng: np.random.Generator,
    metric: Callable[[np.ndarray, np.ndarray], float],
) -> tuple[float, np.ndarray]:
    observed = float(metric(gold, a)) - float(metric(gold, b))
    deltas = np.empty(n_samples)
    for i in range(n_samples):
        idx = rng.integers(0, len(gold), size=len(gold))
        deltas[i] = float(metric(gold[idx], a[idx])) - float(metric(gold[idx], b[idx]))
    return observed, deltas


def paired_bootstrap(
    gold: Sequence[Any],
    pred_a: Sequence[Any],
    pred_b: Sequence[Any],
    n_samples: int = 10000,
    rng: Any = None,
    metric: Callable[[np.ndarray, np.ndarray], float] | None = None,
) -> float:
    """p-value of "A is better than B": the share of bootstrap samples with ``delta(x_i) >= 2 delta(x)``.

    Same arguments as :func:`bootstrap_deltas`. When A is not better on ``x`` (``delta(x) <= 0``) the
    p-value is large (about 0.5 or more), as it should be.
    """
    observed, deltas = bootstrap_deltas(gold, pred_a, pred_b, n_samples, rng, metric)
    # A tiny tolerance so that float noise in the means cannot decide a tie at exactly 2 delta(x).
    return float(np.mean(deltas >= 2 * observed - 1e-12))
