"""Execute the book's chapters in parallel into the build's execution cache, before `jupyter-book build`.

Jupyter Book executes notebooks one after another; on a machine with several cores this fills its
cache (``_build/.jupyter_cache``, the one ``execute_notebooks: cache`` reads) with one process per core
first, so the build that follows only renders. The notebooks run exactly as the build would run them:
in their own folder, with the environment ``tools/book_ext.py`` gives the build's kernels.

    python tools/execute_book.py [NOTEBOOK ...]    # default: every notebook of _toc.yml

A notebook that fails is run once more on its own: two kernels started at the same moment can pick
the same port ("Address already in use", then "Kernel didn't respond"), which says nothing about the
notebook. Exits non-zero, printing each failing notebook's traceback, if a notebook fails twice.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

import yaml
from jupyter_cache import get_cache
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


def main(argv: list[str]) -> int:
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
