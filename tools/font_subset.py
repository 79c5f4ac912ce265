"""Serve only the icons the book draws: the theme's Font Awesome fonts cut down to the glyphs its pages use.

pydata-sphinx-theme ships three Font Awesome 6 fonts (solid, regular, brands: 300 KB as woff2, 700 KB as
TrueType) and every page of the book loads the two it draws from, for about twenty icons (the header's
buttons, the admonitions' marks). After the build, this module keeps in each font only the glyphs of

* the icon classes (``fa-github``, ``fa-rocket``, ...) named anywhere in the built pages or in the
  scripts under ``_static/`` (the theme's scripts add icons such as ``fa-xmark`` at run time), and
* every character a stylesheet draws in some other rule (the theme's admonition marks are CSS variables
  such as ``--pst-icon-admonition-note: "\\f304"``).

A glyph kept by mistake costs a few hundred bytes; one dropped would draw an empty box, so the scan errs on
keeping. The fonts are always cut from the theme's own files, never from the previous build's output, so
an icon a page starts to use later is never missing. It leaves out what the widgets' bundles draw with
their own copy of Font Awesome (the ipywidgets manager embeds it).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

FONT_DIR = Path("_static") / "vendor" / "fontawesome" / "webfonts"
# The ipywidgets manager's bundles carry their own Font Awesome (its stylesheet lists every icon's name).
_OWN_ICONS = re.compile(r"(^|/)(html-manager/|embed-amd\.js$)")
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_ICON_SELECTOR = re.compile(r"^\s*\.fa-([a-z0-9-]+)::?before\s*$")
_STRING = re.compile(r'"([^"]*)"' + "|" + r"'([^']*)'")
_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})\s?")
_ICON_NAME = re.compile(r"\bfa-([a-z0-9]+(?:-[a-z0-9]+)*)")


def _unescape(text: str) -> str:
    """A CSS string's characters: ``\\f09b`` (an escape) and the character itself (minified CSS) alike."""
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)


def icon_table(css: str) -> tuple[dict[str, set[int]], set[int]]:
    """``({icon name: code points}, code points drawn by other rules)`` of one stylesheet's text."""
    if not isinstance(css, str):
        raise TypeError(f"css must be the text of a stylesheet (str), got {type(css).__name__}")
    icons: dict[str, set[int]] = {}
    other: set[int] = set()
    for selectors, body in _RULE.findall(css):
        points = {ord(c) for text in _STRING.findall(body) for c in _unescape("".join(text))}
        if not points:
            continue
        names = [_ICON_SELECTOR.match(s) for s in selectors.split(",")]
        if all(names):
            for m in names:
                icons.setdefault(m.group(1), set()).update(points)
        else:
            other |= points
    return icons, other


def used_codepoints(css_texts: list[str], page_texts: list[str]) -> set[int]:
    """The code points the pages can draw: their icon classes' glyphs and every glyph a stylesheet draws."""
    if not css_texts:
        raise ValueError("css_texts is empty: the build's stylesheets were not found")
    icons: dict[str, set[int]] = {}
    points: set[int] = set()
    for css in css_texts:
        table, other = icon_table(css)
        for name, cps in table.items():
            icons.setdefault(name, set()).update(cps)
        points |= other
    named = {name for text in page_texts for name in _ICON_NAME.findall(text)}
    for name in named & icons.keys():
        points |= icons[name]
    return points


def _subset(data: bytes, codepoints: set[int], flavor: str | None) -> bytes:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.flavor = flavor
    options.layout_features = ["*"]
    font = TTFont(io.BytesIO(data))
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(codepoints))
    subsetter.subset(font)
    out = io.BytesIO()
    font.flavor = flavor
    font.save(out)
    return out.getvalue()


def subset_theme_fonts(outdir: Path, theme_fonts: Path) -> dict[str, tuple[int, int]]:
    """Cut every Font Awesome font of the built book ``outdir`` from its original in ``theme_fonts``.

    Returns ``{file name: (bytes before, bytes after)}``. Raises ``FileNotFoundError`` when the build or the
    theme has no such fonts (a theme release that moved them must be adopted on purpose).
    """
    outdir, theme_fonts = Path(outdir), Path(theme_fonts)
    target = outdir / FONT_DIR
    fonts = sorted(p for p in target.glob("fa-*") if p.suffix in {".woff2", ".ttf"})
    if not fonts:
        raise FileNotFoundError(f"no Font Awesome fonts in {target}: did the theme move them?")
    static = outdir / "_static"
    css = [p.read_text(encoding="utf-8", errors="replace") for p in static.rglob("*.css")]
    pages = [p.read_text(encoding="utf-8", errors="replace") for p in outdir.rglob("*.html")]
    pages += [
        p.read_text(encoding="utf-8", errors="replace")
        for p in static.rglob("*.js")
        if not _OWN_ICONS.search(p.as_posix())
    ]
    codepoints = used_codepoints(css, pages)
    sizes = {}
    for font in fonts:
        original = theme_fonts / font.name
        if not original.is_file():
            raise FileNotFoundError(f"the theme's original of {font.name} is not in {theme_fonts}")
        data = original.read_bytes()
        cut = _subset(data, codepoints, "woff2" if font.suffix == ".woff2" else None)
        font.write_bytes(cut)
        sizes[font.name] = (len(data), len(cut))
    return sizes
