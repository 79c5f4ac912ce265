"""Every SVG diagram in book/figures parses, has a <title> and a <desc>, and stays readable on the dark page.

In dark mode the book's page is near-black. An SVG included with <img> cannot inherit the page's
colours (``currentColor`` is black there), so a figure must either paint its own opaque background
(a rect covering the whole canvas, as most do: white with rounded corners, or a theme-aware class
``bg``) or use only light text colours on the transparent canvas (the landing-page cards: white text
inside coloured shapes). Checked by rendering every figure on a #121212 page as <img> and inline.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

FIGURES = Path(__file__).resolve().parents[1] / "book" / "figures"
SVGS = sorted(FIGURES.rglob("*.svg"))
NS = "{http://www.w3.org/2000/svg}"
NAMED = {"white": "#ffffff", "black": "#000000", "none": None, "transparent": None}


def luminance(colour: str) -> float | None:
    """Relative luminance (0 black .. 1 white) of #rgb/#rrggbb or a few names; None if not a fixed colour."""
    colour = NAMED.get(colour.strip().lower(), colour.strip().lower())
    if colour is None or not re.fullmatch(r"#[0-9a-f]{3}|#[0-9a-f]{6}", colour):
        return None
    hexes = colour[1:] if len(colour) == 7 else "".join(c * 2 for c in colour[1:])
    r, g, b = (int(hexes[k : k + 2], 16) / 255 for k in (0, 2, 4))
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def canvas_size(root: ET.Element) -> tuple[float, float]:
    x0, y0, w, h = (float(v) for v in root.get("viewBox").replace(",", " ").split())
    assert x0 == 0 and y0 == 0
    return w, h


def has_opaque_background(root: ET.Element, text: str) -> bool:
    """A rect at (0, 0) covering the whole canvas, with a fill and no transparency."""
    w, h = canvas_size(root)
    for rect in root.iter(f"{NS}rect"):
        full = all(rect.get(k, "0") in ("0", "0.0") for k in ("x", "y")) and (
            rect.get("width") in ("100%", str(int(w)), str(w)) and rect.get("height") in ("100%", str(int(h)), str(h))
        )
        if not full or float(rect.get("opacity", "1")) < 1 or float(rect.get("fill-opacity", "1")) < 1:
            continue
        fill = rect.get("fill")
        if fill is None and rect.get("class"):  # filled from the SVG's <style>
            match = re.search(r"\." + re.escape(rect.get("class")) + r"\s*\{[^}]*fill:\s*([^;}\s]+)", text)
            fill = match.group(1) if match else None
        if fill is not None and luminance(fill) is not None:
            return True
    return False


def text_fills(root: ET.Element):
    """(text, fill) for every <text>, the fill inherited from the nearest ancestor that sets one."""
    parents = {c: p for p in root.iter() for c in p}
    for node in root.iter(f"{NS}text"):
        fill, up = None, node
        while up is not None and fill is None:
            fill = up.get("fill") or (re.search(r"fill:\s*([^;]+)", up.get("style", "")) or [None, None])[1]
            up = parents.get(up)
        yield "".join(node.itertext()), fill


def test_there_are_figures():
    assert len(SVGS) >= 10


@pytest.mark.parametrize("path", SVGS, ids=lambda p: str(p.relative_to(FIGURES)))
def test_svg_parses_and_has_title_and_desc(path):
    root = ET.parse(path).getroot()
    assert root.tag == f"{NS}svg"
    title, desc = root.find(f"{NS}title"), root.find(f"{NS}desc")
    assert title is not None and (title.text or "").strip(), "missing <title>"
    assert desc is not None and len((desc.text or "").strip()) > 20, "missing or empty <desc>"


@pytest.mark.parametrize("path", SVGS, ids=lambda p: str(p.relative_to(FIGURES)))
def test_readable_on_a_dark_page(path):
    text = path.read_text(encoding="utf-8")
    root = ET.fromstring(text)
    if has_opaque_background(root, text):
        return
    dark = [(t, fill) for t, fill in text_fills(root) if fill is None or (luminance(fill) or 0.0) < 0.4]
    assert not dark, f"text that is dark (or currentColor, black in an <img>) on a transparent canvas: {dark[:3]}"


def test_the_checks_can_fail():
    transparent = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text fill="currentColor">a</text></svg>'
    assert list(text_fills(ET.fromstring(transparent))) == [("a", "currentColor")]
    assert not has_opaque_background(ET.fromstring(transparent), transparent)
    see_through = transparent.replace(
        "<text", '<rect x="0" y="0" width="10" height="10" fill="#fff" opacity="0"/><text'
    )
    assert not has_opaque_background(ET.fromstring(see_through), see_through)
    assert has_opaque_background(ET.fromstring(see_through.replace(' opacity="0"', "")), see_through)
    assert luminance("#fff") == pytest.approx(1.0) and luminance("#000") == 0.0


def _chapter_sources() -> dict[str, list[Path]]:
    """The source files of each chapter in _toc.yml (its page and its section pages), by the chapter's file."""
    import yaml

    book = FIGURES.parents[1]
    toc = yaml.safe_load((book / "_toc.yml").read_text(encoding="utf-8"))
    chapters = next(p for p in toc["parts"] if p.get("caption") == "Chapters")["chapters"]
    out = {}
    for chapter in chapters:
        files = [chapter["file"], *(s["file"] for s in chapter.get("sections", []))]
        out[chapter["file"]] = [p for f in files for p in book.glob(f + ".*") if p.suffix in (".md", ".ipynb")]
    return out


def test_every_chapter_places_a_diagram_with_alt_text():
    """Each chapter teaches with at least one of these diagrams, placed as a figure with alt text."""
    missing = []
    for chapter, sources in _chapter_sources().items():
        text = "\n".join(p.read_text(encoding="utf-8") for p in sources)
        placed = re.findall(r"\{figure\}\s*(?:\.\./)*figures/(\S+\.svg)[^`]*?:alt: (.{20,})", text.replace("\\n", "\n"))
        if not placed or not all((FIGURES / name).exists() for name, _ in placed):
            missing.append(chapter)
    assert not missing, f"chapters with no placed SVG diagram (with :alt:) from book/figures: {missing}"
