"""Timing shared by the benchmarks: the best of a few runs, the usual way to time on a busy machine."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_of(fn: Callable[[], Any], repeats: int = 3) -> tuple[Any, float]:
    """Run ``fn()`` ``repeats`` times; return its last result and the fastest wall time in seconds."""
    if repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {repeats}")
    best, out = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return out, best


def timed(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, float]:
    """``fn(*args, **kwargs)`` once: its result and its wall time in seconds."""
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start


def agreement(a: list, b: list) -> float:
    """Fraction of positions where two lists agree (over the longer length; 1.0 for two empty lists)."""
    n = max(len(a), len(b))
    return 1.0 if n == 0 else sum(x == y for x, y in zip(a, b)) / n
