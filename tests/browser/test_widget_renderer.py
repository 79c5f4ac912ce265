"""The book's widget renderer (book/_static/nlp-widgets.js) on a bare page: the book's plain modules
(``export`` only before declarations and one ``export default``) are run at once; any other module goes
through a real dynamic ``import()``. Both must draw, and two views of one model must stay in step."""

from __future__ import annotations

import json
import urllib.parse

import pytest

from .conftest import ROOT
from .widgets import serve_static_page

PLAIN = """export function label(x) { return `plain ${x}`; }
export default { render({ model, el }) {
  const out = document.createElement("span");
  const more = document.createElement("button");
  more.textContent = "+1";
  more.addEventListener("click", () => model.set("value", model.get("value") + 1));
  const draw = () => { out.textContent = label(model.get("value")); };
  model.on("change:value", draw);
  el.append(out, more);
  draw();
} };"""
# `export { ... }` and import.meta are module syntax the quick path does not take.
REAL_MODULE = """const widget = { render({ el }) { el.textContent = `module ${typeof import.meta.url}`; } };
export { widget as default };"""


def _model(esm: str, value: int = 1) -> dict:
    return {"model_module": "anywidget", "model_name": "AnyModel", "state": {"_esm": esm, "_css": "", "value": value}}


def _watched_page(browser):
    """A new page in its own context, and the list its errors and console warnings are written to."""
    context = browser.new_context()
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    return context, page, problems


@pytest.fixture(scope="module")
def renderer_page_url(tmp_path_factory):
    state = {"state": {"plain": _model(PLAIN), "real": _model(REAL_MODULE)}}
    views = "".join(
        f'<section id="{name}-{k}"><script type="application/vnd.jupyter.widget-view+json">'
        f"{json.dumps({'model_id': name, 'version_major': 2, 'version_minor': 1})}</script></section>"
        for name, k in (("plain", 0), ("plain", 1), ("real", 0))
    )
    html = f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>renderer</title><link rel="icon" href="data:,">
<script src="_static/nlp-widgets.js" defer></script>
<script type="application/vnd.jupyter.widget-state+json">{json.dumps(state)}</script>
</head><body>{views}</body></html>"""
    with serve_static_page(tmp_path_factory.mktemp("renderer"), html, ROOT / "book" / "_static") as url:
        yield url


def test_plain_and_real_modules_both_draw(browser, renderer_page_url):
    context, page, problems = _watched_page(browser)
    page.goto(renderer_page_url)
    page.wait_for_function("() => document.querySelectorAll('.widget-subarea').length === 3")
    page.wait_for_function("() => document.querySelector('#real-0 .widget-subarea').textContent !== ''")
    assert page.locator("#plain-0 .widget-subarea span").text_content() == "plain 1"
    page.locator("#plain-1 button").click()  # the other view of the same model follows
    assert page.locator("#plain-0 .widget-subarea span").text_content() == "plain 2"
    assert page.locator("#plain-1 .widget-subarea span").text_content() == "plain 2"
    assert page.locator("#real-0 .widget-subarea").text_content() == "module string"
    assert problems == []
    context.close()


@pytest.fixture(scope="module")
def early_page_url(tmp_path_factory):
    """A page as the book writes it: the renderer, a plain script, right after the first view; more views
    after it; an inline script after them notes what was drawn while the page was still being parsed."""
    state = {"state": {"plain": _model(PLAIN), "real": _model(REAL_MODULE)}}

    def view(name: str, k: int) -> str:
        spec = json.dumps({"model_id": name, "version_major": 2, "version_minor": 1})
        return f'<section id="{name}-{k}"><script type="application/vnd.jupyter.widget-view+json">{spec}</script>'

    # A deferred script (as MathJax and the theme's are) notes what was drawn when it ran.
    deferred = "window.__atDeferred = document.querySelectorAll('.widget-subarea').length;"
    html = f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>renderer</title><link rel="icon" href="data:,">
<script type="application/vnd.jupyter.widget-state+json">{json.dumps(state)}</script>
<script defer src="data:text/javascript,{urllib.parse.quote(deferred)}"></script>
</head><body>{view("plain", 0)}<script src="_static/nlp-widgets.js"></script></section>
<p>{"text " * 2000}</p>{view("plain", 1)}</section>{view("real", 0)}</section>
<script>window.__whileParsing = [...document.querySelectorAll('.widget-subarea')].map(s => s.textContent);</script>
</body></html>"""
    with serve_static_page(tmp_path_factory.mktemp("early"), html, ROOT / "book" / "_static") as url:
        yield url


def test_the_first_widget_is_drawn_while_the_page_is_parsed_and_every_view_once(browser, early_page_url):
    context, page, problems = _watched_page(browser)
    page.goto(early_page_url)
    page.wait_for_function("() => document.querySelector('#real-0 .widget-subarea')?.textContent === 'module string'")
    # Before the parser reached the later views, the first one was drawn, and only it.
    assert page.evaluate("window.__whileParsing") == ["plain 1+1"]
    # ... and every view had been drawn by the time the deferred scripts ran.
    assert page.evaluate("window.__atDeferred") == 3
    assert page.locator(".widget-subarea").count() == 3  # the later views are drawn once each, not redrawn
    assert [page.locator(f"#{v} .widget-subarea").count() for v in ("plain-0", "plain-1", "real-0")] == [1, 1, 1]
    page.locator("#plain-0 button").click()  # two views of one model drawn at different times stay in step
    assert page.locator("#plain-1 .widget-subarea span").text_content() == "plain 2"
    assert problems == []
    context.close()
