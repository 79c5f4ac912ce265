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
