"""Interactive widgets of the book: one ``anywidget.AnyWidget`` subclass per file.

The pattern (see ``CONTRIBUTING.md``):

* ``name.py`` holds the class: it validates its input in Python and ships every
  number the view needs in synced traitlets (``traitlets.List``/``Dict``/``Float``
  with ``.tag(sync=True)``).
* ``name.js`` is an ES module with ``export default { render({ model, el }) }``.
  It draws with SVG/DOM and recomputes cheap things itself (a softmax at a new
  temperature, another head), so sliders work on the static HTML page, where no
  kernel runs, as well as in JupyterLab, Notebook 7, VS Code and Colab.
* ``_common.js`` is prepended to every widget's module by :func:`load_esm`: small
  DOM helpers that insert text only as text (never HTML), labelled keyboard-
  operable controls, and colour-blind-safe colour maps.
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).parent


def load_esm(filename: str) -> str:
    """Return ``_common.js`` followed by the widget module ``filename`` (a sibling ``.js`` file)."""
    path = _HERE / filename
    if path.suffix != ".js" or not path.is_file():
        raise FileNotFoundError(f"no widget module {filename!r} in {_HERE}")
    common = (_HERE / "_common.js").read_text(encoding="utf-8")
    return common + "\n" + path.read_text(encoding="utf-8")


def load_css() -> str:
    """The shared stylesheet of all widgets (follows the book's light/dark theme)."""
    return (_HERE / "widgets.css").read_text(encoding="utf-8")
