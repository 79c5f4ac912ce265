"""tools/early_widgets.py: the widget renderer moves from the head (deferred) to right after the first view."""

from __future__ import annotations

import pytest

from tools.early_widgets import WidgetScriptError, draw_widgets_early

RENDERER = '<script defer="defer" src="../_static/nlp-widgets.js?v=49"></script>'
VIEW = '<script type="application/vnd.jupyter.widget-view+json">{"model_id": "a"}</script>'
PAGE = f"<head>\n    {RENDERER}\n    <script defer src='mathjax.js'></script>\n</head><body><p>x</p>{VIEW}<p>y</p>{VIEW}</body>"


def test_the_renderer_follows_the_first_view_and_is_not_deferred():
    out = draw_widgets_early(PAGE)
    assert 'defer="defer" src="../_static/nlp-widgets' not in out
    assert out.count("nlp-widgets.js") == 1
    first = out.index(VIEW) + len(VIEW)
    assert out[first:].startswith('<script src="../_static/nlp-widgets.js?v=49"></script><p>y</p>')
    # the rest of the head, and the second view, are untouched
    assert "<head>\n    <script defer src='mathjax.js'></script>\n</head>" in out
    assert out.endswith(f"<p>y</p>{VIEW}</body>")


def test_a_rewritten_page_and_a_page_without_widgets_are_unchanged():
    once = draw_widgets_early(PAGE)
    assert draw_widgets_early(once) == once
    plain = "<head><script defer src='x.js'></script></head><body><p>no widget</p></body>"
    assert draw_widgets_early(plain) == plain


@pytest.mark.parametrize(
    ("html", "message"),
    [
        (f"<head></head><body>{VIEW}</body>", "expected one widget renderer script"),
        (f"<head>{RENDERER}{RENDERER}</head><body>{VIEW}</body>", "found 2"),
        (f"<head>{RENDERER}</head><body><p>none</p></body>", "shows no widget view"),
        (f'<head></head><body>{VIEW}<p>x</p><script src="nlp-widgets.js"></script></body>', "not right after"),
    ],
)
def test_markup_it_does_not_know_is_an_error_naming_the_page(html, message):
    with pytest.raises(WidgetScriptError, match=message) as err:
        draw_widgets_early(html, "book/x.html")
    assert "book/x.html" in str(err.value)


def test_bad_arguments_are_named():
    with pytest.raises(TypeError, match="html must be a str"):
        draw_widgets_early(b"<p></p>")
    with pytest.raises(TypeError, match="page must be a str"):
        draw_widgets_early("<p></p>", page=3)
