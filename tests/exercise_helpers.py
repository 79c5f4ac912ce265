"""Helpers for the tests of the exercise checkers."""

from __future__ import annotations


def stub(*args, **kwargs):
    """A student's untouched exercise cell: the checker must answer "not yet"."""
    raise NotImplementedError
