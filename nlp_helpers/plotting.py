"""Plotting helpers shared by the chapters: one look for every figure.

Colour maps are colour-blind safe (``cividis`` for sequential data, ``RdBu_r``-like
diverging ``coolwarm`` avoided in favour of ``PuOr``), axes are always labelled, and
small matrices get their values written in the cells.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from nlp_helpers._checks import check_array

SEQUENTIAL = "cividis"
DIVERGING = "PuOr_r"
# Okabe-Ito palette: distinguishable with every common colour-vision deficiency.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]


def use_book_style() -> None:
    """Set matplotlib defaults used across the book.

    Okabe-Ito colour cycle, readable font sizes, figures as wide as the book's text column (7.5 in at 100 dpi)
    drawn at twice the pixel density (sharp on high-resolution screens), on an opaque white background so
    that a figure stays readable when the page is in dark mode.
    """
    plt.rcParams.update(
        {
            "figure.dpi": 100,
            "figure.figsize": (7.5, 4.2),
            "figure.facecolor": "white",
            "savefig.facecolor": "white",
            "axes.prop_cycle": plt.cycler(color=PALETTE),
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.titlesize": 12,
            "axes.labelsize": 11,
            "xtick.labelsize": 10,
            "ytick.labelsize": 10,
            "legend.fontsize": 10,
            "image.cmap": SEQUENTIAL,
            "font.size": 11,
        }
    )
    _sharp_inline_figures()


def _sharp_inline_figures() -> None:
    """In a notebook, draw PNGs at twice the resolution (shown at the same size); elsewhere nothing."""
    try:
        from IPython import get_ipython
        from matplotlib_inline.backend_inline import set_matplotlib_formats
    except ImportError:  # pragma: no cover - matplotlib without IPython
        return
    if get_ipython() is not None:
        set_matplotlib_formats("retina")


def heatmap(
    matrix: np.ndarray,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    *,
    ax: Axes | None = None,
    title: str = "",
    xlabel: str = "",
    ylabel: str = "",
    annotate: bool | None = None,
    fmt: str = ".2f",
    diverging: bool = False,
    colorbar_label: str = "",
) -> Axes:
    """Draw a labelled heatmap of a 2-D array; small matrices get their values written in.

    ``annotate=None`` writes values when the matrix has at most 12 x 12 cells.
    ``diverging=True`` uses a colour-blind-safe diverging map centred on 0.
    """
    m = check_array("matrix", matrix, ndim=2, finite=False)
    n_rows, n_cols = m.shape
    if row_labels is not None and len(row_labels) != n_rows:
        raise ValueError(f"row_labels has {len(row_labels)} labels but matrix has {n_rows} rows")
    if col_labels is not None and len(col_labels) != n_cols:
        raise ValueError(f"col_labels has {len(col_labels)} labels but matrix has {n_cols} columns")
    if ax is None:
        _, ax = plt.subplots(figsize=(max(3.0, 0.6 * n_cols + 1.5), max(2.5, 0.45 * n_rows + 1.0)))
    finite = m[np.isfinite(m)]
    if diverging:
        lim = float(np.max(np.abs(finite))) if finite.size else 1.0
        im = ax.imshow(m, cmap=DIVERGING, vmin=-lim, vmax=lim, aspect="auto")
    else:
        im = ax.imshow(m, cmap=SEQUENTIAL, aspect="auto")
    cbar = ax.figure.colorbar(im, ax=ax)
    if colorbar_label:
        cbar.set_label(colorbar_label)
    if row_labels is not None:
        ax.set_yticks(range(n_rows), labels=list(row_labels))
    if col_labels is not None:
        ax.set_xticks(range(n_cols), labels=list(col_labels), rotation=45, ha="right")
    if annotate is None:
        annotate = n_rows <= 12 and n_cols <= 12
    if annotate:
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        for i in range(n_rows):
            for j in range(n_cols):
                v = m[i, j]
                t = 0.5 if hi == lo else (v - lo) / (hi - lo)
                color = (
                    "black"
                    if (np.isfinite(v) and t > 0.6 and not diverging)
                    else ("white" if not diverging else "black")
                )
                ax.text(
                    j,
                    i,
                    format(v, fmt) if np.isfinite(v) else str(v),
                    ha="center",
                    va="center",
                    color=color,
                    fontsize=8,
                )
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return ax
