"""Export the book's exercises for the grading tools courses already run: nbgrader and otter-grader.

``nbgrader``: ``OUT_DIR/source/<assignment>/<chapter>-<page>.ipynb``, an nbgrader *source* notebook per page. Each
exercise's solution becomes an autograded answer cell (the solution between ``### BEGIN SOLUTION`` and
``### END SOLUTION`` inside the function, which nbgrader replaces by ``raise NotImplementedError()``), and
its check cell a locked test cell worth the exercise's points: it shows the checker's feedback, and a
hidden assertion (``### BEGIN HIDDEN TESTS``) fails the cell unless the verdict is "correct".

``otter``: ``OUT_DIR/<chapter>-<page>.ipynb``, an otter-grader *assignment* notebook (the v1 format of
``otter assign``): one question per exercise with its solution block and an OK-format test whose
expected output is the checker's verdict ``'correct'``.

``exercises_only`` keeps the setup cell and the ``## Exercises`` section (self-contained by the book's
conventions), so autograding does not rerun the whole chapter.
"""

from __future__ import annotations

import ast
import copy
import re
import textwrap
from pathlib import Path

import nbformat

from tools.classroom.exercises import Exercise, find_exercises, page_id, solution_indices
from tools.classroom.extract import extract
from tools.notebooks import clean
from tools.toc_notebooks import ROOT, toc_notebooks

FORMATS = ("nbgrader", "otter")


def nested_solution(solution: str, function: str, begin: str, end: str) -> str:
    """The solution as one function: its helpers and imports moved inside, the body between markers.

    A by-hand exercise, answered with a value rather than a function, keeps its statements at the top
    level, all of them between the markers.

    Only what ``function`` needs is kept (a demo after it in the solution cell is dropped), so that
    a grading tool that blanks the marked region leaves exactly ``def function(...):`` and a stub.
    """
    found = extract([solution], [function])
    if function not in found.code:
        raise ValueError(f"solution: no usable definition of {function!r} ({found.blocked or found.syntax_errors})")
    tree = ast.parse(found.code[function])
    target = next((s for s in reversed(tree.body) if isinstance(s, ast.FunctionDef) and s.name == function), None)
    if target is None:  # a by-hand exercise is answered with a value (`hand_viterbi = {...}`): all of it is the answer
        return "\n".join([begin, found.code[function], end])
    helpers = [s for s in tree.body if s is not target]
    body = list(target.body)
    doc = []
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant):
        doc = [body.pop(0)]  # the docstring stays visible
    inner = "\n".join(ast.unparse(s) for s in [*helpers, *body])
    stub = copy.copy(target)
    stub.body = [ast.Pass()]
    header = ast.unparse(stub)
    header = header.rsplit("\n", 1)[0]  # drop the placeholder `pass`
    lines = [header]
    lines += [textwrap.indent(ast.unparse(d), "    ") for d in doc]
    lines += [f"    {begin}", textwrap.indent(inner, "    "), f"    {end}"]
    return "\n".join(lines)


def _tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def _exercise_blocks(nb) -> list[tuple[int, int, Exercise]]:
    """``(first, last, exercise)`` cell ranges: from the ``{exercise}`` directive to its check cell."""
    exercises = find_exercises(nb)
    out, k = [], 0
    for i, cell in enumerate(nb.cells):
        if k < len(exercises) and cell.cell_type == "markdown" and f":label: {exercises[k].label}" in cell.source:
            start = i
        if k < len(exercises) and cell.cell_type == "code" and f"{exercises[k].checker}(" in cell.source:
            if not {"solution", "exercise-stub"} & set(_tags(cell)):
                out.append((start, i, exercises[k]))
                k += 1
    return out


def _solution_of(nb, first: int, last: int, function: str) -> str:
    sources = [nb.cells[i].source for i in solution_indices(nb) if first <= i <= last]
    if not sources:
        raise ValueError(f"the exercise of {function!r} has no solution cell")
    return "\n\n".join(sources)


def _exercises_only(nb):
    start = next(
        (
            i
            for i, c in enumerate(nb.cells)
            if c.cell_type == "markdown" and re.search(r"^## Exercises", c.source, re.M)
        ),
        None,
    )
    if start is None:
        raise ValueError("the page has no '## Exercises' section")
    out = copy.deepcopy(nb)
    out.cells = [nb.cells[0], *nb.cells[start:]]
    return out


def _nbgrader_meta(grade_id: str, *, solution: bool, grade: bool, points: float = 0, locked: bool = False) -> dict:
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3, "solution": solution}
    meta["task"] = False
    if grade:
        meta["points"] = points
    return meta


def _plain_statement(cell, ex: Exercise):
    """The ``{exercise}`` directive as plain Markdown (Jupyter does not render MyST directives)."""
    difficulty = f" ({ex.difficulty})" if ex.difficulty else ""
    return nbformat.v4.new_markdown_cell(f"### Exercise: {ex.title}{difficulty}\n\n{ex.statement}")


def _replace_blocks(nb, make) -> None:
    """Replace each exercise's cells (directive to check cell) by ``make(nb, first, last, exercise)``."""
    cells, i = [], 0
    for first, last, ex in _exercise_blocks(nb):
        cells.extend(nb.cells[i:first])
        cells.extend(make(nb, first, last, ex))
        i = last + 1
    cells.extend(nb.cells[i:])
    nb.cells = cells


def to_nbgrader(nb, points: dict[str, float] | None = None):
    """An nbgrader source notebook from a book page (instructor's version, with solutions)."""

    def make(nb, first, last, ex):
        solution = _solution_of(nb, first, last, ex.function)
        answer = nbformat.v4.new_code_cell(
            nested_solution(solution, ex.function, "### BEGIN SOLUTION", "### END SOLUTION"),
            metadata={"nbgrader": _nbgrader_meta(f"{ex.label}-answer", solution=True, grade=False)},
        )
        pts = (points or {}).get(ex.label, ex.points)
        test = nbformat.v4.new_code_cell(
            f"{nb.cells[last].source.rstrip()}\n\n### BEGIN HIDDEN TESTS\n"
            f"assert {ex.checker}({ex.function}).status == 'correct', 'not yet correct'\n### END HIDDEN TESTS",
            metadata={
                "nbgrader": _nbgrader_meta(f"{ex.label}-test", solution=False, grade=True, points=pts, locked=True)
            },
        )
        return [_plain_statement(nb.cells[first], ex), answer, test]

    nb = copy.deepcopy(nb)
    _replace_blocks(nb, make)
    return nb


def to_otter(nb, name: str, points: dict[str, float] | None = None):
    """An otter-grader assignment notebook (``otter assign`` v1 format) from a book page."""
    raw = nbformat.v4.new_raw_cell

    def make(nb, first, last, ex):
        solution = _solution_of(nb, first, last, ex.function)
        answer = nested_solution(solution, ex.function, "# BEGIN SOLUTION", "# END SOLUTION")
        check = nb.cells[last]
        imports = "\n".join(ln for ln in check.source.splitlines() if ln.startswith(("from ", "import ")))
        test = nbformat.v4.new_code_cell(f"{imports}\n{ex.checker}({ex.function}).status")
        test.outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "'correct'"}, execution_count=1)]
        pts = (points or {}).get(ex.label, ex.points)
        return [
            raw(f"# BEGIN QUESTION\nname: {ex.label}\npoints: {pts}"),
            _plain_statement(nb.cells[first], ex),
            raw("# BEGIN SOLUTION"),
            nbformat.v4.new_code_cell(answer),
            raw("# END SOLUTION"),
            raw("# BEGIN TESTS"),
            test,
            raw("# END TESTS"),
            raw("# END QUESTION"),
            nbformat.v4.new_code_cell(check.source),  # the book's feedback, for the student
        ]

    nb = copy.deepcopy(nb)
    _replace_blocks(nb, make)
    config = f"# ASSIGNMENT CONFIG\nname: {name}\ninit_cell: true\ncheck_all_cell: false\nexport_cell: false\n"
    config += "generate: true\nrun_tests: false\n"
    nb.cells = [raw(config), *[c for c in nb.cells if "setup" not in _tags(c)]]
    return nb


def _export_name(pid: str) -> str:
    """``book/tagging/ner`` -> ``tagging-ner``: section pages of different chapters share names (``words``)."""
    parts = Path(pid).parts
    return "-".join(parts[1:]) if len(parts) > 1 and parts[0] == "book" else Path(pid).name


def export(
    fmt: str, out_dir: Path, pages: list[Path] | None = None, *, exercises_only: bool = False, assignment: str = "nlp"
) -> list[Path]:
    """Write the ``fmt`` export of ``pages`` (default: every notebook of ``_toc.yml`` with exercises) to ``out_dir``."""
    if fmt not in FORMATS:
        raise ValueError(f"format: expected one of {', '.join(FORMATS)}, got {fmt!r}")
    out_dir = Path(out_dir)
    pages = [Path(p) for p in pages] if pages else toc_notebooks()
    written = []
    for path in pages:
        if path.suffix != ".ipynb" or not path.is_file():
            raise ValueError(f"pages: expected existing .ipynb notebooks, got {str(path)!r}")
        nb = clean(nbformat.read(path, as_version=4))
        if not find_exercises(nb):
            continue
        if exercises_only:
            nb = _exercises_only(nb)
        name = _export_name(page_id(path, ROOT))
        if fmt == "nbgrader":
            target = out_dir / "source" / assignment / f"{name}.ipynb"
            result = to_nbgrader(nb)
        else:
            target = out_dir / f"{name}.ipynb"
            result = to_otter(nb, name)
        if target in written:
            raise ValueError(f"pages: two of the pages export to the same file {str(target)!r}")
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(result, target)
        written.append(target)
    if not written:
        raise ValueError("pages: none of the given pages has exercises")
    return written
