"""nlp_helpers.exercises.numbers: a by-hand answer (a dict of numbers) judged, with its typical mistakes named."""

from __future__ import annotations

import pytest

from nlp_helpers.exercises.checker import Checker
from nlp_helpers.exercises.numbers import NumberAnswer, check_number_answer

# dL/dw for L = (w x - t)^2 / 2 at w = 1, x = 2, t = 5, worked by hand: (2 - 5) * 2 = -6; dL/dt = 3.
ANSWER = NumberAnswer(
    want={"w": -6.0, "t": 3.0},
    returns="grads() should return a dict with keys 'w', 't'",
    keys="the keys should be exactly ['t', 'w']",
    number="every gradient should be a number.",
    mistakes=[({"w": 6.0, "t": -3.0}, "every sign is flipped."), ({"w": -3.0, "t": 3.0}, "multiply by x = 2.")],
    wrong=lambda key, got, want: f"dL/d{key} should not be {got:g}.",
)


def judge(answer: object) -> tuple[bool, str]:
    with Checker("by hand") as ex:
        check_number_answer(ex, answer, ANSWER)
    return ex.result.passed, ex.result.message


@pytest.mark.parametrize("answer", [{"w": -6, "t": 3}, {"t": 3.0004, "w": -6.0}])
def test_right_answers_pass(answer: dict) -> None:
    assert judge(answer)[0]


@pytest.mark.parametrize(
    "answer, hint",
    [
        ([-6, 3], "should return a dict with keys 'w', 't', got list"),
        ({"w": -6}, "the keys should be exactly ['t', 'w'], got ['w']"),
        ({"w": -6, "t": 3, "b": 0}, "got ['b', 't', 'w']"),
        ({"w": "minus six", "t": 3}, "every gradient should be a number."),
        ({"w": None, "t": 3}, "every gradient should be a number."),
        ({"w": 6, "t": -3}, "every sign is flipped."),
        ({"w": -3, "t": 3}, "multiply by x = 2."),
        ({"w": -6, "t": 4}, "dL/dt should not be 4."),
        ({"w": 6, "t": 3}, "dL/dw should not be 6."),  # half of a mistake is not that mistake
    ],
)
def test_wrong_answers_get_the_hint_that_names_their_mistake(answer: object, hint: str) -> None:
    passed, message = judge(answer)
    assert not passed and hint in message


def test_a_mistake_with_other_keys_is_a_bug_in_the_exercise() -> None:
    with pytest.raises(ValueError, match="gives keys"):
        NumberAnswer(want={"w": 1.0}, returns="", keys="", number="", wrong=str, mistakes=[({"v": 1.0}, "?")])
    with pytest.raises(ValueError, match="want must be a non-empty mapping"):
        NumberAnswer(want={}, returns="", keys="", number="", wrong=str)
    with pytest.raises(TypeError, match="answer must be a NumberAnswer"):
        with Checker("x") as ex:
            check_number_answer(ex, {}, {"w": 1.0})
