"""Reserve a figure's space before its image arrives, so that a page does not jump while it loads.

The book's stylesheet lets every image in an article shrink with its column (``height: auto``), which a
browser can only resolve once the file has arrived: until then the image is 0 px high, and the text below
it moves down as each figure loads. A reader who follows a link to a section far down a page sees it
jump several times. A CSS ``aspect-ratio`` lets the browser lay the figure out at its final height at once.

* A plot drawn by a cell has its display size inline (``style="width: Wpx; height: Hpx; ..."``): its ratio
  is ``W / H``.
* A diagram (an SVG with only its width inline, or none) gets the ratio of its own ``viewBox`` (or its
  ``width`` and ``height`` attributes), read from the built file by the ``svg_size`` callback.

What it leaves out: images outside the pages' ``<img>`` tags (CSS backgrounds, widgets' canvases).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

_IMG = re.compile(r"<img\b[^>]*>")
_STYLE = re.compile(r'style="([^"]*)"')
_PLOT_SIZE = re.compile(r"width:\s*(\d+(?:\.\d+)?)px;\s*height:\s*(\d+(?:\.\d+)?)px;")
_SRC = re.compile(r'src="([^"]+\.svg)"')
_NUMBER = r"(\d+(?:\.\d+)?)"
_VIEWBOX = re.compile(r'viewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+' + _NUMBER + r"[\s,]+" + _NUMBER + r'\s*"')
_SVG_WH = re.compile(r'<svg\b[^>]*?\bwidth="' + _NUMBER + r'(?:px)?"[^>]*?\bheight="' + _NUMBER + r'(?:px)?"')


def svg_size(path: Path) -> tuple[float, float] | None:
    """``(width, height)`` of an SVG file from its ``viewBox`` (else its width and height), or None."""
    try:
        head = Path(path).read_text(encoding="utf-8", errors="replace")[:4000]
    except OSError:
        return None
    root = head[head.find("<svg") :] if "<svg" in head else ""
    m = _VIEWBOX.search(root[: root.find(">") + 1]) or _SVG_WH.search(root)
    if not m:
        return None
    width, height = float(m.group(1)), float(m.group(2))
    return (width, height) if width > 0 and height > 0 else None


_FONT_SIZE = re.compile(r'font-size(?:="|:\s*)' + _NUMBER + r"(?:px)?\b")


def svg_label_px(path: Path) -> float | None:
    """The smallest text size an SVG file draws (its ``font-size`` attributes and CSS, in its own units), or
    None if it names none (or cannot be read)."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    sizes = [float(m.group(1)) for m in _FONT_SIZE.finditer(text)]
    return min((x for x in sizes if x > 0), default=None)


def reserve_figure_space(html: str, svg_size: Callable[[str], tuple[float, float] | None] | None = None) -> str:
    """Add ``aspect-ratio`` to the inline style of every plot with its size inline and every SVG whose size
    ``svg_size(src)`` knows. Idempotent: an image that has a ratio already is left as it is."""
    if not isinstance(html, str):
        raise TypeError(f"html must be a page's text (str), got {type(html).__name__}")

    def reserve(m: re.Match) -> str:
        tag = m.group(0)
        style = _STYLE.search(tag)
        if style and "aspect-ratio" in style.group(1):
            return tag
        size = _PLOT_SIZE.search(style.group(1)) if style else None
        if size:
            width, height = float(size.group(1)), float(size.group(2))
        else:
            src = _SRC.search(tag)
            known = svg_size(src.group(1)) if (src and svg_size) else None
            if not known:
                return tag
            width, height = known
        if width <= 0 or height <= 0:
            return tag
        ratio = f"aspect-ratio: {width:g} / {height:g};"
        if style:
            return tag.replace(style.group(0), f'style="{style.group(1).rstrip()} {ratio}"'.replace('=" ', '="'), 1)
        return tag.replace("<img", f'<img style="{ratio}"', 1)

    return _IMG.sub(reserve, html)
