"""Argument checks shared by every module.

Each check raises a ``TypeError`` or ``ValueError`` whose message names the
argument and says what was expected, so a learner sees *their* mistake rather
than an error from deep inside numpy or torch.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np


def check_type(name: str, value: Any, expected: type | tuple[type, ...]) -> None:
    """Raise ``TypeError`` unless ``value`` is an instance of ``expected``."""
    if isinstance(value, bool) and bool not in (expected if isinstance(expected, tuple) else (expected,)):
        raise TypeError(f"{name} must be {_type_names(expected)}, got bool {value!r}")
    if not isinstance(value, expected):
        raise TypeError(f"{name} must be {_type_names(expected)}, got {type(value).__name__} {_short(value)}")


def check_int(name: str, value: Any, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """Check that ``value`` is an integer in ``[minimum, maximum]`` and return it as ``int``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {_short(value)}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value}")
    return value


def check_float(
    name: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    min_inclusive: bool = True,
    max_inclusive: bool = True,
) -> float:
    """Check that ``value`` is a finite real number within the given bounds; return it as ``float``."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__} {_short(value)}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value}")
    if minimum is not None and (value < minimum or (not min_inclusive and value == minimum)):
        op = ">=" if min_inclusive else ">"
        raise ValueError(f"{name} must be {op} {minimum}, got {value}")
    if maximum is not None and (value > maximum or (not max_inclusive and value == maximum)):
        op = "<=" if max_inclusive else "<"
        raise ValueError(f"{name} must be {op} {maximum}, got {value}")
    return value


def check_choice(name: str, value: Any, choices: Iterable[Any]) -> Any:
    """Check that ``value`` is one of ``choices`` (e.g. a smoothing or norm name)."""
    choices = list(choices)
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return value


def check_text(name: str, value: Any, *, allow_empty: bool = True) -> str:
    """Check that ``value`` is a ``str`` (optionally non-empty)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__} {_short(value)}")
    if not allow_empty and not value:
        raise ValueError(f"{name} must be a non-empty string")
    return value


def check_nonempty(name: str, value: Sequence[Any] | Iterable[Any]) -> list[Any]:
    """Materialise ``value`` as a list and check it is not empty (e.g. a corpus)."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of items, not a single {type(value).__name__}")
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"{name} must be an iterable, got {type(value).__name__}") from None
    if not items:
        raise ValueError(f"{name} must not be empty")
    return items


def check_array(
    name: str,
    value: Any,
    *,
    ndim: int | tuple[int, ...] | None = None,
    shape: tuple[int | None, ...] | None = None,
    finite: bool = True,
    dtype: Any = float,
) -> np.ndarray:
    """Convert ``value`` to a numpy array and check its dimensions, shape and finiteness.

    ``shape`` may use ``None`` for "any size" in a dimension, e.g. ``(None, 4)``.
    """
    try:
        arr = np.asarray(value, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be array-like of numbers: {exc}") from None
    if ndim is not None:
        allowed = (ndim,) if isinstance(ndim, int) else ndim
        if arr.ndim not in allowed:
            raise ValueError(f"{name} must have {' or '.join(map(str, allowed))} dimensions, got shape {arr.shape}")
    if shape is not None:
        if arr.ndim != len(shape) or any(s is not None and s != a for s, a in zip(shape, arr.shape)):
            want = "(" + ", ".join("any" if s is None else str(s) for s in shape) + ")"
            raise ValueError(f"{name} must have shape {want}, got {arr.shape}")
    if finite and arr.dtype.kind in "fc" and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite numbers (found NaN or inf)")
    return arr


def _type_names(expected: type | tuple[type, ...]) -> str:
    if isinstance(expected, tuple):
        return " or ".join(t.__name__ for t in expected)
    return expected.__name__


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
