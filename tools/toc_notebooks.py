"""Print the notebooks listed in _toc.yml, one per line (used by the Makefile and tests).

A chapter is either one notebook (``- file: book/<slug>``) or a chapter page with section pages
(``- file: book/<slug>/index`` with ``sections:`` listing ``book/<slug>/<page>``); ``toc_chapters``
gives both kinds as ``(slug, notebooks)``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def toc_files(toc_path: Path = ROOT / "_toc.yml") -> list[str]:
    """All `file:` entries of the table of contents (and the root), in order, without suffix."""
    toc = yaml.safe_load(toc_path.read_text(encoding="utf-8"))
    files = [toc["root"]]

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if "file" in node:
                files.append(node["file"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(toc.get("parts", toc.get("chapters", [])))
    return files


def toc_notebooks() -> list[Path]:
    """The chapter notebooks (`.ipynb`) of the table of contents."""
    return [ROOT / f"{f}.ipynb" for f in toc_files() if (ROOT / f"{f}.ipynb").exists()]


def chapter_slug(file: str) -> str | None:
    """``book/<slug>`` or ``book/<slug>/index`` -> ``<slug>``; anything else (the appendix) -> None."""
    m = re.fullmatch(r"book/([a-z0-9_]+)(?:/index)?", file)
    return m.group(1) if m else None


def toc_chapters(toc_path: Path = ROOT / "_toc.yml", root: Path = ROOT) -> list[tuple[str, list[Path]]]:
    """``(slug, notebooks)`` of every chapter, in reading order: its own notebook and those of its sections
    (the files that exist under ``root``)."""
    toc = yaml.safe_load(toc_path.read_text(encoding="utf-8"))
    out = []
    for part in toc.get("parts", []):
        for chapter in part.get("chapters", []):
            slug = chapter_slug(chapter["file"])
            if slug is None:
                continue
            files = [chapter["file"]]
            stack = list(chapter.get("sections", []))
            while stack:
                node = stack.pop(0)
                files.append(node["file"])
                stack[:0] = node.get("sections", [])
            out.append((slug, [root / f"{f}.ipynb" for f in files if (root / f"{f}.ipynb").exists()]))
    return out


if __name__ == "__main__":
    sys.stdout.write("\n".join(str(p.relative_to(ROOT)) for p in toc_notebooks()) + "\n")
