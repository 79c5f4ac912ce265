"""Grade a folder of submitted notebooks against a release manifest, safely and resumably.

Every ``.ipynb`` under the folder is read (never changed), matched to a page of the release (by the
``nlp_classroom`` metadata the release stamps, else by its exercise labels), and the code each exercise
needs is extracted (``tools.classroom.extract``). A separate judge process (``tools.classroom.judge``)
then runs it in a scratch copy of the submission's folder, with limits on memory, CPU time and file size,
in a network namespace with no network when the system allows one, and calls the book's checkers there.

The judge runs in a sandbox (``tools.classroom.sandbox``) whose limits are in CPU seconds, never in
wall-clock seconds, so that a busy or slow machine grades a correct answer correct. Results are
cached by the submission's content: a second run regrades only the submissions that changed.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import importlib.util
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat

from tools.classroom.exercises import find_exercises, page_version, solution_indices
from tools.classroom.extract import extract
from tools.classroom.release import METADATA_KEY, read_manifest
from tools.classroom.sandbox import Limits, isolation_prefix, run_judge
from tools.toc_notebooks import ROOT

COLUMNS = ["submission", "exercise", "status", "points", "message"]
# CPython 3.11's ast module is not thread-safe: two threads that parse at once can corrupt its recursion
# counter and raise "SystemError: AST constructor recursion depth mismatch" (python/cpython#106905; seen here
# under load). grade_folder grades submissions in threads, so their parsing takes turns; the judges still run
# at once.
_AST_LOCK = threading.Lock()
GRADER_VERSION = "1"


def _fail_rows(exercises: list[dict], status: str, message: str) -> list[dict]:
    return [{"exercise": e["label"], "status": status, "message": message} for e in exercises]


def identify(nb: nbformat.NotebookNode, manifest: dict) -> tuple[str | None, str]:
    """``(page id, "")`` of the release page a submission is, or ``(None, why not)``."""
    pages = manifest["pages"]
    names = ", ".join(sorted(pages))
    meta = nb.metadata.get(METADATA_KEY)
    found = find_exercises(nb)
    if isinstance(meta, dict) and isinstance(meta.get("page"), str):
        page, version = meta["page"], meta.get("version")
    else:  # metadata lost (another editor, a copy-paste): recognise the page by its exercises
        labels = {e.label for e in found}
        page = next((p for p, entry in pages.items() if labels & {e["label"] for e in entry["exercises"]}), None)
        version = page_version(found) if page else None
        if page is None:
            what = f"exercises {', '.join(sorted(labels))}" if labels else "no exercises of the book"
            return None, f"this notebook is not a page of this assignment ({names}): it has {what}"
    if page not in pages:
        return None, f"this notebook is the page {page}, which is not part of this assignment ({names})"
    if version != pages[page]["version"]:
        return None, (
            f"this notebook is another version of {page} (exercises version {version}, the assignment's is "
            f"{pages[page]['version']}): the exercises changed since it was downloaded. Copy your answers "
            "into the current release of the page and submit that."
        )
    return page, ""


def _code_cells(nb: nbformat.NotebookNode) -> list[str]:
    return [c.source for c in nb.cells if c.get("cell_type") == "code" and isinstance(c.get("source"), str)]


@functools.cache
def worked_solutions(page: str, functions: tuple[str, ...]) -> dict[str, str]:
    """``{function: code}``: the worked solutions of ``page`` (its instructor's notebook, if it is here), run by
    the judge before a student's answer to time them on this machine (empty: the limits are then the floors)."""
    path = ROOT / f"{page}.ipynb"
    if not path.is_file():
        return {}
    nb = nbformat.read(path, as_version=4)
    cells = [nb.cells[i].source for i in sorted(set(solution_indices(nb)))]
    setup = [c.source for c in nb.cells[:1] if c.cell_type == "code"]
    return dict(extract(setup + cells, list(functions)).code)


def grade_submission(path: Path, manifest: dict, limits: Limits, prefix: list[str]) -> list[dict]:
    """Grade one notebook: rows ``{exercise, status, message}`` for the exercises of its page.

    Each job carries the exercise's worked solution (:func:`worked_solutions`): the judge checks it first and
    allows the student's answer ``per_exercise_s`` plus ``REFERENCE_FACTOR`` times its CPU time."""
    with _AST_LOCK:  # everything that parses Python (identify, extract, worked_solutions) runs one at a time
        prepared = _prepare(path, manifest)
    if isinstance(prepared, list):  # unreadable or unknown: rows already
        return prepared
    exercises, rows, jobs = prepared
    if jobs:
        rows |= run_judge(path, jobs, limits, prefix)
    return [
        {"exercise": e["label"], "status": rows[e["function"]][0], "message": rows[e["function"]][1]} for e in exercises
    ]


def _prepare(path: Path, manifest: dict) -> list[dict] | tuple[list[dict], dict, list[dict]]:
    """The rows already known and the judge's jobs for one notebook (or its rows, if it cannot be graded)."""
    pages = manifest["pages"]
    only = _exercises_of(path, manifest)
    try:
        nb = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is reported, never raised
        first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
        return _fail_rows(only, "error", f"not a readable Jupyter notebook ({first}); no marks")
    page, why = identify(nb, manifest)
    if page is None:
        return _fail_rows(only, "error", why)
    exercises = pages[page]["exercises"]
    found = extract(_code_cells(nb), [e["function"] for e in exercises])
    rows, jobs = {}, []
    for e in exercises:
        fn = e["function"]
        if fn in found.blocked:
            rows[fn] = ("error", f"the code of `{fn}` was not run: {found.blocked[fn]}; no marks")
        elif fn in found.missing:
            if found.syntax_errors:
                rows[fn] = ("error", f"`{fn}` could not be read: {found.syntax_errors[0]}")
            else:
                rows[fn] = ("not yet", f"the notebook defines no function `{fn}`: write it in the exercise's cell")
        else:
            solution = worked_solutions(page, tuple(x["function"] for x in exercises)).get(fn)
            jobs.append(
                {"function": fn, "checker_module": e["checker_module"], "checker": e["checker"]}
                | {"code": found.code[fn], "solution": solution}
            )
    return exercises, rows, jobs


def _code_fingerprint(manifest: dict) -> str:
    """Hash of the grader's and the checkers' source: changing either regrades every submission."""
    here = Path(__file__).parent
    files = [here / f"{name}.py" for name in ("exercises", "extract", "judge", "grade")]
    files.append(ROOT / "nlp_helpers" / "exercises" / "checker.py")
    modules = {e["checker_module"] for page in manifest["pages"].values() for e in page["exercises"]}
    for mod in sorted(modules):
        spec = importlib.util.find_spec(mod)
        if spec is not None and spec.origin:
            files.append(Path(spec.origin))
    h = hashlib.sha256(GRADER_VERSION.encode())
    for f in files:
        h.update(f.read_bytes() if f.is_file() else b"")
    return h.hexdigest()


def _digest(path: Path, context: str) -> str:
    return hashlib.sha256(path.read_bytes() + context.encode()).hexdigest()


def _write_json(path: Path, data) -> None:
    """Write atomically, so an interrupted run leaves the previous cache readable."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)


def _exercises_of(path: Path, manifest: dict) -> list[dict]:
    """The exercises of the page ``path`` is (by its metadata or exercises), else the one row "(unknown page)"."""
    pages = manifest["pages"]
    if len(pages) == 1:
        return next(iter(pages.values()))["exercises"]
    try:
        page, _ = identify(nbformat.reads(path.read_text(encoding="utf-8"), as_version=4), manifest)
    except Exception:  # noqa: BLE001 - unreadable: no page to name
        page = None
    return pages[page]["exercises"] if page in pages else [{"label": "(unknown page)"}]


def find_submissions(folder: Path) -> list[Path]:
    """Every ``.ipynb`` under ``folder`` (any depth), except Jupyter's checkpoints, in a stable order."""
    return sorted(p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts and p.is_file())


def grade_folder(
    folder: Path, manifest_path: Path, out: Path, *, jobs: int = 2, limits: Limits | None = None, log=print
) -> list[dict]:
    """Grade every notebook under ``folder``; write the gradebook CSV ``out`` and return its rows.

    Results are cached beside ``out`` by the submission's content (and the manifest and limits):
    a second run regrades only what changed. Points come from the manifest at write time.
    """
    folder, out = Path(folder), Path(out)
    if not folder.is_dir():
        raise ValueError(f"submissions: expected a folder, got {str(folder)!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs: expected a positive int, got {jobs!r}")
    limits = limits or Limits()
    manifest = read_manifest(manifest_path)
    subs = find_submissions(folder)
    if not subs:
        raise ValueError(f"submissions: no .ipynb files under {str(folder)!r}")
    out.parent.mkdir(parents=True, exist_ok=True)
    cache_path = out.with_name(out.name + ".cache.json")
    cache = json.loads(cache_path.read_text(encoding="utf-8")) if cache_path.exists() else {}
    prefix = isolation_prefix()
    if not prefix:
        log("warning: no network namespace available; submissions are graded with the network reachable")
    context = json.dumps([_code_fingerprint(manifest), limits.__dict__, manifest["pages"]], sort_keys=True)
    todo = []
    for p in subs:
        key = p.relative_to(folder).as_posix()
        if cache.get(key, {}).get("digest") != _digest(p, context):
            todo.append((key, p))
    log(f"{len(subs)} submissions: {len(subs) - len(todo)} unchanged since the last run, {len(todo)} to grade")
    lock, count = threading.Lock(), [0]

    def work(item):
        key, p = item
        start = time.monotonic()
        try:
            rows = grade_submission(p, manifest, limits, prefix)
        except Exception as exc:  # noqa: BLE001 - a grader bug must not stop the other submissions
            rows = _fail_rows(_exercises_of(p, manifest), "error", f"the grader failed ({type(exc).__name__}: {exc})")
        with lock:
            count[0] += 1
            cache[key] = {"digest": _digest(p, context), "rows": rows}
            _write_json(cache_path, cache)
            n_ok = sum(r["status"] == "correct" for r in rows)
            log(f"[{count[0]}/{len(todo)}] {key}: {n_ok}/{len(rows)} correct ({time.monotonic() - start:.1f} s)")

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(work, todo))
    keys = [p.relative_to(folder).as_posix() for p in subs]
    cache = {k: cache[k] for k in keys}  # forget submissions that were removed
    _write_json(cache_path, cache)
    points = {e["label"]: e["points"] for page in manifest["pages"].values() for e in page["exercises"]}
    table = []
    for key in keys:
        for r in cache[key]["rows"]:
            pts = points.get(r["exercise"], 0) if r["status"] == "correct" else 0
            table.append({"submission": key, **r, "points": pts})
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows({c: row[c] for c in COLUMNS} for row in table)
    return table
