"""Guards around a student's function: a limit on the CPU time it uses, copies of the inputs, descriptions.

* :func:`run_limited` calls a function and raises :class:`TimeUp` once it has used more than a number of
  seconds of **CPU time** (the process's, ``time.process_time``): the limit measures the work the answer does,
  not the machine's load, so a correct answer on a busy or slow laptop is not stopped for waiting its turn
  on the CPU. A call that does not compute (``time.sleep``, ``input()``, a lock that is never released) is
  stopped too: on Linux when its thread has been asleep, with the process using no CPU, for ``idle_limit``
  seconds; everywhere by a generous wall-clock backstop (``wall_limit``). A watchdog thread measures; in the
  main thread of Linux or macOS (where a Jupyter kernel runs checkers) it stops the call with a signal sent
  to that thread (so a ``time.sleep`` ends too), elsewhere (Windows, another thread, or while the signal is
  someone else's) by raising :class:`TimeUp` asynchronously in the calling thread. Either way the previous
  signal handler is restored. A single long call into C code that holds the GIL cannot be stopped before
  it returns; pure-Python loops are stopped within a few milliseconds of the limit. ``KeyboardInterrupt``
  (Ctrl-C, the kernel's stop button) passes through unchanged.
* :func:`run_with_time_limit` is the same with only a CPU limit, for callers that need no usage figures.
* :func:`switched_off` replaces, for the length of a call, helpers an exercise asks the student to build (the
  page's ``dropout``, ``np.tanh`` where the answer must use only a sigmoid) by a stub that raises
  :class:`HelperSwitchedOff`, wherever the answer could reach them: its globals and the helper's module.
* :func:`copy_inputs` deep-copies plain data (numbers, strings, lists, tuples, dicts, sets, numpy arrays,
  torch tensors) and passes any other object (a model, a random generator, a callable) as it is.
* :func:`find_change` compares a copy handed to the student with the original afterwards.
* :func:`describe` writes a value in a few dozen characters, for messages.
"""

from __future__ import annotations

import contextlib
import copy
import ctypes
import inspect
import signal
import sys
import threading
import time
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "HelperSwitchedOff",
    "TimeUp",
    "Usage",
    "copy_inputs",
    "describe",
    "find_change",
    "is_plain_data",
    "run_limited",
    "run_with_time_limit",
    "switched_off",
]

WALL_FACTOR = 20.0  # the wall-clock backstop: this many times the CPU limit (a machine 20x busier still passes)
WALL_FLOOR = 30.0  # ... and at least this many seconds
_SIGNAL = getattr(signal, "SIGVTALRM", None)  # sent by the watchdog to the main thread (nobody else uses it)


class TimeUp(BaseException):  # noqa: N818 - read as "the time is up"; BaseException so `except Exception` in
    """Raised inside the student's function when a limit has passed (student code cannot swallow it easily).

    ``cpu`` and ``wall`` are the seconds used when it was stopped; ``reason`` is ``"cpu"`` (the CPU limit),
    ``"idle"`` (asleep or waiting without computing) or ``"wall"`` (the wall-clock backstop).
    """

    def __init__(self, cpu: float = 0.0, wall: float = 0.0, reason: str = "cpu") -> None:
        super().__init__(f"stopped after {cpu:.3g} s of CPU time ({wall:.3g} s of wall-clock time): {reason}")
        self.cpu, self.wall, self.reason = cpu, wall, reason


@dataclass(frozen=True)
class Usage:
    """What a call used: CPU seconds (the process's) and wall-clock seconds."""

    cpu: float
    wall: float


def run_with_time_limit(fn: Callable[..., Any], args: tuple, kwargs: dict, seconds: float | None) -> Any:
    """Return ``fn(*args, **kwargs)``, raising :class:`TimeUp` once it has used ``seconds`` of CPU time (None:
    no limit)."""
    if seconds is None:
        return fn(*args, **kwargs)
    return run_limited(fn, args, kwargs, seconds)[0]


def run_limited(
    fn: Callable[..., Any],
    args: tuple,
    kwargs: dict,
    cpu_limit: float,
    *,
    wall_limit: float | None = None,
    idle_limit: float | None = None,
    stop: type[BaseException] = TimeUp,
) -> tuple[Any, Usage]:
    """``(fn(*args, **kwargs), usage)``; :class:`TimeUp` once the call has used ``cpu_limit`` CPU seconds, has
    waited ``idle_limit`` seconds without computing (default: ``cpu_limit``, at least 2 s) or has run
    ``wall_limit`` wall-clock seconds (default: ``WALL_FACTOR`` x ``cpu_limit``, at least ``WALL_FLOOR``).
    ``stop`` is the exception raised (called as ``stop(cpu, wall, reason)``), e.g. a grader's own, so that
    a checker's handling of :class:`TimeUp` cannot catch it."""
    for name, value in (("seconds", cpu_limit), ("wall_limit", wall_limit), ("idle_limit", idle_limit)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0):
            raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
    limits = _Limits(
        cpu=float(cpu_limit),
        wall=float(wall_limit) if wall_limit is not None else max(WALL_FACTOR * cpu_limit, WALL_FLOOR),
        idle=float(idle_limit) if idle_limit is not None else max(float(cpu_limit), 2.0),
    )
    watch = _Watch(limits, stop)
    use_signal = _signal_usable()
    previous = signal.signal(_SIGNAL, watch.on_signal) if use_signal else None
    watch.start(use_signal)
    try:
        try:
            value = fn(*args, **kwargs)
        finally:
            watch.finished = True  # one store: a signal arriving after it is ignored
            usage = watch.stop()
    except stop as exc:  # the asynchronous path raises the class: give it the figures
        raise (watch.stopped or exc) from None
    finally:
        if use_signal:
            signal.signal(_SIGNAL, previous)
    return value, usage


@dataclass(frozen=True)
class _Limits:
    cpu: float
    wall: float
    idle: float


def _signal_usable() -> bool:
    return (
        _SIGNAL is not None
        and hasattr(signal, "pthread_kill")
        and threading.current_thread() is threading.main_thread()
        and signal.getsignal(_SIGNAL) in (signal.SIG_DFL, signal.SIG_IGN, None)
        and signal.getitimer(signal.ITIMER_VIRTUAL)[0] == 0.0  # nobody else's virtual timer is running
    )


def _thread_state(native_id: int | None) -> str | None:
    """The scheduler's state of a thread of this process (Linux: R running/runnable, S/D asleep), or None."""
    if native_id is None:
        return None
    try:
        with open(f"/proc/self/task/{native_id}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    return chr(stat[stat.rfind(b")") + 2])


class _Watch:
    """The watchdog thread: measures the call's CPU and wall-clock time and stops it at a limit."""

    def __init__(self, limits: _Limits, stop: type[BaseException]) -> None:
        self.limits, self.stop_type = limits, stop
        self.target = threading.get_ident()
        self.native_id = getattr(threading.current_thread(), "native_id", None)
        self.lock, self.done = threading.Lock(), threading.Event()
        self.stopped: BaseException | None = None
        self.finished = False  # set by the calling thread as soon as the call is over
        self.cpu0 = self.wall0 = 0.0

    def start(self, use_signal: bool) -> None:
        self.use_signal = use_signal
        self.thread = threading.Thread(target=self._run, name="nlp-exercise-watchdog", daemon=True)
        self.cpu0, self.wall0 = time.process_time(), time.monotonic()
        self.thread.start()

    def stop(self) -> Usage:
        usage = Usage(time.process_time() - self.cpu0, time.monotonic() - self.wall0)
        with self.lock:
            self.done.set()
            if not self.use_signal and self.stopped is not None:  # withdraw an exception not yet delivered
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.target), None)
        self.thread.join()
        return usage

    def on_signal(self, signum, frame) -> None:  # noqa: ARG002 - the signal module's signature
        if self.stopped is not None and not self.finished:
            raise self.stopped

    def _run(self) -> None:
        lim, idle, last_cpu, last_wall = self.limits, 0.0, 0.0, 0.0
        poll = min(0.02, lim.cpu / 10)
        fired_at = None
        while not self.done.wait(poll):
            cpu, wall = time.process_time() - self.cpu0, time.monotonic() - self.wall0
            d_cpu, d_wall = cpu - last_cpu, wall - last_wall
            last_cpu, last_wall = cpu, wall
            if d_cpu < 0.05 * d_wall and _thread_state(self.native_id) in ("S", "D"):
                idle += d_wall  # asleep or waiting, and nothing of this process computes for it
            reason = "cpu" if cpu > lim.cpu else "idle" if idle > lim.idle else "wall" if wall > lim.wall else None
            if reason and (fired_at is None or wall - fired_at > 1.0):  # again every second if swallowed
                fired_at = wall
                self._fire(self.stop_type(cpu, wall, reason))
            poll = min(0.05, lim.cpu / 10, poll * 1.5)

    def _fire(self, error: BaseException) -> None:
        with self.lock:
            if self.done.is_set() or self.finished:
                return
            self.stopped = error
            if self.use_signal:
                signal.pthread_kill(self.target, _SIGNAL)
            else:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(
                    ctypes.c_ulong(self.target), ctypes.py_object(self.stop_type)
                )


# ---------------------------------------------------------------------------------------- helpers switched off
class HelperSwitchedOff(Exception):  # noqa: N818 - read as "this helper is switched off"
    """Raised by a helper the exercise asks the student to build, when the answer calls it."""


def _stub(name: str, calls: list[str]) -> Callable[..., Any]:
    def switched_off_helper(*args: Any, **kwargs: Any) -> Any:  # noqa: ARG001 - any call is refused
        calls.append(name)
        raise HelperSwitchedOff(
            f"`{name}` is switched off while the checker runs your function: this exercise asks you to build "
            "it yourself."
        )

    return switched_off_helper


def _globals_of(fn: Any) -> list[dict]:
    """The global namespaces the answer's code runs in (through ``functools.wraps`` wrappers)."""
    found, seen = [], set()
    for f in (fn, inspect.unwrap(fn) if callable(fn) else fn):
        f = getattr(f, "__func__", f)
        g = getattr(f, "__globals__", None)
        if isinstance(g, dict) and id(g) not in seen:
            seen.add(id(g))
            found.append(g)
    return found


@contextlib.contextmanager
def switched_off(fn: Any, helpers: dict[str, Any]) -> Any:
    """Within the block, each helper of ``helpers`` (``{"dropout": dropout}``, matched by identity) is a stub
    raising :class:`HelperSwitchedOff` in ``fn``'s globals (under any name) and in the module that defines it;
    yields the list of the helpers' names the answer called. Everything is restored afterwards."""
    calls: list[str] = []
    restore: list[tuple[Any, str, Any]] = []
    by_id = {id(obj): (name, _stub(name, calls)) for name, obj in helpers.items()}
    try:
        for g in _globals_of(fn):
            for key, value in list(g.items()):
                if id(value) in by_id:
                    restore.append((g, key, value))
                    g[key] = by_id[id(value)][1]
        for name, obj in helpers.items():
            owner: Any = sys.modules.get(getattr(obj, "__module__", None) or "")
            attr = getattr(obj, "__name__", name)
            if vars(owner).get(attr) is not obj if owner is not None else True:
                *path, attr = getattr(obj, "__qualname__", attr).split(".")
                for part in path:  # a method: the class that defines it
                    owner = getattr(owner, part, None)
            if owner is not None and vars(owner).get(attr) is obj:
                restore.append((owner, attr, obj))
                _set(owner, attr, by_id[id(obj)][1])
        yield calls
    finally:
        for where, key, value in reversed(restore):
            if isinstance(where, dict):
                where[key] = value
            else:
                _set(where, key, value)


def _set(owner: Any, attr: str, value: Any) -> None:
    if isinstance(owner, types.ModuleType):
        types.ModuleType.__setattr__(owner, attr, value)  # also a module the grader made read-only
    else:
        setattr(owner, attr, value)


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
