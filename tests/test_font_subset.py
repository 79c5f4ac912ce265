"""tools/font_subset.py: the icon fonts keep exactly the glyphs the pages draw, drawn as the theme's originals."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.font_subset import _subset, icon_table, subset_theme_fonts, used_codepoints

pydata_sphinx_theme = pytest.importorskip("pydata_sphinx_theme")
fontTools = pytest.importorskip("fontTools")
THEME_FONTS = (
    (Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static" / "vendor")
    / "fontawesome"
    / "webfonts"
)
ROCKET, BARS, GITHUB, NOTE = 0xF135, 0xF0C9, 0xF09B, 0xF304

CSS = (
    '.fa-rocket:before{content:"\\f135"}'  # an icon class, escaped
    '.fa-bars:before,.fa-navicon:before{content:"\\f0c9"}'  # two names of one icon
    ".fa-github:before{content:'\\f09b'}"
    'html{--pst-icon-pencil:"\uf304"}'  # another rule's glyph, written as the character itself (minified CSS)
    "@media (min-width:960px){.fa-solid{font-weight:900}}"
)


def test_icon_table_reads_icon_classes_and_the_glyphs_other_rules_draw():
    icons, other = icon_table(CSS)
    assert icons == {"rocket": {ROCKET}, "bars": {BARS}, "navicon": {BARS}, "github": {GITHUB}}
    assert NOTE in other and ROCKET not in other


def test_only_the_icons_a_page_names_are_kept():
    page = '<i class="fa-solid fa-rocket"></i> <span class="fa-lg"></span>'
    kept = used_codepoints([CSS], [page])
    assert ROCKET in kept and NOTE in kept  # named on the page; drawn by a stylesheet rule
    assert BARS not in kept and GITHUB not in kept  # defined, never named


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="css_texts"):
        used_codepoints([], ["<i class='fa-rocket'></i>"])
    with pytest.raises(TypeError, match="css"):
        icon_table(b".fa-rocket:before{}")


def _glyph(font, codepoint):
    name = font.getBestCmap().get(codepoint)
    if name is None:
        return None
    glyph = font["glyf"][name]
    return glyph.getCoordinates(font["glyf"])[0].array.tolist() if glyph.numberOfContours else []


@pytest.mark.parametrize("flavor", ["woff2", None])
def test_a_cut_font_draws_the_kept_icons_as_the_original_does_and_nothing_else(flavor):
    from io import BytesIO

    from fontTools.ttLib import TTFont

    original = (THEME_FONTS / ("fa-solid-900.woff2" if flavor else "fa-solid-900.ttf")).read_bytes()
    cut_bytes = _subset(original, {ROCKET, NOTE}, flavor)
    full, cut = TTFont(BytesIO(original)), TTFont(BytesIO(cut_bytes))
    for cp in (ROCKET, NOTE):
        assert _glyph(cut, cp) == _glyph(full, cp) and _glyph(cut, cp)  # the same outline, not empty
    assert _glyph(cut, BARS) is None and _glyph(full, BARS)
    assert len(cut_bytes) < len(original) / 10
    assert cut_bytes[:4] == (b"wOF2" if flavor else b"\x00\x01\x00\x00")


def test_subset_theme_fonts_cuts_from_the_originals_and_needs_them(tmp_path):
    fonts = tmp_path / "_static" / "vendor" / "fontawesome" / "webfonts"
    fonts.mkdir(parents=True)
    (fonts / "fa-solid-900.woff2").write_bytes(b"an older build's cut")  # never read
    (tmp_path / "_static" / "theme.css").write_text(CSS)
    (tmp_path / "page.html").write_text('<i class="fa-solid fa-rocket"></i>')
    sizes = subset_theme_fonts(tmp_path, THEME_FONTS)
    assert sizes["fa-solid-900.woff2"][0] == (THEME_FONTS / "fa-solid-900.woff2").stat().st_size
    assert (fonts / "fa-solid-900.woff2").read_bytes()[:4] == b"wOF2"
    with pytest.raises(FileNotFoundError, match="original"):
        subset_theme_fonts(tmp_path, tmp_path)
    with pytest.raises(FileNotFoundError, match="Font Awesome"):
        subset_theme_fonts(tmp_path / "nowhere", THEME_FONTS)
