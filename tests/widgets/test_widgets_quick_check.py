"""QuickCheck: questions are validated (errors name the argument), ``judge`` says what the page says, and the
page's JavaScript (``quick_check.js``, run under Node) judges every case exactly as Python does.

The browser test (``tests/browser/test_quick_check.py``) answers the questions on real pages.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from nlp_helpers.widgets.assets import load_esm
from nlp_helpers.widgets.quick_check import Choice, Numeric, QuickCheck
from tests.widget_node import node_binary, run_widget_js


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
    assert qc.judge(0, 2) == (False, "not c")


def test_judge_numeric_uses_the_tolerance_and_the_mistakes():
    qc = _qc()
    assert qc.judge(1, 0.509)[0] and not qc.judge(1, 0.52)[0]
    assert qc.judge(1, 0.49) == (True, "1/2")  # the tolerance is closed at both ends
    assert qc.judge(1, 2.0) == (False, "inverted") and qc.judge(1, 2.009) == (False, "inverted")
    assert qc.judge(1, 7.0) == (False, "Try again, or show the answer.")  # the page puts "✗ Not quite." before it


def test_judge_refuses_a_response_it_cannot_judge():
    qc = _qc()
    for index, response, match in [
        (2, 0, "index"),
        (0, 3, "response"),
        (0, True, "response"),
        (1, float("inf"), "response"),
    ]:
        with pytest.raises((TypeError, ValueError), match=match):
            qc.judge(index, response)


def test_state_carries_what_the_page_needs():
    qc = _qc()
    assert qc.check_id == "demo-page"
    assert qc.questions[0] == {
        "kind": "choice",
        "prompt": "Which one?",
        "options": ["a", "b", "c"],
        "answer": 1,
        "feedback": ["not a", "yes, b", "not c"],
    }
    assert qc.questions[1]["mistakes"] == [[2.0, "inverted"]]
    json.dumps(qc.questions)  # plain JSON: the static page reads it from the embedded widget state


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: Choice("q", options=["a"], answer=0, feedback=["f"]), "options"),
        (lambda: Choice("q", options=["a"] * 7, answer=0, feedback=["f"] * 7), "options"),
        (lambda: Choice("q", options=["a", "a"], answer=0, feedback=["f", "g"]), "distinct"),
        (lambda: Choice("", options=["a", "b"], answer=0, feedback=["f", "g"]), "prompt"),
        (lambda: Choice("q", options=["a", ""], answer=0, feedback=["f", "g"]), r"options\[1\]"),
        (lambda: Choice("q", options=["a", "b"], answer=2, feedback=["f", "g"]), "answer"),
        (lambda: Choice("q", options=["a", "b"], answer=True, feedback=["f", "g"]), "answer"),
        (lambda: Choice("q", options=["a", "b"], answer="1", feedback=["f", "g"]), "answer"),
        (lambda: Choice("q", options=["a", "b"], answer=0, feedback=["f"]), "feedback"),
        (lambda: Choice("q", options=["a", "b"], answer=0, feedback=["f", None]), r"feedback\[1\]"),
        (lambda: Numeric("q", answer=1.0, tolerance=0, explanation="e"), "tolerance"),
        (lambda: Numeric("q", answer=1.0, tolerance=-1, explanation="e"), "tolerance"),
        (lambda: Numeric("q", answer=float("nan"), tolerance=1, explanation="e"), "answer"),
        (lambda: Numeric("q", answer="1", tolerance=1, explanation="e"), "answer"),
        (lambda: Numeric("q", answer=1.0, tolerance=0.1, explanation=""), "explanation"),
        (lambda: Numeric("q", answer=1.0, tolerance=0.1, explanation="e", mistakes=[(1.05, "x")]), "mistakes"),
        (lambda: Numeric("q", answer=1.0, tolerance=0.1, explanation="e", mistakes=[3.0]), r"mistakes\[0\]"),
        (lambda: Numeric("q", answer=1.0, tolerance=0.1, explanation="e", mistakes=[(3.0, "")]), r"mistakes\[0\]"),
        (lambda: QuickCheck("Bad Id", [Numeric("q", answer=1.0, tolerance=0.1, explanation="e")]), "check_id"),
        (lambda: QuickCheck("", [Numeric("q", answer=1.0, tolerance=0.1, explanation="e")]), "check_id"),
        (lambda: QuickCheck("ok", []), "questions"),
        (lambda: QuickCheck("ok", [Numeric("q", answer=1.0, tolerance=0.1, explanation="e")] * 7), "questions"),
        (lambda: QuickCheck("ok", ["not a question"]), r"questions\[0\]"),
    ],
)
def test_bad_questions_are_refused_naming_the_argument(make, match):
    with pytest.raises((TypeError, ValueError), match=match):
        make()


# ---------------------------------------------------------------- the page's JavaScript, under Node
DRIVER = """
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
globalThis.document = { createElement() { throw new Error("no DOM here"); } };
globalThis.Node = class {};
const mod = await import(pathToFileURL(process.argv[2]).href);
const cases = JSON.parse(readFileSync(process.argv[3], "utf-8"));
const out = {
  judged: cases.judge.map(([q, r]) => mod.judge(q, r)),
  parsed: cases.parse.map((t) => mod.parseNumber(t)),
  formatted: (cases.format || []).map((q) => mod.formatAnswer(q)),
  verdicts: (cases.verdicts || []).map(([correct, text]) => mod.verdictText(correct, text)),
  revealed: (cases.revealed || []).map((text) => mod.withoutVerdict(text)),
};
console.log(JSON.stringify(out));
"""


def _run_js(tmp_path, cases: dict) -> dict:
    (tmp_path / "qc.mjs").write_text(load_esm("quick_check.js"), encoding="utf-8")
    (tmp_path / "driver.mjs").write_text(DRIVER, encoding="utf-8")
    (tmp_path / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    run = subprocess.run(
        [node_binary(), str(tmp_path / "driver.mjs"), str(tmp_path / "qc.mjs"), str(tmp_path / "cases.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_javascript_judges_every_case_as_python_does(tmp_path):
    qc = QuickCheck(
        "parity",
        [
            Choice("Pick", options=["w", "x", "y", "z"], answer=2, feedback=["fw", "fx", "fy", "fz"]),
            Numeric("Third?", answer=1 / 3, tolerance=0.005, explanation="1/3", mistakes=[(3.0, "inverted")]),
            Numeric("Big", answer=-1200.0, tolerance=0.5, explanation="-1200", mistakes=[(1200.0, "sign")]),
        ],
    )
    responses = [(0, k) for k in range(4)]
    for q, center, tol in ((1, 1 / 3, 0.005), (2, -1200.0, 0.5)):
        responses += [
            (q, center + d) for d in (0, tol * 0.999, -tol * 0.999, tol, -tol, tol * 1.001, -tol * 1.001, 10 * tol)
        ]
    responses += [(1, 3.0), (1, 3.004), (1, 3.006), (2, 1200.0), (2, 1200.4), (2, 0.0)]
    cases = {"judge": [[qc.questions[i], r] for i, r in responses], "parse": []}
    js = _run_js(tmp_path, cases)["judged"]
    for (i, r), got in zip(responses, js, strict=True):
        assert [got["correct"], got["feedback"]] == list(qc.judge(i, r)), (i, r)
    assert sum(g["correct"] for g in js) == 1 + 5 + 5  # the right option; the answer, ± just inside and ± on the edge


TYPED = [
    ("0.25", 0.25),
    (" .25 ", 0.25),
    ("0,25", 0.25),
    ("-3", -3.0),
    ("\u22123", -3.0),
    ("+2", 2.0),
    ("1e-3", 0.001),
    ("2.5E2", 250.0),
    ("3/8", 0.375),
    ("-1 / 4", -0.25),
    ("1 000", 1000.0),
    ("25%", None),
    ("1,000.5", None),
    ("abc", None),
    ("", None),
    ("1/0", None),
    ("1/2/3", None),
    ("0x10", None),
    ("Infinity", None),
    ("NaN", None),
]


def test_javascript_reads_what_a_reader_types(tmp_path):
    got = _run_js(tmp_path, {"judge": [], "parse": [typed for typed, _ in TYPED]})["parsed"]
    for (typed, value), parsed in zip(TYPED, got, strict=True):
        assert (parsed is None) if value is None else parsed == pytest.approx(value), (typed, parsed)


def test_show_the_answer_writes_it_to_the_precision_asked(tmp_path):
    # (answer, tolerance, prompt, shown): the prompt's "to N decimals" wins; else the tolerance's precision
    # (a value within ± t rounds to decimals of step 2t: ± 0.005 is 2 decimals, ± 0.0005 is 3).
    cases = [
        (4 / 34, 0.0005, "P(great | +), to 3 decimals?", "0.118"),
        (4 / 34, 0.0005, "P(great | +)?", "0.118"),
        (7**0.5, 0.005, "Its norm, to 2 decimals?", "2.65"),
        (7**0.5, 0.001, "Its norm? (Two decimals.)", "2.65"),
        (7**0.5, 0.05, "Best segmentation score? (1 decimal)", "2.6"),
        (0.28571, 0.0005, "Its IDF? Three decimals.", "0.286"),
        (4.0, 0.1, "Two plus two?", "4"),
        (-1200.0, 0.5, "Big?", "-1200"),
        (1 / 3, 1e-6, "A third?", "0.333333"),
        (-0.001, 0.005, "Nearly zero, to 2 decimals?", "0"),
    ]
    format_ = [{"answer": a, "tolerance": t, "prompt": p} for a, t, p, _ in cases]
    got = _run_js(tmp_path, {"judge": [], "parse": [], "format": format_})["formatted"]
    assert got == [want for *_, want in cases]


def test_the_verdict_is_said_once(tmp_path):
    verdicts = [
        (True, "Right: the counts add up.", "\u2713 ", "Right: the counts add up."),
        (True, "Correct. 0 + 1 over n_c.", "\u2713 ", "Correct. 0 + 1 over n_c."),
        (True, "The counts add up.", "\u2713 Right. ", "The counts add up."),
        (True, "Rightly so, the counts add up.", "\u2713 Right. ", "Rightly so, the counts add up."),
        (
            False,
            "Not quite: that is the unsmoothed estimate.",
            "\u2717 ",
            "Not quite: that is the unsmoothed estimate.",
        ),
        (False, "No. Smoothing adds one.", "\u2717 ", "No. Smoothing adds one."),
        (False, "No model can do that.", "\u2717 Not quite. ", "No model can do that."),
        (False, "Try again, or show the answer.", "\u2717 Not quite. ", "Try again, or show the answer."),
        (
            False,
            "Right: that would be it with smoothing.",
            "\u2717 Not quite. ",
            "Right: that would be it with smoothing.",
        ),
    ]
    revealed = [
        ("Right: the steps add up.", "The steps add up."),
        ("Right: n \u2212 1 words of context.", "n \u2212 1 words of context."),
        ("Right: a word is seen.", "A word is seen."),
        ("Yes: with a dictionary.", "With a dictionary."),
        ("(3 + 1) / (14 + 20) = 0.118.", "(3 + 1) / (14 + 20) = 0.118."),
    ]
    out = _run_js(
        tmp_path,
        {"judge": [], "parse": [], "verdicts": [[c, t] for c, t, *_ in verdicts], "revealed": [t for t, _ in revealed]},
    )
    assert [[v["lead"], v["text"]] for v in out["verdicts"]] == [[lead, text] for *_, lead, text in verdicts]
    assert out["revealed"] == [want for _, want in revealed]


def _one(question) -> dict:
    qc = QuickCheck("one", [question])
    return {"check_id": qc.check_id, "questions": qc.questions}


def test_the_page_marks_a_wrong_choice_wrong_and_the_right_one_right(tmp_path):
    esm = load_esm("quick_check.js")
    wrong_first = _one(Choice("Q", options=["x", "y"], answer=1, feedback=["x is wrong", "y is right"]))
    out = run_widget_js(esm, wrong_first, [{"testid": "qc-option", "checked": True}], tmp_path)
    assert out["qc-feedback"]["attrs"]["data-verdict"] == "wrong" and "x is wrong" in out["qc-feedback"]["text"]
    right_first = _one(Choice("Q", options=["x", "y"], answer=0, feedback=["x is right", "y is wrong"]))
    out = run_widget_js(esm, right_first, [{"testid": "qc-option", "checked": True}], tmp_path)
    assert out["qc-feedback"]["attrs"]["data-verdict"] == "right" and "x is right" in out["qc-feedback"]["text"]
    out = run_widget_js(esm, right_first, [{"testid": "qc-reveal", "click": True}], tmp_path)
    assert out["qc-feedback"]["attrs"]["data-verdict"] == "shown" and "Answer: x" in out["qc-feedback"]["text"]


@pytest.mark.parametrize(
    ("typed", "verdict", "says"),
    [
        ("0.5", "right", "half of one"),
        ("1/2", "right", "half of one"),
        ("0.515", "wrong", "Try again"),
        ("2", "wrong", "upside down"),
        ("half", "invalid", "Type a number"),
    ],
)
def test_the_page_judges_a_typed_number(tmp_path, typed, verdict, says):
    state = _one(
        Numeric("Half?", answer=0.5, tolerance=0.01, explanation="half of one", mistakes=[(2.0, "upside down")])
    )
    actions = [{"testid": "qc-input", "value": typed}, {"testid": "qc-check", "click": True}]
    out = run_widget_js(load_esm("quick_check.js"), state, actions, tmp_path)
    assert out["qc-feedback"]["attrs"]["data-verdict"] == verdict
    assert says in out["qc-feedback"]["text"]
