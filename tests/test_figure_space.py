"""tools/figure_space.py: every figure's height is known before its file arrives (no jump while a page loads)."""

from __future__ import annotations

import pytest

from tools.figure_space import mark_wide_diagrams, reserve_figure_space, svg_label_px, svg_size, svg_width_and_text

PLOT = (
    '<img alt="a plot" class="nlp-wide-figure" src="a.png" style="width: 709px; height: 432px; --nlp-min-w: 468px;" />'
)


def test_a_plot_gets_the_ratio_of_its_inline_size_once():
    fixed = reserve_figure_space(PLOT)
    assert "aspect-ratio: 709 / 432;" in fixed and "--nlp-min-w: 468px;" in fixed
    assert reserve_figure_space(fixed) == fixed  # a second build changes nothing


def test_a_diagram_gets_the_ratio_of_its_view_box(tmp_path):
    (tmp_path / "d.svg").write_text(
        '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 270">'
    )
    (tmp_path / "e.svg").write_text('<svg width="120px" height="40px" xmlns="http://www.w3.org/2000/svg"></svg>')
    (tmp_path / "f.svg").write_text("<svg></svg>")  # no size: left alone
    assert svg_size(tmp_path / "d.svg") == (640, 270) and svg_size(tmp_path / "e.svg") == (120, 40)
    assert svg_size(tmp_path / "f.svg") is None and svg_size(tmp_path / "missing.svg") is None
    html = '<p><img alt="d" src="d.svg" style="width: 600px;" /><img alt="e" src="e.svg" /><img src="f.svg"></p>'
    fixed = reserve_figure_space(html, lambda src: svg_size(tmp_path / src))
    assert 'style="width: 600px; aspect-ratio: 640 / 270;"' in fixed
    assert '<img style="aspect-ratio: 120 / 40;" alt="e" src="e.svg" />' in fixed
    assert '<img src="f.svg">' in fixed
    assert reserve_figure_space(html) == html  # without a way to read the files, diagrams stay as they were


def test_bad_input_is_named():
    with pytest.raises(TypeError, match="html"):
        reserve_figure_space(b"<img>")


def test_the_smallest_text_of_a_diagram(tmp_path):
    (tmp_path / "d.svg").write_text(
        '<svg viewBox="0 0 9 9"><style>.a { font-size: 12px; }</style><text font-size="10.5">x</text></svg>'
    )
    (tmp_path / "e.svg").write_text("<svg></svg>")
    assert svg_label_px(tmp_path / "d.svg") == 10.5 and svg_width_and_text(tmp_path / "d.svg") == (9, 10.5)
    assert svg_width_and_text(tmp_path / "e.svg") is None
    assert svg_label_px(tmp_path / "e.svg") is None and svg_label_px(tmp_path / "missing.svg") is None


def mark(html, svg_info):
    """The marking as the book's build does it (tools/book_ext.py: 0.66 of a figure at least, a 358 px column)."""
    return mark_wide_diagrams(html, svg_info, min_scale=0.66, column_px=358)


@pytest.mark.parametrize(
    ("width", "label", "minimum"),
    [(780, 10, 702), (780, 13, 540), (780, 15, 515), (540, 14, None), (400, 8, 400), (300, 11, None)],
)
def test_diagrams_keep_9_px_text_on_a_phone(width, label, minimum):
    """A diagram without an inline width is marked when a phone's 358 px column would show its smallest text
    under 9 px (or the diagram under 0.66 of its size), with the width that keeps both; at most its own width.
    A marked diagram directly in a <figure> gets a frame of its own (the caption stays in the column)."""
    html = '<figure class="align-default"><img alt="d" src="../_images/a.svg" style="aspect-ratio: 2 / 1;" />'
    fixed = mark(html, lambda src: (width, label) if src == "../_images/a.svg" else None)
    if minimum is None:
        assert fixed == html
        return
    assert 'class="nlp-wide-figure"' in fixed and f"--nlp-min-w: {minimum}px;" in fixed
    assert '<figure class="align-default"><div class="nlp-figure-frame"><img ' in fixed and fixed.endswith("/></div>")
    assert mark(fixed, lambda src: (width, label)) == fixed  # idempotent
    # Shown at an inline width: the text as shown counts. 10 px text in a 1000-unit diagram shown 600 px wide
    # is 6 px; on a phone it is shown 900 px wide (wider than 0.66 of 600, as mark_wide_figures had it).
    sized = '<img class="nlp-wide-figure" alt="d" src="../_images/a.svg" style="width: 600px; --nlp-min-w: 396px;" />'
    fixed = mark(sized, lambda src: (1000, 10))
    assert fixed.count("--nlp-min-w") == 1 and "width: 600px; --nlp-min-w: 900px;" in fixed
    with pytest.raises(TypeError, match="svg_info"):
        mark(html, None)
    with pytest.raises(ValueError, match="min_scale"):
        mark_wide_diagrams(html, lambda src: None, min_scale=0, column_px=358)
