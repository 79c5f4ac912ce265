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


def svg_width_and_text(path: Path) -> tuple[float, float] | None:
    """``(width, smallest text size)`` of an SVG file (see ``svg_size`` and ``svg_label_px``), or None."""
    size, label = svg_size(path), svg_label_px(path)
    return (size[0], label) if size and label else None


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


# A diagram (an SVG) keeps its text at 9 px or more on a phone: it is marked like a plot (tools/book_ext.py,
# mark_wide_figures) when the column would shrink it below LABEL_PX over its smallest text as shown, or
# below min_scale (its width: the inline one, else the file's own); a marked diagram directly in a <figure>
# (no link around it) gets a frame that scrolls (book.css), so that its caption stays in the column.
LABEL_PX = 9.0
_DIAGRAM = re.compile(r'<img\b[^>]*?src="([^"]+\.svg)"[^>]*>')
_INLINE_WIDTH = re.compile(r"(?<![-\w])width:\s*(\d+(?:\.\d+)?)px;")
_MIN_WIDTH = re.compile(r"\s*--nlp-min-w:\s*\d+px;")


def mark_wide_diagrams(
    html: str,
    svg_info: Callable[[str], tuple[float, float] | None],
    *,
    min_scale: float,
    column_px: float,
    css_class: str = "nlp-wide-figure",
) -> str:
    """Mark every SVG diagram whose text a phone's column (``column_px`` wide) would shrink under ``LABEL_PX``.

    ``svg_info(src)`` gives the diagram's width and its smallest text size (both in its own units), or None.
    A diagram shown ``w`` px wide (its inline width, else its own) whose narrowest legible width, the larger
    of ``min_scale * w`` and the width that shows its smallest text at ``LABEL_PX`` (at most the diagram's own
    width), exceeds the column gets ``css_class`` and that width as ``--nlp-min-w`` (replacing one given
    before). A marked diagram directly in a ``<figure>`` is wrapped in ``<div class="nlp-figure-frame">``.
    Idempotent.
    """
    if not isinstance(html, str):
        raise TypeError(f"html must be a page's text (str), got {type(html).__name__}")
    if not callable(svg_info):
        raise TypeError(f"svg_info must be a function of an image's src, got {type(svg_info).__name__}")
    if not (0 < min_scale <= 1) or column_px <= 0:
        raise ValueError(f"min_scale must be in (0, 1] and column_px > 0, got {min_scale} and {column_px}")
    return _mark_diagrams(html, svg_info, min_scale, column_px, css_class)


def _mark_diagrams(html: str, svg_info: Callable, min_scale: float, column_px: float, css_class: str) -> str:
    def mark(m: re.Match) -> str:
        tag = m.group(0)
        info = svg_info(m.group(1))
        if not info:
            return tag
        own, label = info
        style = _STYLE.search(tag)
        inline = _INLINE_WIDTH.search(style.group(1)) if style else None
        shown = float(inline.group(1)) if inline else own
        minimum = round(min(own, max(min_scale * shown, LABEL_PX * own / label)))
        if minimum <= column_px:
            return tag
        if css_class not in tag:
            if 'class="' in tag:
                tag = tag.replace('class="', f'class="{css_class} ', 1)
            else:
                tag = tag.replace("<img ", f'<img class="{css_class}" ', 1)
        rule = f"--nlp-min-w: {minimum}px;"
        style = _STYLE.search(tag)
        if style:
            rules = _MIN_WIDTH.sub("", style.group(1)).strip()
            return tag.replace(style.group(0), f'style="{rules} {rule}"'.replace('=" ', '="'), 1)
        return tag.replace("<img ", f'<img style="{rule}" ', 1)

    framed = re.compile(r'(<figure\b[^>]*>\s*)(<img\b[^>]*\bclass="[^"]*\b' + re.escape(css_class) + r"\b[^>]*>)")
    return framed.sub(r'\1<div class="nlp-figure-frame">\2</div>', _DIAGRAM.sub(mark, html))
