"""``QuickCheck``: questions a reader answers on the page itself, with feedback, and no kernel needed.

Every section page ends with a few quick checks: pick the right statement, predict a number, compute
one step by hand. Python validates the questions and ships them (with their answers and explanations)
as widget state; ``quick_check.js`` draws them and judges the reader's answer in the browser, so they
work on the static web page, in JupyterLab and in Colab alike. Each rendered question is an element
with class ``quick-check``.

Two kinds of question:

- :class:`Choice`: one correct option among several; every option carries its own feedback, which
  explains *why* a wrong choice is wrong (the reader learns from the mistake, not only that it is one).
- :class:`Numeric`: a number within an absolute ``tolerance`` of the answer, with an explanation of how
  to get it, and optional feedback for typical wrong values (``mistakes``).

Questions are plain text: Unicode for maths (``P(w | c)``, ``x²``, ``√d``) and backticks for code.
The answers are in the page: quick checks are for the reader's understanding, not for marks.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import anywidget
import traitlets

from nlp_helpers._checks import check_nonempty, check_text
from nlp_helpers.widgets.assets import load_css, load_esm

__all__ = ["Choice", "Numeric", "QuickCheck"]

_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_QUESTIONS = 6
# A typed value exactly at the edge of the tolerance (0.49 for 0.5 ± 0.01) counts as inside, although in
# binary floating point |0.49 - 0.5| is a hair above 0.01: the bound gets this relative slack.
_SLACK = 1e-9
# What a wrong number with no feedback of its own gets (the page writes "✗ Not quite. " before it).
TRY_AGAIN = "Try again, or show the answer."


def _within(value: float, target: float, tolerance: float) -> bool:
    """``|value - target| <= tolerance``, the edge included despite rounding (as ``quick_check.js`` does)."""
    return abs(value - target) <= tolerance * (1 + _SLACK)


def _finite(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    return float(value)


@dataclass(frozen=True)
class Choice:
    """A multiple-choice question with exactly one correct option.

    Parameters
    ----------
    prompt:
        The question.
    options:
        2–6 distinct options, shown in this order.
    answer:
        The index of the correct option in ``options``.
    feedback:
        One text per option, shown when the reader picks it: for a wrong option, why it is wrong; for the
        right one, why it is right.
    """

    prompt: str
    options: Sequence[str]
    answer: int
    feedback: Sequence[str]

    def __post_init__(self) -> None:
        check_text("prompt", self.prompt, allow_empty=False)
        options = [check_text(f"options[{i}]", o, allow_empty=False) for i, o in enumerate(self.options)]
        if not 2 <= len(options) <= 6:
            raise ValueError(f"options must hold 2 to 6 options, got {len(options)}")
        if len(set(options)) != len(options):
            raise ValueError("options must be distinct")
        if isinstance(self.answer, bool) or not isinstance(self.answer, int):
            raise TypeError(f"answer must be the index (int) of the correct option, got {type(self.answer).__name__}")
        if not 0 <= self.answer < len(options):
            raise ValueError(f"answer must be an index into options (0..{len(options) - 1}), got {self.answer}")
        feedback = [check_text(f"feedback[{i}]", f, allow_empty=False) for i, f in enumerate(self.feedback)]
        if len(feedback) != len(options):
            raise ValueError(f"feedback must hold one text per option ({len(options)}), got {len(feedback)}")

    def to_state(self) -> dict:
        return {
            "kind": "choice",
            "prompt": self.prompt,
            "options": list(self.options),
            "answer": self.answer,
            "feedback": list(self.feedback),
        }


@dataclass(frozen=True)
class Numeric:
    """A question whose answer is a number, accepted within an absolute ``tolerance``.

    Parameters
    ----------
    prompt:
        The question; say the precision you expect ("to 2 decimals").
    answer:
        The correct value, computed by the page's code where it can be.
    tolerance:
        Accepted absolute error (> 0).
    explanation:
        How to get the answer, shown after any answer (and with "Show the answer").
    mistakes:
        Optional typical wrong values with what went wrong: ``[(value, feedback), ...]``, each matched
        within ``tolerance``.
    """

    prompt: str
    answer: float
    tolerance: float
    explanation: str
    mistakes: Sequence[tuple[float, str]] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        check_text("prompt", self.prompt, allow_empty=False)
        answer = _finite("answer", self.answer)
        tolerance = _finite("tolerance", self.tolerance)
        if tolerance <= 0:
            raise ValueError(f"tolerance must be > 0, got {tolerance}")
        check_text("explanation", self.explanation, allow_empty=False)
        for i, item in enumerate(self.mistakes):
            if not isinstance(item, tuple | list) or len(item) != 2:
                raise TypeError(f"mistakes[{i}] must be a (value, feedback) pair")
            value = _finite(f"mistakes[{i}][0]", item[0])
            check_text(f"mistakes[{i}][1]", item[1], allow_empty=False)
            if _within(value, answer, tolerance):
                raise ValueError(f"mistakes[{i}] = {value} is within tolerance of the answer {answer}")

    def to_state(self) -> dict:
        return {
            "kind": "numeric",
            "prompt": self.prompt,
            "answer": float(self.answer),
            "tolerance": float(self.tolerance),
            "explanation": self.explanation,
            "mistakes": [[float(v), str(f)] for v, f in self.mistakes],
        }


class QuickCheck(anywidget.AnyWidget):
    """A block of 1–6 quick-check questions, judged in the browser.

    Parameters
    ----------
    check_id:
        A name unique in the book, lower-case words joined by hyphens (``"classification-naive-bayes"``).
    questions:
        :class:`Choice` and :class:`Numeric` questions, in order.
    """

    _esm = load_esm("quick_check.js")
    _css = load_css()

    check_id = traitlets.Unicode("").tag(sync=True)
    questions = traitlets.List(traitlets.Dict()).tag(sync=True)

    def __init__(self, check_id: str, questions: Sequence[Choice | Numeric]) -> None:
        check_text("check_id", check_id, allow_empty=False)
        if not _ID.match(check_id):
            raise ValueError(f"check_id must be lower-case words joined by hyphens, got {check_id!r}")
        questions = check_nonempty("questions", questions)
        if len(questions) > MAX_QUESTIONS:
            raise ValueError(f"questions must hold at most {MAX_QUESTIONS} questions, got {len(questions)}")
        for i, q in enumerate(questions):
            if not isinstance(q, Choice | Numeric):
                raise TypeError(f"questions[{i}] must be a Choice or a Numeric, got {type(q).__name__}")
        super().__init__(check_id=check_id, questions=[q.to_state() for q in questions])

    def judge(self, index: int, response: int | float) -> tuple[bool, str]:
        """What the page says when the reader answers question ``index`` with ``response``.

        For a :class:`Choice`, ``response`` is the index of the picked option; for a :class:`Numeric`, the
        number typed. Returns ``(correct, feedback)``, exactly as ``quick_check.js`` judges it.
        """
        if not 0 <= index < len(self.questions):
            raise ValueError(f"index must be 0..{len(self.questions) - 1}, got {index}")
        q = self.questions[index]
        if q["kind"] == "choice":
            if isinstance(response, bool) or not isinstance(response, int) or not 0 <= response < len(q["options"]):
                raise ValueError(f"response must be an option index 0..{len(q['options']) - 1}, got {response!r}")
            return response == q["answer"], q["feedback"][response]
        value = _finite("response", response)
        if _within(value, q["answer"], q["tolerance"]):
            return True, q["explanation"]
        for wrong, feedback in q["mistakes"]:
            if _within(value, wrong, q["tolerance"]):
                return False, feedback
        return False, TRY_AGAIN
