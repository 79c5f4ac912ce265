"""Bad and edge inputs of the shared modules (argument checks, plotting), table-driven (the runner is ``tests/bad_inputs.py``).

``BAD`` rows must raise an error naming the argument; ``EDGE`` rows have a documented result.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest

from nlp_helpers import _checks as C  # noqa: E402
from nlp_helpers import plotting as PL  # noqa: E402
from tests.bad_inputs import Bad, bad, run_bad

NAN, INF = math.nan, math.inf


BAD = [
    # --- _checks: the shared checks name the argument themselves
    bad(
        "_checks.check_type-wrong-type",
        lambda: C.check_type("vocab", [1], dict),
        TypeError,
        "vocab must be dict, got list",
    ),
    bad(
        "_checks.check_type-bool-is-not-int", lambda: C.check_type("n", True, int), TypeError, "n must be int, got bool"
    ),
    bad("_checks.check_int-numpy-float", lambda: C.check_int("k", np.float64(2.0)), TypeError, "k must be an integer"),
    bad(
        "_checks.check_array-ragged", lambda: C.check_array("X", [[1.0], [1.0, 2.0]]), TypeError, "X must be array-like"
    ),
    # --- plotting
    bad("plotting.heatmap-1d", lambda: PL.heatmap(np.ones(3)), ValueError, "matrix must have 2 dimensions"),
    bad(
        "plotting.heatmap-row-labels", lambda: PL.heatmap(np.ones((2, 2)), ["a"]), ValueError, "row_labels has 1 labels"
    ),
    bad(
        "plotting.heatmap-col-labels",
        lambda: PL.heatmap(np.ones((2, 2)), None, ["a", "b", "c"]),
        ValueError,
        "col_labels has 3 labels",
    ),
    bad("plotting.heatmap-strings", lambda: PL.heatmap([["a"]]), TypeError, "matrix must be array-like"),
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_a_clear_error_naming_the_argument(case: Bad) -> None:
    run_bad(case)


def test_heatmap_draws_nan_and_inf_cells_as_text_and_use_book_style_sets_the_palette() -> None:
    PL.use_book_style()
    assert plt.rcParams["image.cmap"] == PL.SEQUENTIAL
    assert [c["color"] for c in plt.rcParams["axes.prop_cycle"]][:3] == PL.PALETTE[:3]
    ax = PL.heatmap(np.array([[NAN, 1.0], [INF, 0.0]]), ["r1", "r2"], ["c1", "c2"], title="t", diverging=True)
    texts = [t.get_text() for t in ax.texts]
    assert texts == ["nan", "1.00", "inf", "0.00"] and ax.get_title() == "t"
    ax = PL.heatmap(np.full((2, 2), NAN))  # nothing finite: still draws, with default limits
    assert [t.get_text() for t in ax.texts] == ["nan"] * 4
    plt.close("all")


def test_book_style_draws_sharp_opaque_column_wide_figures() -> None:
    PL.use_book_style()
    assert plt.rcParams["figure.facecolor"] in ("white", (1.0, 1.0, 1.0, 1.0))  # readable in dark mode
    width, _ = plt.rcParams["figure.figsize"]
    assert width * plt.rcParams["figure.dpi"] <= 800  # fits the text column without shrinking
    assert plt.rcParams["xtick.labelsize"] >= 9
