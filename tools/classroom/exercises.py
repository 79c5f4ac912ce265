"""Read the exercises out of a book page (CONTRIBUTING's ``## Exercises`` convention).

An exercise is an ``{exercise}`` directive with a ``:label:``, a stub cell tagged ``exercise-stub``
(``def name(...)``), a solution between ``{solution-start}``/``{solution-end}`` gates and a check cell
that imports ``check_…`` from ``nlp_helpers.<slug>.exercises`` and calls it on the function. This module
finds those pieces and fingerprints the page's exercises, so that the grader can tell which page (and
which version of it) a submission is.
"""

from __future__ import annotations

import ast
import hashlib
import re
from dataclasses import asdict, dataclass
from pathlib import Path

import nbformat

# Points an exercise is worth by the difficulty its title names; instructors edit them in the manifest.
POINTS = {"easy": 1, "medium": 2, "hard": 3}
# Minutes a student typically needs, by difficulty (our estimate, shown on the instructors' page).
MINUTES = {"easy": 10, "medium": 20, "hard": 40}

# An {exercise} directive anywhere in a markdown cell (a cell may open with the "## Exercises" heading).
_DIRECTIVE = re.compile(r"^[ \t]*(```+|:::+)\{exercise\}[ \t]*(?P<title>[^\n]*)\n(?P<body>.*)", re.S | re.M)
_LABEL = re.compile(r"^:label:\s*(\S+)\s*$", re.M)
# The difficulty an exercise's title ends with: "(easy)", "(medium)" or "(hard)".
DIFFICULTY = re.compile(r"\((easy|medium|hard)\)\s*$", re.I)


@dataclass(frozen=True)
class Exercise:
    """One exercise of a page: what the student writes and which checker judges it."""

    label: str  # the directive's :label:, unique in the book (e.g. "tagging-ex-shape")
    title: str  # without the difficulty
    difficulty: str  # "easy", "medium", "hard" (or "" if the title names none)
    function: str  # the name the stub defines, e.g. "shape"
    checker_module: str  # e.g. "nlp_helpers.tagging.exercises"
    checker: str  # e.g. "check_word_shape"
    statement: str  # the directive's text, without options

    @property
    def points(self) -> int:
        return POINTS.get(self.difficulty, 1)

    @property
    def minutes(self) -> int:
        return MINUTES.get(self.difficulty, MINUTES["medium"])

    def fingerprint(self) -> str:
        """What a student sees and is judged by: statement, function name and checker (not the stub's body)."""
        text = "\x1f".join([self.label, " ".join(self.statement.split()), self.function, self.checker])
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def as_dict(self) -> dict:
        return asdict(self) | {"points": self.points, "fingerprint": self.fingerprint()}


def _tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def _directive(cell) -> tuple[str, str, str] | None:
    """``(label, title, statement)`` of an ``{exercise}`` markdown cell, else None."""
    if cell.cell_type != "markdown":
        return None
    m = _DIRECTIVE.search(cell.source)
    label = _LABEL.search(m.group("body")) if m else None
    if m is None or label is None:
        return None
    fence = m.group(1)
    body = m.group("body").split(fence)[0]
    statement = "\n".join(line for line in body.splitlines() if not line.startswith(":")).strip()
    return label.group(1), m.group("title").strip(), statement


def stub_function(source: str) -> str | None:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    names = [s.name for s in tree.body if isinstance(s, ast.FunctionDef)]
    return names[-1] if names else None


def _check_call(source: str) -> tuple[str, str, str] | None:
    """``(module, checker, function)`` of a check cell ``from m import check_x`` … ``check_x(fn)``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    modules = {
        alias.asname or alias.name: node.module
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    }
    for node in reversed(tree.body):
        call = node.value if isinstance(node, ast.Expr) else None
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id.startswith("check_")
            and call.func.id in modules
            and call.args
            and isinstance(call.args[0], ast.Name)
        ):
            return modules[call.func.id], call.func.id, call.args[0].id
    return None


def find_exercises(nb: nbformat.NotebookNode) -> list[Exercise]:
    """The exercises of a notebook (instructor's or student's copy), in page order.

    Each ``{exercise}`` directive is paired with the first check cell after it; the function it
    checks is the name that check cell passes (the stub's name, in a well-formed page).
    """
    out: list[Exercise] = []
    pending: tuple[str, str, str] | None = None
    for cell in nb.cells:
        found = _directive(cell)
        if found is not None:
            pending = found
            continue
        if pending is None or cell.cell_type != "code" or {"solution", "exercise-stub"} & set(_tags(cell)):
            continue
        call = _check_call(cell.source)
        if call is None:
            continue
        label, title, statement = pending
        difficulty = DIFFICULTY.search(title)
        out.append(
            Exercise(
                label=label,
                title=DIFFICULTY.sub("", title).strip(),
                difficulty=difficulty.group(1).lower() if difficulty else "",
                function=call[2],
                checker_module=call[0],
                checker=call[1],
                statement=statement,
            )
        )
        pending = None
    return out


def page_version(exercises: list[Exercise]) -> str:
    """A short hash of a page's exercises: it changes when a statement, a function name or a checker does."""
    return hashlib.sha256("\n".join(e.fingerprint() for e in exercises).encode()).hexdigest()[:12]


def stub_sources(nb: nbformat.NotebookNode) -> dict[str, str]:
    """The stub cell of each function name (from cells tagged ``exercise-stub``)."""
    out = {}
    for cell in nb.cells:
        if cell.cell_type == "code" and "exercise-stub" in _tags(cell):
            name = stub_function(cell.source)
            if name:
                out[name] = cell.source
    return out


def _is_gate(cell, name: str) -> bool:
    return cell.cell_type == "markdown" and cell.source.lstrip().startswith(("```{" + name, ":::{" + name))


def solution_indices(nb: nbformat.NotebookNode) -> list[int]:
    """Indices of the solution code cells: tagged ``solution`` or between ``solution-start``/``solution-end``."""
    out, inside = [], False
    for i, cell in enumerate(nb.cells):
        if _is_gate(cell, "solution-start") or _is_gate(cell, "solution-end"):
            inside = _is_gate(cell, "solution-start")
        elif cell.cell_type == "code" and (inside or "solution" in _tags(cell)):
            out.append(i)
    return out


def solution_sources(nb: nbformat.NotebookNode) -> list[str]:
    """The solution cells of an instructor's notebook, in order."""
    return [nb.cells[i].source for i in solution_indices(nb)]


def page_id(path: Path, root: Path) -> str:
    """A page's name in manifests: its path under the book's root without suffix (``book/tagging``)."""
    path = Path(path).resolve()
    try:
        return path.relative_to(Path(root).resolve()).with_suffix("").as_posix()
    except ValueError:
        return path.with_suffix("").name
