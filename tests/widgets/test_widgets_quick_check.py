"""QuickCheck's Python side: questions are validated, and `judge` says what the page says."""

import pytest

from nlp_helpers.widgets.quick_check import Choice, Numeric, QuickCheck


def _qc():
    return QuickCheck(
        "demo-page",
        [
            Choice("Which one?", options=["a", "b", "c"], answer=1, feedback=["not a", "yes, b", "not c"]),
            Numeric("Half?", answer=0.5, tolerance=0.01, explanation="1/2", mistakes=[(2.0, "inverted")]),
        ],
    )


def test_judge_marks_a_wrong_choice_wrong_with_its_feedback():
    qc = _qc()
    assert qc.judge(0, 0) == (False, "not a")
    assert qc.judge(0, 1) == (True, "yes, b")


def test_judge_numeric_uses_the_tolerance_and_the_mistakes():
    qc = _qc()
    assert qc.judge(1, 0.509)[0] and not qc.judge(1, 0.52)[0]
    assert qc.judge(1, 2.0) == (False, "inverted")


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: Choice("q", options=["a"], answer=0, feedback=["f"]), "options"),
        (lambda: Choice("q", options=["a", "b"], answer=2, feedback=["f", "g"]), "answer"),
        (lambda: Choice("q", options=["a", "b"], answer=0, feedback=["f"]), "feedback"),
        (lambda: Numeric("q", answer=1.0, tolerance=0, explanation="e"), "tolerance"),
        (lambda: Numeric("q", answer=float("nan"), tolerance=1, explanation="e"), "answer"),
        (lambda: Numeric("q", answer=1.0, tolerance=0.1, explanation="e", mistakes=[(1.05, "x")]), "mistakes"),
        (lambda: QuickCheck("Bad Id", [Numeric("q", answer=1.0, tolerance=0.1, explanation="e")]), "check_id"),
        (lambda: QuickCheck("ok", []), "questions"),
        (lambda: QuickCheck("ok", ["not a question"]), r"questions\[0\]"),
    ],
)
def test_bad_questions_are_refused_naming_the_argument(make, match):
    with pytest.raises((TypeError, ValueError), match=match):
        make()
