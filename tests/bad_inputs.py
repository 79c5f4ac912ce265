"""The runner of the bad-input tables: every chapter's ``tests/<slug>/test_<slug>_bad_inputs.py`` lists rows.

A ``bad`` row is a call that must raise ``error`` with a message matching ``match`` (the message must name
the offending argument); an ``edge`` row is a call with a documented result that ``check`` accepts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import matplotlib
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402


@dataclass(frozen=True)
class Bad:
    call: Callable[[], Any]
    error: type[BaseException] | tuple[type[BaseException], ...]
    match: str


@dataclass(frozen=True)
class Edge:
    call: Callable[[], Any]
    check: Callable[[Any], bool]


def bad(case_id: str, call: Callable[[], Any], error: Any, match: str):
    """A row: ``call()`` must raise ``error`` with a message matching the regular expression ``match``."""
    return pytest.param(Bad(call, error, match), id=case_id)


def edge(case_id: str, call: Callable[[], Any], check: Callable[[Any], bool]):
    """A row: ``check(call())`` must be true."""
    return pytest.param(Edge(call, check), id=case_id)


def run_bad(case: Bad) -> None:
    with pytest.raises(case.error, match=case.match):
        case.call()
    plt.close("all")


def run_edge(case: Edge) -> None:
    result = case.call()
    assert case.check(result), f"unexpected result: {result!r}"
