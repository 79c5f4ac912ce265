"""The checkers and the grader judge a correct answer correct on a busy machine.

Their limits count the CPU time the answer uses (relative to the reference's on the same machine), never
wall-clock seconds, so competition for the CPU must not turn a correct answer into a time-out. Here the test
process shares one core with two processes that spin (``while True: pass``), so every call takes about three
times longer on the clock than on the CPU, and the slowest worked solutions of the book must still pass with
the real limits (``$NLP_EXERCISES_TIME_SCALE`` unset) -- as must a grading run with tight per-exercise limits;
an answer that never returns must still be stopped, by the CPU limit, within seconds of CPU time.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nlp_helpers.exercises.checker import TIME_SCALE_ENV
from tests.exercise_helpers import never_returns
from tests.exercises.discovery import all_checkers, solutions

# The worked solutions that take the most CPU time to check (measured: 0.5-1.7 s each on an idle core).
SLOWEST = [
    "classification.exercises.check_compare_feature_sets",
    "classification.exercises.check_approximate_randomization",
    "ngram.exercises.check_modified_kn",
    "feedforward.exercises.check_adamw_step",
    "feedforward.classifier_exercises.check_freeze_then_unfreeze",  # trains a small classifier seven times
    "sampling.exercises.check_generate_cached",
    "tagging.exercises.check_bio_viterbi",
]


@pytest.fixture(scope="module")
def busy_core():
    """Pin this process and two spinning processes to one core (about a third of it each)."""
    if not hasattr(os, "sched_setaffinity"):
        pytest.skip("no CPU affinity on this system")
    before = os.sched_getaffinity(0)
    core = min(before)
    spin = f"import os\nos.sched_setaffinity(0, {{{core}}})\nwhile True: pass"
    busy = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(2)]
    os.sched_setaffinity(0, {core})
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)
        for p in busy:
            p.kill()
            p.wait()


@pytest.mark.parametrize("key", SLOWEST)
def test_the_slowest_worked_solutions_pass_beside_busy_processes(key, busy_core, monkeypatch) -> None:
    monkeypatch.delenv(TIME_SCALE_ENV, raising=False)
    start_wall, start_cpu = time.monotonic(), time.process_time()
    result = all_checkers()[key](solutions()[key])
    wall, cpu = time.monotonic() - start_wall, time.process_time() - start_cpu
    assert result.status == "correct", f"{result} (CPU {cpu:.2f} s, wall {wall:.2f} s)"


def test_a_loop_is_still_stopped_on_the_busy_core(busy_core, monkeypatch) -> None:
    monkeypatch.setenv(TIME_SCALE_ENV, "0.1")  # a 0.5 s CPU limit
    start = time.process_time()
    result = all_checkers()["tfidf.exercises.check_cosine"](never_returns)
    assert result.status == "wrong" and "of CPU time" in result.message, result
    assert time.process_time() - start < 5


@pytest.mark.slow
def test_grading_with_tight_limits_passes_beside_busy_processes(busy_core, tmp_path) -> None:
    import nbformat

    from tools.classroom.exercises import solution_sources
    from tools.classroom.grade import grade_folder
    from tools.classroom.release import release
    from tools.classroom.sandbox import Limits

    page = Path(__file__).resolve().parents[2] / "book" / "tagging" / "ner.ipynb"
    manifest = release(tmp_path / "release", [page])
    nb = nbformat.read(tmp_path / "release" / "tagging" / "ner.ipynb", as_version=4)
    solutions = iter(solution_sources(nbformat.read(page, as_version=4)))  # in the order of the exercises
    for cell in nb.cells:
        if "exercise-stub" in cell.metadata.get("tags", []):
            cell.source = next(solutions)
    (tmp_path / "subs").mkdir()
    nbformat.write(nb, tmp_path / "subs" / "ner.ipynb")
    # 3 CPU seconds per exercise beyond the solution's own (x 20), 60 to start: tight, and in CPU time only.
    rows = grade_folder(
        tmp_path / "subs", manifest, tmp_path / "gb.csv", jobs=1, limits=Limits(3, 60), log=lambda m: None
    )
    assert rows and all(r["status"] == "correct" for r in rows), rows
