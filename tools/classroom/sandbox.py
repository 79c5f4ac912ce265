"""Run the judge of one submission in a sandbox: a scratch copy of its folder, no network, limits in CPU time.

``run_judge`` starts ``tools.classroom.judge`` as a separate process in a scratch copy of the submission's
folder (in a network namespace with no network when ``isolation_prefix`` finds one), sends it the job (the
exercises, their worked solutions and the limits, which the judge sets on itself) and reads its report line by
line. Time is limited in **CPU seconds**, so that a busy or slow machine grades a correct answer correct: each
exercise may use ``Limits.per_exercise_s`` plus ``REFERENCE_FACTOR`` times what the page's worked solution
uses on this machine. A wall-clock timer ``WALL_FACTOR`` times longer only ends a judge stuck where no limit
reaches it; ``_death`` says in words why a judge stopped early.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from nlp_helpers.exercises.checker import REFERENCE_FACTOR
from tools.toc_notebooks import ROOT

MAX_FOLDER_COPY_BYTES = 50_000_000
MAX_LINE = 1_000_000  # characters in one line of the judge's report
STATUSES = ("correct", "not yet", "wrong", "error")
WALL_FACTOR = 20  # the wall-clock backstop of a judge: this many times its CPU allowance
CALIBRATION_S = 10.0  # CPU seconds a worked solution's check may take when the judge times it


@dataclass(frozen=True)
class Limits:
    """Per-submission limits, in CPU seconds: ``per_exercise_s`` per exercise (on top of ``REFERENCE_FACTOR``
    times the worked solution's CPU time), ``startup_s`` for starting Python and importing the checkers."""

    per_exercise_s: float = 20.0
    startup_s: float = 60.0
    memory_mb: int = 3072
    file_mb: int = 50

    def __post_init__(self) -> None:
        for name in ("per_exercise_s", "startup_s", "memory_mb", "file_mb"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"{name}: expected a positive number, got {value!r}")

    def wall_s(self, n_exercises: int) -> float:
        """The CPU allowance of a judge of ``n_exercises`` exercises with no time measured for their solutions."""
        return self.startup_s + self.per_exercise_s * max(n_exercises, 1)

    def exercise_s(self, solution_cpu: float) -> float:
        """The CPU seconds an exercise may use when its worked solution uses ``solution_cpu`` on this machine."""
        return self.per_exercise_s + REFERENCE_FACTOR * max(solution_cpu, 0.0)


def isolation_prefix() -> list[str]:
    """The ``unshare`` command that gives a judge no network (and its own process IDs), or [] if unavailable."""
    if os.environ.get("NLP_ALLOW_NETWORK") == "1" or shutil.which("unshare") is None:
        return []
    user = [] if os.geteuid() == 0 else ["-r"]
    for flags in (["-n", "-p", "-f", "--kill-child", "--mount-proc"], ["-n"]):
        cmd = ["unshare", *user, *flags]
        try:
            if subprocess.run([*cmd, "true"], capture_output=True, timeout=10).returncode == 0:
                return cmd
        except (OSError, subprocess.TimeoutExpired):
            pass
    return []


def _scratch_copy(path: Path, scratch: Path) -> None:
    """Copy the submission's own folder (its files, not sub-folders) unless it is large; else just the notebook."""
    files = [p for p in path.parent.iterdir() if p.is_file() and not p.is_symlink()]
    if sum(p.stat().st_size for p in files) > MAX_FOLDER_COPY_BYTES:
        files = [path]
    for p in files:
        shutil.copyfile(p, scratch / p.name)


def run_judge(
    path: Path, jobs: list[dict], limits: Limits, prefix: list[str], cpu_out: dict[str, float] | None = None
) -> dict[str, tuple[str, str]]:
    """Run the judge on extracted code in a scratch copy of ``path``'s folder; ``{function: (status, message)}``.

    Each job may carry ``solution``, the worked solution's code, which the judge checks first to set the
    exercise's CPU allowance; ``cpu_out`` receives the CPU seconds each exercise used."""
    nonce = secrets.token_hex(16)
    # The judge limits each exercise itself; this caps the whole process: start-up, each worked solution's
    # check (at most CALIBRATION_S) and each answer's allowance (the floor plus 20x a solution's time).
    cpu_total = limits.startup_s + len(jobs) * (limits.per_exercise_s + (1 + REFERENCE_FACTOR) * CALIBRATION_S)
    wall = WALL_FACTOR * cpu_total
    # The judge sets these on itself before it imports anything (tools/classroom/judge.py): setting them in
    # a preexec_fn is unsafe with the grading threads, and the forked child of a large grader (its address
    # space already past the memory limit) could not allocate after RLIMIT_AS and failed to start at random.
    job_limits = {
        "memory_bytes": limits.memory_mb * 2**20,
        "cpu_s": int(cpu_total),
        "file_bytes": limits.file_mb * 2**20,
    }
    job = {
        "nonce": nonce,
        "per_exercise_s": limits.per_exercise_s,
        "reference_factor": REFERENCE_FACTOR,
        "calibration_s": CALIBRATION_S,
        "limits": job_limits,
        "exercises": jobs,
    }
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "MPLBACKEND": "Agg",
        "PYTHONHASHSEED": "0",
        # The checkers' own per-call time limits (if any) stay far above the grader's, so that code that
        # never returns is always stopped by the grader and reported as an error, never as a wrong answer.
        "NLP_EXERCISES_TIME_SCALE": "1000",
    }
    results: dict[str, tuple[str, str]] = {}
    cpu_used: dict[str, float] = {}
    current, done = None, False
    # ignore_cleanup_errors: a judge killed a moment ago may still be writing there; a failed clean-up must
    # never turn a graded submission into a grader failure.
    with (
        tempfile.TemporaryDirectory(prefix="nlp-grade-", ignore_cleanup_errors=True) as scratch,
        tempfile.TemporaryFile("w+b") as errors,
    ):
        _scratch_copy(path, Path(scratch))
        env["HOME"] = env["TMPDIR"] = scratch
        cmd = [*prefix, sys.executable, "-P", "-m", "tools.classroom.judge"]
        proc = subprocess.Popen(
            cmd,
            cwd=scratch,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errors,  # a file (capped by the file-size limit), so a flood of output costs no memory
            text=True,
            start_new_session=True,
        )
        fired: list[bool] = []
        timer = threading.Timer(wall, lambda: (fired.append(True), _kill(proc)))
        timer.start()
        try:
            proc.stdin.write(json.dumps(job))
            proc.stdin.close()
            while line := proc.stdout.readline(MAX_LINE):  # a line longer than this is not the judge's
                try:
                    event = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if not isinstance(event, dict) or event.get("nonce") != nonce:
                    continue  # not from the judge
                if event.get("event") == "start":
                    current = event.get("function")
                elif event.get("event") == "result" and event.get("status") in STATUSES:
                    results[str(event.get("function"))] = (event["status"], str(event.get("message", "")))
                    if isinstance(event.get("cpu"), (int, float)):
                        cpu_used[str(event.get("function"))] = float(event["cpu"])
                    current = None
                elif event.get("event") == "done":
                    done = True
            proc.wait()
        except BrokenPipeError:  # the judge died before reading its job
            proc.wait()
        finally:
            timer.cancel()
            _kill(proc)
        errors.seek(0, os.SEEK_END)
        errors.seek(max(0, errors.tell() - 4000))
        stderr_tail = errors.read().decode(errors="replace").splitlines()
    if not done:
        why = _death(proc.returncode, bool(fired), wall, limits, current, stderr_tail)
        for j in jobs:
            if j["function"] not in results:
                late = current is not None and j["function"] != current
                results[j["function"]] = ("error", "not graded: the grading process stopped earlier" if late else why)
    if cpu_out is not None:
        cpu_out.update(cpu_used)
    return results


def _kill(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _death(code: int | None, timed_out: bool, wall: float, limits: Limits, current, stderr: list[str]) -> str:
    """Why the judge stopped early, in words an instructor (and the student) can act on."""
    where = f"while `{current}` was checked" if current else "before any exercise was checked"
    if timed_out:
        return f"grading stopped after {wall:g} s {where}: the code probably loops forever; no marks"
    if code == 0:
        return f"the submission ended the grading process {where} (it calls os._exit or similar); no marks"
    signum = -code if code is not None and code < 0 else code - 128 if code is not None and code > 128 else 0
    if signum in {s.value for s in signal.Signals}:
        sig = signal.Signals(signum).name
        if signum == signal.SIGXCPU:
            return f"the submission used more CPU time than allowed {where}; no marks"
        return f"the grading process was killed by {sig} {where} (the code kills its own process?); no marks"
    tail = next((ln for ln in reversed(stderr) if ln.strip()), "")
    if "MemoryError" in tail:
        return f"the submission ran out of memory (limit {limits.memory_mb} MB) {where}; no marks"
    return f"the grading process failed {where} (exit code {code}: {tail[:300]}); no marks"
