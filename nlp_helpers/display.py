"""Put computed numbers into a chapter's prose: ``glue`` without needing the book's build tools.

MyST's ``{glue:text}`` role (``{glue:text}`n_types:,``) shows in the rendered page the value a code
cell computed, so a number in a sentence can never disagree with the code above it. myst-nb's own
``glue`` lives in a build-time package that a reader's Colab or JupyterHub does not have; this is
the same function with no dependency beyond IPython: it writes the value's display data into the
cell's output with the metadata myst-nb reads (``scrapbook: {name, mime_prefix}``).

In a live notebook nothing is shown (``display=False`` is the default), and the number appears in
the page when the book is built. A numpy scalar is glued as the Python number it holds: numpy 2 shows
``np.float64(0.92)``, which the ``{glue:text}`` role cannot format.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

__all__ = ["glue", "hide_progress"]

# The prefix myst-nb gives hidden glue outputs (myst_nb.ext.glue.GLUE_PREFIX).
GLUE_PREFIX = "application/papermill.record/"


def glue(name: str, value: Any, display: bool = False) -> None:
    """Store ``value``'s display form under ``name`` for ``{glue}`` roles and directives in the prose.

    ``display=True`` also shows it in the cell's output. ``name`` must be a non-empty identifier-like str.
    """
    if not isinstance(name, str) or not name or any(ch.isspace() for ch in name):
        raise ValueError(f"name must be a non-empty str without spaces, got {name!r}")
    if not isinstance(display, bool):
        raise TypeError(f"display must be a bool, got {type(display).__name__}")
    _emit(name, value, display)


def _emit(name: str, value: Any, display: bool) -> None:
    from IPython.core.formatters import format_display_data
    from IPython.display import display as ipy_display

    if isinstance(value, np.generic):
        value = value.item()  # np.float64(0.92) -> 0.92, so that {glue:text}`x:.2f` can format it
    bundle, metadata = format_display_data(value)
    prefix = "" if display else GLUE_PREFIX
    metadata["scrapbook"] = {"name": name, "mime_prefix": prefix}
    ipy_display({prefix + mime: data for mime, data in bundle.items()}, raw=True, metadata=metadata)


def hide_progress() -> bool:
    """True while the book is being built (``NLP_BOOK_BUILD=1``) or ``TQDM_DISABLE`` is set.

    Training helpers pass ``disable=not progress or hide_progress()`` to tqdm, so a reader's live
    kernel shows the bar while the web page gets no frozen progress widget. (tqdm reads
    ``TQDM_DISABLE`` only as a default, which an explicit ``disable=False`` would override.)
    """
    return os.environ.get("NLP_BOOK_BUILD") == "1" or os.environ.get("TQDM_DISABLE", "").lower() in ("1", "true")
