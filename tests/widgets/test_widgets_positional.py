"""PositionalEncodingExplorer: validation, its JavaScript (under Node) and its golden file.

``tests/golden/positional_widget.json`` holds the table values (``pe-value-<pos>-<dim>``) and
the similarities (``pe-sim-<q>``) the widget must show after the sliders are moved, computed
here from the formula with ``math.sin``/``math.cos`` one number at a time (independently of the
vectorised numpy and JavaScript code), and checked against the PE table printed in seed 001.
Regenerate with ``python tests/test_widgets_positional.py``.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

from nlp_helpers.attention.worked_example import load_worked_example
from nlp_helpers.widgets.positional import PositionalEncodingExplorer
from tests.widget_node import NODE_DOM, node_binary, run_widget_js  # noqa: F401

HERE = Path(__file__).resolve().parents[1]  # tests/
GOLDEN = HERE / "golden" / "positional_widget.json"

# How the chapter constructs its explorer (the browser test starts from this state).
CONSTRUCT = {"max_len": 50, "d_model": 16, "pair": 1, "position": 10}


def pe_value(pos: int, x: int, d: int, base: float = 10000.0) -> float:
    """Seed 001: sin(pos / base^(x/d)) for even x, cos(pos / base^((x-1)/d)) for odd x."""
    return math.sin(pos / base ** (x / d)) if x % 2 == 0 else math.cos(pos / base ** ((x - 1) / d))


def expected(d: int, n: int, p: int) -> dict:
    rows, cols = min(8, n), min(8, d)
    table = [[pe_value(pos, x, d) for x in range(d)] for pos in range(n)]
    sim = [sum(a * b for a, b in zip(table[p], table[q])) for q in range(n)]
    return {"values": [row[:cols] for row in table[:rows]], "similarity": sim, "position": p}


def _controls(d, n, p, pair=None):
    c = [
        {"testid": "pe-dmodel", "value": str(d)},
        {"testid": "pe-length", "value": str(n)},
        {"testid": "pe-position", "value": str(p)},
    ]
    return c + ([{"testid": "pe-dim", "value": str(pair)}] if pair is not None else [])


CASES = [
    ("seed 001's table: d_model 6, 6 positions, p = 4", 6, 6, 4, None),
    ("d_model 16, 20 positions, p = 7", 16, 20, 7, 3),
    ("d_model 128, 50 positions, p = 0", 128, 50, 0, 60),
]


def golden_data() -> dict:
    return {
        "about": "Values PositionalEncodingExplorer must show after setting the sliders in order: "
        "values[pos][dim] in cells pe-value-<pos>-<dim> (first 8 x 8), similarity[q] = PE(p).PE(q) in "
        "cells pe-sim-<q>. Computed with math.sin/math.cos from seed 001's formula. "
        "Regenerate: python -m tests.widgets.test_widgets_positional",
        "page": "book/attention/positions.html",
        "construct": CONSTRUCT,
        "display_decimals": 4,
        "tolerance": 5e-5,
        "cases": [
            {"name": name, "controls": _controls(d, n, p, pair), "d_model": d, "length": n, **expected(d, n, p)}
            for name, d, n, p, pair in CASES
        ],
    }


# ---- Python side ------------------------------------------------------------------------------


def test_defaults_and_table_follow_the_formula():
    w = PositionalEncodingExplorer(**CONSTRUCT)
    assert (w.max_len, w.d_model, w.length, w.pair, w.position, w.base) == (50, 16, 50, 1, 10, 10000.0)
    want = np.array([[pe_value(p, x, 16) for x in range(16)] for p in range(50)])
    np.testing.assert_allclose(w.table(), want, atol=1e-12)
    np.testing.assert_allclose(w.similarity(), want @ want[10], atol=1e-12)


def test_similarity_peaks_at_the_position_itself_with_value_d_over_2():
    w = PositionalEncodingExplorer(40, 32, position=13)
    sim = w.similarity()
    assert int(np.argmax(sim)) == 13 and sim[13] == pytest.approx(16.0)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"max_len": 1}, ValueError, "max_len must be >= 2"),
        ({"max_len": 10_000}, ValueError, "max_len must be <= 512"),
        ({"d_model": 7}, ValueError, "d_model must be even"),
        ({"d_model": 256}, ValueError, "d_model must be <= 128"),
        ({"d_model": 2.5}, TypeError, "d_model must be an integer"),
        ({"max_d_model": 9, "d_model": 8}, ValueError, "max_d_model must be even"),
        ({"max_len": 10, "length": 11}, ValueError, "length must be <= 10"),
        ({"d_model": 8, "pair": 4}, ValueError, "pair must be <= 3"),
        ({"max_len": 10, "position": 10}, ValueError, "position must be <= 9"),
        ({"base": 1.0}, ValueError, "base must be > 1"),
    ],
)
def test_bad_settings_get_a_clear_error(kwargs, error, match):
    with pytest.raises(error, match=match):
        PositionalEncodingExplorer(**kwargs)


def test_the_widget_ships_its_module_with_the_test_ids():
    w = PositionalEncodingExplorer()
    for testid in ("pe-root", "pe-dmodel", "pe-length", "pe-dim", "pe-position", "pe-value-", "pe-sim-"):
        assert testid in w._esm


# ---- JavaScript under Node --------------------------------------------------------------------


def _run_js(widget, actions, tmp_path):
    state = {k: getattr(widget, k) for k in ("max_len", "max_d_model", "d_model", "length", "pair", "position", "base")}
    return run_widget_js(widget._esm, state, actions, tmp_path)


def test_js_shows_the_golden_values_after_moving_the_sliders(tmp_path):
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for case in golden["cases"]:
        out = _run_js(PositionalEncodingExplorer(**golden["construct"]), case["controls"], tmp_path)
        vals = np.asarray(case["values"])
        got = np.array(
            [
                [float(out[f"pe-value-{p}-{x}"]["attrs"]["data-value"]) for x in range(vals.shape[1])]
                for p in range(vals.shape[0])
            ]
        )
        shown = np.array(
            [[float(out[f"pe-value-{p}-{x}"]["text"]) for x in range(vals.shape[1])] for p in range(vals.shape[0])]
        )
        np.testing.assert_allclose(got, vals, atol=1e-12, err_msg=case["name"])
        np.testing.assert_allclose(shown, vals, atol=golden["tolerance"])
        sim = np.array([float(out[f"pe-sim-{q}"]["attrs"]["data-value"]) for q in range(case["length"])])
        np.testing.assert_allclose(sim, case["similarity"], atol=1e-9)
        assert f"pe-sim-{case['length']}" not in out  # the table follows the length slider
        assert out["__state"]["d_model"] == case["d_model"] and out["__state"]["position"] == case["position"]


def test_js_clamps_pair_and_position_when_their_range_shrinks(tmp_path):
    out = _run_js(
        PositionalEncodingExplorer(50, 16, pair=7, position=40),
        [{"testid": "pe-dmodel", "value": "4"}, {"testid": "pe-length", "value": "5"}],
        tmp_path,
    )
    assert out["__state"]["pair"] == 1 and out["__state"]["position"] == 4
    assert out["pe-dim"]["attrs"]["max"] == "1" and out["pe-position"]["attrs"]["max"] == "4"


def test_js_readout_of_the_pair_follows_when_d_model_shrinks(tmp_path):
    # The browser clamps the pair slider itself when its max drops; its readout must follow it
    # (it used to keep "7 (dims 14, 15)" while the pair was 1).
    out = _run_js(PositionalEncodingExplorer(50, 16, pair=7), [{"testid": "pe-dmodel", "value": "4"}], tmp_path)
    text = out["pe-root"]["text"]
    assert "7 (dims 14, 15)" not in text and "1 (dims 2, 3)" in text


def test_js_writes_long_periods_as_whole_numbers(tmp_path):
    out = _run_js(PositionalEncodingExplorer(50, 128, pair=63), [], tmp_path)
    text = out["pe-root"]["text"]
    # 2 pi * 10000 ** (126 / 128) = 54,410 positions, never "5.441e+4"
    assert "Period 54,410 positions" in text and "e+" not in text


# ---- the golden file --------------------------------------------------------------------------


def test_golden_file_is_current_and_matches_the_seeds_printed_table():
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    fresh = golden_data()
    assert golden["construct"] == fresh["construct"]
    for g, f in zip(golden["cases"], fresh["cases"], strict=True):
        assert (g["name"], g["controls"], g["d_model"], g["length"], g["position"]) == (
            f["name"],
            f["controls"],
            f["d_model"],
            f["length"],
            f["position"],
        )
        np.testing.assert_allclose(g["values"], f["values"], atol=1e-12)
        np.testing.assert_allclose(g["similarity"], f["similarity"], atol=1e-9)
    seed = golden["cases"][0]
    printed = load_worked_example()["positional_encoding_printed"]
    np.testing.assert_allclose(seed["values"], printed, atol=5e-5 + 1e-12)


if __name__ == "__main__":
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(golden_data(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}", file=sys.stderr)
