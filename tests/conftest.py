"""Shared pytest set-up for the test suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from nlp_helpers.exercises.checker import STRICT_ENV


@pytest.fixture(autouse=True)
def lenient_checkers(request, monkeypatch):
    """Checker tests look at the feedback a student sees, so they run without strict mode.

    ``tools/run_tests.sh`` sets NLP_EXERCISES_STRICT=1 for the notebooks, where a failing
    checker must fail CI; a test that wants strict mode sets it itself with monkeypatch.
    """
    if request.module.__name__.split(".")[-1].endswith("_exercises"):
        monkeypatch.delenv(STRICT_ENV, raising=False)


def pytest_collection_finish(session: pytest.Session) -> None:
    """With ``$NLP_TRAINS_FILES`` set, write the test files that hold a ``trains`` test there, one a line.

    ``tools/run_tests.sh`` sets it for configuration A's run and passes the files to configuration B's
    run, which then imports only those modules instead of collecting every test module of the book
    again in each of its workers. Under pytest-xdist every worker collects the same tests; the first
    one writes the list.
    """
    path = os.environ.get("NLP_TRAINS_FILES")
    if not path or os.environ.get("PYTEST_XDIST_WORKER", "gw0") != "gw0":
        return
    files = sorted({item.nodeid.split("::")[0] for item in session.items if item.get_closest_marker("trains")})
    Path(path).write_text("".join(f"{f}\n" for f in files), encoding="utf-8")
