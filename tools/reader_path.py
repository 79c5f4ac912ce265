"""The reader's-path checks of a section page's notebook (CONTRIBUTING.md, "Section pages").

A page's **main path** is its prose and visible code outside the sections a reader may skip: those whose
heading starts with "Going further", and the closing ``Summary``, ``Quick checks``, ``Exercises`` and
``Further reading`` (each with its subsections). Prose inside a ``course-notes`` aside is never counted.
Visible code is the non-blank lines of code cells not tagged ``remove-cell``, ``remove-input``,
``hide-input`` or ``hide-cell``. The opener's ``Time`` line is checked by ``tools/page_time.py``: at most 60
minutes, the reading time at least the main path's words at 200 and code lines at 20 a minute, the exercises
counted by difficulty as in the instructors' table, the ones left out named as optional depth.

``python -m tools.reader_path``                  one line per page of ``_toc.yml``: words, code lines, failures
``python -m tools.reader_path book/x/y.ipynb``   the same for the pages named
``python -m tools.reader_path --summary``         only the first line of each page (words, code lines, failures)

The built HTML has its own checks in ``tools/reader_path_html.py``; ``tests/test_reader_path.py`` runs both
and reads ``tests/reader_path_allowlist.txt``, the pages whose failures are reported instead of raised.
"""

from __future__ import annotations

import re
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from tools import page_time
from tools.toc_notebooks import ROOT, toc_notebooks

MAIN_WORDS, MAIN_CODE = 3500, 350
PAGE_WORDS, PAGE_CODE = 4500, 450
ALLOWLIST = ROOT / "tests" / "reader_path_allowlist.txt"
HIDDEN_CODE = {"remove-cell", "remove-input", "hide-input", "hide-cell"}
OFF_PATH = re.compile(r"^(going further\b|summary$|quick checks?$|exercises$|further reading$)", re.I)
# Words a reader cannot act on: they have the book, not the course's notes or our repository.
INSIDER = re.compile(
    r"\blecture notes\b|\bthe notes\b|\bhidden (?:cell|check)s?\b|benchmarks/|\btime budget\b"
    # "slide(s)" of a slide deck, not a window that slides along nor a label such as ex-slide-norm
    r"|(?<![-\w])(?<!window )(?<!windows )slides?(?![-\w])(?!\s+(?:over|along|across|through|down|into|past|off|out|by)\b)"
    r"|\bseed offset\b|\bgolden files?\b|\btest suite\b|\bNLP_SEED_OFFSET\b|\bissue\s+#?\d+|\bseeds?\s*0\d\d\b",
    re.I,
)
# A promise of another place in the book; it needs a link in the same paragraph.
PROMISE = re.compile(
    r"\bwe(?:'ll| will)? (?:return|come back) to\b|\b(?:later|earlier) in (?:this|the) (?:chapter|book|page)\b"
    r"|\bin the (?:section|chapter) on\b|\bin (?:a|the) (?:later|next|previous|following) (?:section|chapter)\b"
    r"|\bas we(?:'ll| will) see later\b|\bwe(?:'ll| will) see (?:this|it|why|how) later\b|\bsee below\b",
    re.I,
)
LINK = re.compile(r"\{(?:ref|doc|numref|eq|download)\}`|\]\([^)]+\)|<https?://")
OPENER = re.compile(
    r"^[:`]{3,}\{admonition\}[^\n]*\n(?::[^\n]*\n)*?:class:[^\n]*\bpage-opener\b(?P<body>.*?)^[:`]{3,}\s*$", re.M | re.S
)


@dataclass
class Measure:
    """What a reader meets on a page: prose words and visible code lines, on the main path and in all."""

    main_words: int = 0
    main_code: int = 0
    words: int = 0
    code: int = 0
    headings: list[tuple[int, str]] = field(default_factory=list)


def drop_course_notes(text: str) -> str:
    """Markdown without the fenced blocks (``` or :::) whose options mark them ``course-notes``."""
    out: list[str] = []
    lines = text.splitlines()
    fence: str | None = None
    keep = True
    for i, line in enumerate(lines):
        m = re.match(r"\s*(`{3,}|:{3,})\{", line)
        if fence is None and m:
            head = lines[i + 1 : i + 5]
            fence, keep = m.group(1), not any("course-notes" in h for h in head if h.lstrip().startswith(":"))
        elif fence is not None and line.strip() == fence:
            fence, was_kept = None, keep
            keep = True
            if not was_kept:
                continue
        if keep:
            out.append(line)
    return "\n".join(out)


def words(text: str) -> int:
    """Words of prose (runs of letters), as the project's pre-stop hook counts them."""
    return len(re.findall(r"[A-Za-z][A-Za-z'-]*", text))


def headings(markdown: str) -> list[tuple[int, str]]:
    """``(level, title)`` of the Markdown headings outside code fences."""
    out, fence = [], None
    for line in markdown.splitlines():
        m = re.match(r"\s*(`{3,}|~{3,})", line)
        if m and (fence is None or m.group(1)[0] == fence[0] and line.strip().startswith(fence)):
            fence = None if fence else m.group(1)
            continue
        h = re.match(r"(#{1,6})\s+(.*?)\s*#*\s*$", line) if fence is None else None
        if h:
            out.append((len(h.group(1)), h.group(2)))
    return out


def _segments(nb: nbformat.NotebookNode):
    """Yield ``(cell, text, on_main_path)``: markdown cells cut at their headings, code cells whole."""
    off_level: int | None = None  # the level of the off-path heading we are under, if any
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            yield cell, cell.source, off_level is None
            continue
        chunk: list[str] = []
        for line in cell.source.splitlines():
            h = re.match(r"(#{1,6})\s+(.*?)\s*$", line)
            if h:
                if chunk:
                    yield cell, "\n".join(chunk), off_level is None
                chunk = []
                level = len(h.group(1))
                if off_level is not None and level <= off_level:
                    off_level = None
                if off_level is None and OFF_PATH.match(h.group(2).strip()):
                    off_level = level
            chunk.append(line)
        if chunk:
            yield cell, "\n".join(chunk), off_level is None


def measure(nb: nbformat.NotebookNode) -> Measure:
    """Count prose words and visible code lines of ``nb``, on its main path and in all."""
    m = Measure()
    for cell, text, main in _segments(nb):
        if cell.cell_type == "markdown":
            n = words(drop_course_notes(text))
            m.words += n
            m.main_words += n if main else 0
        elif cell.cell_type == "code" and not HIDDEN_CODE & set(cell.metadata.get("tags", [])):
            n = sum(1 for line in text.splitlines() if line.strip())
            m.code += n
            m.main_code += n if main else 0
    m.headings = headings("\n\n".join(c.source for c in nb.cells if c.cell_type == "markdown"))
    return m


def _section_cells(nb: nbformat.NotebookNode, title: str) -> list[nbformat.NotebookNode] | None:
    """The cells after the level-2 heading ``title`` up to the next level-1/2 heading (None if no such heading)."""
    start = None
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        found = [h for h in headings(cell.source) if h[0] <= 2]
        if start is not None and found:
            return nb.cells[start:i]
        if any(h == (2, title) for h in found):
            start = i + 1
    return None if start is None else nb.cells[start:]


def _comments(source: str) -> str:
    return "\n".join(m.group(1) for m in re.finditer(r"#(.*)$", source, re.M))


def _fmt(n: int) -> str:
    return f"{n:,}"


def notebook_failures(nb: nbformat.NotebookNode) -> tuple[Measure, list[str]]:
    """The page's measure and every way it misses the reader's-path standard (empty if none)."""
    m = measure(nb)
    bad: list[str] = []
    if m.main_words > MAIN_WORDS:
        bad.append(f"{_fmt(m.main_words)} words on the main path (limit {_fmt(MAIN_WORDS)})")
    if m.main_code > MAIN_CODE:
        bad.append(f"{_fmt(m.main_code)} lines of visible code on the main path (limit {MAIN_CODE})")
    if m.words > PAGE_WORDS:
        bad.append(f"{_fmt(m.words)} words on the whole page (limit {_fmt(PAGE_WORDS)})")
    if m.code > PAGE_CODE:
        bad.append(f"{_fmt(m.code)} lines of visible code on the whole page (limit {PAGE_CODE})")
    markdown = "\n\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    opener = OPENER.search(markdown)
    if opener is None:
        bad.append("no `page-opener` admonition (what you will learn, what you need, the time)")
    else:
        missing = [k for k in ("You will learn", "You need", "Time") if f"**{k}" not in opener.group("body")]
        if missing:
            bad.append(f"the page-opener lacks {', '.join(repr(k) for k in missing)}")
        time = page_time.time_text(opener.group("body"))
        if time is not None:
            bad += page_time.time_failures(time, page_time.page_exercises(nb), m.main_words, m.main_code)
    if _section_cells(nb, "Summary") is None:
        bad.append("no `## Summary` section")
    checks = _section_cells(nb, "Quick checks")
    if checks is None:
        bad.append("no `## Quick checks` section")
    elif not any(
        c.cell_type == "code" and "QuickCheck(" in c.source and "remove-input" in c.metadata.get("tags", [])
        for c in checks
    ):
        bad.append("`## Quick checks` has no code cell tagged remove-input showing a QuickCheck")
    insider: dict[str, list[int]] = {}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            text = drop_course_notes(cell.source)
            for hit in INSIDER.finditer(text):
                insider.setdefault(hit.group(0).lower(), []).append(i)
            for para in re.split(r"\n\s*\n", text):
                promise = PROMISE.search(para)
                if promise and not LINK.search(para):
                    bad.append(f"cell {i}: {promise.group(0)!r} without a link in the same paragraph")
        elif cell.cell_type == "code" and not HIDDEN_CODE & set(cell.metadata.get("tags", [])):
            for hit in INSIDER.finditer(_comments(cell.source)):
                insider.setdefault(hit.group(0).lower() + " (in a code comment)", []).append(i)
    for word, cells in insider.items():
        where = ", ".join(str(c) for c in sorted(set(cells)))
        bad.append(f"insider words {word!r} {len(cells)}x outside course-notes asides (cells {where})")
    return m, bad


def page_name(path: Path) -> str:
    """``book/<slug>/<page>.ipynb``, the name the allowlist and the reports use."""
    path = Path(path).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def pages() -> list[Path]:
    """The notebooks of ``_toc.yml`` under ``book/`` (section pages and old one-page chapters)."""
    return [p for p in toc_notebooks() if page_name(p).startswith("book/") and "appendix" not in Path(p).parts]


def read_allowlist(path: Path = ALLOWLIST) -> list[str]:
    """The allowlisted pages, one per line (``#`` comments and blank lines ignored)."""
    lines = [ln.split("#", 1)[0].strip() for ln in path.read_text(encoding="utf-8").splitlines()]
    return [ln for ln in lines if ln]


def report_lines(name: str, m: Measure | None, failures: list[str]) -> list[str]:
    """The page's measure (if given), then one line per failure, each ``book/x.ipynb: <failure>``."""
    lines = []
    if m is not None:
        lines.append(
            f"{name}: {_fmt(m.main_words)} words and {m.main_code} code lines on the main path "
            f"({_fmt(m.words)} and {m.code} on the whole page); {len(failures)} failure(s)"
        )
    return lines + [f"{name}: {f}" for f in failures]


class ReaderPathReport(UserWarning):
    """What an allowlisted page still misses (shown in pytest's warnings summary, never raised)."""


def report(name: str, failures: list[str]) -> None:
    """Report an allowlisted page's failures as a warning: one line per failure, each naming the page."""
    lines = [f"{name}: {len(failures)} failure(s) (allowlisted: reported, not raised)"]
    warnings.warn(ReaderPathReport("\n".join(lines + [f"{name}: {f}" for f in failures])), stacklevel=2)


def main(argv: list[str]) -> int:
    summary = "--summary" in argv
    paths = [Path(a).resolve() for a in argv if a != "--summary"] or pages()
    allowed = set(read_allowlist())
    status = 0
    for path in paths:
        m, failures = notebook_failures(nbformat.read(path, as_version=4))
        name = page_name(path)
        tag = "[allowlisted] " if name in allowed else ""
        lines = report_lines(name, m, failures)
        for line in lines[:1] if summary else lines:
            print(tag + line)
        status |= bool(failures) and name not in allowed
    return 0 if summary else int(status)  # the summary informs; the tests decide


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
