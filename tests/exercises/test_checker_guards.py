"""The guards around a student's function: time limit (signal and watchdog), copies and change detection,
None, the call cap, interruptions, and messages that show what differs."""

from __future__ import annotations

import signal
import threading
import time

import numpy as np
import pytest
import torch

from nlp_helpers.exercises.checker import MAX_CALLS, STRICT_ENV, Checker, CheckerError, InPlace
from nlp_helpers.exercises.guard import TimeUp, copy_inputs, describe, find_change, run_with_time_limit


def spin():
    while True:
        pass


def test_the_signal_stops_a_loop_in_the_main_thread_and_restores_the_previous_handler() -> None:
    def mine(signum, frame):
        pass

    previous = signal.signal(signal.SIGALRM, mine)
    try:
        start = time.monotonic()
        with pytest.raises(TimeUp):
            run_with_time_limit(spin, (), {}, 0.2)
        assert time.monotonic() - start < 2
        assert signal.getsignal(signal.SIGALRM) is mine
        assert signal.getitimer(signal.ITIMER_REAL)[0] == 0.0
        with pytest.raises(TimeUp):  # the signal also ends a sleep, which the watchdog cannot
            run_with_time_limit(time.sleep, (30,), {}, 0.2)
    finally:
        signal.signal(signal.SIGALRM, previous)


def test_the_watchdog_stops_a_loop_in_another_thread() -> None:
    out = {}

    def worker():
        start = time.monotonic()
        try:
            run_with_time_limit(spin, (), {}, 0.2)
        except TimeUp:
            out["stopped_after"] = time.monotonic() - start

    t = threading.Thread(target=worker)
    t.start()
    t.join(10)
    assert not t.is_alive() and out["stopped_after"] < 5


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
