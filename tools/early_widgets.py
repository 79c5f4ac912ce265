"""Draw a page's first widget while the rest of the page is still being parsed.

Sphinx writes the widget renderer (``book/_static/nlp-widgets.js``, configured as ``nb_ipywidgets_js`` with
``defer``) in the page's head. A deferred script runs only once the whole page is parsed, and in Chromium
the deferred scripts run back to back before the next frame: a page's first widget is shown only after
MathJax and the theme's scripts have been evaluated too (about 0.4 s more on a laptop four times slower
than a desktop, on the longest pages).

``draw_widgets_early`` moves the renderer to just after the page's first widget view, as a plain script.
The parser runs it there: the views parsed so far are drawn at once and can be painted while the rest of
the page arrives; the renderer draws the views after it when the document has been parsed.
"""

from __future__ import annotations

import re

# Sphinx's tag for the renderer (in the head), and the same renderer once moved by this module.
_DEFERRED = re.compile(r'[ \t]*<script defer="defer" src="([^"]*nlp-widgets\.js(?:\?[^"]*)?)"></script>[ \t]*\n?')
_MOVED = re.compile(r'<script src="[^"]*nlp-widgets\.js(?:\?[^"]*)?"></script>')
_VIEW = re.compile(r'<script type="application/vnd\.jupyter\.widget-view\+json">.*?</script>', re.DOTALL)


class WidgetScriptError(ValueError):
    """A page's widget markup is not in a form ``draw_widgets_early`` knows."""


def draw_widgets_early(html: str, page: str = "page") -> str:
    """Return ``html`` with the widget renderer loaded right after the first widget view, not deferred.

    A page without a widget view is returned unchanged, and so is one already rewritten (an incremental
    build leaves unchanged pages as the last build wrote them).

    Raises:
        TypeError: ``html`` or ``page`` is not a string.
        WidgetScriptError: the page has a widget view but no renderer, or more than one, or a renderer
            already moved to somewhere other than its first view.
    """
    if not isinstance(html, str):
        raise TypeError(f"html must be a str (a page's HTML), got {type(html).__name__}")
    if not isinstance(page, str):
        raise TypeError(f"page must be a str (the page's name, for messages), got {type(page).__name__}")
    return _draw_widgets_early(html, page)


def _draw_widgets_early(html: str, page: str) -> str:
    view = _VIEW.search(html)
    deferred = _DEFERRED.findall(html)
    moved = _MOVED.findall(html)
    if view is None:
        if deferred or moved:
            raise WidgetScriptError(f"{page}: loads the widget renderer but shows no widget view")
        return html
    if len(deferred) + len(moved) != 1:
        raise WidgetScriptError(
            f"{page}: expected one widget renderer script (nlp-widgets.js), found {len(deferred) + len(moved)}"
        )
    if moved:
        if not html.startswith(moved[0], view.end()):
            raise WidgetScriptError(f"{page}: the widget renderer is not right after the first widget view")
        return html
    html = _DEFERRED.sub("", html, count=1)
    view = _VIEW.search(html)
    return f'{html[: view.end()]}<script src="{deferred[0]}"></script>{html[view.end() :]}'
