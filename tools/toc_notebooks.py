"""Print the notebooks listed in _toc.yml, one per line (used by the Makefile and tests)."""

from __future__ import annotations

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


if __name__ == "__main__":
    sys.stdout.write("\n".join(str(p.relative_to(ROOT)) for p in toc_notebooks()) + "\n")
