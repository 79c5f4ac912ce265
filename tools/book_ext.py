"""Small Sphinx extension for the book's HTML.

sphinx-thebe registers its inline configuration script once per read phase, so a page can
get the same ``const THEBE_JS_URL = ...`` twice, which is a JavaScript error in the browser.
This drops exact duplicate script entries before a page is written.
"""

from __future__ import annotations

from typing import Any


def _dedupe_scripts(app: Any, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    scripts = context.get("script_files")
    if not scripts:
        return
    seen: set[tuple[str, str]] = set()
    unique = []
    for script in scripts:
        key = (str(getattr(script, "filename", script) or ""), str(getattr(script, "attributes", {}).get("body", "")))
        if key in seen:
            continue
        seen.add(key)
        unique.append(script)
    context["script_files"] = unique


def setup(app: Any) -> dict[str, Any]:
    app.connect("html-page-context", _dedupe_scripts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
