"""Every checker calls the student's function only through the guard (``ex.call``, ``ex.try_call``,
``ex.expect_raises``), read from the checkers' source (AST), so that no call escapes the CPU limit, the
copies of the inputs, the recursion and interruption verdicts.

A checker's parameter (the student's answer) may appear only as the function argument of one of those three
methods, or be handed to a function of the same module whose own use of it follows the same rule (checked
recursively). A parameter annotated ``object`` is a by-hand answer (a value worked out on paper): it may be
inspected, but never called.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

from tests.exercises.discovery import all_checkers

GUARDED = {"call": 0, "try_call": 0, "expect_raises": 1}  # method -> position of the student's function
MODULES = sorted({f.__module__ for f in all_checkers().values()})


def _misuses(fn: ast.FunctionDef, names: set[str], functions: dict[str, ast.FunctionDef], seen: set[str]) -> list[str]:
    """Lines where one of ``names`` is used other than through the guard (following same-module helpers)."""
    allowed, out = set(), []
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Attribute) and node.func.attr in GUARDED:
            i = GUARDED[node.func.attr]
            if len(node.args) > i and isinstance(node.args[i], ast.Name) and node.args[i].id in names:
                allowed.add(id(node.args[i]))
        elif isinstance(node.func, ast.Name) and node.func.id in functions and node.func.id not in seen:
            callee = functions[node.func.id]
            params = [a.arg for a in callee.args.args]
            for j, arg in enumerate(node.args):
                if isinstance(arg, ast.Name) and arg.id in names and j < len(params):
                    allowed.add(id(arg))
                    out += _misuses(callee, {params[j]}, functions, seen | {callee.name})
    out += [
        f"{fn.name}:{node.lineno}"
        for node in ast.walk(fn)
        if isinstance(node, ast.Name)
        and node.id in names
        and isinstance(node.ctx, ast.Load)
        and id(node) not in allowed
    ]
    return out


def _direct_calls(fn: ast.FunctionDef, names: set[str]) -> list[str]:
    return [
        f"{fn.name}:{node.lineno}"
        for node in ast.walk(fn)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names
    ]


def problems(source: str) -> list[str]:
    """Every use of a checker's answer that bypasses the guard, as ``function:line``."""
    tree = ast.parse(source)
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    out = []
    for name, fn in functions.items():
        if not name.startswith("check_"):
            continue
        values = {a.arg for a in fn.args.args if isinstance(a.annotation, ast.Name) and a.annotation.id == "object"}
        answers = {a.arg for a in fn.args.args} - values
        out += _misuses(fn, answers, functions, {name}) + _direct_calls(fn, values)
    return out


@pytest.mark.parametrize("module", MODULES)
def test_every_call_of_the_answer_goes_through_the_guard(module) -> None:
    source = Path(inspect.getfile(importlib.import_module(module))).read_text(encoding="utf-8")
    found = problems(source)
    assert not found, f"{module} uses the student's answer outside ex.call/try_call/expect_raises at {found}"


def test_the_search_finds_a_direct_call_a_helper_call_and_a_called_value() -> None:
    source = """
def _raises(f):
    try:
        f(0)
    except ValueError:
        return True

def _fine(ex, f):
    return ex.call(f, 1)

def check_a(f):
    ex.call(f, 1)
    ex.expect_raises(ValueError, f, 2, what="x")
    _fine(ex, f)
    return f(3)

def check_b(f):
    return _raises(f)

def check_c(value: object):
    isinstance(value, dict)
    return value()
"""
    assert problems(source) == ["check_a:15", "_raises:4", "check_c:22"]
