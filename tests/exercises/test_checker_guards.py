"""The guards around a student's function: the CPU-time limit (relative to a reference, by signal and by
watchdog, a sleep or a wait stopped too, a loaded core not counted), copies and change detection, None, the
call cap, interruptions, recursion, and messages that show what differs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
import torch

from nlp_helpers.exercises.checker import MAX_CALLS, STRICT_ENV, TIME_SCALE_ENV, Checker, CheckerError, InPlace
from nlp_helpers.exercises.guard import (
    HelperSwitchedOff,
    TimeUp,
    Usage,
    copy_inputs,
    describe,
    find_change,
    run_limited,
    run_with_time_limit,
    switched_off,
)
from nlp_helpers.exercises.messages import (
    exception_names,
    format_args,
    format_pair,
    format_value,
    parameter_names,
    recursion_message,
    time_scale,
    time_up_message,
)
from nlp_helpers.feedforward.normalisation import dropout as page_dropout  # for the switch-off test


def spin():
    while True:
        pass


def test_the_signal_stops_a_loop_in_the_main_thread_and_restores_the_previous_handler() -> None:
    with pytest.raises(TimeUp) as stopped:
        run_with_time_limit(spin, (), {}, 0.2)
    assert stopped.value.reason == "cpu" and 0.2 <= stopped.value.cpu < 1.0  # CPU seconds, whatever the load
    assert signal.getsignal(signal.SIGVTALRM) == signal.SIG_DFL
    start = time.monotonic()
    with pytest.raises(TimeUp):  # the signal ends a sleep too (the asynchronous path must wait for it to return)
        run_with_time_limit(time.sleep, (30,), {}, 0.2)
    assert time.monotonic() - start < 25

    def mine(signum, frame):
        pass

    previous = signal.signal(signal.SIGVTALRM, mine)  # someone else's handler: the watchdog raises instead
    try:
        with pytest.raises(TimeUp):
            run_with_time_limit(spin, (), {}, 0.2)
        assert signal.getsignal(signal.SIGVTALRM) is mine
    finally:
        signal.signal(signal.SIGVTALRM, previous)


def test_the_watchdog_stops_a_loop_in_another_thread() -> None:
    out = {}

    def worker():
        try:
            run_with_time_limit(spin, (), {}, 0.2)
        except TimeUp as stopped:
            out["cpu"] = stopped.cpu

    t = threading.Thread(target=worker)
    t.start()
    t.join(60)
    assert not t.is_alive() and 0.2 <= out["cpu"] < 1.0


def test_a_running_interval_timer_is_left_alone() -> None:
    fired = []
    previous = signal.signal(signal.SIGALRM, lambda *a: fired.append(1))
    try:
        signal.setitimer(signal.ITIMER_REAL, 30.0)
        with pytest.raises(TimeUp):
            run_with_time_limit(spin, (), {}, 0.2)  # the watchdog, not the signal
        remaining = signal.getitimer(signal.ITIMER_REAL)[0]
        assert 20 < remaining <= 30 and not fired
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0.0)
        signal.signal(signal.SIGALRM, previous)


def test_a_fast_function_returns_its_value_and_bad_limits_are_refused() -> None:
    assert run_with_time_limit(lambda a, b=1: a + b, (2,), {"b": 3}, 1.0) == 5
    assert run_with_time_limit(lambda: 7, (), {}, None) == 7
    with pytest.raises(ValueError, match="seconds"):
        run_with_time_limit(lambda: 7, (), {}, 0)
    with pytest.raises(ValueError, match="wall_limit"):
        run_limited(lambda: 7, (), {}, 1.0, wall_limit=-1)


def test_plain_data_is_copied_and_other_objects_are_shared() -> None:
    arr, gen, model = np.arange(3.0), np.random.default_rng(0), torch.nn.Linear(2, 2)
    data = {"a": [arr, (1, "x")]}
    a2, d2, g2, m2 = copy_inputs((arr, data, gen, model))
    assert a2 is not arr and np.array_equal(a2, arr)
    assert d2["a"][0] is not arr and d2 == {"a": [d2["a"][0], (1, "x")]}
    assert g2 is gen and m2 is model
    graph = torch.ones(2, requires_grad=True) * 2  # not a leaf: torch refuses to deep-copy it
    assert copy_inputs((graph,))[0] is graph


@pytest.mark.parametrize(
    ("before", "after", "words"),
    [
        (np.array([1.0, np.nan]), np.array([1.0, np.nan]), None),
        (np.array([1.0, 2.0]), np.array([1.0, 3.0]), "values"),
        (np.zeros(2), np.zeros(3), "shape"),
        (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.5]), "values"),
        ([[1, 2], [3]], [[1, 2], [3, 4]], "item 1"),
        ({"a": 1}, {"a": 1, "b": 2}, "keys"),
        ({"a": [1]}, {"a": [2]}, "entry 'a'"),
        ({1, 2}, {1, 2, 3}, "elements"),
        (float("nan"), float("nan"), None),
        ("ab", "ab", None),
    ],
)
def test_find_change_names_what_changed(before, after, words) -> None:
    change = find_change(before, after)
    assert (change is None) if words is None else (words in change)


def test_describe_is_short() -> None:
    assert describe([1, 2]) == "[1, 2]"
    assert describe(np.zeros((50, 128))) == "array(shape=(50, 128), float64)"
    assert describe(torch.zeros(2, 3)) == "tensor(shape=(2, 3), float32)"
    assert describe(list(range(100))) == "list of length 100"


def check_double(fn, **options):
    with Checker("Double", **options) as ex:
        ex.expect_close(ex.call(fn, np.array([1.0, 2.0])), [2.0, 4.0], what="double([1, 2])", hint="Multiply by 2.")
    return ex.result


def test_a_changed_argument_is_named_and_in_place_arguments_are_allowed(monkeypatch) -> None:
    monkeypatch.delenv(STRICT_ENV, raising=False)

    def doubles_in_place(xs):
        xs *= 2
        return xs

    result = check_double(doubles_in_place)
    assert result.status == "wrong" and "modified its input" in result.message and "`xs`" in result.message
    assert check_double(lambda xs: xs * 2).passed

    with Checker("In place") as ex:
        buf = [1]
        ex.call(lambda b: b.append(2) or b, InPlace(buf))
    assert ex.result.passed and buf == [1, 2]  # InPlace hands over the object itself


def test_none_slow_interrupted_and_strict(monkeypatch) -> None:
    monkeypatch.delenv(STRICT_ENV, raising=False)
    result = check_double(lambda xs: print(xs))
    assert "returned None" in result.message and "forget `return`" in result.message
    result = check_double(lambda xs: spin(), time_limit=0.2)
    assert "did not return within 0.2 s" in result.message and "np.array([1., 2.])" in result.message

    def interrupted(xs):
        raise KeyboardInterrupt

    result = check_double(interrupted)
    assert result.status == "not yet" and "interrupted while" in result.message
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(AssertionError, match="returned None"):
        check_double(lambda xs: None)


def test_the_call_cap_is_a_checker_bug(monkeypatch) -> None:
    monkeypatch.delenv(STRICT_ENV, raising=False)
    with pytest.raises(CheckerError, match=str(MAX_CALLS)):
        with Checker("Too many calls") as ex:
            for _ in range(MAX_CALLS + 1):
                ex.call(lambda: 1)
    with pytest.raises(ValueError, match="max_calls"):
        Checker("x", max_calls=MAX_CALLS + 1)


def test_try_call_returns_the_exception_and_values_that_print_alike_are_shown_with_more_digits(monkeypatch) -> None:
    monkeypatch.delenv(STRICT_ENV, raising=False)
    with Checker("try") as ex:
        value, error = ex.try_call(lambda: 1 / 0)
        assert value is None and isinstance(error, ZeroDivisionError)
        assert ex.try_call(lambda: 3) == (3, None)
    with Checker("close") as ex:
        ex.expect_close(np.array([1.31760001, 2.0]), [1.31761234, 2.0], what="x", rtol=0, atol=1e-9)
    assert "1.31761234" in ex.result.message and "1.31760001" in ex.result.message


def test_plain_data_is_what_the_guard_copies() -> None:
    from nlp_helpers.exercises.guard import is_plain_data

    assert is_plain_data([1, 2.5, "a", (None, {"k": {3}})]) and is_plain_data(np.zeros(3))
    assert not is_plain_data([object()]) and not is_plain_data({"f": len})


def test_the_errors_say_what_happened() -> None:
    assert "cap" in str(CheckerError("over the cap")) and isinstance(CheckerError("x"), RuntimeError)
    assert isinstance(TimeUp(), BaseException) and not isinstance(TimeUp(), Exception)


# ------------------------------------------------------------------------ limits in CPU time, not wall-clock
def _work(seconds: float) -> float:
    """Pure-Python work for about ``seconds`` of CPU time."""
    start, x = time.process_time(), 0.0
    while time.process_time() - start < seconds:
        for i in range(1000):
            x += i * 0.5
    return x


@pytest.fixture
def one_busy_core():
    """This process and two busy processes pinned to one core: every call's wall-clock time is about 3x its
    CPU time, as on a loaded laptop."""
    if not hasattr(os, "sched_setaffinity"):
        pytest.skip("no CPU affinity on this system")
    before = os.sched_getaffinity(0)
    core = min(before)
    busy = [
        subprocess.Popen([sys.executable, "-c", f"import os; os.sched_setaffinity(0, {{{core}}})\nwhile True: pass"])
        for _ in range(2)
    ]
    os.sched_setaffinity(0, {core})
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)
        for p in busy:
            p.kill()
            p.wait()


def test_the_limit_counts_the_answers_cpu_time_not_the_machines_load(one_busy_core) -> None:
    value, usage = run_limited(_work, (0.3,), {}, 0.6)  # 0.3 s of work under a 0.6 s limit...
    assert value > 0 and 0.3 <= usage.cpu < 0.6
    assert usage.wall > 0.6, usage  # ... took longer than the limit on the clock, and still passed
    with pytest.raises(TimeUp) as stopped:
        run_limited(spin, (), {}, 0.3)
    assert stopped.value.reason == "cpu" and 0.3 <= stopped.value.cpu < 0.6 and stopped.value.wall > 0.3


@pytest.mark.parametrize("waits", [lambda: time.sleep(60), lambda: threading.Event().wait(60)], ids=["sleep", "lock"])
def test_a_call_that_waits_without_computing_is_stopped(waits) -> None:
    start = time.monotonic()
    with pytest.raises(TimeUp) as stopped:
        run_limited(waits, (), {}, 0.5, idle_limit=1.0)
    assert stopped.value.reason == "idle" and time.monotonic() - start < 10
    with pytest.raises(TimeUp) as stopped:  # the wall-clock backstop, wherever the thread's state is unknown
        run_limited(waits, (), {}, 0.5, idle_limit=100, wall_limit=1.0)
    assert stopped.value.reason == "wall"
    assert signal.getsignal(signal.SIGVTALRM) == signal.SIG_DFL  # the handler is restored


def test_a_check_is_interrupted_by_ctrl_c_during_a_sleep(monkeypatch) -> None:
    monkeypatch.delenv(STRICT_ENV, raising=False)
    sleeping, returned = threading.Event(), threading.Event()

    def ctrl_c() -> None:  # Ctrl-C once the answer sleeps (on a loaded machine the check may take a while to call it)
        if sleeping.wait(60) and not returned.wait(0.2):
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    # Ctrl-C as a Jupyter kernel (or a terminal) has it: Python's own handler. A library run earlier in this
    # test process may have left the signal ignored (SIG_IGN); the reader's kernel starts with the handler.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    presser = threading.Thread(target=ctrl_c, daemon=True)
    presser.start()
    try:
        result = check_double(lambda xs: sleeping.set() or time.sleep(30) or xs * 2)
    finally:
        returned.set()
        presser.join()
        signal.signal(signal.SIGINT, previous)
    assert result.status == "not yet" and "interrupted while" in result.message, result


def test_the_limit_is_relative_to_the_reference_on_this_machine(monkeypatch) -> None:
    monkeypatch.delenv(STRICT_ENV, raising=False)

    def solution(xs):
        _work(0.05)
        return np.asarray(xs) * 2

    def three_times_slower(xs):
        _work(0.15)
        return np.asarray(xs) * 2

    assert check_double(three_times_slower, time_limit=0.05, reference=solution).passed  # 0.05 + 20 x 0.05
    assert not check_double(three_times_slower, time_limit=0.05).passed  # no reference: 0.05 s only
    result = check_double(lambda xs: spin(), time_limit=0.05, reference=solution)
    assert "of CPU time" in result.message and "the worked solution takes 0.05 s on this machine" in result.message

    with Checker("Timed reference", time_limit=0.05) as ex:
        ex.reference(_work, 0.05)
        ex.call(three_times_slower, [1.0])
    assert ex.result.passed, ex.result
    monkeypatch.setenv(TIME_SCALE_ENV, "0.001")  # the scale still multiplies every limit
    assert not check_double(three_times_slower, time_limit=0.05, reference=solution).passed


def test_a_recursion_that_is_too_deep_gets_its_own_verdict(monkeypatch) -> None:
    monkeypatch.delenv(STRICT_ENV, raising=False)

    def deep(xs, n=10**6):
        return xs if n == 0 else deep(xs, n - 1)

    result = check_double(deep)
    assert result.status == "wrong" and "RecursionError" in result.message and "base case" in result.message
    assert "return" not in result.message.split("RecursionError")[0]


def test_the_messages_name_the_call_the_time_and_the_reference() -> None:
    up = TimeUp(cpu=2.5, wall=9.0, reason="cpu")
    text = time_up_message("f([1, 2])", up, 2.0, 0.1, "the worked solution")
    assert "f([1, 2]) did not return within 2 s of CPU time" in text and "takes 0.1 s" in text
    assert "waited 3 s" in time_up_message("f()", TimeUp(0.0, 3.0, "idle"), 2.0, 0.0, "x")
    assert "line 7" in recursion_message("f(1)", 7) and "RecursionError" in recursion_message("f(1)", 7)
    assert exception_names((ValueError, KeyError)) == "ValueError or KeyError"
    assert format_value(np.array(0.5)) == "0.5" and format_pair(np.array(1.0), np.array(1.00001))[1] == "1.00001"
    assert format_args((1, [2]), {"k": "a"}) == "(1, [2], k='a')"
    assert parameter_names(lambda xs, k=1: 0, 3) == ["xs", "k", "argument 3"]
    assert time_scale() > 0 and Usage(1.0, 2.0).wall == 2.0


def test_a_helper_is_switched_off_in_the_answers_globals_and_its_module_then_restored() -> None:
    import nlp_helpers.feedforward.normalisation as norm

    dropout = norm.dropout

    def answer(x):  # reaches the helper under another global name and through its module
        return page_dropout(x, 0.5, np.random.default_rng(0)) + norm.dropout(x, 0.5, np.random.default_rng(0))

    with switched_off(answer, {"dropout": dropout}) as calls:
        with pytest.raises(HelperSwitchedOff, match="build it yourself"):
            answer(np.ones(3))
        assert norm.dropout is not dropout and globals()["page_dropout"] is not dropout and calls == ["dropout"]
    assert norm.dropout is dropout and globals()["page_dropout"] is dropout
    assert isinstance(HelperSwitchedOff("x"), Exception)
