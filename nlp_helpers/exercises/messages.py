"""The words of the checkers' verdicts: calls, values, time-outs and recursion, written for a student.

Shared by :mod:`nlp_helpers.exercises.checker` (and usable by a chapter's checker that words its own verdict).
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from nlp_helpers.exercises.guard import TimeUp, describe

__all__ = [
    "TIME_SCALE_ENV",
    "exception_names",
    "format_args",
    "format_pair",
    "format_value",
    "parameter_names",
    "recursion_message",
    "time_scale",
    "time_up_message",
]

TIME_SCALE_ENV = "NLP_EXERCISES_TIME_SCALE"  # multiplies every limit (a slow machine: 3; the tests: 0.02)


def recursion_message(call: str, line: int) -> str:
    """The verdict on a call that raised ``RecursionError`` (at ``line`` of the student's code)."""
    return (
        f"calling {call} raised RecursionError (line {line}): your function called itself more than Python "
        f"allows (about {sys.getrecursionlimit()} calls deep). Either the recursion never reaches its base case, "
        "or it goes one level deeper per element of a long input: fill a table in a loop instead (from the "
        "start of the input to its end), or make sure every call shrinks the problem."
    )


def time_up_message(call: str, up: TimeUp, limit: float, ref: float, ref_name: str) -> str:
    """The verdict on a call stopped by a limit: the CPU time it used, the limit and the reference's time
    (``ref`` CPU seconds of ``ref_name`` on this machine), or how long it waited without computing."""
    if up.reason == "idle":
        return (
            f"{call} did not return: it waited {up.wall:.3g} s without computing (a `time.sleep`, an `input()`, "
            "a lock or a queue that never gets an item). The function should compute its answer, not wait for one."
        )
    used = f"it used {up.cpu:.3g} s of CPU time" + (f" in {up.wall:.3g} s" if up.reason == "wall" else "")
    base = f"{ref_name} takes {ref:.2g} s on this machine" if ref >= 0.005 else "a correct answer needs far less"
    return (
        f"{call} did not return within {limit:.3g} s of CPU time ({used}; {base}). It may loop forever (check "
        "that every loop ends: a `while` whose condition never changes, an index that never moves) or do far "
        "more work than this input needs (the same sub-result computed again and again, every combination "
        "tried)."
    )


def exception_names(exc_types: type[BaseException] | tuple[type[BaseException], ...]) -> str:
    """``"ValueError or KeyError"``: the names of one exception type or a tuple of them."""
    types = exc_types if isinstance(exc_types, tuple) else (exc_types,)
    return " or ".join(t.__name__ for t in types)


def format_value(a: np.ndarray, digits: int = 4) -> str:
    """A number or an array written with ``digits`` significant digits (at least 6 for a number)."""
    if a.ndim == 0:
        return f"{float(a):.{max(6, digits)}g}"
    return np.array2string(a, precision=digits, threshold=12)


def format_pair(want: np.ndarray, got: np.ndarray) -> tuple[str, str]:
    """``want`` and ``got`` written with enough digits to look different (up to 12)."""
    for digits in (4, 8, 12):
        w, g = format_value(want, digits), format_value(got, digits)
        if w != g:
            break
    return w, g


def format_args(args: tuple, kwargs: dict) -> str:
    """``(1, [2, 3], k=array(shape=(50, 128), float64))``: a call's arguments, each in a few dozen characters."""
    parts = [describe(a) for a in args] + [f"{k}={describe(v)}" for k, v in kwargs.items()]
    return "(" + ", ".join(parts) + ")"


def parameter_names(fn: Callable[..., Any], n: int) -> list[str]:
    """The names of the first ``n`` positional parameters of ``fn`` (``argument 1``, ... where unknown)."""
    try:
        params = [
            p.name
            for p in inspect.signature(fn).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
    except (TypeError, ValueError):
        params = []
    return [params[i] if i < len(params) else f"argument {i + 1}" for i in range(n)]


def time_scale() -> float:
    """``$NLP_EXERCISES_TIME_SCALE`` as a positive number (1 when unset or unusable): multiplies every limit."""
    try:
        scale = float(os.environ.get(TIME_SCALE_ENV, "1"))
    except ValueError:
        return 1.0
    return scale if scale > 0 else 1.0
