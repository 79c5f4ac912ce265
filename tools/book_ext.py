"""Small Sphinx extension for the book's HTML.

1. sphinx-thebe registers its inline configuration script once per read phase, so a page can
get the same ``const THEBE_JS_URL = ...`` twice, which is a JavaScript error in the browser.
This drops exact duplicate script entries before a page is written.

2. myst-nb escapes only the exact string "</script>" in the embedded widget state, but an HTML
parser ends a script element at any case of "</script". Widget state carries text from data
(tokens, documents), so every "</" in it is written as "<\/" (the same JSON string).

3. Two controls of pydata-sphinx-theme fail axe-core's "label-content-name-mismatch" check
(a screen-reader user who says the visible label cannot activate them): the search button
is labelled "Search" but shows "Search Ctrl+K", and the colour-mode button is labelled
"Color mode" while its icons carry the titles "Light"/"Dark". After the build, the search
button's visible text becomes its name and the decorative icons are hidden from assistive
technology.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sphinx.builders.html._assets import _JavaScript

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
_SEARCH_FIELD = re.compile(r'(<button class="btn search-button-field[^"]*"[^>]*?) aria-label="Search"')
_THEME_ICON = re.compile(r'(<i class="theme-switch [^"]*" data-mode="\w+")\s+title="[^"]*"')


def _clean_scripts(app: Any, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    scripts = context.get("script_files")
    if not scripts:
        return
    seen: set[tuple[str, str]] = set()
    unique = []
    for script in scripts:
        attrs = getattr(script, "attributes", {})
        if attrs.get("type") == WIDGET_STATE and "</" in attrs.get("body", ""):
            safe = {**attrs, "body": attrs["body"].replace("</", "<\\/")}
            script = _JavaScript(script.filename, priority=script.priority, **safe)
        key = (str(getattr(script, "filename", script) or ""), str(getattr(script, "attributes", {}).get("body", "")))
        if key in seen:
            continue
        seen.add(key)
        unique.append(script)
    context["script_files"] = unique


def _fix_theme_accessibility(app: Any, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        fixed = _THEME_ICON.sub(r'\1 aria-hidden="true"', _SEARCH_FIELD.sub(r"\1", html))
        if fixed != html:
            page.write_text(fixed, encoding="utf-8")


def setup(app: Any) -> dict[str, Any]:
    app.connect("html-page-context", _clean_scripts)
    app.connect("build-finished", _fix_theme_accessibility)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
