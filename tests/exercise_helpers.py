"""Helpers for the tests of the exercise checkers: answers that misbehave, and the catalogue format.

A chapter's catalogue (``tests/<slug>/test_<slug>_exercise_catalogue.py``) lists, per checker, correct answers
written in different styles (all must pass) and typical wrong answers, each with words the verdict must
contain (the hint that names the actual mistake)::

    CATALOGUE = {
        ex.check_nucleus: Catalogue(
            correct=[nucleus_loop, nucleus_cumsum],
            wrong=[Wrong(nucleus_unsorted, "sorted"), Wrong(nucleus_drops_crossing, "crosses p")],
        ),
    }

and collects it with ``test_catalogue = catalogue_test(CATALOGUE)``.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np


def stub(*args, **kwargs):
    """A student's untouched exercise cell: the checker must answer "not yet"."""
    raise NotImplementedError


# ------------------------------------------------------------------------------------ misbehaving answers
def returns_none(*args, **kwargs):
    """Forgets ``return`` (or prints the result)."""
    print(args[:1])  # noqa: T201 - the student prints instead of returning


class StudentBug(Exception):
    """Raised by :func:`raises`: an exception no checker expects."""


def raises(*args, **kwargs):
    """An answer with a bug that raises."""
    raise StudentBug("list index out of range in the student's loop")


ESCAPE_AFTER = 30.0  # seconds: a checker that does not stop `never_returns` fails its test instead of hanging


def never_returns(*args, **kwargs):
    """``while True: pass``, but gives up (and raises) after ``ESCAPE_AFTER`` seconds."""
    start = time.monotonic()
    while time.monotonic() - start < ESCAPE_AFTER:
        pass
    raise RuntimeError("escaped: the checker did not stop an answer that never returns")


def mutate(x: Any) -> bool:
    """Change ``x`` in place if it is mutable plain data (or holds some); True if something changed."""
    if isinstance(x, np.ndarray):
        if x.size == 0 or not x.flags.writeable:
            return False
        flat = x.reshape(-1) if x.flags.c_contiguous else None
        if flat is None:
            return False
        if x.dtype.kind == "b":
            flat[0] = not flat[0]
        elif x.dtype.kind in "iufc":
            flat[0] = 0 if np.isnan(flat[0]) else flat[0] + 1
        else:
            flat[0] = type(flat[0])() if flat[0] else "x"
        return True
    if type(x).__module__.startswith("torch") and type(x).__name__ == "Tensor":
        import torch

        if x.numel() == 0:
            return False
        with torch.no_grad():
            flat = x.view(-1) if x.is_contiguous() else None
            if flat is None:
                return False
            if x.dtype == torch.bool:
                flat[0] = ~flat[0]
            else:
                flat[0] += 1
        return True
    if isinstance(x, list):
        x.append(x[-1] if x else 0)
        return True
    if isinstance(x, dict):
        x["__changed_by_the_answer__"] = 0
        return True
    if isinstance(x, set):
        x.add("__changed_by_the_answer__")
        return True
    if isinstance(x, tuple):
        return any([mutate(v) for v in x])
    return False


@dataclass
class Mutating:
    """Wraps a correct solution: returns its result, but first changes every mutable argument in place."""

    solution: Callable
    changed: int = 0  # calls in which some argument was changed

    def __post_init__(self) -> None:
        self.__name__ = getattr(self.solution, "__name__", "answer")
        self.__wrapped__ = self.solution  # the answer's own globals, for helpers a checker switches off

    def __call__(self, *args, **kwargs):
        result = self.solution(*copy.deepcopy(args), **copy.deepcopy(kwargs))
        if any([mutate(a) for a in (*args, *kwargs.values())]):
            self.changed += 1
        return result


@dataclass
class Counting:
    """Wraps a correct solution and counts its calls."""

    solution: Callable
    calls: int = 0

    def __post_init__(self) -> None:
        self.__name__ = getattr(self.solution, "__name__", "answer")
        self.__wrapped__ = self.solution  # the answer's own globals, for helpers a checker switches off

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.solution(*args, **kwargs)


# ------------------------------------------------------------------------------------ catalogues
@dataclass(frozen=True)
class Wrong:
    """A typical wrong answer and the words its verdict must contain (all of them, case-insensitive)."""

    answer: Callable
    hint: str | tuple[str, ...]
    status: str = "wrong"

    @property
    def words(self) -> tuple[str, ...]:
        return (self.hint,) if isinstance(self.hint, str) else self.hint


@dataclass(frozen=True)
class Catalogue:
    """Correct answers (all accepted) and wrong answers (all rejected, with a hint naming the mistake)."""

    correct: list[Callable]
    wrong: list[Wrong] = field(default_factory=list)


def catalogue_cases(catalogue: dict[Callable, Catalogue]) -> tuple[list[tuple], list[str]]:
    """``(cases, ids)`` for ``pytest.mark.parametrize("checker, answer, expected", cases, ids=ids)``."""
    cases, ids = [], []
    for checker, cat in catalogue.items():
        assert len(cat.correct) >= 2, f"{checker.__name__}: give at least two correct answers in different styles"
        for answer in cat.correct:
            cases.append((checker, answer, None))
            ids.append(f"{checker.__name__}-ok-{answer.__name__}")
        for wrong in cat.wrong:
            cases.append((checker, wrong.answer, wrong))
            ids.append(f"{checker.__name__}-bad-{wrong.answer.__name__}")
    return cases, ids


def catalogue_test(catalogue: dict[Callable, Catalogue]) -> Callable:
    """A test function, parametrized over every answer of ``catalogue``, that applies :func:`assert_verdict`."""
    import pytest

    cases, ids = catalogue_cases(catalogue)

    @pytest.mark.parametrize("checker, answer, expected", cases, ids=ids)
    def test_catalogue(checker: Callable, answer: Callable, expected: Wrong | None) -> None:
        assert_verdict(checker, answer, expected)

    return test_catalogue


def assert_verdict(checker: Callable, answer: Callable, expected: Wrong | None) -> None:
    """The catalogue's rule: correct answers pass; a wrong one fails and its message names the mistake."""
    result = checker(answer)
    if expected is None:
        assert result.status == "correct", f"a correct answer was rejected: {result}"
        return
    assert result.status == expected.status, f"{answer.__name__} should be {expected.status}: {result}"
    missing = [w for w in expected.words if w.lower() not in result.message.lower()]
    assert not missing, f"{answer.__name__}: the hint should mention {missing}: {result.message}"
    assert_hint_tells_not(checker, result.message)


def assert_hint_tells_not(checker: Callable, message: str) -> None:
    """A verdict names the mistake, never the answer: no run of the worked solution's code (that the statement
    does not show) and no number a by-hand exercise asks for (``tests.exercises.hints``)."""
    from tests.exercises.hints import leaks

    found = leaks(checker, message)
    assert not found, f"the verdict gives the answer away ({found}): {message}"
