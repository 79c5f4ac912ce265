"""The benchmarks appendix (``book/appendix/benchmarks.md``) is the rendering of the stored results
(``benchmarks/results/latest.json``) under the book's current chapters, in reading order, with no "nan"."""

from __future__ import annotations

import json
import math
from pathlib import Path

from benchmarks.run_all import chapter_titles, markdown
from tools.toc_notebooks import toc_notebooks

ROOT = Path(__file__).resolve().parent.parent
LATEST = ROOT / "benchmarks" / "results" / "latest.json"
APPENDIX = ROOT / "book" / "appendix" / "benchmarks.md"


def test_chapters_are_in_reading_order_with_their_chapter_pages_titles():
    folders = list(dict.fromkeys(Path(p).parent.name for p in toc_notebooks()))
    titles = chapter_titles()
    assert list(titles)[: len(folders)] == folders
    heading = next(ln for ln in (ROOT / "book" / "bert" / "index.md").read_text().splitlines() if ln.startswith("# "))
    assert titles["bert"] == heading[2:].strip()


def test_the_appendix_is_the_rendering_of_the_stored_results():
    latest = json.loads(LATEST.read_text(encoding="utf-8"))
    page = markdown(latest["rows"], latest["notebooks"], latest.get("install"), latest["meta"])
    assert APPENDIX.read_text(encoding="utf-8") == page, "run `python -m benchmarks.run_all --render-only`"
    assert [r["notebook"] for r in latest["notebooks"]] == [
        Path(p).relative_to(ROOT / "book").as_posix() for p in toc_notebooks()
    ], "the timed pages are not the book's pages: run `python -m benchmarks.run_all --notebooks-only`"


def test_an_undefined_figure_is_a_dash_not_nan():
    rows = [
        {
            "topic": "sampling",
            "helper": "h",
            "reference": "none",
            "agreement": "nan",
            "ours_s": 1.0,
            "reference_s": math.nan,
            "target": "t",
            "met": True,
            "note": "",
        }
    ]
    page = markdown(rows, [], None, {"machine": "m", "date": "2026-01-01"})
    line = next(ln for ln in page.splitlines() if ln.startswith("| h vs none"))
    assert "nan" not in line.lower() and line.count("–") == 2
