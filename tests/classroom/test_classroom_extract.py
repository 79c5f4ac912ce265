"""Extraction takes only what an exercise's function needs; the screen refuses code that reaches for the grader."""

from __future__ import annotations

import pytest

from tools.classroom.extract import extract, screen

CELLS = [
    "import numpy as np\nimport re\nout = 5\nc = train_for_an_hour()",
    "def train_for_an_hour():\n    while True:\n        pass",
    "SCALE = 2.0\n\ndef helper(x):\n    return SCALE * np.exp(x)",
    "def f(word):\n    out = []\n    for c in word:\n        out.append(helper(c))\n    return out",
    "import nlp_helpers.exercises.checker as checker\nchecker.Checker = None\nprint = None",
    "%timeit f('ab')\n!ls",
]


def test_takes_the_function_and_what_it_needs_only():
    got = extract(CELLS, ["f"])
    code = got.code["f"]
    assert "def helper" in code and "SCALE = 2.0" in code and "import numpy as np" in code
    # `out` and `c` are locals of f: the top-level `out = 5` and the hour of training are not taken
    assert "train_for_an_hour" not in code and "out = 5" not in code
    assert "checker" not in code and "print" not in code and "import re" not in code
    assert got.missing == [] and got.blocked == {}


def test_the_last_definition_wins_and_missing_functions_are_listed():
    got = extract(["def f():\n    return 1", "def f():\n    return 2"], ["f", "g"])
    assert got.code["f"].strip() == "def f():\n    return 2"
    assert got.missing == ["g"]


def test_syntax_errors_are_reported_per_cell():
    got = extract(["def f(:\n    pass", "def g():\n    return 1"], ["f", "g"])
    assert got.missing == ["f"] and "g" in got.code
    assert got.syntax_errors and got.syntax_errors[0].startswith("code cell 1 does not parse")


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ("import nlp_helpers.exercises.checker as c", "nlp_helpers.exercises.checker"),
        ("from nlp_helpers.tagging.exercises import check_viterbi", "nlp_helpers.tagging.exercises"),
        ("import builtins", "`builtins`"),
        ("import ctypes", "`ctypes`"),
        ("import gc", "`gc`"),
        ("from importlib import import_module", "`importlib`"),
        ("x = eval('1')", "`eval`"),
        ("setattr(x, 'a', 1)", "`setattr`"),
        ("f = y.__globals__", "`.__globals__`"),
        ("k = ().__class__.__mro__", "`.__mro__`"),
        ("import sys\nm = sys.modules", "`.modules`"),
        ("g = e.__traceback__.tb_frame", "`.tb_frame`"),
        ("from numpy import *", "import *"),
        ("from pathlib import Path", "`pathlib`"),
        ("import shutil", "`shutil`"),
    ],
)
def test_screen_refuses_reaching_for_the_grader(source, words):
    import ast

    why = screen(ast.parse(source))
    assert why is not None and words in why


@pytest.mark.parametrize(
    "source",
    [
        "import numpy as np\nimport torch\nfrom collections import Counter\nimport math, re, itertools",
        "from nlp_helpers.tagging.viterbi import viterbi",
        "class A:\n    def __init__(self):\n        super().__init__()\n        self._cache = {}",
        "import os\nimport sys",
    ],
)
def test_screen_lets_ordinary_code_through(source):
    import ast

    assert screen(ast.parse(source)) is None


def test_blocked_code_is_reported_not_returned():
    got = extract(["def f(x):\n    import gc\n    return gc.get_objects()"], ["f"])
    assert "f" not in got.code and "`gc`" in got.blocked["f"]


def test_a_by_hand_answer_is_taken_as_its_assignment():
    cells = ["first_merges = ...  # your answer", 'first_merges = [("u", "g"), ("u", "n")]\nprint(first_merges)']
    got = extract(cells, ["first_merges"])
    assert not got.missing
    namespace: dict = {}
    exec(got.code["first_merges"], namespace)  # noqa: S102 - the test's own code
    assert namespace["first_merges"] == [("u", "g"), ("u", "n")]
    assert "print" not in got.code["first_merges"]
