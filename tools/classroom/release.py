"""Release an assignment: student copies of book pages plus a manifest of their exercises and points.

The student copies are ``tools.notebooks.student_version`` of the cleaned pages (solutions removed,
stubs shown, quick checks kept), written under ``OUT_DIR`` at their path below ``book/`` and stamped
with the page and the version of its exercises (notebook metadata ``nlp_classroom``), which the
grader reads back. ``manifest.json`` lists each page's exercises and the points each is worth.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat

from tools.classroom.exercises import find_exercises, page_id, page_version, solution_sources
from tools.notebooks import clean, student_version
from tools.toc_notebooks import ROOT, toc_notebooks

MANIFEST = "manifest.json"
METADATA_KEY = "nlp_classroom"
FORMAT = 1


def release_page(path: Path, out_dir: Path) -> dict:
    """Write the student copy of one page under ``out_dir``; return its manifest entry."""
    path = Path(path)
    if path.suffix != ".ipynb" or not path.is_file():
        raise ValueError(f"pages: expected existing .ipynb notebooks, got {str(path)!r}")
    nb = nbformat.read(path, as_version=4)
    exercises = find_exercises(nb)
    pid = page_id(path, ROOT)
    student = student_version(clean(nb))
    version = page_version(exercises)
    student.metadata[METADATA_KEY] = {"page": pid, "version": version}
    leaked = [src for src in solution_sources(student) if src.strip()]
    if leaked:  # student_version removes them; a page that breaks the convention must not leak
        raise ValueError(f"{path}: solution cells survive in the student copy")
    rel = Path(pid).relative_to("book") if pid.startswith("book/") else Path(pid)
    target = out_dir / rel.with_suffix(".ipynb")
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(student, target)
    return {
        "notebook": target.relative_to(out_dir).as_posix(),
        "version": version,
        "exercises": [
            {k: v for k, v in e.as_dict().items() if k != "statement"} | {"minutes": e.minutes} for e in exercises
        ],
    }


def release(out_dir: Path, pages: list[Path] | None = None) -> Path:
    """Write student copies of ``pages`` (default: every notebook of ``_toc.yml``) and ``manifest.json``.

    Returns the manifest's path. An existing manifest's points are kept for exercises whose
    fingerprint has not changed, so an instructor's edits survive a re-release.
    """
    out_dir = Path(out_dir)
    pages = [Path(p) for p in pages] if pages else toc_notebooks()
    if not pages:
        raise ValueError("pages: no notebooks to release")
    out_dir.mkdir(parents=True, exist_ok=True)
    manifest_path = out_dir / MANIFEST
    old_points = {}
    if manifest_path.exists():
        old = read_manifest(manifest_path)
        old_points = {
            (e["label"], e["fingerprint"]): e["points"] for p in old["pages"].values() for e in p["exercises"]
        }
    entries = {}
    for path in pages:
        entry = release_page(path, out_dir)
        for e in entry["exercises"]:
            e["points"] = old_points.get((e["label"], e["fingerprint"]), e["points"])
        entries[page_id(path, ROOT)] = entry
    manifest = {"format": FORMAT, "pages": entries}
    manifest_path.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return manifest_path


def read_manifest(path: Path) -> dict:
    """Load and validate a release manifest (points must be non-negative numbers)."""
    path = Path(path)
    if path.is_dir():
        path = path / MANIFEST
    if not path.is_file():
        raise ValueError(f"manifest: no {MANIFEST} at {str(path)!r}; run `python -m tools.classroom release` first")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"manifest: {path} is not valid JSON ({exc})") from None
    if (
        not isinstance(manifest, dict)
        or manifest.get("format") != FORMAT
        or not isinstance(manifest.get("pages"), dict)
    ):
        raise ValueError(f"manifest: {path} is not a format-{FORMAT} classroom manifest")
    for pid, page in manifest["pages"].items():
        for e in page.get("exercises", []):
            pts = e.get("points")
            if not isinstance(pts, (int, float)) or isinstance(pts, bool) or pts < 0:
                raise ValueError(f"manifest: points of {pid}/{e.get('label')} must be a number >= 0, got {pts!r}")
    return manifest
