"""The book on a reader's device: a phone-width screen, a slow laptop, a school network.

* At 390 px (a phone) no page scrolls sideways: wide equations, tables and code scroll inside their own
  box, and widgets scale to the column.
* Every chapter page, with everything it loads, weighs under 5 MB; pages without a widget do not load
  the widget manager.

How fast every slider redraws on a slow laptop is a speed target, so it is measured by
``benchmarks/bench_widgets.py`` (reported in the book's benchmarks appendix), not asserted here.
"""

from __future__ import annotations

import pytest

from .conftest import built_pages, widget_view_count

PHONE_WIDTH = 390
MAX_PAGE_BYTES = 5_000_000

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


SETTLED_JS = """async () => {
  await document.fonts.ready;
  const count = () => performance.getEntriesByType('resource').length;
  const start = performance.now();
  for (let seen = count(); performance.now() - start < 5000; ) {
    await new Promise((done) => setTimeout(done, 300));
    const now = count();
    if (now === seen) return;
    seen = now;
  }
}"""


@pytest.mark.parametrize("rel", built_pages())
def test_no_page_scrolls_sideways_on_a_phone(book_page, rel):
    page, _ = book_page(rel, width=PHONE_WIDTH)
    result = page.evaluate(WIDEST_ELEMENTS_JS, PHONE_WIDTH)
    assert result["scrollWidth"] <= PHONE_WIDTH, (
        f"{rel} is {result['scrollWidth']} px wide on a {PHONE_WIDTH} px screen; widest: {result['offenders']}"
    )


@pytest.mark.parametrize("rel", built_pages())
def test_every_page_weighs_under_5_mb_and_loads_the_widget_manager_only_with_widgets(book_page, rel):
    page, _ = book_page(rel)
    # What the page still fetches once it is drawn (web fonts, MathJax's fonts as equations are typeset)
    # counts too: wait until no new resource has arrived for 300 ms (at most 5 s). Playwright's
    # "networkidle" (500 ms with no connection at all) cost up to 2 s a page here.
    page.evaluate(SETTLED_JS)
    total = page.evaluate(PAGE_BYTES_JS)
    assert total < MAX_PAGE_BYTES, f"{rel} loads {total / 1e6:.2f} MB"
    loads_manager = page.evaluate(
        "() => performance.getEntriesByType('resource').some(e => /nlp-widgets\\.js|embed-amd\\.js|require\\.js/.test(e.name))"
    )
    assert loads_manager == (widget_view_count(page) > 0), f"{rel}: widget manager loaded = {loads_manager}"
