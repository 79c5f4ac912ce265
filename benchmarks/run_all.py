"""Run every benchmark and write the table the book shows as its appendix.

    python -m benchmarks.run_all                 # all benchmarks + notebook timings
    python -m benchmarks.run_all --only tfidf    # one benchmark module
    python -m benchmarks.run_all --install       # also time a cold install into a fresh venv
    python -m benchmarks.run_all --notebooks-only  # re-time the chapters, keep the last benchmark rows

Each ``benchmarks/bench_<topic>.py`` defines ``run() -> list[dict]`` with the keys
``helper, reference, agreement, ours_s, reference_s, target, met, note`` (see CONTRIBUTING.md).
Results go to ``benchmarks/results/latest.json`` and ``book/appendix/benchmarks.md``.
Figures are measured in the same run, on the same input, on this machine.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
from tools.toc_notebooks import toc_notebooks  # noqa: E402

KEYS = ("helper", "reference", "agreement", "ours_s", "reference_s", "target", "met", "note")
NOTEBOOK_TARGET_S = 45.0  # every page, top to bottom, in a fresh kernel (pages that load SmolLM2 or MiniLM too)


def notebook_target(name: str) -> float:
    """The run-time target of a page such as ``"finetuning/classification.ipynb"``: the same for every page."""
    if not isinstance(name, str) or not name.endswith(".ipynb"):
        raise ValueError(f"name must be a notebook's path ending in .ipynb, got {name!r}")
    return NOTEBOOK_TARGET_S


def run_benchmarks(only: str | None) -> list[dict]:
    rows = []
    for path in sorted(HERE.glob("bench_*.py")):
        topic = path.stem.removeprefix("bench_")
        if only and topic != only:
            continue
        print(f"== {path.name}", flush=True)
        start = time.perf_counter()
        try:
            results = importlib.import_module(f"benchmarks.{path.stem}").run()
        except Exception as exc:  # a broken benchmark is reported in the table, not hidden
            results = [
                {
                    "helper": topic,
                    "reference": "-",
                    "agreement": "-",
                    "ours_s": None,
                    "reference_s": None,
                    "target": "-",
                    "met": False,
                    "note": f"benchmark failed: {type(exc).__name__}: {exc}",
                }
            ]
        for row in results:
            missing = [k for k in KEYS if k not in row]
            if missing:
                raise KeyError(f"{path.name} returned a row without {missing}: {row}")
            rows.append({"topic": topic, "measured": dt.date.today().isoformat(), **{k: row[k] for k in KEYS}})
            print(
                f"   {row['helper']}: {row['agreement']} | ours {row['ours_s']} s, ref {row['reference_s']} s | {row['note']}"
            )
        print(f"   ({time.perf_counter() - start:.1f} s)")
    return rows


def time_notebooks() -> list[dict]:
    import nbformat
    from nbclient import NotebookClient

    rows = []
    for path in toc_notebooks():
        nb = nbformat.read(path, as_version=4)
        start = time.perf_counter()
        NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
        seconds = time.perf_counter() - start
        name = Path(path).relative_to(ROOT / "book").as_posix()  # section pages keep their chapter folder
        rows.append({"notebook": name, "seconds": round(seconds, 1)})
        print(f"   {name}: {seconds:.1f} s", flush=True)
    return rows


def venv_size_mb(venv: Path) -> float:
    total = sum(f.stat().st_size for f in venv.rglob("*") if f.is_file() and not f.is_symlink())
    return total / 1e6


def cold_install() -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="nlp-book-install-"))
    venv = tmp / "venv"
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-cache-dir"]
    subprocess.run([*pip, "-c", str(ROOT / "constraints.txt"), str(ROOT)], check=True)
    subprocess.run([*pip, "--no-deps", "-r", str(ROOT / "requirements-nodeps.txt")], check=True)
    seconds = time.perf_counter() - start
    size = venv_size_mb(venv)
    shutil.rmtree(tmp, ignore_errors=True)
    return {
        "seconds": round(seconds, 1),
        "size_mb": round(size, 1),
        "what": "pip install . (no dev/book extras) into a new venv, no pip cache",
    }


def fmt_s(x) -> str:
    if x is None or (isinstance(x, float) and x != x):
        return "–"
    return f"{x:.3g}" if isinstance(x, (int, float)) else str(x)


def _first_heading(text: str) -> str | None:
    return next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), None)


def chapter_titles() -> dict[str, str]:
    """``{slug: title}`` of the chapters in reading order (_toc.yml's). A chapter's slug is its folder under
    ``book/``; its title is its chapter page's first heading (``index.md``), else its first notebook's."""
    titles = {}
    for path in map(Path, toc_notebooks()):
        slug = path.parent.name if path.parent != ROOT / "book" else path.stem
        if slug in titles:
            continue
        index = path.parent / "index.md"
        title = _first_heading(index.read_text(encoding="utf-8")) if index.is_file() else None
        if title is None:
            nb = json.loads(path.read_text(encoding="utf-8"))
            markdown = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
            title = _first_heading(markdown) or slug
        titles[slug] = title
    # Benchmarks of the whole book rather than of one chapter, after the chapters.
    titles["widgets"] = "The widgets on the built pages (4x CPU throttling)"
    return titles


def _cell(x) -> str:
    """A table cell: a missing or undefined figure (None, NaN) is a dash, not "nan"."""
    if x is None or (isinstance(x, float) and x != x) or x == "nan":
        return "–"
    return str(x).replace("|", "\\|").replace("\n", " ")


def _met(r: dict) -> str:
    return "yes" if r["met"] is True else ("no" if r["met"] is False else str(r["met"]))


def markdown(rows: list[dict], notebooks: list[dict], install: dict | None, meta: dict) -> str:
    titles = chapter_titles()
    order = {slug: i for i, slug in enumerate(titles)}
    topics = sorted({r["topic"] for r in rows}, key=lambda t: order.get(t, len(order)))
    lines = [
        "# Appendix: benchmarks",
        "",
        "Every from-scratch helper of the book is compared with the reference library it imitates: "
        "how closely they agree on the same input, and how long each takes, measured in the same run "
        "on the same machine. Targets the book sets itself are listed with whether they were met, and "
        "by how much and why not where they were missed.",
        "",
        f"*Measured with `python -m benchmarks.run_all` on {meta['machine']}; each chapter's date is in the summary.*",
        "",
        "## Summary",
        "",
        "| chapter | comparisons | targets met | measured |",
        "| --- | --- | --- | --- |",
    ]
    for t in topics:
        mine = [r for r in rows if r["topic"] == t]
        met = sum(r["met"] is True for r in mine)
        dates = sorted({r.get("measured", meta["date"]) for r in mine})
        lines.append(
            f"| {{ref}}`{_cell(titles.get(t, t))} <bench-{t}>` | {len(mine)} | {met} of {len(mine)} | {', '.join(dates)} |"
        )
    for t in topics:
        lines += [
            "",
            f"({'bench-' + t})=",
            f"## {titles.get(t, t)}",
            "",
            "| helper vs reference | agreement | time, ours / reference (s) | met |",
            "| --- | --- | --- | --- |",
        ]
        notes = []
        for i, r in enumerate((r for r in rows if r["topic"] == t), start=1):
            lines.append(
                f"| {_cell(r['helper'])} vs {_cell(r['reference'])} [{i}] | {_cell(r['agreement'])} | "
                f"{fmt_s(r['ours_s'])} / {fmt_s(r['reference_s'])} | {_met(r)} |"
            )
            notes.append(f"{i}. Target: {r['target']}. {r['note']}".rstrip())
        lines += [""] + notes
    if notebooks:
        total = sum(n["seconds"] for n in notebooks)
        slowest = max(notebooks, key=lambda n: n["seconds"])
        lines += [
            "",
            "## Executing the chapters",
            "",
            "Each page of the book executed top to bottom in a fresh kernel, one page at a time, on a 2-core "
            "machine with one thread per process (`OMP_NUM_THREADS=1`, as `make book` and `make test` run "
            "them). The times include starting the kernel.",
            "",
            "| page | seconds | target (s) | met |",
            "| --- | --- | --- | --- |",
        ]
        for n in notebooks:
            target = notebook_target(n["notebook"])
            lines.append(
                f"| {n['notebook']} | {n['seconds']} | {target:.0f} | {'yes' if n['seconds'] <= target else 'no'} |"
            )
        lines += [
            "",
            f"All notebooks together: **{total:.0f} s**; slowest: {slowest['notebook']} ({slowest['seconds']} s).",
        ]
    if install:
        lines += [
            "",
            "## Installing",
            "",
            f"Cold install ({install['what']}): {install['seconds']} s, {install['size_mb']:.0f} MB on disk.",
        ]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="run only benchmarks/bench_<ONLY>.py")
    parser.add_argument("--no-notebooks", action="store_true", help="skip timing the notebooks")
    parser.add_argument("--install", action="store_true", help="also time a cold install (a few minutes)")
    parser.add_argument("--notebooks-only", action="store_true", help="only re-time the notebooks")
    parser.add_argument("--no-write", action="store_true", help="print only; do not update the appendix page")
    parser.add_argument("--render-only", action="store_true", help="rewrite the appendix page from latest.json")
    args = parser.parse_args()
    latest = HERE / "results" / "latest.json"
    previous = json.loads(latest.read_text()) if latest.exists() else {"rows": [], "notebooks": [], "install": None}
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.render_only:
        (ROOT / "book" / "appendix" / "benchmarks.md").write_text(
            markdown(previous["rows"], previous["notebooks"], previous.get("install"), previous["meta"]),
            encoding="utf-8",
        )
        return 0
    meta = {
        "date": dt.date.today().isoformat(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
    }
    rows = [] if args.notebooks_only else run_benchmarks(args.only)
    if args.only or args.notebooks_only:  # keep the other topics' rows from the last full run
        kept = [r for r in previous["rows"] if r["topic"] != args.only]
        rows = sorted(kept + rows, key=lambda r: r["topic"])
    notebooks = previous["notebooks"] if (args.no_notebooks or args.only) else time_notebooks()
    install = cold_install() if args.install else previous.get("install")
    text = markdown(rows, notebooks, install, meta)
    print(text)
    if not args.no_write:
        (HERE / "results").mkdir(exist_ok=True)
        (HERE / "results" / "latest.json").write_text(
            json.dumps({"meta": meta, "rows": rows, "notebooks": notebooks, "install": install}, indent=1, default=str)
        )
        (ROOT / "book" / "appendix" / "benchmarks.md").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
