"""The process that grades one submission (``python -m tools.classroom.judge``; started by ``grade``).

It reads a job (JSON on stdin: the code extracted for each exercise and the checker to call) and writes
one JSON line per event to the stdout it was given, tagged with the run's nonce. Before any student code
runs it imports the checkers, takes a snapshot of the grader's own objects, makes the book's modules
read-only and sends ``print`` output elsewhere; after each exercise it verifies the snapshot. The verdict
is a ``CheckResult`` of the genuine class, or nothing. The network is cut by the parent (a namespace); the
job's limits on memory, CPU time and file size are set here before anything is imported. Each exercise is
limited in the CPU time it uses, not in wall-clock time: ``per_exercise_s`` plus ``reference_factor`` times
the CPU time of the page's worked solution (sent with the job), whose check runs first, here; so a busy
machine grades a correct answer correct. Code that sleeps or waits without computing is stopped too
(``run_limited``). Each result reports the CPU seconds the exercise used.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import sys
import types

STATUSES = ("correct", "not yet", "wrong")


class GraderLimit(BaseException):
    """A limit the grader enforces (time, memory, exit): a BaseException, so checkers do not catch it."""


class GraderTimeUp(GraderLimit):
    """An exercise used more than its CPU time, or waited without computing (raised by ``run_limited``)."""

    def __init__(self, cpu: float = 0.0, wall: float = 0.0, reason: str = "cpu") -> None:
        super().__init__(reason)
        self.cpu, self.wall, self.reason = cpu, wall, reason


class _ReadOnlyModule(types.ModuleType):
    """A module whose attributes cannot be reassigned (new submodules may still be attached by imports)."""

    def __setattr__(self, name, value):
        if isinstance(value, types.ModuleType) and value.__name__ == f"{self.__name__}.{name}":
            return super().__setattr__(name, value)
        raise AttributeError(f"the grader's module {self.__name__} is read-only (cannot set {name!r})")

    def __delattr__(self, name):
        raise AttributeError(f"the grader's module {self.__name__} is read-only (cannot delete {name!r})")


def _protect(prefixes: tuple[str, ...]) -> None:
    for name, module in list(sys.modules.items()):
        if type(module) is types.ModuleType and (name.split(".")[0] in prefixes):
            module.__class__ = _ReadOnlyModule


def _snapshot(objects: dict[str, object]) -> dict[str, tuple[int, bool]]:
    """Identity of every function and class in the grader's modules and classes, to detect tampering.

    Data attributes (caches a checker fills lazily) and submodules attached by imports are left out.
    """
    snap = {}
    for label, obj in objects.items():
        for key, value in list(vars(obj).items()):
            if not isinstance(value, types.ModuleType):
                snap[f"{label}.{key}"] = (id(value), callable(value) or isinstance(value, (classmethod, staticmethod)))
    return snap


def _changed(before: dict[str, tuple[int, bool]], objects: dict[str, object]) -> list[str]:
    after = _snapshot(objects)
    out = []
    for key in before.keys() | after.keys():
        old, new = before.get(key), after.get(key)
        if old != new and ((old and old[1]) or (new and new[1])):
            out.append(key)
    return sorted(out)


def _no_dump() -> None:
    """Make this process non-dumpable: a child of the same user cannot read its memory or file descriptors."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 4
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass


def _as_child_of_init() -> None:
    """In a new PID namespace this process is PID 1, to which the kernel delivers no signal it sends itself
    (``os.kill(os.getpid(), 9)`` would do nothing). So PID 1 forks, waits, and reports how the child ended:
    its exit code, or 128 + the signal that killed it."""
    if os.getpid() != 1:
        return
    pid = os.fork()
    if pid == 0:
        return
    _, status = os.waitpid(pid, 0)
    os._exit(128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status))


def _apply_limits(limits: dict) -> None:
    """Cap this process (and the student code it runs) as the grader asked: address space, CPU seconds
    (a hard limit a few seconds above, so SIGXCPU comes first), file size, and no core dumps."""
    import resource

    cpu = int(limits["cpu_s"])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu + 1, cpu + 5))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["file_bytes"], limits["file_bytes"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_AS, (limits["memory_bytes"], limits["memory_bytes"]))


def main() -> int:
    _as_child_of_init()
    job = json.loads(sys.stdin.read())
    _apply_limits(job["limits"])
    nonce, per_exercise = job["nonce"], float(job["per_exercise_s"])
    import time

    from nlp_helpers.exercises.guard import run_limited

    out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")  # the channel to the grader
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # the student's print() goes nowhere
    os.dup2(devnull, 0)
    _no_dump()

    def emit(**event) -> None:
        out.write(json.dumps({"nonce": nonce, **event}) + "\n")

    import numpy  # noqa: F401 - imported before student code, then read-only

    from nlp_helpers.exercises import checker as checker_base

    checkers = {}
    for ex in job["exercises"]:
        module = importlib.import_module(ex["checker_module"])
        checkers[ex["function"]] = getattr(module, ex["checker"])
    genuine_result = checker_base.CheckResult
    import builtins

    watched = {"builtins": builtins, "numpy": numpy, "checker": checker_base}
    watched |= {"Checker": checker_base.Checker, "CheckResult": genuine_result}
    watched |= {ex["checker_module"]: sys.modules[ex["checker_module"]] for ex in job["exercises"]}
    before = _snapshot(watched)
    _protect(("nlp_helpers", "numpy", "builtins", "tools"))
    codes = {ex["function"]: compile(ex["code"], f"<submission: {ex['function']}>", "exec") for ex in job["exercises"]}
    solutions = {
        ex["function"]: compile(ex["solution"], f"<worked solution: {ex['function']}>", "exec")
        for ex in job["exercises"]
        if ex.get("solution")
    }
    factor, calibration = float(job.get("reference_factor", 20.0)), float(job.get("calibration_s", 10.0))

    def run(fn_name: str, code=None):
        namespace = {"__name__": "__submission__"}
        exec(codes[fn_name] if code is None else code, namespace)  # noqa: S102 - screened, extracted student code
        fn = namespace[fn_name]
        return checkers[fn_name](_guarded(fn) if callable(fn) else fn)  # a value: a by-hand answer

    def solution_cpu(fn_name: str) -> float:
        """CPU seconds the worked solution's check takes here (0 when there is none or it fails)."""
        if fn_name not in solutions:
            return 0.0
        start = time.process_time()
        try:
            result, _ = run_limited(run, (fn_name, solutions[fn_name]), {}, calibration, stop=GraderTimeUp)
        except BaseException:  # noqa: BLE001 - a broken solution only loses its allowance
            return 0.0
        return time.process_time() - start if getattr(result, "status", None) == "correct" else 0.0

    for ex in job["exercises"]:
        fn_name = ex["function"]
        emit(event="start", function=fn_name)
        limit = per_exercise + factor * solution_cpu(fn_name)
        status, message = "error", ""
        start = time.process_time()
        try:
            result, _ = run_limited(run, (fn_name,), {}, limit, idle_limit=per_exercise, stop=GraderTimeUp)
            if type(result) is not genuine_result or result.status not in STATUSES:
                message = "the checker returned no verdict (was it replaced?); no marks"
            else:
                status, message = result.status, str(result.message)
        except GraderTimeUp as exc:
            message = (
                f"`{fn_name}` waited {exc.wall:.3g} s without computing (sleep, input or a lock); no marks"
                if exc.reason == "idle"
                else f"`{fn_name}` used more than {limit:.3g} s of CPU time (it was stopped after {exc.cpu:.3g} s "
                f"of CPU time, {exc.wall:.3g} s on the clock): the code probably loops forever; no marks"
            )
        except GraderLimit as exc:
            message = f"`{fn_name}` {exc}; no marks"
        except SystemExit as exc:
            message = f"`{fn_name}` calls sys.exit({exc.code!r}), which ends the program; no marks"
        except KeyboardInterrupt:
            message = f"`{fn_name}` was interrupted; no marks"
        except BaseException as exc:  # noqa: BLE001 - top-level code of the submission, or a checker bug
            message = f"running the code of `{fn_name}` raised {type(exc).__name__}: {exc}"
        changed = _changed(before, watched)
        if changed:
            status = "error"
            message = f"the submission changed the grader's code ({', '.join(changed[:3])}); no marks"
            emit(event="result", function=fn_name, status=status, message=message)
            break  # nothing graded after this can be trusted
        cpu = round(time.process_time() - start, 4)
        emit(event="result", function=fn_name, status=status, message=message, cpu=cpu)
    emit(event="done")
    return 0


def _guarded(fn):
    """The student's function, with running out of memory turned into a grader limit (not a wrong answer)."""

    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except MemoryError:
            raise GraderLimit("ran out of memory (the grader's memory limit)") from None

    return guarded


if __name__ == "__main__":
    sys.exit(main())
