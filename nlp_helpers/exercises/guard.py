"""Guards around a student's function: a time limit, copies of the inputs, and short descriptions of values.

* :func:`run_with_time_limit` calls a function and raises :class:`TimeUp` if it has not returned after a
  number of seconds. In the main thread of Linux or macOS (where a Jupyter kernel runs checkers) it uses
  ``SIGALRM``; elsewhere (Windows, another thread, or while another interval timer is running, e.g.
  ``pytest-timeout``) a watchdog thread raises :class:`TimeUp` in the calling thread. Either way the previous
  signal handler is restored. Neither can stop a single long call into C code (``time.sleep`` is stopped by
  the signal, not by the watchdog); pure-Python loops are stopped within milliseconds.
* :func:`copy_inputs` deep-copies plain data (numbers, strings, lists, tuples, dicts, sets, numpy arrays,
  torch tensors) and passes any other object (a model, a random generator, a callable) as it is.
* :func:`find_change` compares a copy handed to the student with the original afterwards.
* :func:`describe` writes a value in a few dozen characters, for messages.
"""

from __future__ import annotations

import copy
import ctypes
import signal
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["TimeUp", "copy_inputs", "describe", "find_change", "is_plain_data", "run_with_time_limit"]


class TimeUp(BaseException):  # noqa: N818 - read as "the time is up"; BaseException so `except Exception` in
    """Raised inside the student's function when its time limit has passed."""  # student code cannot swallow it


def run_with_time_limit(fn: Callable[..., Any], args: tuple, kwargs: dict, seconds: float | None) -> Any:
    """Return ``fn(*args, **kwargs)``, raising :class:`TimeUp` if it runs longer than ``seconds`` (None: no limit)."""
    if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0):
        raise ValueError(f"seconds must be a positive number or None, got {seconds!r}")
    if seconds is None:
        return fn(*args, **kwargs)
    if _alarm_usable():
        return _run_with_alarm(fn, args, kwargs, float(seconds))
    return _run_with_watchdog(fn, args, kwargs, float(seconds))


def _alarm_usable() -> bool:
    return (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getitimer(signal.ITIMER_REAL)[0] == 0.0  # nobody else's timer is running
    )


def _run_with_alarm(fn: Callable[..., Any], args: tuple, kwargs: dict, seconds: float) -> Any:
    state = {"active": True}

    def on_alarm(signum, frame):  # noqa: ARG001 - the signal module's signature
        if state["active"]:
            raise TimeUp

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return fn(*args, **kwargs)
    finally:
        state["active"] = False
        signal.setitimer(signal.ITIMER_REAL, 0.0)
        signal.signal(signal.SIGALRM, previous)


def _run_with_watchdog(fn: Callable[..., Any], args: tuple, kwargs: dict, seconds: float) -> Any:
    target, lock, state = threading.get_ident(), threading.Lock(), {"done": False}

    def interrupt() -> None:
        with lock:
            if not state["done"]:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), ctypes.py_object(TimeUp))

    timer = threading.Timer(seconds, interrupt)
    timer.daemon = True
    timer.start()
    try:
        return fn(*args, **kwargs)
    finally:
        with lock:
            state["done"] = True
        timer.cancel()


# ---------------------------------------------------------------------------------------- copies of inputs
_ATOMS = (type(None), bool, int, float, complex, str, bytes, np.generic)


def _is_tensor(x: Any) -> bool:
    return type(x).__module__.startswith("torch") and type(x).__name__ in {"Tensor", "Parameter"}


def is_plain_data(x: Any, _depth: int = 0) -> bool:
    """True for numbers, strings, numpy arrays, torch tensors and lists/tuples/dicts/sets of them."""
    if _depth > 20:
        return False
    if isinstance(x, _ATOMS) or isinstance(x, np.ndarray) or _is_tensor(x):
        return True
    if isinstance(x, (list, tuple, set, frozenset)):
        return all(is_plain_data(v, _depth + 1) for v in x)
    if isinstance(x, dict):
        return all(is_plain_data(k, _depth + 1) and is_plain_data(v, _depth + 1) for k, v in x.items())
    return False


def copy_inputs(values: tuple) -> tuple:
    """Deep copies of the plain-data values (see :func:`is_plain_data`); other objects are passed as they are.

    A value that cannot be deep-copied (a torch tensor inside an autograd graph) is passed as it is too.
    """
    return tuple(_copy(v) if is_plain_data(v) else v for v in values)


def _copy(value: Any) -> Any:
    try:
        return copy.deepcopy(value)
    except (RuntimeError, TypeError):
        return value


def find_change(before: Any, after: Any) -> str | None:
    """How ``after`` (a copy of ``before`` handed to the student) differs from ``before``, or None if it does not."""
    if before is after:
        return None
    if isinstance(before, np.ndarray):
        if not isinstance(after, np.ndarray) or after.shape != before.shape or after.dtype != before.dtype:
            return "its shape or dtype changed"
        same = np.array_equal(before, after, equal_nan=before.dtype.kind in "fc")
        return None if same else "its values changed"
    if _is_tensor(before):
        import torch

        same = after.shape == before.shape and after.dtype == before.dtype
        return None if same and torch.equal(torch.nan_to_num(before), torch.nan_to_num(after)) else "its values changed"
    if isinstance(before, (list, tuple)):
        if len(after) != len(before):
            return f"its length changed from {len(before)} to {len(after)}"
        for i, (b, a) in enumerate(zip(before, after)):
            change = find_change(b, a)
            if change:
                return f"its item {i} changed ({change})"
        return None
    if isinstance(before, dict):
        if set(before) != set(after):
            return "its keys changed"
        for k in before:
            change = find_change(before[k], after[k])
            if change:
                return f"its entry {k!r} changed ({change})"
        return None
    if isinstance(before, (set, frozenset)):
        return None if before == after else "its elements changed"
    if isinstance(before, float) and before != before:
        return None  # NaN
    return None if before == after else "its value changed"


# ---------------------------------------------------------------------------------------- descriptions
def describe(x: Any, width: int = 40) -> str:
    """``repr(x)`` if it is short, else a summary such as ``array(shape=(50, 128), float64)`` or ``list of 12``."""
    if isinstance(x, np.ndarray):
        text = "np.array(" + np.array2string(x, precision=4, separator=", ", threshold=12) + ")"
        return text if len(text) <= width else f"array(shape={x.shape}, {x.dtype})"
    if _is_tensor(x):
        return f"tensor(shape={tuple(x.shape)}, {str(x.dtype).replace('torch.', '')})"
    try:
        text = repr(x)
    except Exception:  # noqa: BLE001 - a student's object with a broken __repr__
        text = f"<{type(x).__name__}>"
    if len(text) <= width:
        return text
    if isinstance(x, (list, tuple, dict, set, str)):
        return f"{type(x).__name__} of length {len(x)}"
    return f"<{type(x).__name__}>"
