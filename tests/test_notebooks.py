"""Hygiene of the chapter notebooks: listed in the TOC, committed clean, with hidden checks and exercises."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from tools.notebooks import SETUP_SOURCE, clean, fold, is_clean, student_version, unfolded_scaffolding
from tools.toc_notebooks import toc_chapters, toc_files, toc_notebooks

ROOT = Path(__file__).resolve().parent.parent

NOTEBOOKS = toc_notebooks()
# What holds a chapter's exercises and hidden checks: a one-notebook chapter page (book/<x>.ipynb), or the
# section pages of a chapter together (book/<slug>/<page>.ipynb).
CHAPTERS = [(p.stem, [p]) for p in NOTEBOOKS if p.parent == ROOT / "book"] + [
    (slug, [p for p in pages if p.parent != ROOT / "book"])
    for slug, pages in toc_chapters()
    if any(p.parent != ROOT / "book" for p in pages)
]
FORBIDDEN = {
    r"nltk\.download\(": "downloads data at run time",
    r"hf_hub_(?:download)|snapshot_(?:download)|from_pretrained\(\s*['\"][\w-]+/[\w.-]+['\"]": "loads from a hub",
    r"requests\.get\(|urllib\.request\.urlopen\(|urlretrieve\(": "uses the network",
    r"^\s*[!%]pip install": "installs packages from a chapter cell (only the setup cell may)",
}
# A code cell "plots" when it calls matplotlib or the book's plotting helpers. On the chapters as
# written this flags exactly the cells whose executed outputs contain an image, and no other cell
# (e.g. not `TinyGPTConfig,` or `import matplotlib.pyplot as plt`).
PLOTS = re.compile(
    r"\bplt\.(?!rcParams|style\b|close\b)|\bax\d?\.|\baxes\b|\.plot[.(]|\bheatmap\(|\.imshow\(|\.scatter\("
    r"|\bfig\s*,|\.subplots\(|\.hist\(|\.bar\(|\.loglog\(|\.semilog[xy]\("
)
# Cells whose output never reaches the page need no alternative text.
HIDDEN_OUTPUT = {"remove-cell", "remove-output", "remove_cell", "remove_output"}
MIN_ALT_CHARS = 30


def _ids(paths):
    return [str(p.relative_to(ROOT / "book").with_suffix("")) for p in paths]


def test_toc_lists_every_chapter_and_only_existing_files():
    listed = toc_files()
    for f in listed:
        assert (ROOT / f"{f}.ipynb").exists() or (ROOT / f"{f}.md").exists(), f"_toc.yml lists missing file {f}"
    on_disk = {
        str(p.relative_to(ROOT).with_suffix(""))
        for p in (ROOT / "book").rglob("*.ipynb")
        if ".ipynb_checkpoints" not in p.parts and not p.name.startswith("_")
    }
    assert on_disk <= set(listed), f"notebooks not in _toc.yml: {sorted(on_disk - set(listed))}"
    assert NOTEBOOKS, "the table of contents lists no chapter notebook"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_scaffolding_is_folded(path):
    """Imports and plotting code sit behind a "Show code cell source" toggle; the algorithm cells stay in view."""
    nb = nbformat.read(path, as_version=4)
    unfolded = unfolded_scaffolding(nb)
    assert unfolded == [], (
        f"{path.name}: cells {unfolded} are imports or plotting code shown in the reading path: "
        f"run `python -m tools.notebooks fold {path.relative_to(ROOT)}`"
    )


def test_fold_cuts_the_drawing_out_of_a_cell_and_keeps_the_computation_in_view():
    source = (
        "import numpy as np\nimport matplotlib.pyplot as plt\nfrom x import y\n",
        "counts = np.arange(5)\nprobs = counts / counts.sum()\n"
        "# the distribution\nfig, ax = plt.subplots()\nax.bar(range(5), probs)\n"
        "ax.set(xlabel='word', ylabel='probability')\nfor k in range(5):\n    ax.text(k, probs[k], str(k))\n"
        "plt.show()\nprint(probs.max())",
    )
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in source])
    nb.cells[1].metadata["mystnb"] = {"image": {"alt": "bars"}}
    fold(nb)
    assert [c.metadata.get("tags", []) for c in nb.cells] == [["hide-input"], [], ["hide-input"], []]
    assert nb.cells[1].source == "counts = np.arange(5)\nprobs = counts / counts.sum()"
    assert nb.cells[2].source.startswith("# the distribution\nfig, ax") and nb.cells[2].source.endswith("plt.show()")
    assert nb.cells[2].metadata["mystnb"]["image"]["alt"] == "bars" and "mystnb" not in nb.cells[1].metadata
    assert nb.cells[3].source == "print(probs.max())"
    assert unfolded_scaffolding(nb) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_is_committed_clean(path):
    nb = nbformat.read(path, as_version=4)
    assert is_clean(nb), f"{path.name}: run `python -m tools.notebooks clean {path.relative_to(ROOT)}`"
    assert nb.cells[0].source == SETUP_SOURCE
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"


def _hidden_assert_cells(path: Path) -> int:
    nb = nbformat.read(path, as_version=4)
    return sum(
        1
        for c in nb.cells
        if c.cell_type == "code"
        and "remove-cell" in c.metadata.get("tags", [])
        and re.search(r"^\s*assert\b|np\.testing\.assert|torch\.testing\.assert", c.source, re.M)
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_asserts_its_claims_in_hidden_cells(path):
    """Every page checks what its prose claims; a chapter has at least three such hidden checks in all."""
    assert _hidden_assert_cells(path) >= 1, f"{path.name}: no hidden assertion cell"


@pytest.mark.parametrize(("slug", "pages"), CHAPTERS, ids=[slug for slug, _ in CHAPTERS])
def test_chapter_asserts_its_claims_in_hidden_cells(slug, pages):
    n = sum(_hidden_assert_cells(p) for p in pages)
    assert n >= 3, f"{slug}: only {n} hidden assertion cells"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_stays_offline(path):
    nb = nbformat.read(path, as_version=4)
    for i, cell in enumerate(nb.cells[1:], start=1):
        if cell.cell_type != "code":
            continue
        for pattern, why in FORBIDDEN.items():
            assert not re.search(pattern, cell.source, re.M), f"{path.name} cell {i} {why}: {cell.source[:120]!r}"


def _exercise_labels(nb: nbformat.NotebookNode) -> list[str]:
    md = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    return re.findall(r"[`:]{3}\{exercise\}[^\n]*\n:label: ([\w-]+)", md)


@pytest.mark.parametrize(("slug", "pages"), CHAPTERS, ids=[slug for slug, _ in CHAPTERS])
def test_chapter_has_a_ladder_of_exercises(slug, pages):
    """Exercises are per chapter: 3-6 on a one-page chapter; spread over section pages, at most 3 a page."""
    n = sum(len(_exercise_labels(nbformat.read(p, as_version=4))) for p in pages)
    most = 6 if len(pages) == 1 else 3 * len(pages)
    assert 3 <= n <= most, f"{slug}: {n} exercises (want 3-{most})"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_notebook_has_self_checking_exercises(path):
    nb = nbformat.read(path, as_version=4)
    md = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    labels = _exercise_labels(nb)
    if path.parent != ROOT / "book" and not labels:
        pytest.skip("a section page without exercises (its chapter's other pages have them)")
    assert re.search(r"^## Exercises", md, re.M), f"{path.name} has no '## Exercises' section"
    assert labels, f"{path.name}: '## Exercises' holds no exercise"
    for label in labels:
        assert re.search(r"\{solution-start\} " + re.escape(label) + r"\b", md), f"{path.name}: no solution for {label}"
    checks = [
        c
        for c in nb.cells
        if c.cell_type == "code"
        and re.search(r"\bcheck_\w+\(", c.source)
        and "remove-cell" not in c.metadata.get("tags", [])
    ]
    assert len(checks) >= len(labels), f"{path.name}: {len(labels)} exercises but {len(checks)} checker calls"
    student = student_version(nb)
    assert not any("solution" in c.metadata.get("tags", []) for c in student.cells)
    stubs = [c for c in student.cells if "exercise-stub" in c.metadata.get("tags", [])]
    assert len(stubs) >= len(labels), f"{path.name}: every exercise needs a stub cell tagged exercise-stub"
    assert all("remove-cell" not in c.metadata.get("tags", []) for c in stubs)


def _figure_alt(cell: nbformat.NotebookNode) -> str:
    """The alt text myst-nb gives the cell's image outputs (``metadata.mystnb.image.alt``), or ""."""
    image = (cell.metadata.get("mystnb") or {}).get("image") or {}
    return str(image.get("alt", "")).strip()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_every_figure_has_alt_text(path):
    """Screen-reader users get a description of each plot instead of the image's file name.

    myst-nb applies ``mystnb.image.alt`` to every image output of the cell, so a cell with several
    figures needs one text that describes them all.
    """
    nb = nbformat.read(path, as_version=4)
    bad = []
    for i, cell in enumerate(nb.cells):
        hidden = HIDDEN_OUTPUT & set(cell.metadata.get("tags", []))
        if cell.cell_type != "code" or hidden or not PLOTS.search(cell.source):
            continue
        alt = _figure_alt(cell)
        if len(alt) < MIN_ALT_CHARS or re.search(r"\.(png|svg|jpe?g|gif)$|^\.\./_images", alt, re.I):
            bad.append(f"cell {i} ({cell.source.splitlines()[0][:60]!r}): alt={alt!r}")
    assert not bad, (
        f"{path.name}: figure cells without a real alt text (set cell metadata "
        f'{{"mystnb": {{"image": {{"alt": "what the figure shows and what to notice"}}}}}}, '
        f">= {MIN_ALT_CHARS} characters):\n" + "\n".join(bad)
    )


@pytest.mark.parametrize(
    ("source", "plots"),
    [
        ("fig, ax = plt.subplots(figsize=(6, 3))\nax.plot(losses)\nplt.show()", True),
        ("heatmap(sims, words, words, title='cosine')", True),
        ("ax = aniso.plot(marker='o')", True),
        ("fig, (ax1, ax2) = plt.subplots(1, 2)", True),
        ("import matplotlib.pyplot as plt\nplt.rcParams['figure.dpi'] = 100", False),
        ("tiny = TinyGPT(TinyGPTConfig(vocab_size=84, block_size=64), seed=0)", False),
        ("from nlp_helpers.plotting import PALETTE, heatmap, use_book_style", False),
    ],
)
def test_plot_detector(source, plots):
    assert bool(PLOTS.search(source)) is plots


def test_clean_strips_outputs_and_adds_setup_cell():
    nb = nbformat.v4.new_notebook()
    code = nbformat.v4.new_code_cell("1 + 1")
    code.outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "2"}, execution_count=1)]
    code.execution_count = 1
    alt = {"image": {"alt": "Line plot of the loss against training step; it falls steadily."}}
    code.metadata.update({"tags": ["hide-input"], "mystnb": alt, "scrolled": True, "collapsed": False})
    nb.cells = [code]
    nb.metadata["widgets"] = {"state": {}}
    out = clean(nb)
    assert not is_clean(nb)
    assert is_clean(out)
    assert out.cells[0].source == SETUP_SOURCE and out.cells[1].outputs == []
    assert "widgets" not in out.metadata
    # tags and myst-nb render options (a figure's alt text) are content; UI state is not
    assert out.cells[1].metadata == {"tags": ["hide-input"], "mystnb": alt}
    assert clean(out).cells == out.cells  # idempotent: no second setup cell


def test_student_version_removes_gated_solutions_and_shows_stubs():
    cells = [
        nbformat.v4.new_markdown_cell("```{exercise} Add\n:label: ex-add\nWrite add.\n```"),
        nbformat.v4.new_code_cell(
            "def add(a, b):\n    raise NotImplementedError", metadata={"tags": ["exercise-stub", "remove-cell"]}
        ),
        nbformat.v4.new_markdown_cell("```{solution-start} ex-add\n:class: dropdown\n```"),
        nbformat.v4.new_code_cell("def add(a, b):\n    return a + b", metadata={"tags": ["solution"]}),
        nbformat.v4.new_markdown_cell("```{solution-end}\n```"),
        nbformat.v4.new_code_cell("check_add(add)"),
    ]
    nb = nbformat.v4.new_notebook(cells=cells)
    student = student_version(nb)
    sources = [c.source for c in student.cells]
    assert "def add(a, b):\n    return a + b" not in sources
    assert not any("solution-start" in s or "solution-end" in s for s in sources)
    assert student.cells[1].metadata["tags"] == ["exercise-stub"]
    assert sources[-1] == "check_add(add)"
    broken = nbformat.v4.new_notebook(cells=cells[:4])
    with pytest.raises(ValueError, match="solution-end"):
        student_version(broken)


def test_landing_page_has_a_card_for_every_chapter():
    """The landing page's cards are written from _toc.yml by tools/make_intro_cards.py: run it after adding a chapter."""
    from tools.make_intro_cards import cards_markdown, chapter_slugs

    intro = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    slugs = chapter_slugs()
    assert slugs and cards_markdown(slugs) in intro, "run `python -m tools.make_intro_cards`"
    for slug in slugs:
        assert (ROOT / "book" / "figures" / "cards" / f"{slug}.svg").exists(), f"no card picture for {slug}"


def test_bibliography_parses_and_every_citation_is_defined():
    from pybtex.database import parse_file

    entries = parse_file(str(ROOT / "references.bib")).entries
    cited = set()
    for page in [*(ROOT / "book").rglob("*.ipynb"), *(ROOT / "book").rglob("*.md")]:
        for group in re.findall(r"\{cite(?::[a-z]+)?\}`([^`]+)`", page.read_text(encoding="utf-8")):
            cited |= {key.strip() for key in group.split(",")}
    assert cited, "no chapter cites anything"
    assert not cited - set(entries), f"cited but not in references.bib: {sorted(cited - set(entries))}"
