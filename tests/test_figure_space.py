"""tools/figure_space.py: every figure's height is known before its file arrives (no jump while a page loads)."""

from __future__ import annotations

import pytest

from tools.figure_space import reserve_figure_space, svg_label_px, svg_size

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
    assert svg_label_px(tmp_path / "d.svg") == 10.5
    assert svg_label_px(tmp_path / "e.svg") is None and svg_label_px(tmp_path / "missing.svg") is None
