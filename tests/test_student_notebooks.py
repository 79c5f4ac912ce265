"""Student copies of the chapters: solutions removed, and every checker answers "not yet" without crashing.

For each page of _toc.yml with exercises (a one-notebook chapter, or the section pages of a chapter that
hold its exercises) this builds the student version (`make student`), then executes its
exercise section (from the `## Exercises` heading on, which must be self-contained) in a fresh
kernel. Every checker cell must print "⏳ Not yet" and no cell may raise.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from nlp_helpers.exercises.checker import STRICT_ENV
from tools.notebooks import student_version

ROOT = Path(__file__).resolve().parent.parent
from tools.toc_notebooks import toc_notebooks  # noqa: E402


def _has_exercises(path: Path) -> bool:
    nb = nbformat.read(path, as_version=4)
    return any(c.cell_type == "markdown" and re.search(r"^## Exercises", c.source, re.M) for c in nb.cells)


NOTEBOOKS = [p for p in toc_notebooks() if _has_exercises(p)]


def exercise_section(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The setup cell plus every cell from the '## Exercises' heading to the end."""
    start = next(
        (
            i
            for i, c in enumerate(nb.cells)
            if c.cell_type == "markdown" and re.search(r"^## Exercises", c.source, re.M)
        ),
        None,
    )
    assert start is not None, "no '## Exercises' heading"
    out = nbformat.v4.new_notebook(metadata=nb.metadata)
    out.cells = [nb.cells[0], *nb.cells[start:]]
    return out


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT / "book").with_suffix("")) for p in NOTEBOOKS])
def test_student_exercises_report_not_yet(path, monkeypatch, tmp_path):
    monkeypatch.delenv(STRICT_ENV, raising=False)
    nb = exercise_section(student_version(nbformat.read(path, as_version=4)))
    client = NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}})
    client.execute()  # raises CellExecutionError if any cell fails
    check_cells = [
        c
        for c in nb.cells
        if c.cell_type == "code" and "check_" in c.source and "exercise-stub" not in c.metadata.get("tags", [])
    ]
    assert check_cells, "no checker calls in the exercise section"
    for cell in check_cells:
        text = "".join(o.get("text", "") + "".join(str(v) for v in o.get("data", {}).values()) for o in cell.outputs)
        assert "⏳ Not yet" in text, f"{path.name}: checker did not report 'not yet':\n{cell.source}\n-> {text[:300]}"
