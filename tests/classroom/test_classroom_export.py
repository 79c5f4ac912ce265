"""Exports for nbgrader and otter-grader: their structure, then each tool's own grading of them.

The tool tests run nbgrader's ``generate_assignment``/``autograde`` and otter's ``assign``/``run`` (all
offline) on a solved and an unsolved copy of each page of the tagging chapter. The tools need Sphinx and docutils versions that Jupyter
Book 1 cannot use, so they live in their own environment (``make graders``); the tests find it through
``NLP_GRADERS_BIN`` (its ``bin`` folder) or ``PATH`` and are skipped, saying so, where it is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from tools.classroom.export import export, nested_solution, to_nbgrader, to_otter
from tools.notebooks import clean

ROOT = Path(__file__).resolve().parents[2]
PAGES = {name: ROOT / "book" / "tagging" / f"{name}.ipynb" for name in ("pos", "crf", "ner")}
PAGE = PAGES["pos"]
FEEDFORWARD = ROOT / "book" / "feedforward" / "training.ipynb"
POINTS = {  # per page; pos starts with a by-hand exercise answered with a value
    "pos": {"tagging-ex-viterbi-hand": 1, "tagging-ex-viterbi": 2, "tagging-ex-beam": 2},
    "crf": {"tagging-ex-forward-hand": 1, "tagging-ex-shape": 1, "tagging-ex-crf-marginals": 2},
    "ner": {"tagging-ex-bioes": 1, "tagging-ex-f1-by-type": 2, "tagging-ex-constrained": 3},
}


def _tool(name: str) -> Path | None:
    folder = os.environ.get("NLP_GRADERS_BIN")
    path = Path(folder) / name if folder else (Path(p) if (p := shutil.which(name)) else None)
    return path if path is not None and path.exists() else None


def _run(cmd: list, cwd: Path) -> subprocess.CompletedProcess:
    env = os.environ | {"PYTHONPATH": str(ROOT), "PATH": f"{Path(cmd[0]).parent}:{os.environ['PATH']}"}
    env |= {"OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1"}
    env.pop("NLP_EXERCISES_STRICT", None)
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, f"{cmd}: {proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    return proc


def test_nested_solution_moves_helpers_in_and_drops_the_demo():
    solution = (
        "import numpy as np\n\n\ndef sig(t):\n    return 1 / (1 + np.exp(-t))\n\n\n"
        'def tanh2(z):\n    """Tanh from the sigmoid."""\n    return 2 * sig(2 * z) - 1\n\n\nprint(tanh2(0.5))\n'
    )
    got = nested_solution(solution, "tanh2", "### BEGIN SOLUTION", "### END SOLUTION")
    lines = got.splitlines()
    assert lines[0] == "def tanh2(z):" and "Tanh from the sigmoid" in lines[1]
    assert lines[2] == "    ### BEGIN SOLUTION" and lines[-1] == "    ### END SOLUTION"
    assert "    import numpy as np" in lines and "    def sig(t):" in lines and "print" not in got
    namespace = {}
    exec(got, namespace)  # noqa: S102 - our own test input
    assert abs(namespace["tanh2"](0.5) - 0.46211715726) < 1e-9


@pytest.mark.parametrize("page", list(PAGES))
def test_nbgrader_notebook_has_answer_and_test_cells(page):
    nb = to_nbgrader(clean(nbformat.read(PAGES[page], as_version=4)))
    meta = [c.metadata["nbgrader"] for c in nb.cells if "nbgrader" in c.metadata]
    answers = [m["grade_id"] for m in meta if m["solution"]]
    tests = {m["grade_id"]: m["points"] for m in meta if m["grade"]}
    assert answers == [f"{label}-answer" for label in POINTS[page]]
    assert tests == {f"{label}-test": pts for label, pts in POINTS[page].items()}
    assert not any("{solution-start}" in c.source or "{exercise}" in c.source for c in nb.cells)
    assert all("### BEGIN HIDDEN TESTS" in c.source for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade"))


def test_nbgrader_answer_of_a_by_hand_exercise_is_the_value():
    nb = to_nbgrader(clean(nbformat.read(PAGE, as_version=4)))
    (answer,) = [
        c.source for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "tagging-ex-viterbi-hand-answer"
    ]
    lines = answer.splitlines()
    assert lines[0] == "### BEGIN SOLUTION" and lines[-1] == "### END SOLUTION"
    namespace = {}
    exec(answer, namespace)  # noqa: S102 - the book's own solution
    from nlp_helpers.tagging.exercises import check_hand_viterbi

    assert check_hand_viterbi(namespace["hand_viterbi"]).status == "correct"


def test_otter_notebook_has_one_question_per_exercise():
    nb = to_otter(clean(nbformat.read(FEEDFORWARD, as_version=4)), "feedforward")
    raw = [c.source for c in nb.cells if c.cell_type == "raw"]
    assert raw[0].startswith("# ASSIGNMENT CONFIG\nname: feedforward")
    questions = [s for s in raw if s.startswith("# BEGIN QUESTION")]
    assert [q.splitlines()[1] for q in questions] == [
        "name: ff-ex-adamw",
        "name: ff-ex-dropout",
        "name: ff-ex-layer-norm",
    ]
    assert raw.count("# BEGIN TESTS") == raw.count("# END QUESTION") == 3


def test_export_rejects_bad_input(tmp_path):
    with pytest.raises(ValueError, match="format: expected one of nbgrader, otter"):
        export("gradescope", tmp_path, [PAGE])
    with pytest.raises(ValueError, match="pages: expected existing .ipynb"):
        export("otter", tmp_path, [tmp_path / "missing.ipynb"])


def test_pages_of_two_chapters_with_one_name_export_apart(tmp_path):
    pages = [ROOT / "book" / "words" / "words.ipynb", ROOT / "book" / "tfidf" / "words.ipynb"]
    written = export("otter", tmp_path / "otter", pages)
    assert [p.name for p in written] == ["words-words.ipynb", "tfidf-words.ipynb"]
    written = export("nbgrader", tmp_path / "nbgrader", list(PAGES.values()))
    assert [p.relative_to(tmp_path / "nbgrader").as_posix() for p in written] == [
        f"source/nlp/tagging-{page}.ipynb" for page in PAGES
    ]
    outside = []  # pages outside the book are named by their file name alone: a clash is an error
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        outside.append(shutil.copy(PAGES["crf"], tmp_path / folder / "crf.ipynb"))
    with pytest.raises(ValueError, match="pages: two of the pages export to the same file"):
        export("otter", tmp_path / "clash", outside)


@pytest.mark.slow
def test_nbgrader_grades_solved_and_unsolved(tmp_path):
    nbgrader = _tool("nbgrader")
    if nbgrader is None:
        pytest.skip("nbgrader is not installed: run `make graders` and set NLP_GRADERS_BIN=.venv-graders/bin")
    export("nbgrader", tmp_path, list(PAGES.values()), exercises_only=True, assignment="ps1")
    (tmp_path / "nbgrader_config.py").write_text(
        "c = get_config()\nc.CourseDirectory.root = '.'\nc.CourseDirectory.course_id = 'nlp'\n"
        "c.ExecutePreprocessor.timeout = 600\n"
    )
    _run([nbgrader, "generate_assignment", "ps1", "--force"], tmp_path)
    for page in PAGES:
        released = nbformat.read(tmp_path / "release" / "ps1" / f"tagging-{page}.ipynb", as_version=4)
        source = nbformat.read(tmp_path / "source" / "ps1" / f"tagging-{page}.ipynb", as_version=4)
        assert "BEGIN SOLUTION" not in json.dumps(released) and "HIDDEN TESTS" not in json.dumps(released)
        answers = {c.metadata["nbgrader"]["grade_id"]: c.source for c in source.cells if "nbgrader" in c.metadata}
        solved = nbformat.from_dict(json.loads(json.dumps(released)))
        for cell in solved.cells:
            gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
            if gid.endswith("-answer"):
                cell.source = answers[gid]
        for student, nb in {"solved": solved, "unsolved": released}.items():
            (tmp_path / "submitted" / student / "ps1").mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, tmp_path / "submitted" / student / "ps1" / f"tagging-{page}.ipynb")
    _run([nbgrader, "autograde", "ps1", "--force"], tmp_path)
    script = (
        "import json\nfrom nbgrader.api import Gradebook\nwith Gradebook('sqlite:///gradebook.db') as gb:\n"
        "    print(json.dumps({s: {g.name: g.score for n in gb.find_submission('ps1', s).notebooks for g in n.grades}"
        " for s in ['solved', 'unsolved']}))\n"
    )
    scores = json.loads(_run([nbgrader.parent / "python", "-c", script], tmp_path).stdout.strip().splitlines()[-1])
    points = {label: p for page in POINTS.values() for label, p in page.items()}
    assert scores["solved"] == {f"{label}-test": float(p) for label, p in points.items()}
    assert scores["unsolved"] == {f"{label}-test": 0.0 for label in points}


@pytest.mark.slow
@pytest.mark.parametrize("page", list(PAGES))
def test_otter_grades_solved_and_unsolved(tmp_path, page):
    otter = _tool("otter")
    if otter is None:
        pytest.skip("otter-grader is not installed: run `make graders` and set NLP_GRADERS_BIN=.venv-graders/bin")
    (master,) = export("otter", tmp_path / "master", [PAGES[page]], exercises_only=True)
    _run([otter, "assign", master, tmp_path / "dist"], tmp_path)
    student = tmp_path / "dist" / "student" / f"tagging-{page}.ipynb"
    first_line = {"pos": "hand_viterbi", "crf": "def shape(word):\\n", "ner": "def bio_viterbi("}[page]
    assert "BEGIN SOLUTION" not in student.read_text() and first_line in student.read_text()
    (zip_file,) = (tmp_path / "dist" / "autograder").glob("*.zip")
    scores = {}
    for name, nb in {"solved": tmp_path / "dist" / "autograder" / f"tagging-{page}.ipynb", "unsolved": student}.items():
        (tmp_path / name / "out").mkdir(parents=True)
        shutil.copy(nb, tmp_path / name / f"tagging-{page}.ipynb")
        _run(
            [otter, "run", "-a", zip_file, "-o", tmp_path / name / "out", tmp_path / name / f"tagging-{page}.ipynb"],
            tmp_path,
        )
        results = json.loads((tmp_path / name / "out" / "results.json").read_text())
        scores[name] = {t["name"]: t["score"] for t in results["tests"] if "score" in t}
    assert scores["solved"] == {label: float(p) for label, p in POINTS[page].items()}
    assert scores["unsolved"] == {label: 0.0 for label in POINTS[page]}
