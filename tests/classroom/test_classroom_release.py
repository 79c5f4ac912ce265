"""Release: student copies without solutions, stamped with their page, and a manifest instructors can edit."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from tools.classroom.__main__ import main
from tools.classroom.exercises import find_exercises, page_version, solution_sources
from tools.classroom.release import read_manifest, release

ROOT = Path(__file__).resolve().parents[2]
PAGES = {name: ROOT / "book" / "tagging" / f"{name}.ipynb" for name in ("pos", "crf", "ner")}
PAGE = PAGES["pos"]


def _page(tmp_path: Path) -> Path:
    """A small section page in the book's conventions: one exercise and a quick check."""
    nb = nbformat.v4.new_notebook()
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    nb.cells = [
        md("# Tiny page"),
        md("## Quick checks"),
        code('QuickCheck("tiny-page", [])', metadata={"tags": ["remove-input"]}),
        md("## Exercises"),
        md("```{exercise} Double it (easy)\n:label: tiny-ex-double\n\nWrite `double(x)` returning `2 * x`.\n```"),
        code(
            "def double(x):\n    # your code here\n    raise NotImplementedError",
            metadata={"tags": ["exercise-stub", "remove-cell"]},
        ),
        md("```{solution-start} tiny-ex-double\n:class: dropdown\n```"),
        code("def double(x):\n    return x + x  # SECRET-SOLUTION", metadata={"tags": ["solution"]}),
        md("```{solution-end}\n```"),
        code("from nlp_helpers.tagging.exercises import check_word_shape\n\ncheck_word_shape(double)"),
    ]
    path = tmp_path / "book" / "tiny.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(nb, path)
    return path


def test_an_exercise_in_a_cell_that_opens_with_a_heading_is_found(tmp_path):
    """A page may put "## Exercises" and its first exercise in one cell: that exercise is graded too."""
    nb = nbformat.read(_page(tmp_path), as_version=4)
    i = next(k for k, c in enumerate(nb.cells) if "{exercise}" in c.source)
    nb.cells[i].source = "## Exercises\n\nTwo to try.\n\n" + nb.cells[i].source
    del nb.cells[i - 1]  # the heading's own cell
    [exercise] = find_exercises(nb)
    assert (exercise.label, exercise.title, exercise.difficulty, exercise.function) == (
        "tiny-ex-double",
        "Double it",
        "easy",
        "double",
    )
    assert exercise.statement == "Write `double(x)` returning `2 * x`."


def test_exercises_of_a_real_page():
    exercises = {n: find_exercises(nbformat.read(page, as_version=4)) for n, page in PAGES.items()}
    assert {n: [e.function for e in ex] for n, ex in exercises.items()} == {
        "pos": ["hand_viterbi", "fast_viterbi", "beam_decode"],
        "crf": ["forward_by_hand", "shape", "crf_marginals"],
        "ner": ["spans_to_bioes", "span_f1_by_type", "bio_viterbi"],
    }
    assert {n: [e.difficulty for e in ex] for n, ex in exercises.items()} == {
        "pos": ["easy", "medium", "medium"],
        "crf": ["easy", "easy", "medium"],
        "ner": ["easy", "medium", "hard"],
    }
    assert {e.checker_module for ex in exercises.values() for e in ex} == {
        "nlp_helpers.tagging.exercises",
        "nlp_helpers.tagging.pos_exercises",
        "nlp_helpers.tagging.crf_exercises",
        "nlp_helpers.tagging.ner_exercises",
    }
    shape = exercises["crf"][1]
    assert shape.checker == "check_word_shape" and shape.title == "Word shapes"
    hand = exercises["pos"][0]  # a by-hand exercise answered with a value
    assert hand.checker == "check_hand_viterbi" and hand.title == "Viterbi by hand"


def test_version_changes_with_a_statement_not_with_a_stub(tmp_path):
    nb = nbformat.read(_page(tmp_path), as_version=4)
    v = page_version(find_exercises(nb))
    nb.cells[5].source = "def double(x):\n    return 2 * x"  # the student's answer
    assert page_version(find_exercises(nb)) == v
    nb.cells[4].source = nb.cells[4].source.replace("2 * x", "3 * x")
    assert page_version(find_exercises(nb)) != v


def test_release_writes_student_copy_and_manifest(tmp_path):
    page = _page(tmp_path)
    manifest_path = release(tmp_path / "out", [page])
    copy = nbformat.read(tmp_path / "out" / "tiny.ipynb", as_version=4)
    text = json.dumps(copy)
    assert "SECRET-SOLUTION" not in text and "solution-start" not in text
    stub = next(c for c in copy.cells if "exercise-stub" in c.metadata.get("tags", []))
    assert "remove-cell" not in stub.metadata["tags"]  # the student sees where to write
    assert any("QuickCheck" in c.source and c.metadata.get("tags") == ["remove-input"] for c in copy.cells)
    assert not solution_sources(copy)
    manifest = read_manifest(manifest_path)
    ((pid, entry),) = manifest["pages"].items()
    assert copy.metadata["nlp_classroom"] == {"page": pid, "version": entry["version"]}
    assert [(e["label"], e["function"], e["points"]) for e in entry["exercises"]] == [("tiny-ex-double", "double", 1)]


def test_release_keeps_edited_points_and_checks_them(tmp_path):
    page = _page(tmp_path)
    path = release(tmp_path / "out", [page])
    manifest = json.loads(path.read_text())
    next(iter(manifest["pages"].values()))["exercises"][0]["points"] = 5
    path.write_text(json.dumps(manifest))
    release(tmp_path / "out", [page])
    assert next(iter(read_manifest(path)["pages"].values()))["exercises"][0]["points"] == 5
    next(iter(manifest["pages"].values()))["exercises"][0]["points"] = -1
    path.write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match=r"points of .*tiny-ex-double must be a number >= 0"):
        read_manifest(path)


def test_release_of_a_real_page_has_no_solution(tmp_path):
    out = tmp_path / "out"
    main(["release", str(out), *map(str, PAGES.values())])
    pages = read_manifest(out)["pages"]
    assert list(pages) == [f"book/tagging/{n}" for n in PAGES]
    for n, page in PAGES.items():
        copy = nbformat.read(out / "tagging" / f"{n}.ipynb", as_version=4)
        sources = {c.source.strip() for c in copy.cells}
        solutions = solution_sources(nbformat.read(page, as_version=4))
        n_exercises = {"pos": 3, "crf": 3, "ner": 3}[n]
        assert len(solutions) == n_exercises and not any(s.strip() in sources for s in solutions)
        assert not any("{solution-start}" in c.source for c in copy.cells)
        assert len(pages[f"book/tagging/{n}"]["exercises"]) == n_exercises
        assert pages[f"book/tagging/{n}"]["notebook"] == f"tagging/{n}.ipynb"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["release", "OUT", "book/no-such-page.ipynb"], "pages: expected existing .ipynb notebooks"),
        (["grade", "SUBS", "--manifest", "OUT"], "no manifest.json"),
    ],
)
def test_bad_arguments_are_named(tmp_path, capsys, args, message):
    args = [a.replace("OUT", str(tmp_path / "out")).replace("SUBS", str(tmp_path)) for a in args]
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2 and message in capsys.readouterr().err


def test_grader_recognises_a_copy_without_its_metadata(tmp_path):
    from tools.classroom.grade import identify

    manifest = read_manifest(release(tmp_path / "out", [PAGE]))
    copy = nbformat.read(tmp_path / "out" / "tagging" / "pos.ipynb", as_version=4)
    assert identify(copy, manifest) == ("book/tagging/pos", "")
    del copy.metadata["nlp_classroom"]  # another editor dropped it
    assert identify(copy, manifest) == ("book/tagging/pos", "")
    statement = next(c for c in copy.cells if ":label: tagging-ex-viterbi\n" in c.source)
    assert "Return\n" in statement.source
    statement.source = statement.source.replace("Return\n", "Print\n")  # an earlier wording of the exercise
    page, why = identify(copy, manifest)
    assert page is None and "another version of book/tagging/pos" in why
    other = nbformat.v4.new_notebook()
    page, why = identify(other, manifest)
    assert page is None and "not a page of this assignment (book/tagging/pos): it has no exercises" in why
