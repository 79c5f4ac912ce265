"""benchmarks/bench_widgets.py: a page's load rows are the median of its loads, with their range in the note."""

from __future__ import annotations

from benchmarks.bench_widgets import LONG_TASK_MS, READY_S, _page_rows


def test_one_slow_load_of_three_does_not_decide_the_row_but_is_reported():
    loads = [(1.1, 150.0, 400.0), (2.6, 260.0, 500.0), (1.3, 170.0, 450.0)]
    ready, longest = _page_rows(loads, "attention/x.html", 2)
    assert ready["ours_s"] == 1.3 and ready["met"] is (1.3 <= READY_S)
    assert longest["ours_s"] == 0.17 and longest["met"] is (170.0 <= LONG_TASK_MS)
    assert "median of 3 loads (1.10-2.60 s)" in ready["note"]
    assert "(150-260 ms;" in longest["note"] and "450 ms" in longest["note"]
    assert ready["helper"] == "attention/x.html: first of 2 widget views usable"


def test_a_page_slow_on_most_loads_misses_its_target():
    ready, longest = _page_rows([(2.2, 240.0, 0.0), (2.4, 250.0, 0.0), (1.0, 90.0, 0.0)], "p.html", 1)
    assert not ready["met"] and not longest["met"]
