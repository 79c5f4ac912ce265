"""Hints teach without telling: a verdict never quotes the worked solution's code or the number the exercise
asks the student to work out.

:func:`leaks` compares a checker's message with

* the worked solution's code (the notebook's solution cell for that checker, see ``discovery``): a run of
  ``RUN`` code tokens (names, numbers, operators, brackets) that the message shares with a line of the
  solution, unless the exercise's statement already shows it (a formula the statement gives is not a leak);
* the values a by-hand exercise asks for (:data:`ASKED` and the worked answer of every by-hand checker):
  any of them written in the message to 3 or more significant digits.

``tests.exercise_helpers.assert_verdict`` applies it to every wrong answer of every chapter's catalogue.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

import numpy as np

from tests.exercises.discovery import checker_key, solution_sources, solutions, statements

GENERIC = "Leave the caller's data as it was"
RUN = 6  # code tokens in a row shared with the solution (and not in the statement) make a leak
_TOKEN = re.compile(r"[A-Za-z_]\w*|\d+(?:\.\d+)?(?:e-?\d+)?|\*\*|//|[-+*/%@<>=!]=?|[()\[\]{},:.]")
# By-hand numbers asked for inside a function exercise (the statement says "work it out by hand first").
ASKED: dict[str, Callable[[Callable], list[float]]] = {
    "rnn.exercises.check_rnn_params": lambda solution: [solution("lstm", 3, 4)],
    "ngram.exercises.check_ngram_mle": lambda solution: [solution(_sam(), [], "I")],
    "classification.exercises.check_f_beta": lambda solution: [solution(0.9, 0.3, b) for b in (1.0, 2.0, 0.5)],
    "classification.exercises.check_binary_likelihoods": lambda solution: [_fun_given_positive(solution)],
}


def _sam() -> list[list[str]]:
    from nlp_helpers.ngram.exercises import SAM

    return SAM


def _fun_given_positive(solution: Callable) -> float:
    from nlp_helpers.classification.exercises import REPEATS

    return solution([t.split() for _, t in REPEATS], [c for c, _ in REPEATS], 1.0)["+"]["fun"]


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _runs(tokens: list[str], n: int = RUN) -> set[tuple[str, ...]]:
    return {tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}


def _code_lines(source: str) -> list[str]:
    """The solution's lines of code: no definitions, imports, raises, comments, or demo calls of its functions."""
    defined = set(re.findall(r"^\s*def (\w+)\(", source, re.M))
    out, depth = [], 0  # depth: open brackets of a demo call that goes on over several lines
    for line in source.splitlines():
        line = line.split("#", 1)[0].strip()
        if depth > 0:  # still inside a demo call: its arguments are the example, not the computation
            depth += line.count("(") + line.count("[") - line.count(")") - line.count("]")
            continue
        if not line or line.startswith(("def ", "import ", "from ", "raise ", '"""', "'''", "@", "print(", "check_")):
            continue
        if any(re.search(rf"\b{name}\(", line) for name in defined):
            depth = max(0, line.count("(") + line.count("[") - line.count(")") - line.count("]"))
            continue  # trying the answer on an example, not computing it
        out.append(line)
    return out


@cache
def _solution_runs(key: str) -> frozenset[tuple[str, ...]]:
    said = _runs(_tokens(statements().get(key, "")))
    runs: set[tuple[str, ...]] = set()
    for line in _code_lines(solution_sources().get(key, "")):
        runs |= _runs(_tokens(line))
    return frozenset(runs - said)


def _numbers(value) -> list[float]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _numbers(v)]
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in _numbers(v)]
    try:
        arr = np.asarray(value, dtype=float).ravel()
    except (TypeError, ValueError):
        return []
    return [float(x) for x in arr if np.isfinite(x)]


@cache
def asked_numbers(key: str) -> tuple[float, ...]:
    """The numbers the exercise of ``key`` asks the student to work out (empty for ordinary function exercises)."""
    solution = solutions().get(key)
    if solution is None:
        return ()
    if key in ASKED:
        values = ASKED[key](solution)
    elif not callable(solution):  # a by-hand value
        values = _numbers(solution)
    else:
        try:  # a by-hand exercise answered by a function of no argument
            values = _numbers(solution()) if not _takes_arguments(solution) else []
        except Exception:  # noqa: BLE001 - not a by-hand function
            values = []
    return tuple(v for v in values if abs(v) > 1e-12 and v not in (0.5, 1.0, 2.0, -1.0))


def _takes_arguments(fn: Callable) -> bool:
    import inspect

    try:
        return any(p.default is p.empty for p in inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return True


def _written(v: float) -> list[str]:
    forms = {f"{v:.3g}", f"{v:.4g}", f"{v:.5g}", f"{v:.6g}", f"{v:.3f}", f"{v:.4f}", repr(v)}
    if float(v).is_integer() and abs(v) >= 10:
        forms.add(str(int(v)))
    return [f for f in forms if len(f.strip("-0.")) >= 2 or (float(v).is_integer() and abs(v) >= 10)]


def leaks(checker: Callable, message: str) -> list[str]:
    """What of the answer ``message`` gives away: shared code runs and asked-for numbers (empty: none)."""
    key = checker_key(checker)
    message = message.split(GENERIC, 1)[0]  # the guard's advice on copying inputs is the same for every exercise
    message = re.sub(r"\bshape=\([^)]*\)", " ", message)  # the guard's description of an array argument
    found = [" ".join(run) for run in _runs(_tokens(message)) & _solution_runs(key)]
    message = re.sub(r"\b(got|returned|gave|is not|does not have)\s+\S+", " ", message)  # the student's own value
    for v in asked_numbers(key):
        for form in _written(v):
            if re.search(rf"(?<![\w.]){re.escape(form)}(?![\w]|\.\d)", message):
                found.append(f"the asked value {form}")
                break
    return sorted(set(found))
