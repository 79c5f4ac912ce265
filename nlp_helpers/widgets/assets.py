"""Loading a widget's JavaScript and the shared stylesheet (see ``__init__.py`` for the pattern)."""

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
