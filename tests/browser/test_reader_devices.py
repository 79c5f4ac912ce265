"""The book on a reader's device: a phone-width screen, a slow laptop, a school network.

* At 390 px (a phone) no page scrolls sideways: wide equations, tables and code scroll inside their own
  box, and widgets scale to the column.
* Every chapter page, with everything it loads, weighs under 5 MB; pages without a widget do not load
  the widget manager.
* With the CPU throttled 4x (Chrome DevTools Protocol), every slider of every widget redraws in under
  60 ms (median of several steps), measured from the input event to the next frame.
"""

from __future__ import annotations

import statistics

import pytest

from .conftest import built_pages, widget_view_count

PHONE_WIDTH = 390
MAX_PAGE_BYTES = 5_000_000
THROTTLE = 4
MAX_SLIDER_MS = 60.0

WIDEST_ELEMENTS_JS = """(limit) => {
  const doc = document.documentElement;
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= limit + 1) continue;
    // an element inside a box that scrolls (or clips) horizontally does not widen the page
    let clipped = false;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (['auto', 'scroll', 'hidden', 'clip'].includes(s.overflowX) && p.getBoundingClientRect().right <= limit + 1) {
        clipped = true;
        break;
      }
    }
    if (!clipped) out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} right=${Math.round(r.right)}`);
  }
  return {scrollWidth: doc.scrollWidth, offenders: out.slice(0, 8)};
}"""

PAGE_BYTES_JS = """() => {
  const resources = performance.getEntriesByType('resource').reduce((a, e) => a + (e.decodedBodySize || 0), 0);
  const [nav] = performance.getEntriesByType('navigation');
  return resources + (nav ? nav.decodedBodySize : document.documentElement.outerHTML.length);
}"""

SLIDER_MS_JS = """async ([index, steps]) => {
  const el = document.querySelectorAll('.nlpw input[type=range]')[index];
  const lo = Number(el.min), hi = Number(el.max), times = [];
  for (let k = 0; k < steps; k++) {
    const value = k % 2 ? lo + Math.floor((hi - lo) / 3) : hi - Math.floor((hi - lo) / 4);
    const t0 = performance.now();
    el.value = String(value);
    el.dispatchEvent(new Event('input', {bubbles: true}));
    await new Promise(r => requestAnimationFrame(() => r()));
    times.push(performance.now() - t0);
  }
  return times;
}"""


@pytest.mark.parametrize("rel", built_pages())
def test_no_page_scrolls_sideways_on_a_phone(open_page, rel):
    page, _ = open_page(rel, width=PHONE_WIDTH)
    result = page.evaluate(WIDEST_ELEMENTS_JS, PHONE_WIDTH)
    assert result["scrollWidth"] <= PHONE_WIDTH, (
        f"{rel} is {result['scrollWidth']} px wide on a {PHONE_WIDTH} px screen; widest: {result['offenders']}"
    )


@pytest.mark.parametrize("rel", built_pages())
def test_every_page_weighs_under_5_mb_and_loads_the_widget_manager_only_with_widgets(open_page, rel):
    page, _ = open_page(rel)
    page.wait_for_load_state("networkidle")
    total = page.evaluate(PAGE_BYTES_JS)
    assert total < MAX_PAGE_BYTES, f"{rel} loads {total / 1e6:.2f} MB"
    loads_manager = page.evaluate(
        "() => performance.getEntriesByType('resource').some(e => /embed-amd\\.js|require\\.js/.test(e.name))"
    )
    assert loads_manager == (widget_view_count(page) > 0), f"{rel}: widget manager loaded = {loads_manager}"


def _pages_with_sliders() -> list[str]:
    return built_pages()


@pytest.mark.parametrize("rel", _pages_with_sliders())
def test_every_slider_redraws_within_60_ms_on_a_throttled_cpu(open_page, rel):
    page, log = open_page(rel)
    n = page.locator(".nlpw input[type=range]").count()
    if n == 0:
        pytest.skip(f"{rel} has no slider")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
    slow = {}
    for i in range(n):
        page.locator(".nlpw input[type=range]").nth(i).scroll_into_view_if_needed()
        times = page.evaluate(SLIDER_MS_JS, [i, 7])
        median = statistics.median(times[1:])  # the first step may include one-off work (fonts, JIT)
        if median > MAX_SLIDER_MS:
            label = page.locator(".nlpw input[type=range]").nth(i).get_attribute("aria-label") or f"slider {i}"
            slow[label] = round(median, 1)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    assert not slow, f"{rel}: median redraw over {MAX_SLIDER_MS} ms at {THROTTLE}x CPU throttling: {slow}"
    assert log.page_errors == []
