"""Find every exercise checker of the book and the worked solution each one checks.

* :func:`all_checkers` imports every ``nlp_helpers.<chapter>.exercises`` and ``nlp_helpers.<chapter>.*_exercises``
  module and returns its ``check_*`` functions: a checker added to such a module is covered with no
  registration.
* :func:`solutions` reads the ``## Exercises`` section of every notebook of ``_toc.yml`` and pairs each checker
  cell (``check_x(answer)`` as the last line) with the function ``answer`` that the section's solution cells
  define. Only the imports, function and class definitions and call-free assignments of the notebook's setup
  cell and of the section are executed (in a fresh namespace, statement by statement; a statement that
  fails is skipped), never a computation, print or plot.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import nbformat

import nlp_helpers
from tools.toc_notebooks import toc_notebooks

_KEPT = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)


@cache
def all_checkers() -> dict[str, Callable]:
    """``{"<chapter>.<module>.check_x": check_x}`` for every checker module of the package."""
    found = {}
    for info in pkgutil.walk_packages(nlp_helpers.__path__, "nlp_helpers."):
        parts = info.name.split(".")
        if len(parts) != 3 or not (parts[-1] == "exercises" or parts[-1].endswith("_exercises")):
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if name.startswith("check_") and inspect.isfunction(obj) and obj.__module__ == module.__name__:
                found[f"{parts[1]}.{parts[2]}.{name}"] = obj
    return found


def _exercise_cells(path: Path) -> list[nbformat.NotebookNode]:
    """The setup cell and the code cells of the ``## Exercises`` section."""
    nb = nbformat.read(path, as_version=4)
    start = next(
        (
            i
            for i, c in enumerate(nb.cells)
            if c.cell_type == "markdown" and re.search(r"^## Exercises", c.source, re.M)
        ),
        None,
    )
    return [] if start is None else [nb.cells[0], *(c for c in nb.cells[start:] if c.cell_type == "code")]


def _definitions(source: str, namespace: dict) -> None:
    """Execute the imports, definitions and assignments of a cell in ``namespace`` (failing ones are skipped)."""
    source = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return
    for node in tree.body:
        if isinstance(node, _KEPT) and not _computes(node):
            try:
                exec(compile(ast.Module([node], []), "<solution>", "exec"), namespace)  # noqa: S102
            except Exception:  # noqa: BLE001, S112 - e.g. a name from the chapter's main text
                continue


def _computes(node: ast.stmt) -> bool:
    """An assignment whose value calls something (it may load data or train a model)."""
    if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
        return False
    return any(isinstance(n, ast.Call) for n in ast.walk(node.value))


@cache
def solutions() -> dict[str, Callable]:
    """``{checker key: solution function}`` for every checker called in a notebook's ``## Exercises`` section."""
    keys = {f.__module__.split(".", 1)[1] + "." + f.__name__: k for k, f in all_checkers().items()}
    pairs = {}
    for path in toc_notebooks():
        namespace: dict = {"__name__": "__solutions__"}
        for cell in _exercise_cells(path):
            if "exercise-stub" in cell.metadata.get("tags", []):
                continue
            call = re.search(
                r"^(check_\w+)\((\w+)\)\s*$", cell.source.strip().splitlines()[-1] if cell.source.strip() else ""
            )
            _definitions(cell.source, namespace)
            if call and call.group(2) in namespace:
                checker = namespace.get(call.group(1))
                if checker is not None and checker.__module__.startswith("nlp_helpers."):
                    key = keys.get(checker.__module__.split(".", 1)[1] + "." + checker.__name__)
                    if key:
                        pairs[key] = namespace[call.group(2)]
    return pairs


def checker_key(checker: Callable) -> str:
    """``"<chapter>.<module>.check_x"``, the key of :func:`all_checkers` for a checker function."""
    parts = checker.__module__.split(".")
    return f"{parts[1]}.{parts[2]}.{checker.__name__}"


@cache
def solution_sources() -> dict[str, str]:
    """``{checker key: source}``: the solution cells that define each checker's answer (notebooks' ``## Exercises``)."""
    keys = {checker_key(f) for f in all_checkers().values()}
    out: dict[str, str] = {}
    for path in toc_notebooks():
        cells = [c for c in _exercise_cells(path)[1:] if "exercise-stub" not in c.metadata.get("tags", [])]
        for cell in cells:
            lines = cell.source.strip().splitlines()
            call = re.search(r"^(check_\w+)\((\w+)\)\s*$", lines[-1]) if lines else None
            if not call:
                continue
            name = call.group(2)
            defining = [c.source for c in cells if re.search(rf"^(def {name}\(|{name}\s*=)", c.source, re.M)]
            key = next((k for k in keys if k.endswith("." + call.group(1))), None)
            if key and defining:
                out[key] = "\n".join(defining)
    return out


@cache
def statements() -> dict[str, str]:
    """``{checker key: statement}``: the ``{exercise}`` markdown before each checker's call in the notebooks."""
    keys = {checker_key(f) for f in all_checkers().values()}
    out: dict[str, str] = {}
    for path in toc_notebooks():
        statement = ""
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "markdown" and "{exercise}" in cell.source:
                statement = cell.source
            elif cell.cell_type == "code" and statement:
                for name in re.findall(r"^(check_\w+)\(\w+\)\s*$", cell.source, re.M):
                    key = next((k for k in keys if k.endswith("." + name)), None)
                    if key:
                        out.setdefault(key, statement)
    return out
