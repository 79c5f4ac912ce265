"""The optimiser-paths explorer's full matrix in Chromium, on a page this test builds (the embedding and the
offline renderer, ``book/_static/nlp-widgets.js``, of the book's pages): mouse at 1280 px, touch at 390 px,
light and dark, the keyboard.

* Its controls redraw the paths torch.optim computes (``tests/golden/optimiser_paths_widget.json``).
* At 1280 px the map and the loss chart sit side by side; at 390 px they stack, nothing scrolls sideways,
  no label of a drawing is under 11 px, and every control is a tap target of at least 32 px.
* A tap on the map starts the optimisers there; on the focused map the arrow keys move the start and Home
  puts it back; the map shows a focus ring.
* In dark mode the drawing's text and lines take the page's text colour.

On the book's page, ``test_widgets.py`` moves the same controls (``test_optimiser_paths_redraw_...``).
"""

from __future__ import annotations

import json

import pytest
from ipywidgets.embed import dependency_state, embed_data

from tests.widgets.test_widgets_optimiser_paths import case_step, check_shown

from .conftest import ROOT
from .widgets import apply_controls, golden, serve_static_page

PHONE, LAPTOP = 390, 1280

READ_JS = """(root) => Object.fromEntries([...root.querySelectorAll('[data-testid^="op-"]')].map((e) => [
  e.dataset.testid, {text: e.textContent, attrs: Object.fromEntries([...e.attributes].map((a) => [a.name, a.value]))}]))"""

LAYOUT_JS = """(root) => {
  const box = (s) => root.querySelector(s).getBoundingClientRect();
  const map = box('[data-testid="op-map"]'), chart = box('[data-testid="op-chart"]');
  const small = [...root.querySelectorAll('svg text')].filter((t) => t.textContent.trim()).map((t) => {
    const size = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
    return [t.textContent, size];
  }).filter(([, size]) => size < 11);
  const targets = [...root.querySelectorAll('button, select, input[type=range], .nlpw-op-row input[type=checkbox] + label')].map((e) => {
    const r = e.getBoundingClientRect();
    return [e.dataset.testid || e.textContent.trim(), Math.round(r.height)];
  }).filter(([, height]) => height < 32);
  return {map: [map.left, map.top, map.bottom], chart: [chart.left, chart.top], small, targets,
          rootWide: root.scrollWidth > root.clientWidth + 1, pageWidth: document.documentElement.scrollWidth};
}"""


@pytest.fixture(scope="module")
def explorer_url(tmp_path_factory):
    from nlp_helpers.widgets.optimiser_paths import OptimiserPaths

    widgets = [OptimiserPaths(**golden("optimiser_paths_widget.json")["construct"])]
    data = embed_data(views=widgets, state=dependency_state(widgets, drop_defaults=False))

    def script_json(obj) -> str:
        return json.dumps(obj).replace("</", "<\\/")

    views = "".join(
        f'<div class="cell_output"><script type="application/vnd.jupyter.widget-view+json">{script_json(s)}</script></div>'
        for s in data["view_specs"]
    )
    html = f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">
<title>optimiser paths</title><link rel="icon" href="data:,"><style>body {{ font: 16px/1.5 sans-serif; margin: 0 1rem; }}
main {{ max-width: 46rem; margin: auto; }}
@media (prefers-color-scheme: dark) {{ body {{ background: #121212; color: #ddd; }} }}</style>
<script src="_static/nlp-widgets.js" defer></script>
<script type="application/vnd.jupyter.widget-state+json">{script_json(data["manager_state"])}</script>
</head><body><main><h1>Optimiser paths</h1>{views}</main></body></html>"""
    with serve_static_page(tmp_path_factory.mktemp("optimiser-paths"), html, ROOT / "book" / "_static") as url:
        yield url


@pytest.fixture
def open_explorer(browser, explorer_url):
    contexts = []

    def _open(width: int = LAPTOP, scheme: str = "light"):
        context = browser.new_context(
            viewport={"width": width, "height": 900}, color_scheme=scheme, has_touch=width < 600, is_mobile=width < 600
        )
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(explorer_url)
        root = page.locator("[data-testid='op-root']")
        root.wait_for(timeout=30_000)
        return page, root, errors

    yield _open
    for context in contexts:
        context.close()


def test_the_controls_redraw_the_paths_torch_computes(open_explorer):
    spec = golden("optimiser_paths_widget.json")
    page, root, errors = open_explorer()
    for case in spec["cases"]:
        apply_controls(root, case["controls"])
        check_shown(root.evaluate(READ_JS), case, spec["rtol"])
        assert root.locator("[data-testid='op-step']").input_value() == str(case_step(case))
    # unticking an optimiser removes its path and its column
    root.locator("[data-testid='op-show-1']").click()
    assert root.locator("[data-testid='op-path-1']").get_attribute("visibility") == "hidden"
    assert root.locator("[data-testid='op-theta-1']").count() == 0
    assert errors == []


@pytest.mark.parametrize(("width", "scheme"), [(LAPTOP, "light"), (PHONE, "light"), (PHONE, "dark")])
def test_it_fits_the_screen_with_legible_labels_and_tap_targets(open_explorer, width, scheme):
    page, root, errors = open_explorer(width, scheme)
    root.scroll_into_view_if_needed()
    got = root.evaluate(LAYOUT_JS)
    assert got["small"] == [], f"labels under 11 px: {got['small'][:6]}"
    assert not got["rootWide"] and got["pageWidth"] <= width, f"sideways scroll at {width} px: {got}"
    if width == PHONE:
        assert got["chart"][1] >= got["map"][2], f"the chart does not stack under the map: {got}"
        assert got["targets"] == [], f"tap targets under 32 px: {got['targets']}"
    else:
        assert got["chart"][1] == pytest.approx(got["map"][1], abs=40) and got["chart"][0] > got["map"][0]
    ink = root.evaluate(
        "r => [getComputedStyle(r).color, getComputedStyle(r.querySelector('[data-testid=\"op-map\"] text')).fill]"
    )
    assert ink[0] == ink[1], f"the map's labels are {ink[1]}, the text {ink[0]}"
    if scheme == "dark":
        assert ink[0] in ("rgb(221, 221, 221)",), ink  # the page's dark text colour, not the light one
    assert errors == []


def test_a_tap_on_the_map_starts_the_optimisers_there(open_explorer):
    page, root, errors = open_explorer(PHONE)
    m = root.locator("[data-testid='op-map']")
    m.scroll_into_view_if_needed()
    box = m.bounding_box()
    scale = box["width"] / 344  # the map's viewBox is 344 wide: θ₁ = -5 at x = 34, 30 px per unit
    start = root.locator("[data-testid='op-start']")
    # a finger that lands on the map to scroll the page moves nothing (only a tap, a click, does)
    m.dispatch_event("pointerdown", {"pointerType": "touch", "clientX": box["x"] + 5, "clientY": box["y"] + 5})
    assert start.get_attribute("data-x") == "-4"
    m.tap(position={"x": (34 + (2 + 5) * 30) * scale, "y": (10 + (3 - -1) * 30) * scale})
    assert float(start.get_attribute("data-x")) == pytest.approx(2.0, abs=0.06)
    assert float(start.get_attribute("data-y")) == pytest.approx(-1.0, abs=0.06)
    # the paths now start there
    first = root.evaluate(
        "r => r.querySelector('[data-testid=\"op-path-0\"] polyline').getAttribute('points').split(' ')[0]"
    )
    assert [float(v) for v in first.split(",")] == pytest.approx(
        [34 + (float(start.get_attribute("data-x")) + 5) * 30, 10 + (3 - float(start.get_attribute("data-y"))) * 30],
        abs=0.1,
    )
    assert errors == []


def test_the_keyboard_moves_the_start_and_the_step(open_explorer):
    page, root, errors = open_explorer()
    m = root.locator("[data-testid='op-map']")
    # a mouse drags the start along
    m.scroll_into_view_if_needed()
    box = m.bounding_box()
    scale = box["width"] / 344
    page.mouse.move(box["x"] + (34 + 1 * 30) * scale, box["y"] + (10 + 3 * 30) * scale)  # θ = (-4, 0)
    page.mouse.down()
    page.mouse.move(box["x"] + (34 + 3 * 30) * scale, box["y"] + (10 + 2 * 30) * scale, steps=4)  # θ = (-2, 1)
    page.mouse.up()
    start = root.locator("[data-testid='op-start']")
    assert float(start.get_attribute("data-x")) == pytest.approx(-2.0, abs=0.06)
    assert float(start.get_attribute("data-y")) == pytest.approx(1.0, abs=0.06)
    page.keyboard.press("Tab")  # off the map, then back with the keyboard
    m.focus()
    page.keyboard.press("Home")
    m.focus()
    assert m.evaluate("e => getComputedStyle(e).outlineStyle") != "none", "the focused map shows no focus ring"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Shift+ArrowDown")
    assert (float(start.get_attribute("data-x")), float(start.get_attribute("data-y"))) == (-4.25, 1.0)
    page.keyboard.press("Home")
    assert (float(start.get_attribute("data-x")), float(start.get_attribute("data-y"))) == (-4.0, 2.0)
    step = root.locator("[data-testid='op-step']")
    apply_controls(root, [{"testid": "op-step", "value": "10"}])
    root.locator("[data-testid='op-next']").focus()
    page.keyboard.press("Enter")
    assert step.input_value() == "11"
    step.focus()
    page.keyboard.press("ArrowLeft")
    assert step.input_value() == "10"
    assert root.locator("[data-testid='op-theta-0']").get_attribute("data-step") == "10"
    assert errors == []
