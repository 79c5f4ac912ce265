"""Grading a folder of submissions for one chapter page, hostile ones included (issue 31's "Done when").

The fixtures are built from the real page (``book/tagging.ipynb``): its student release, the release
with the instructor's solutions pasted into the stubs, one wrong answer, code that loops forever, exits
the process, kills it, exhausts memory, monkeypatches the checker at the top level or at run time, an
invalid file, another chapter's page and an older version of this page. The run must grade each as
stated, leave the folder untouched, and regrade nothing on a second run.
"""

from __future__ import annotations

import copy
import csv
import hashlib
import time
from pathlib import Path

import nbformat
import pytest

from tools.classroom.exercises import solution_sources, stub_function
from tools.classroom.grade import Limits, grade_folder
from tools.classroom.release import release
from tools.classroom.report import write_reports

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "book" / "tagging.ipynb"
OTHER = ROOT / "book" / "feedforward" / "training.ipynb"
LABELS = ["tagging-ex-shape", "tagging-ex-spans", "tagging-ex-prf", "tagging-ex-viterbi", "tagging-ex-forward"]
POINTS = {"tagging-ex-shape": 1, "tagging-ex-spans": 1, "tagging-ex-prf": 2, "tagging-ex-viterbi": 3}
POINTS["tagging-ex-forward"] = 3
# Generous for a loaded 2-core machine: importing the checkers can take tens of seconds there.
LIMITS = Limits(per_exercise_s=6, startup_s=150, memory_mb=3072)

WRONG_SHAPE = """\
import re


def shape(word):
    long = "".join("X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c for c in word)
    return re.sub(r"(.)\\1+", r"\\1", long)  # the short shape: repeats collapsed
"""
TOP_LEVEL_PATCH = """\
import numpy
import nlp_helpers.exercises.checker as checker
from nlp_helpers.exercises.checker import CheckResult


def _always_correct(self, *exc):
    self.result = CheckResult(self.exercise, "correct", "all checks passed")
    return True


checker.Checker.__exit__ = _always_correct
checker.CheckResult = lambda *a: CheckResult("x", "correct", "")
numpy.allclose = lambda *a, **k: True


def print(*args, **kwargs):
    pass
"""
RUNTIME_PATCH_IMPORT = """\
def shape(word):
    import nlp_helpers.exercises.checker as c
    c.Checker.expect_equal = lambda *a, **k: None
    return word
"""
RUNTIME_PATCH_NUMPY = """\
import numpy as np


def span_prf(gold, pred):
    np.allclose = lambda *a, **k: True
    np.isclose = lambda *a, **k: True
    return 0.0, 0.0, 0.0
"""


def _with(nb, replace: dict[str, str], extra: list[str] = ()):
    """A copy of ``nb`` whose stub for each function in ``replace`` holds the given code; ``extra`` cells first."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if "exercise-stub" in cell.metadata.get("tags", []):
            name = stub_function(cell.source)
            if name in replace:
                cell.source = replace[name]
    for k, source in enumerate(extra):
        nb.cells.insert(2 + k, nbformat.v4.new_code_cell(source))
    return nb


def _tree(folder: Path) -> dict[str, tuple[str, float]]:
    return {
        p.relative_to(folder).as_posix(): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("classroom")
    manifest = release(tmp / "release", [PAGE])
    student = nbformat.read(tmp / "release" / "tagging.ipynb", as_version=4)
    solutions = {stub_function(s): s for s in solution_sources(nbformat.read(PAGE, as_version=4))}
    subs = tmp / "submissions"
    fixtures = {
        "solved/tagging.ipynb": _with(student, solutions),
        "untouched/tagging.ipynb": student,
        "wrong/hw/tagging.ipynb": _with(student, solutions | {"shape": WRONG_SHAPE}),
        "loops/tagging.ipynb": _with(
            student, solutions | {"bio_spans": "def bio_spans(tags):\n    while True:\n        pass\n"}
        ),
        "exits/tagging.ipynb": _with(
            student, solutions | {"span_prf": "import os\n\n\ndef span_prf(gold, pred):\n    os._exit(0)\n"}
        ),
        "limits/tagging.ipynb": _with(
            student,
            solutions
            | {
                "shape": "import sys\n\n\ndef shape(word):\n    sys.exit(3)\n",
                "bio_spans": "def bio_spans(tags):\n    return bytearray(10**12)\n",
                "crf_forward": "import os\n\n\ndef crf_forward(e, t):\n    os.kill(os.getpid(), 9)\n",
            },
        ),
        "patched/tagging.ipynb": _with(
            student, {"shape": RUNTIME_PATCH_IMPORT, "span_prf": RUNTIME_PATCH_NUMPY}, [TOP_LEVEL_PATCH]
        ),
        "other-chapter/feedforward.ipynb": None,
        "older/tagging.ipynb": None,
    }
    for name, nb in fixtures.items():
        (subs / name).parent.mkdir(parents=True, exist_ok=True)
        if nb is not None:
            nbformat.write(nb, subs / name)
    release(tmp / "other", [OTHER])
    (subs / "other-chapter/feedforward.ipynb").write_bytes(
        (tmp / "other" / "feedforward" / "training.ipynb").read_bytes()
    )
    older = copy.deepcopy(student)
    older.metadata["nlp_classroom"]["version"] = "0123456789ab"
    nbformat.write(older, subs / "older/tagging.ipynb")
    (subs / "invalid").mkdir()
    (subs / "invalid" / "tagging.ipynb").write_text('{"cells": [ this is not JSON', encoding="utf-8")
    before = _tree(subs)
    out = tmp / "grades" / "gradebook.csv"
    start = time.monotonic()
    rows = grade_folder(subs, manifest, out, jobs=2, limits=LIMITS, log=lambda m: None)
    first_s = time.monotonic() - start
    log: list[str] = []
    again = grade_folder(subs, manifest, out, jobs=2, limits=LIMITS, log=log.append)
    return {
        "rows": rows,
        "again": again,
        "log": log,
        "before": before,
        "subs": subs,
        "out": out,
        "manifest": manifest,
        "first_s": first_s,
    }


def _rows(graded, sub: str) -> dict[str, tuple[str, int, str]]:
    return {r["exercise"]: (r["status"], r["points"], r["message"]) for r in graded["rows"] if r["submission"] == sub}


@pytest.mark.slow
def test_solved_notebook_is_all_correct(graded):
    rows = _rows(graded, "solved/tagging.ipynb")
    assert list(rows) == LABELS
    assert {k: v[:2] for k, v in rows.items()} == {k: ("correct", POINTS[k]) for k in LABELS}


@pytest.mark.slow
def test_untouched_student_copy_earns_nothing(graded):
    rows = _rows(graded, "untouched/tagging.ipynb")
    assert {v[0] for v in rows.values()} == {"not yet"}
    assert sum(v[1] for v in rows.values()) == 0


@pytest.mark.slow
def test_wrong_answer_is_wrong_with_its_hint(graded):
    rows = _rows(graded, "wrong/hw/tagging.ipynb")
    assert rows["tagging-ex-shape"][:2] == ("wrong", 0)
    assert "short" in rows["tagging-ex-shape"][2] and "collapse" in rows["tagging-ex-shape"][2]
    assert all(rows[k][0] == "correct" for k in LABELS[1:])


@pytest.mark.slow
def test_infinite_loop_is_an_error_and_the_rest_is_graded(graded):
    rows = _rows(graded, "loops/tagging.ipynb")
    assert rows["tagging-ex-spans"][0] == "error" and "longer than 6 s" in rows["tagging-ex-spans"][2]
    assert [rows[k][0] for k in LABELS if k != "tagging-ex-spans"] == ["correct"] * 4


@pytest.mark.slow
def test_os_exit_is_an_error(graded):
    rows = _rows(graded, "exits/tagging.ipynb")
    assert rows["tagging-ex-shape"][0] == rows["tagging-ex-spans"][0] == "correct"
    assert rows["tagging-ex-prf"][0] == "error" and "os._exit" in rows["tagging-ex-prf"][2]
    assert "span_prf" in rows["tagging-ex-prf"][2]
    assert [rows[k][0] for k in LABELS[3:]] == ["error", "error"]  # never reached: no marks, and said so
    assert all("stopped" in rows[k][2] for k in LABELS[3:])


@pytest.mark.slow
def test_exit_memory_and_kill_are_errors(graded):
    rows = _rows(graded, "limits/tagging.ipynb")
    assert rows["tagging-ex-shape"][0] == "error" and "sys.exit(3)" in rows["tagging-ex-shape"][2]
    assert rows["tagging-ex-spans"][0] == "error" and "memory" in rows["tagging-ex-spans"][2]
    assert rows["tagging-ex-prf"][0] == rows["tagging-ex-viterbi"][0] == "correct"
    assert rows["tagging-ex-forward"][0] == "error" and "SIGKILL" in rows["tagging-ex-forward"][2]


@pytest.mark.slow
def test_monkeypatching_the_checker_earns_nothing(graded):
    rows = _rows(graded, "patched/tagging.ipynb")
    assert not any(v[0] == "correct" for v in rows.values())
    assert rows["tagging-ex-shape"][0] == "error" and "nlp_helpers.exercises.checker" in rows["tagging-ex-shape"][2]
    assert rows["tagging-ex-prf"][0] == "wrong" and "read-only" in rows["tagging-ex-prf"][2]
    assert [rows[k][0] for k in ("tagging-ex-spans", "tagging-ex-viterbi", "tagging-ex-forward")] == ["not yet"] * 3


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sub", "words"),
    [
        ("invalid/tagging.ipynb", "not a readable Jupyter notebook"),
        ("other-chapter/feedforward.ipynb", "book/feedforward/training, which is not part of this assignment"),
        ("older/tagging.ipynb", "another version of book/tagging"),
    ],
)
def test_files_that_are_not_this_page_are_errors(graded, sub, words):
    rows = _rows(graded, sub)
    assert list(rows) == LABELS
    assert all(status == "error" and pts == 0 and words in msg for status, pts, msg in rows.values())


@pytest.mark.slow
def test_folder_unchanged_and_second_run_regrades_nothing(graded):
    assert _tree(graded["subs"]) == graded["before"]
    assert graded["again"] == graded["rows"]
    assert "10 submissions: 10 unchanged since the last run, 0 to grade" in graded["log"]
    with graded["out"].open(encoding="utf-8") as f:
        table = list(csv.DictReader(f))
    assert list(table[0]) == ["submission", "exercise", "status", "points", "message"]
    assert len(table) == 10 * len(LABELS)
    # The whole run stays within its limits: no submission took its wall-clock allowance.
    assert graded["first_s"] < 10 * LIMITS.wall_s(len(LABELS)) / 2


@pytest.mark.slow
def test_reports_feedback_and_summary(graded):
    paths = write_reports(graded["rows"], graded["manifest"], graded["out"])
    feedback = (graded["out"].parent / "feedback" / "wrong__hw__tagging.md").read_text(encoding="utf-8")
    assert "Score: 9 of 10 points." in feedback and "short* shape" in feedback
    summary = graded["out"].with_name("gradebook-summary.md").read_text(encoding="utf-8")
    table = [line.split(" | ") for line in summary.splitlines() if line.startswith("| ") and "`tagging-ex" in line]
    correct = [int(cells[1]) for cells in table]
    assert len(table) == len(LABELS) and correct == sorted(correct)  # the exercise fewest solved comes first
    assert "collapse" in summary  # the most common hint of the exercise the wrong answer missed
    assert "`invalid/tagging.ipynb`" in summary
    png = graded["out"].with_name("gradebook-scores.png")
    assert png in paths and png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_command_line_release_grade_and_reports(tmp_path, capsys):
    from tools.classroom.__main__ import main

    assert main(["release", str(tmp_path / "rel"), str(PAGE)]) == 0
    subs = tmp_path / "subs" / "ada"
    subs.mkdir(parents=True)
    (subs / "my homework.ipynb").write_bytes((tmp_path / "rel" / "tagging.ipynb").read_bytes())
    out = tmp_path / "grades" / "book.csv"
    args = ["grade", str(tmp_path / "subs"), "--manifest", str(tmp_path / "rel"), "--out", str(out)]
    assert main([*args, "--exercise-timeout", "6", "--startup-timeout", "150"]) == 0
    printed = capsys.readouterr()
    assert "[1/1] ada/my homework.ipynb: 0/5 correct" in printed.err
    with out.open(encoding="utf-8") as f:
        assert {r["status"] for r in csv.DictReader(f)} == {"not yet"}
    assert "Score: 0 of 10 points." in (out.parent / "feedback" / "ada__my homework.md").read_text(encoding="utf-8")
    assert (out.parent / "book-summary.md").exists() and (out.parent / "book-scores.png").exists()
