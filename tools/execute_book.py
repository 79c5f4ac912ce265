"""Execute the book's chapters in parallel into the build's execution cache, before `jupyter-book build`.

Jupyter Book executes notebooks one after another; on a machine with several cores this fills its
cache (``_build/.jupyter_cache``, the one ``execute_notebooks: cache`` reads) with one process per core
first, so the build that follows only renders. The notebooks run exactly as the build would run them:
in their own folder, with the environment ``tools/book_ext.py`` gives the build's kernels.

    python tools/execute_book.py [NOTEBOOK ...]    # default: every notebook of _toc.yml
    python tools/execute_book.py --from DIR [NOTEBOOK ...]

With ``--from DIR`` nothing is executed: DIR holds the notebooks as CI's nbval run executed them
(``tools/nbval_record.py`` wrote them there, at their paths under ``book/``), and each goes into the
cache as it is. The build then renders the outputs of the run that tested them. A notebook missing
from DIR, or whose code differs from the book's, is an error: the build would run it again unseen.

A notebook that fails is run once more on its own: two kernels started at the same moment can pick
the same port ("Address already in use", then "Kernel didn't respond"), which says nothing about the
notebook. Exits non-zero, printing each failing notebook's traceback, if a notebook fails twice.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

import nbformat
import yaml
from jupyter_cache import get_cache
from jupyter_cache.base import CacheBundleIn
from jupyter_cache.executors import load_executor

from tools.toc_notebooks import toc_notebooks

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "_build" / ".jupyter_cache"
# What tools/book_ext.py sets for the build's kernels: no baked progress bars, checkers that tell
# the reader what to do. Set here too, so the cached outputs are the ones the build would make.
BUILD_ENVIRONMENT = {"TQDM_DISABLE": "1", "NLP_BOOK_BUILD": "1"}
# Figures reach the page only through the inline backend. A kernel started with MPLBACKEND=Agg (which
# tools/run_tests.sh and tools/robust.sh export for the tests) draws every figure into nothing: the
# built page would silently have none. The build's kernels always get the inline backend.
INLINE_BACKEND = "module://matplotlib_inline.backend_inline"


def _code(nb: nbformat.NotebookNode) -> list[str]:
    return [cell.source for cell in nb.cells if cell.cell_type == "code"]


def cache_recorded(notebooks: list[Path], record_dir: Path) -> int:
    """Put the notebooks nbval executed (``record_dir``) into the build's cache; return an exit status."""
    cache = get_cache(str(CACHE))
    problems = []
    for path in notebooks:
        recorded = record_dir / path.relative_to(ROOT)
        if not recorded.is_file():
            problems.append(f"{path.relative_to(ROOT)}: no executed copy in {record_dir} (did its nbval run fail?)")
            continue
        executed = nbformat.read(str(recorded), as_version=4)
        source = nbformat.read(str(path), as_version=4)
        if _code(executed) != _code(source):
            problems.append(f"{path.relative_to(ROOT)}: the executed copy's code differs from the book's")
            continue
        seconds = executed.metadata.pop("nbval_record", {}).get("execution_seconds")
        bundle = CacheBundleIn(executed, str(path), data={"execution_seconds": seconds})
        cache.cache_notebook_bundle(bundle, check_validity=False, overwrite=True)
        cache.match_cache_notebook(source)  # KeyError here would mean the build executes it again
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"cached {len(notebooks) - len(problems)} executed notebook(s) from {record_dir}, {len(problems)} problem(s)")
    return 1 if problems else 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--from"]:
        if len(argv) < 2:
            print("usage: python -m tools.execute_book --from DIR [NOTEBOOK ...]", file=sys.stderr)
            return 2
        record_dir = Path(argv[1]).resolve()
        notebooks = [Path(a).resolve() for a in argv[2:]] or [Path(p).resolve() for p in toc_notebooks()]
        return cache_recorded(notebooks, record_dir)
    for key, value in BUILD_ENVIRONMENT.items():
        os.environ.setdefault(key, value)
    os.environ["MPLBACKEND"] = INLINE_BACKEND
    notebooks = [Path(a).resolve() for a in argv] or [Path(p).resolve() for p in toc_notebooks()]
    timeout = yaml.safe_load((ROOT / "_config.yml").read_text())["execute"]["timeout"]
    cache = get_cache(str(CACHE))
    for nb in notebooks:
        cache.add_nb_to_project(str(nb))
    logger = logging.getLogger("execute_book")
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    executor = load_executor("local-parallel", cache, logger=logger)
    result = executor.run_and_cache(filter_uris=[str(nb) for nb in notebooks], timeout=timeout)
    failed = list(result.errored) + list(result.excepted)
    if failed:
        print(f"running {len(failed)} failed notebook(s) once more, one at a time: {failed}", file=sys.stderr)
        again = load_executor("local-serial", cache, logger=logger).run_and_cache(filter_uris=failed, timeout=timeout)
        failed = list(again.errored) + list(again.excepted)
        result.succeeded.extend(again.succeeded)
    for uri in failed:
        record = cache.get_project_record(uri)
        print(f"\n==== {uri} failed ====\n{record.traceback or '(no traceback recorded)'}", file=sys.stderr)
    print(f"executed {len(result.succeeded)} notebook(s), {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
