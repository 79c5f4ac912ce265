"""Self-checking exercises: the machinery every chapter's checkers share.

A chapter's checkers live in ``nlp_helpers/<slug>/exercises.py`` and look like::

    def check_relative_tf(relative_tf) -> CheckResult:
        with Checker("Relative term frequency") as ex:
            got = ex.call(relative_tf, ["a", "b", "a"])
            ex.expect_close(got["a"], 2 / 3, what='relative_tf(["a","b","a"])["a"]',
                            hint="Divide the count by the number of tokens in the document.")
        return ex.result

A student calls ``check_relative_tf(my_function)`` and sees one friendly line:
``✅ Correct``, ``⏳ Not yet`` (the stub still raises ``NotImplementedError``) or
``❌ Not quite`` with what was wrong and a hint. Exceptions raised by the
student's code are reported, never re-raised.

With the environment variable ``NLP_EXERCISES_STRICT=1`` (set by the test
suite when it runs the instructor notebooks), anything but "correct" raises
``AssertionError`` so CI proves every solution passes its checker.

Every call of the student's function goes through ``ex.call`` (or ``ex.try_call``, ``ex.expect_raises``),
which guards it: the function gets deep copies of the plain-data arguments (so references the checker
computes, before or after, use the original inputs) and a change to one is reported ("your function
modified its input", unless the argument is wrapped in :class:`InPlace`); a ``None`` result is reported as a
forgotten ``return``; each call has a time limit (``Checker(..., time_limit=...)``, ``DEFAULT_TIME_LIMIT``
seconds by default, multiplied by ``$NLP_EXERCISES_TIME_SCALE`` if set) and a slow call gets a verdict naming
its input; a checker may call the student's function at most ``MAX_CALLS`` times; and interrupting the
kernel during a call ends the check with a verdict, not a traceback.

When the book is built (``NLP_BOOK_BUILD=1``, set by ``tools/book_ext.py``) the checkers run on the
hidden solutions, so their verdict says nothing to a reader of the web page: there a checker's output
tells the reader how to answer the exercise themselves instead of showing a success they did not earn.
"""

from __future__ import annotations

import inspect
import os
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from nlp_helpers.exercises.guard import TimeUp, copy_inputs, describe, find_change, run_with_time_limit

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "MAX_CALLS",
    "STRICT_ENV",
    "TIME_SCALE_ENV",
    "CheckResult",
    "Checker",
    "CheckerError",
    "InPlace",
]

STRICT_ENV = "NLP_EXERCISES_STRICT"
BUILD_ENV = "NLP_BOOK_BUILD"
TIME_SCALE_ENV = "NLP_EXERCISES_TIME_SCALE"  # multiplies every time limit (a slow machine: 3; the tests: 0.1)
DEFAULT_TIME_LIMIT = 5.0  # seconds per call of the student's function
MAX_CALLS = 100  # calls of the student's function per checker
ON_THE_PAGE = (
    "✏️ Your turn: open this chapter in Colab, Binder or JupyterLab (the rocket button at the top of the "
    "page), write your answer in the exercise's cell, then run this cell: it checks your answer and gives a hint."
)

CORRECT, NOT_YET, WRONG = "correct", "not yet", "wrong"
_ICONS = {CORRECT: "✅ Correct", NOT_YET: "⏳ Not yet", WRONG: "❌ Not quite"}


@dataclass(frozen=True)
class CheckResult:
    """Outcome of a checker: ``status`` is ``"correct"``, ``"not yet"`` or ``"wrong"``."""

    exercise: str
    status: str
    message: str

    @property
    def passed(self) -> bool:
        return self.status == CORRECT

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        return f"{_ICONS[self.status]} — {self.exercise}: {self.message}"

    # Shown as plain text in notebooks (never HTML: messages may quote student values). On the built
    # web page the verdict on the hidden solution is replaced by what the reader should do.
    def __repr__(self) -> str:
        if os.environ.get(BUILD_ENV) == "1":
            return ON_THE_PAGE
        return str(self)


class _Stop(Exception):
    """Internal: ends the checks early after the first problem."""


class CheckerError(RuntimeError):
    """A bug in a checker (not in the student's answer), e.g. more calls than ``max_calls``: never hidden."""


class InPlace:
    """Marks an argument the student's function may change in place: passed as it is, not copied or compared.

    ``ex.call(kv_step, x, InPlace(cache))`` hands ``cache`` itself to the student; every other plain-data
    argument is a deep copy, and a change to it is reported as a mistake.
    """

    def __init__(self, value: Any) -> None:
        self.value = value


class Checker:
    """Context manager that runs checks on a student's answer and records the first problem.

    ``time_limit`` (seconds, default ``DEFAULT_TIME_LIMIT``) bounds each call of the student's function;
    ``max_calls`` (default ``MAX_CALLS``) bounds how many calls the checker may make, so that a slow answer
    can never keep a notebook busy for long. ``allow_none=True`` is for exercises whose function may
    legitimately return None.
    """

    def __init__(
        self,
        exercise: str,
        *,
        time_limit: float = DEFAULT_TIME_LIMIT,
        max_calls: int = MAX_CALLS,
        allow_none: bool = False,
    ) -> None:
        if not (isinstance(time_limit, (int, float)) and time_limit > 0):
            raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
        if not (isinstance(max_calls, int) and 0 < max_calls <= MAX_CALLS):
            raise ValueError(f"max_calls must be an int in 1..{MAX_CALLS}, got {max_calls!r}")
        self.exercise = exercise
        self.time_limit = float(time_limit)
        self.max_calls = max_calls
        self.allow_none = allow_none
        self.calls = 0  # calls of the student's function so far
        self.result: CheckResult | None = None
        self._answered = False  # the student's function has returned a value

    def __enter__(self) -> Checker:
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is None:
            self._finish(CORRECT, "all checks passed. Well done!")
        elif exc_type is _Stop:
            pass  # result already recorded
        elif self._answered and issubclass(exc_type, Exception) and not issubclass(exc_type, CheckerError):
            # The checker could not use what the student's function returned (a str instead of a list, a
            # tuple of the wrong length, ...). That is a wrong answer, not a crash. A bug in the checker
            # itself still fails CI: strict mode turns this result into an AssertionError.
            self._finish(
                WRONG,
                f"the checker could not use what your function returned ({exc_type.__name__}: "
                f"{exc}). Check that it returns the kind of value the exercise asks for "
                "(a number, a list, an array), and that it does not forget `return`.",
            )
        else:
            # A bug in the checker itself: report it rather than hide it.
            return False
        if os.environ.get(STRICT_ENV) == "1" and self.result is not None and not self.result.passed:
            raise AssertionError(str(self.result))
        return True

    def _finish(self, status: str, message: str) -> None:
        if self.result is None:
            self.result = CheckResult(self.exercise, status, message)

    def fail(self, message: str) -> None:
        """Record a wrong answer with ``message`` (what is wrong, and a hint) and stop."""
        self._finish(WRONG, message)
        raise _Stop

    def call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Call the student's function on copies of the arguments, under the time limit, and return its value.

        ``NotImplementedError`` becomes "not yet"; any other exception, a time-out, a change to an argument
        (see :class:`InPlace`) or a ``None`` result becomes a wrong answer with a message naming the call.
        """
        value, error, call = self._run(fn, args, kwargs)
        if error is not None:
            where = traceback.extract_tb(error.__traceback__)[-1]
            self.fail(f"calling {call} raised {type(error).__name__}: {error} (line {where.lineno}).")
        return self._returned(value, call)

    def _returned(self, value: Any, call: str) -> Any:
        if value is None and not self.allow_none:
            self.fail(
                f"your function returned None (calling {call}): did you forget `return`, or print instead of returning?"
            )
        self._answered = True
        return value

    def try_call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, Exception | None]:
        """Like :meth:`call`, but return ``(value, None)`` or ``(None, exception)`` instead of reporting an
        exception the student's function raised (for checkers that give a specific hint for one exception)."""
        value, error, call = self._run(fn, args, kwargs)
        if error is None:
            value = self._returned(value, call)
        return value, error

    def _run(self, fn: Callable[..., Any], args: tuple, kwargs: dict) -> tuple[Any, Exception | None, str]:
        """Run ``fn`` under the guards: ``(value, None, call)`` or ``(None, exception, call)``; stops the check
        on "not yet", a time-out, an interruption or a changed argument."""
        if not callable(fn):
            self.fail(f"expected a function, got {type(fn).__name__}. Pass the function itself, without calling it.")
        self.calls += 1
        if self.calls > self.max_calls:
            raise CheckerError(
                f"{self.exercise}: the checker calls the student's function more than {self.max_calls} times"
            )
        in_place = {i for i, a in enumerate(args) if isinstance(a, InPlace)}
        in_place_kw = {k for k, v in kwargs.items() if isinstance(v, InPlace)}
        shared = tuple(a.value if i in in_place else a for i, a in enumerate(args))
        kw_shared = {k: v.value if k in in_place_kw else v for k, v in kwargs.items()}
        # The student gets copies of plain data: the checker's own inputs (and references computed from them,
        # before or after this call) stay as they were whatever the student's function does.
        given = tuple(a if i in in_place else copy_inputs((a,))[0] for i, a in enumerate(shared))
        given_kw = {k: v if k in in_place_kw else copy_inputs((v,))[0] for k, v in kw_shared.items()}
        call = f"{getattr(fn, '__name__', 'your function')}{_fmt_args(shared, kw_shared)}"
        limit = self.time_limit * _time_scale()
        try:
            value = run_with_time_limit(fn, given, given_kw, limit)
        except NotImplementedError:
            self._finish(
                NOT_YET, "replace `raise NotImplementedError` with your implementation, then run this cell again."
            )
            raise _Stop from None
        except TimeUp:
            self.fail(
                f"{call} did not return within {limit:.3g} s. It may loop forever (check that every loop ends: a "
                "`while` whose condition never changes, an index that never moves) or do far more work than "
                "this small input needs."
            )
        except KeyboardInterrupt:
            self._finish(
                NOT_YET,
                f"interrupted while {call} was running, so the check did not finish. If your function was "
                "slow on this input, look for a loop that never ends; then run this cell again.",
            )
            raise _Stop from None
        except Exception as exc:  # noqa: BLE001 - we report any student error
            return None, exc, call
        names = _parameter_names(fn, len(args))
        changes = [(names[i], find_change(a, g)) for i, (a, g) in enumerate(zip(shared, given)) if i not in in_place]
        changes += [(k, find_change(kw_shared[k], given_kw[k])) for k in kwargs if k not in in_place_kw]
        for name, change in changes:
            if change:
                self.fail(
                    f"your function modified its input: after {call}, the argument `{name}` is not what it was "
                    f"({change}). Leave the caller's data as it was: work on a copy (`x = np.array(x, dtype=float)`, "
                    "`xs = list(xs)`, `t = t.clone()`) or build a new result."
                )
        return value, None, call

    def expect(self, condition: bool, message: str) -> None:
        """Fail with ``message`` unless ``condition`` holds."""
        if not condition:
            self.fail(message)

    def expect_close(
        self, got: Any, want: Any, *, what: str, hint: str = "", rtol: float = 1e-6, atol: float = 1e-9
    ) -> None:
        """Fail unless ``got`` equals ``want`` numerically (same shape, within ``rtol``/``atol``)."""
        try:
            g = np.asarray(got, dtype=float)
        except (TypeError, ValueError):
            self.fail(f"{what} should be a number or array of numbers, got {type(got).__name__}. {hint}".strip())
        w = np.asarray(want, dtype=float)
        if g.shape != w.shape:
            self.fail(f"{what} should have shape {w.shape}, got {g.shape}. {hint}".strip())
        if not np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=False):
            shown_w, shown_g = _fmt_pair(w, g)
            self.fail(f"{what} should be {shown_w}, got {shown_g}. {hint}".strip())

    def expect_equal(self, got: Any, want: Any, *, what: str, hint: str = "") -> None:
        """Fail unless ``got == want`` (for tokens, lists, strings)."""
        if got != want:
            self.fail(f"{what} should be {want!r}, got {got!r}. {hint}".strip())

    def expect_raises(
        self,
        exc_types: type[BaseException] | tuple[type[BaseException], ...],
        fn: Callable[..., Any],
        *args: Any,
        what: str,
        hint: str = "",
    ) -> None:
        """Fail unless calling ``fn(*args)`` raises one of ``exc_types`` (an edge case students forget)."""
        _, error, call = self._run(fn, args, {})
        if error is None:
            self.fail(f"{what} should raise {_names(exc_types)}, but returned normally. {hint}".strip())
        if not isinstance(error, exc_types):
            self.fail(
                f"{what} should raise {_names(exc_types)}, but raised {type(error).__name__}: {error}. {hint}".strip()
            )


def _names(exc_types: type[BaseException] | tuple[type[BaseException], ...]) -> str:
    types = exc_types if isinstance(exc_types, tuple) else (exc_types,)
    return " or ".join(t.__name__ for t in types)


def _fmt_value(a: np.ndarray, digits: int = 4) -> str:
    if a.ndim == 0:
        return f"{float(a):.{max(6, digits)}g}"
    return np.array2string(a, precision=digits, threshold=12)


def _fmt_pair(want: np.ndarray, got: np.ndarray) -> tuple[str, str]:
    """``want`` and ``got`` written with enough digits to look different (up to 12)."""
    for digits in (4, 8, 12):
        w, g = _fmt_value(want, digits), _fmt_value(got, digits)
        if w != g:
            break
    return w, g


def _fmt_args(args: tuple, kwargs: dict) -> str:
    parts = [describe(a) for a in args] + [f"{k}={describe(v)}" for k, v in kwargs.items()]
    return "(" + ", ".join(parts) + ")"


def _parameter_names(fn: Callable[..., Any], n: int) -> list[str]:
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


def _time_scale() -> float:
    try:
        scale = float(os.environ.get(TIME_SCALE_ENV, "1"))
    except ValueError:
        return 1.0
    return scale if scale > 0 else 1.0
