"""Calling a student's function for the TF-IDF chapter's checkers: on copies, with two clear verdicts.

:func:`checked_call` wraps :meth:`Checker.call <nlp_helpers.exercises.checker.Checker.call>` and adds
what a class needs from every checker of this chapter: the student's function gets copies of the
inputs (so the checker's reference values are computed on the untouched originals), a function that
returns ``None`` is told it forgot ``return``, and one that modifies its input is told so.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from nlp_helpers.exercises.checker import Checker

__all__ = ["checked_call", "same_value"]


def same_value(a: Any, b: Any) -> bool:
    """True if ``a`` and ``b`` hold the same data (numpy arrays compared element-wise, NaN equal to NaN)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray)
            and isinstance(b, np.ndarray)
            and a.shape == b.shape
            and bool(np.array_equal(a, b, equal_nan=a.dtype.kind == "f"))
        )
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def checked_call(ex: Checker, fn: Callable[..., Any], *args: Any, names: Sequence[str] = (), **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` on deep copies of the arguments; fails ``ex`` on ``None`` or a modified input.

    ``names`` are the parameters' names, used in the message about a modified input.
    """
    if not isinstance(ex, Checker):
        raise TypeError(f"ex must be a Checker, got {type(ex).__name__}")
    given = copy.deepcopy(args)
    got = ex.call(fn, *given, **kwargs)
    if got is None:
        ex.fail("your function returned None: did you forget `return`, or print the result instead of returning it?")
    for i, (original, seen) in enumerate(zip(args, given)):
        if not same_value(original, seen):
            name = names[i] if i < len(names) else f"argument {i + 1}"
            ex.fail(
                f"your function modified its input `{name}`. Work on a copy (or build new lists/arrays) "
                "instead of changing the caller's data in place."
            )
    return got
