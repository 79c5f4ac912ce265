"""The reader's-path checks of the built pages (``tools/reader_path_html.py``): no warning text or machine path
in an output, no paragraph twice, no empty section, headings in order, no blank figure or panel, no plain
number printed in scientific notation. Runs after the build (step 4 of ``tools/run_tests.sh``); the checks
themselves are tested on synthetic pages in ``tests/test_reader_path.py``. Pages in
``tests/reader_path_allowlist.txt`` have their failures reported (pytest's warnings summary), not raised.
"""

from __future__ import annotations

import nbformat
import pytest

from tests.test_notebooks import HIDDEN_OUTPUT, PLOTS
from tools import reader_path as rp
from tools import reader_path_html as rh

from .conftest import BUILD

PAGES = rp.pages()


def _drawing_cells(path) -> int:
    """Code cells whose figure should reach the page (they plot, and their output is not removed)."""
    nb = nbformat.read(path, as_version=4)
    return sum(
        1
        for c in nb.cells
        if c.cell_type == "code" and PLOTS.search(c.source) and not HIDDEN_OUTPUT & set(c.metadata.get("tags", []))
    )


@pytest.mark.parametrize("path", PAGES, ids=[rp.page_name(p) for p in PAGES])
def test_built_page_follows_the_readers_path(path):
    if not (BUILD / "index.html").exists():
        pytest.fail("the book is not built: run `make book` (or the build step of tools/run_tests.sh) first")
    page = rh.built_page(path, BUILD)
    if not page.exists():
        pytest.skip(f"{page.relative_to(rp.ROOT)} is not built (a build with a reduced table of contents?)")
    name = rp.page_name(path)
    bad = rh.html_failures(page)
    drawn = _drawing_cells(path)
    shown = rh.output_images(page)
    if drawn and not shown:
        bad.append(f"{drawn} cell(s) draw a figure but the page shows none (was the build's MPLBACKEND Agg?)")
    if name in rp.read_allowlist():
        if bad:
            rp.report(name, [f"(built page) {f}" for f in bad])
        return
    assert not bad, "\n".join(f"{name} (built page): {f}" for f in bad)
