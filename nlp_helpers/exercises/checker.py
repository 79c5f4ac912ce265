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
forgotten ``return``; each call has a limit on the **CPU time** it uses, so that a slow or busy machine
passes a correct answer and a loop is still stopped quickly: the limit is ``time_limit`` seconds (a floor,
``DEFAULT_TIME_LIMIT`` by default) plus ``REFERENCE_FACTOR`` times the CPU time of the checker's reference on
the same machine (the worked solution given as ``Checker(..., reference=fn)``, timed on the same inputs at
first use, or a reference computation timed by ``ex.reference(...)``), all multiplied by
``$NLP_EXERCISES_TIME_SCALE`` if set; a call that sleeps or waits is stopped too (see
:func:`nlp_helpers.exercises.guard.run_limited`), and a slow call gets a verdict naming its input, the time it
used and the reference's time. A ``RecursionError`` gets its own verdict; a checker may call the student's
function at most ``MAX_CALLS`` times; and interrupting the kernel during a call ends the check with a
verdict, not a traceback.

When the book is built (``NLP_BOOK_BUILD=1``, set by ``tools/book_ext.py``) the checkers run on the
hidden solutions, so their verdict says nothing to a reader of the web page: there a checker's output
tells the reader how to answer the exercise themselves instead of showing a success they did not earn.
"""

from __future__ import annotations

import os
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from nlp_helpers.exercises.guard import TimeUp, copy_inputs, find_change, run_limited, switched_off
from nlp_helpers.exercises.messages import (
    TIME_SCALE_ENV,
    exception_names,
    format_args,
    format_pair,
    parameter_names,
    recursion_message,
    time_scale,
    time_up_message,
)

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "MAX_CALLS",
    "REFERENCE_FACTOR",
    "STRICT_ENV",
    "TIME_SCALE_ENV",
    "CheckResult",
    "Checker",
    "CheckerError",
    "InPlace",
]

STRICT_ENV = "NLP_EXERCISES_STRICT"
BUILD_ENV = "NLP_BOOK_BUILD"
DEFAULT_TIME_LIMIT = 5.0  # CPU seconds per call of the student's function, on top of REFERENCE_FACTOR x the reference
REFERENCE_FACTOR = 20.0  # a call may use this many times the CPU time of the checker's reference on this machine
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


# CPU seconds of the references on this machine, measured at first use in this process: the slowest
# reference computation of each exercise (ex.reference) and each call of a worked solution (reference=fn).
_REFERENCE_CPU: dict[str, float] = {}
_CALL_REFERENCE_CPU: dict[tuple[str, str], float] = {}


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

    Each call of the student's function may use ``time_limit`` CPU seconds (default ``DEFAULT_TIME_LIMIT``)
    plus ``REFERENCE_FACTOR`` times the CPU time of the reference on this machine: ``reference`` (a function
    with the student's signature, e.g. the chapter's helper the exercise rebuilds), timed on the same inputs
    the first time each call is made in this process, else the slowest computation timed with
    :meth:`reference`. ``max_calls`` (default ``MAX_CALLS``) bounds how many calls the checker may make, so that
    a slow answer can never keep a notebook busy for long. ``allow_none=True`` is for exercises whose function
    may legitimately return None. ``forbidden`` (``{"dropout": dropout}``) names helpers the exercise asks the
    student to build: while the answer runs they raise an error, and calling one is a wrong answer whose
    verdict says so (``forbidden_hint`` adds what to use instead).
    """

    def __init__(
        self,
        exercise: str,
        *,
        time_limit: float = DEFAULT_TIME_LIMIT,
        max_calls: int = MAX_CALLS,
        allow_none: bool = False,
        reference: Callable[..., Any] | None = None,
        forbidden: dict[str, Any] | None = None,
        forbidden_hint: str = "",
    ) -> None:
        if not (isinstance(time_limit, (int, float)) and time_limit > 0):
            raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
        if not (isinstance(max_calls, int) and 0 < max_calls <= MAX_CALLS):
            raise ValueError(f"max_calls must be an int in 1..{MAX_CALLS}, got {max_calls!r}")
        self.exercise = exercise
        self.time_limit = float(time_limit)
        self.max_calls = max_calls
        self.allow_none = allow_none
        self._reference_fn = reference
        self.forbidden = dict(forbidden or {})
        self.forbidden_hint = forbidden_hint
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

    def reference(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Return ``fn(*args, **kwargs)``, a reference computation of the checker, and time it (CPU seconds):
        the student's later calls may use ``REFERENCE_FACTOR`` times the slowest such time on this machine."""
        start = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            used = time.process_time() - start
            _REFERENCE_CPU[self.exercise] = max(_REFERENCE_CPU.get(self.exercise, 0.0), used)

    def _reference_cpu(self, call: str, args: tuple, kwargs: dict) -> tuple[float, str]:
        """CPU seconds of the reference for this call on this machine, and what the reference is."""
        if self._reference_fn is None:
            return _REFERENCE_CPU.get(self.exercise, 0.0), "the checker's own computation"
        key = (self.exercise, call)
        if key not in _CALL_REFERENCE_CPU:
            copies, kw_copies = copy_inputs(args), dict(zip(kwargs, copy_inputs(tuple(kwargs.values()))))
            start = time.process_time()
            try:
                self._reference_fn(*copies, **kw_copies)
            except Exception:  # noqa: BLE001, S110 - an edge case the reference rejects, timed all the same
                pass
            _CALL_REFERENCE_CPU[key] = time.process_time() - start
        return _CALL_REFERENCE_CPU[key], "the worked solution"

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
        call = f"{getattr(fn, '__name__', 'your function')}{format_args(shared, kw_shared)}"
        ref, ref_name = self._reference_cpu(call, shared, kw_shared)
        limit = (self.time_limit + REFERENCE_FACTOR * ref) * time_scale()
        used: list[str] = []
        try:
            with switched_off(fn, self.forbidden) as used:
                value, _ = run_limited(fn, given, given_kw, limit)
        except NotImplementedError:
            self._finish(
                NOT_YET, "replace `raise NotImplementedError` with your implementation, then run this cell again."
            )
            raise _Stop from None
        except TimeUp as up:
            self.fail(time_up_message(call, up, limit, ref, ref_name))
        except KeyboardInterrupt:
            self._finish(
                NOT_YET,
                f"interrupted while {call} was running, so the check did not finish. If your function was "
                "slow on this input, look for a loop that never ends; then run this cell again.",
            )
            raise _Stop from None
        except RecursionError as exc:
            self.fail(recursion_message(call, traceback.extract_tb(exc.__traceback__)[-1].lineno))
        except Exception as exc:  # noqa: BLE001 - we report any student error
            self._check_forbidden(used, call)
            return None, exc, call
        self._check_forbidden(used, call)
        names = parameter_names(fn, len(args))
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

    def _check_forbidden(self, used: list[str], call: str) -> None:
        if used:
            self.fail(
                f"{call} calls `{used[0]}`: this exercise asks you to build it yourself (that helper is switched "
                f"off while the checker runs your function). {self.forbidden_hint}".strip()
            )

    def expect(self, condition: bool, message: str) -> None:
        """Fail with ``message`` unless ``condition`` holds."""
        if not condition:
            self.fail(message)

    def expect_close(
        self,
        got: Any,
        want: Any,
        *,
        what: str,
        hint: str = "",
        rtol: float = 1e-6,
        atol: float = 1e-9,
        reveal: bool = True,
    ) -> None:
        """Fail unless ``got`` equals ``want`` numerically (same shape, within ``rtol``/``atol``).

        ``reveal=False`` keeps ``want`` out of the message: for a number the student is asked to work out."""
        try:
            g = np.asarray(got, dtype=float)
        except (TypeError, ValueError):
            self.fail(f"{what} should be a number or array of numbers, got {type(got).__name__}. {hint}".strip())
        w = np.asarray(want, dtype=float)
        if g.shape != w.shape:
            self.fail(f"{what} should have shape {w.shape}, got {g.shape}. {hint}".strip())
        if not np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=False):
            shown_w, shown_g = format_pair(w, g)
            if not reveal:
                self.fail(f"{what} is not right yet (got {shown_g}). {hint}".strip())
            self.fail(f"{what} should be {shown_w}, got {shown_g}. {hint}".strip())

    def expect_equal(self, got: Any, want: Any, *, what: str, hint: str = "", reveal: bool = True) -> None:
        """Fail unless ``got == want`` (for tokens, lists, strings); ``reveal=False`` keeps ``want`` out."""
        if got != want and not reveal:
            self.fail(f"{what} is not right yet (got {got!r}). {hint}".strip())
        if got != want:
            self.fail(f"{what} should be {want!r}, got {got!r}. {hint}".strip())

    def expect_raises(
        self,
        exc_types: type[BaseException] | tuple[type[BaseException], ...],
        fn: Callable[..., Any],
        *args: Any,
        what: str,
        hint: str = "",
        mentions: str = "",
    ) -> None:
        """Fail unless calling ``fn(*args)`` raises one of ``exc_types`` (an edge case students forget) whose
        message contains ``mentions`` (e.g. the name of the argument at fault), if given."""
        _, error, call = self._run(fn, args, {})
        if error is None:
            self.fail(f"{what} should raise {exception_names(exc_types)}, but returned normally. {hint}".strip())
        if not isinstance(error, exc_types):
            self.fail(
                f"{what} should raise {exception_names(exc_types)}, but raised {type(error).__name__}: {error}. {hint}".strip()
            )
        if mentions and mentions not in str(error):
            self.fail(
                f"{what} raised {type(error).__name__}, but its message ({str(error)[:120]!r}) does not name "
                f"`{mentions}`: say which argument is wrong, so the caller knows what to fix. {hint}".strip()
            )
