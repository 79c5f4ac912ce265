"""Every page of the book, solved with its own solutions, is graded all correct by the sandboxed grader.

This guards the grader's assumptions across chapters: each exercise's function (with the helpers and
imports it needs) can be extracted from a notebook, passes the screen, and its checker gives the same
verdict in the judge process (read-only modules, no network, limits) as in the notebook.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from tools.classroom.exercises import solution_indices, stub_function
from tools.classroom.grade import grade_folder
from tools.classroom.release import release
from tools.classroom.sandbox import Limits

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_every_solved_page_is_graded_correct(tmp_path):
    manifest = release(tmp_path / "release")
    pages = json.loads(manifest.read_text())["pages"]
    for pid, entry in pages.items():
        instructor = nbformat.read(ROOT / f"{pid}.ipynb", as_version=4)
        solutions = {}
        for i in solution_indices(instructor):
            solutions.setdefault(stub_function(instructor.cells[i].source), instructor.cells[i].source)
        copy = nbformat.read(tmp_path / "release" / entry["notebook"], as_version=4)
        for cell in copy.cells:
            if "exercise-stub" in cell.metadata.get("tags", []):
                cell.source = solutions.get(stub_function(cell.source), cell.source)
        target = tmp_path / "solved" / entry["notebook"]
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(copy, target)
    rows = grade_folder(
        tmp_path / "solved", manifest, tmp_path / "gb.csv", jobs=2, limits=Limits(20, 150), log=lambda m: None
    )
    n_exercises = sum(len(p["exercises"]) for p in pages.values())
    assert len(rows) == n_exercises > 0
    assert [r for r in rows if r["status"] != "correct"] == []
