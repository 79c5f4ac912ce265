"""The browser tests must collect on a clean checkout, before the book is built.

CI's first step runs ``pytest tests -m "not browser"`` on a fresh clone, where ``_build/html`` does not
exist yet. Every page-parametrised browser test then has no pages, pytest gives it one skipped item with
NOTSET parameters, and the browser folder's ordering hook must still sort those items (a
``TypeError`` there once stopped every worker before any test ran).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_browser_tests_collect_when_the_book_is_not_built(tmp_path: Path) -> None:
    env = {**os.environ, "NLP_BOOK_HTML": str(tmp_path / "no-build")}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/browser", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-3000:]
    assert "INTERNALERROR" not in output
    assert "tests collected" in output or "test collected" in output
