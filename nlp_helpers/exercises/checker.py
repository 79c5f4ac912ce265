"""Self-checking exercises: the machinery every chapter's checkers share.

A chapter's checkers live in ``nlp_helpers/exercises/<chapter>.py`` and look like::

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

When the book is built (``NLP_BOOK_BUILD=1``, set by ``tools/book_ext.py``) the checkers run on the
hidden solutions, so their verdict says nothing to a reader of the web page: there a checker's output
tells the reader how to answer the exercise themselves instead of showing a success they did not earn.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["CheckResult", "Checker", "STRICT_ENV"]

STRICT_ENV = "NLP_EXERCISES_STRICT"
BUILD_ENV = "NLP_BOOK_BUILD"
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


class Checker:
    """Context manager that runs checks on a student's answer and records the first problem."""

    def __init__(self, exercise: str) -> None:
        self.exercise = exercise
        self.result: CheckResult | None = None
        self._answered = False  # the student's function has returned a value

    def __enter__(self) -> Checker:
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is None:
            self._finish(CORRECT, "all checks passed. Well done!")
        elif exc_type is _Stop:
            pass  # result already recorded
        elif self._answered and issubclass(exc_type, Exception):
            # The checker could not use what the student's function returned (None from a missing
            # `return`, a str instead of a list, ...). That is a wrong answer, not a crash. A bug in
            # the checker itself still fails CI: strict mode turns this result into an AssertionError.
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
        """Call the student's function; turn ``NotImplementedError`` into "not yet" and other errors into feedback."""
        if not callable(fn):
            self.fail(f"expected a function, got {type(fn).__name__}. Pass the function itself, without calling it.")
        try:
            value = fn(*args, **kwargs)
            self._answered = True
            return value
        except NotImplementedError:
            self._finish(
                NOT_YET, "replace `raise NotImplementedError` with your implementation, then run this cell again."
            )
            raise _Stop from None
        except Exception as exc:  # noqa: BLE001 - we report any student error
            where = traceback.extract_tb(exc.__traceback__)[-1]
            self.fail(
                f"calling {getattr(fn, '__name__', 'your function')}{_fmt_args(args, kwargs)} raised "
                f"{type(exc).__name__}: {exc} (line {where.lineno})."
            )

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
            self.fail(f"{what} should be {_fmt_value(w)}, got {_fmt_value(g)}. {hint}".strip())

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
        try:
            fn(*args)
        except NotImplementedError:
            self._finish(
                NOT_YET, "replace `raise NotImplementedError` with your implementation, then run this cell again."
            )
            raise _Stop from None
        except exc_types:
            return
        except Exception as exc:  # noqa: BLE001
            self.fail(
                f"{what} should raise {_names(exc_types)}, but raised {type(exc).__name__}: {exc}. {hint}".strip()
            )
        self.fail(f"{what} should raise {_names(exc_types)}, but returned normally. {hint}".strip())


def _names(exc_types: type[BaseException] | tuple[type[BaseException], ...]) -> str:
    types = exc_types if isinstance(exc_types, tuple) else (exc_types,)
    return " or ".join(t.__name__ for t in types)


def _fmt_value(a: np.ndarray) -> str:
    if a.ndim == 0:
        return f"{float(a):.6g}"
    return np.array2string(a, precision=4, threshold=12)


def _fmt_args(args: tuple, kwargs: dict) -> str:
    parts = [repr(a) if len(repr(a)) < 40 else "…" for a in args]
    parts += [f"{k}={v!r}" if len(repr(v)) < 40 else f"{k}=…" for k, v in kwargs.items()]
    return "(" + ", ".join(parts) + ")"
