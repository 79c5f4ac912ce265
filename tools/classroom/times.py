"""How long each chapter's exercises take a student: the table on the instructors' page.

Each chapter of ``_toc.yml`` (its page and its section pages) is read for exercises; an exercise's
time is estimated from the difficulty its title names (``exercises.MINUTES``). The table lives in
``book/appendix/instructors.md`` between two markers; ``python -m tools.classroom times --write``
rewrites it and a test checks that it is current.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import nbformat
import yaml

from tools.classroom.exercises import MINUTES, find_exercises
from tools.toc_notebooks import ROOT

PAGE = ROOT / "book" / "appendix" / "instructors.md"
START, END = "<!-- exercise-times: start -->", "<!-- exercise-times: end -->"


def _chapters(toc_path: Path) -> list[list[str]]:
    """The files of each numbered chapter of the table of contents (the chapter's own, then its sections)."""
    toc = yaml.safe_load(toc_path.read_text(encoding="utf-8"))
    out = []

    def files(node) -> list[str]:
        found = [node["file"]] if isinstance(node, dict) and "file" in node else []
        for child in node.get("sections", []) if isinstance(node, dict) else []:
            found += files(child)
        return found

    for part in toc.get("parts", []):
        if part.get("numbered"):
            out += [files(chapter) for chapter in part.get("chapters", [])]
    return out


def _title(files: list[str]) -> str:
    for f in files:
        for suffix in (".md", ".ipynb"):
            path = ROOT / f"{f}{suffix}"
            if path.exists():
                text = path.read_text(encoding="utf-8")
                if suffix == ".ipynb":
                    text = "\n".join(
                        c.source for c in nbformat.reads(text, as_version=4).cells if c.cell_type == "markdown"
                    )
                m = re.search(r"^# (.+)$", text, re.M)
                if m:
                    return m.group(1).strip()
    return files[0]


def exercise_times(toc_path: Path = ROOT / "_toc.yml") -> list[dict]:
    """One row per chapter with exercises: title, counts by difficulty, points and estimated minutes."""
    rows = []
    for files in _chapters(toc_path):
        exercises = []
        for f in files:
            path = ROOT / f"{f}.ipynb"
            if path.exists():
                exercises += find_exercises(nbformat.read(path, as_version=4))
        if not exercises:
            continue
        counts = Counter(e.difficulty or "unrated" for e in exercises)
        rows.append(
            {
                "chapter": _title(files),
                "exercises": len(exercises),
                "by difficulty": ", ".join(f"{counts[d]} {d}" for d in (*MINUTES, "unrated") if counts[d]),
                "points": sum(e.points for e in exercises),
                "minutes": sum(e.minutes for e in exercises),
            }
        )
    return rows


def markdown_table(rows: list[dict]) -> str:
    lines = [
        "| chapter | exercises | difficulty | points | time (estimate) |",
        "| --- | ---: | --- | ---: | ---: |",
    ]
    for r in rows:
        hours, minutes = divmod(r["minutes"], 60)
        time = f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"
        lines.append(f"| {r['chapter']} | {r['exercises']} | {r['by difficulty']} | {r['points']} | {time} |")
    return "\n".join(lines)


def current_table(page: Path = PAGE) -> str:
    """The table as the page holds it now (between the markers)."""
    text = page.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise ValueError(f"page: {page} has no {START} ... {END} markers")
    return text.split(START, 1)[1].split(END, 1)[0].strip()


def write_table(page: Path = PAGE) -> None:
    """Rewrite the table between the markers of ``page``."""
    current_table(page)  # checks the markers
    text = page.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    tail = rest.split(END, 1)[1]
    page.write_text(f"{head}{START}\n{markdown_table(exercise_times())}\n{END}{tail}", encoding="utf-8")
