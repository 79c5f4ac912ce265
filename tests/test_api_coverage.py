"""Meta-tests over the whole package: every exercise checker copes with unusable answers, and every public
helper is called by some test.

* Every ``check_*`` function of every chapter's ``exercises`` module must answer "wrong" (never crash) for an
  answer a student might give by mistake: not a function, ``None``, NaN, a string, an empty list.
* Every public function or class of ``nlp_helpers`` (defined in that module, name without ``_``) must be
  *called* by a test under ``tests/``: a call ``f(...)``, ``module.f(...)``, ``Class(...)`` or
  ``Class.method(...)``, resolved through the test file's imports. A name that merely appears in a file
  (in a docstring, a comment or a string) does not count.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import math
import pkgutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import nlp_helpers
from nlp_helpers.exercises.checker import STRICT_ENV, Checker, CheckResult

ROOT = Path(__file__).resolve().parent.parent
NAN = math.nan


def _checkers() -> list[tuple[str, Callable]]:
    """Every chapter's checkers: the ``check_*`` functions of ``nlp_helpers.<chapter>.exercises``."""
    out = []
    for info in pkgutil.walk_packages(nlp_helpers.__path__, "nlp_helpers."):
        parts = info.name.split(".")
        if not (parts[-1] == "exercises" and len(parts) == 3):
            continue
        mod = importlib.import_module(info.name)
        name = parts[1]
        out += [
            (f"{name}.{n}", f)
            for n, f in vars(mod).items()
            if n.startswith("check_") and inspect.isfunction(f) and f.__module__ == mod.__name__
        ]
    assert {"rnn", "classification", "tagging", "feedforward"} <= {n.split(".")[0] for n, _ in out}
    return out


UNUSABLE_ANSWERS = {
    "not-a-function": 42,
    "returns-None": lambda *a, **k: None,
    "returns-nan": lambda *a, **k: NAN,
    "returns-nan-matrix": lambda *a, **k: np.full((3, 3), NAN),
    "returns-str": lambda *a, **k: "x",
    "returns-empty-list": lambda *a, **k: [],
}


@pytest.mark.parametrize("answer", list(UNUSABLE_ANSWERS.values()), ids=list(UNUSABLE_ANSWERS))
@pytest.mark.parametrize("checker", [f for _, f in _checkers()], ids=[n for n, _ in _checkers()])
def test_every_checker_answers_wrong_for_an_unusable_answer_and_never_crashes(checker, answer, monkeypatch) -> None:
    monkeypatch.delenv(STRICT_ENV, raising=False)
    result = checker(answer)
    assert isinstance(result, CheckResult)
    assert result.status == "wrong" and not result and "❌" in str(result)


def test_checker_turns_an_unusable_return_value_into_feedback_but_still_fails_in_strict_mode(monkeypatch) -> None:
    def check(fn):
        with Checker("Sum a list") as ex:
            total = sum(ex.call(fn, [1, 2]))  # the checker iterates what the student returned
            ex.expect_close(total, 3, what="sum")
        return ex.result

    monkeypatch.delenv(STRICT_ENV, raising=False)
    res = check(lambda xs: "ab")  # sum("ab"): the checker cannot use a str
    assert res.status == "wrong" and "TypeError" in res.message and "return" in res.message
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(AssertionError, match="could not use what your function returned"):
        check(lambda xs: "ab")
    with pytest.raises(ZeroDivisionError):  # a bug in the checker before any answer is still raised
        with Checker("broken"):
            1 / 0  # noqa: B018


def public_callables() -> dict[str, list[str]]:
    """``{module: [names]}`` of the functions and classes each nlp_helpers module defines and does not hide with ``_``."""
    found: dict[str, list[str]] = {}
    for info in pkgutil.walk_packages(nlp_helpers.__path__, "nlp_helpers."):
        module = importlib.import_module(info.name)
        names = [
            name
            for name, obj in vars(module).items()
            if not name.startswith("_")
            and callable(obj)
            and not inspect.ismodule(obj)
            and getattr(obj, "__module__", None) == module.__name__
        ]
        if names:
            found[info.name] = names
    return found


def test_the_public_api_is_discovered() -> None:
    """Guard the discovery itself: it must see every kind of public callable, and no private or foreign one."""
    api = public_callables()
    assert "bpe" in {m.rsplit(".", 1)[-1] for m in api} and "BPE" in api["nlp_helpers.tokenization.bpe"]
    assert "wikipedia_articles" in api["nlp_helpers.data.corpora"]  # an lru_cache-wrapped loader
    assert "check_distinct_n" in api["nlp_helpers.sampling.exercises"]
    assert "AttentionExplorer" in api["nlp_helpers.widgets.attention"]
    assert "_check_logits" not in api["nlp_helpers.sampling.distributions"]  # private
    assert "check_float" not in api["nlp_helpers.sampling.distributions"]  # imported from _checks, defined elsewhere


def _is_parametrize_or_isinstance(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id == "isinstance"
    return isinstance(func, ast.Attribute) and func.attr == "parametrize"


def _dotted(expr: ast.expr, alias: dict[str, str]) -> list[str]:
    """The nlp_helpers objects an expression ``x``, ``x.y`` or ``x.y.z`` reaches: each prefix of the chain."""
    chain = []
    while isinstance(expr, ast.Attribute):
        chain.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name) or expr.id not in alias:
        return []
    out = [alias[expr.id]]
    for attr in reversed(chain):
        out.append(f"{out[-1]}.{attr}")
    return out


def called_helpers(path: Path) -> set[str]:
    """``module.name`` of every nlp_helpers function or class a test file calls.

    Counted as calls: ``f(...)``, ``module.f(...)``, ``Class(...)``, ``Class.method(...)`` (resolved through the
    file's imports); a helper handed to a test through ``pytest.mark.parametrize`` (the test calls its
    parameter); a class in ``isinstance(x, Class)`` (an assertion on what the code under test returned); a
    checker that keys an exercise catalogue, ``{check_x: Catalogue(...)}`` (``catalogue_test`` calls it).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    alias: dict[str, str] = {}  # local name -> dotted nlp_helpers object or module
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("nlp_helpers"):
            for a in node.names:
                alias[a.asname or a.name] = f"{node.module}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("nlp_helpers"):
                    alias[a.asname or "nlp_helpers"] = a.name if a.asname else "nlp_helpers"
    called: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        called.update(_dotted(node.func, alias))
        if _is_parametrize_or_isinstance(node.func):
            for arg in node.args:
                for sub in ast.walk(arg):
                    if isinstance(sub, (ast.Name, ast.Attribute)):
                        called.update(_dotted(sub, alias))
    # A checker that keys an exercise catalogue ({check_x: Catalogue(...)}): `catalogue_test`
    # (tests/exercise_helpers.py) calls it with every wrong and correct answer of its entry.
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if key is not None and _is_catalogue(value):
                    called.update(_dotted(key, alias))
    return called


def _is_catalogue(value: ast.expr) -> bool:
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "Catalogue"


def test_every_public_helper_is_called_by_some_test() -> None:
    """A new public function or class that no test calls fails CI; the message lists what is missing."""
    called = set().union(*(called_helpers(p) for p in (ROOT / "tests").rglob("*.py")))
    missing = [f"{m}.{n}" for m, names in public_callables().items() for n in names if f"{m}.{n}" not in called]
    assert not missing, "public helpers that no test calls (add a test, or prefix the name with _):\n  " + "\n  ".join(
        missing
    )


def test_the_call_finder_resolves_imports_and_ignores_mere_mentions(tmp_path: Path) -> None:
    sample = tmp_path / "test_sample.py"
    sample.write_text(
        "from nlp_helpers.tokenization import bpe as B\n"
        "from nlp_helpers.words.words import word_tokenize, stem\n"
        "import nlp_helpers.ngram.models\n"
        "def test_x():\n"
        "    B.BPE.train(['a b'], 3)\n"
        "    word_tokenize('a')\n"
        "    nlp_helpers.ngram.models.NGramLM(2)\n"
        "    assert 'stem' and B.merge_pair  # mentioned, not called\n"
        "@pytest.mark.parametrize('f', [B.pretokenize])\n"
        "def test_y(f):\n"
        "    assert f('a')\n"
        "from nlp_helpers.tfidf import exercises as ex\n"
        "CATALOGUE = {ex.check_cosine: Catalogue(wrong=[]), ex.check_search: dict(wrong=[])}\n"
    )
    found = called_helpers(sample)
    assert {"nlp_helpers.tokenization.bpe.BPE", "nlp_helpers.words.words.word_tokenize"} <= found
    assert "nlp_helpers.ngram.models.NGramLM" in found
    assert "nlp_helpers.words.words.stem" not in found
    assert "nlp_helpers.tokenization.bpe.merge_pair" not in found
    assert "nlp_helpers.tokenization.bpe.pretokenize" in found  # handed to the test by parametrize
    assert "nlp_helpers.tfidf.exercises.check_cosine" in found  # a catalogue's key: catalogue_test calls it
    assert "nlp_helpers.tfidf.exercises.check_search" not in found  # a key of some other dict
