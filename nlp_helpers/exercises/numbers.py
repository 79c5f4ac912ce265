"""Checking an answer worked out by hand: a dict of named numbers, with typical mistakes recognised.

Several chapters ask the reader to compute a few numbers on paper (three gradients, the TF-IDF weights
of one document) and return them as a dict. The checks are the same each time: a dict, exactly the
expected keys, numbers, each close to its value; and when they are off, whether they are exactly
what a typical mistake gives (a flipped sign, the wrong logarithm), so the hint can name that mistake.

>>> from nlp_helpers.exercises.checker import Checker
>>> answer = NumberAnswer(
...     want={"x": 2.0},
...     returns="f() should return a dict with the key 'x'",
...     keys="the keys should be exactly ['x']",
...     number="x should be a number.",
...     mistakes=[({"x": -2.0}, "the sign is flipped.")],
...     wrong=lambda key, got, want: f"{key} should be {want:g}, got {got:g}.",
... )
>>> with Checker("demo") as ex:
...     check_number_answer(ex, {"x": -2}, answer)
>>> ex.result.message
'the sign is flipped.'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from nlp_helpers.exercises.checker import Checker

__all__ = ["NumberAnswer", "check_number_answer"]


@dataclass(frozen=True)
class NumberAnswer:
    """The expected answer and what to tell the reader about each way of missing it.

    ``want``: the right numbers by key. ``returns``, ``keys``, ``number``: the verdicts when the answer
    is not a dict, has other keys, or holds something that is not a number. ``mistakes``: pairs of the
    numbers a typical mistake gives and the hint that names it (checked in order). ``wrong(key, got,
    want)``: the verdict for the first wrong number when no listed mistake explains the answer.
    Numbers are compared with ``np.isclose(got, want, rtol, atol)``.
    """

    want: Mapping[str, float]
    returns: str
    keys: str
    number: str
    wrong: Callable[[str, float, float], str]
    mistakes: Sequence[tuple[Mapping[str, float], str]] = field(default_factory=tuple)
    rtol: float = 1e-3
    atol: float = 1e-6

    def __post_init__(self) -> None:
        if not isinstance(self.want, Mapping) or not self.want:
            raise ValueError(f"want must be a non-empty mapping of key -> number, got {self.want!r}")
        for numbers, hint in self.mistakes:
            if set(numbers) != set(self.want):
                raise ValueError(f"the mistake {hint!r} gives keys {sorted(numbers)}, expected {sorted(self.want)}")
        if not (self.rtol >= 0 and self.atol >= 0):
            raise ValueError(f"rtol and atol must be >= 0, got {self.rtol} and {self.atol}")


def check_number_answer(ex: Checker, got: Any, answer: NumberAnswer) -> None:
    """Judge ``got`` (what the reader's function returned) against ``answer`` inside the checker ``ex``."""
    if not isinstance(answer, NumberAnswer):
        raise TypeError(f"answer must be a NumberAnswer, got {type(answer).__name__}")
    want = answer.want
    ex.expect(isinstance(got, dict), f"{answer.returns}, got {type(got).__name__}.")
    ex.expect(set(got) == set(want), f"{answer.keys}, got {sorted(map(str, got))}.")
    try:
        values = {k: float(got[k]) for k in want}
    except (TypeError, ValueError):
        ex.fail(answer.number)
    wrong = [k for k in want if not _close(values[k], want[k], answer)]
    if not wrong:
        return
    for numbers, hint in answer.mistakes:
        if all(_close(values[k], numbers[k], answer) for k in want):
            ex.fail(hint)
    ex.fail(answer.wrong(wrong[0], values[wrong[0]], want[wrong[0]]))


def _close(got: float, want: float, answer: NumberAnswer) -> bool:
    return bool(np.isclose(got, want, rtol=answer.rtol, atol=answer.atol))
