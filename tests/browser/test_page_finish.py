"""The page around the chapter, at a laptop's 1280 px and a phone's 390 px: what a keyboard reader sees,
where the contents say the reader is, and how the page opener sits on a phone.

* Every control of the header (☰, Launch, Source, Download, full screen, colour mode, search, contents)
  shows a visible focus ring when reached with Tab.
* The page contents ("Contents", right) highlight the section being read, scrolling down and back up, up
  to the last sections (quick checks, exercises) when the page is scrolled to its end.
* A link to a section (a URL with #anchor) lands once: the page does not jump while its equations typeset.
* On a phone the page opener's list ("On this page") is not indented past a finger's width.

The header, the contents and the opener are the theme's and the book's, the same on every page: a few
pages prove them (a section page with quick checks and exercises, and the retrieval page whose BM25
section the old highlight never reached).
"""

from __future__ import annotations

import pytest

LAPTOP, PHONE = 1280, 390
FOCUS_PAGES = ["book/tokenization/bpe.html"]
CONTENTS_PAGES = ["book/tokenization/bpe.html", "book/tfidf/retrieval.html"]

FOCUS_RING_JS = """() => {
  const el = document.activeElement;
  if (!el || !el.closest('.bd-header-article, .bd-header')) return null;
  const s = getComputedStyle(el);
  const ring = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
  const shadow = s.boxShadow && s.boxShadow !== 'none';
  const name = (el.getAttribute('aria-label') || el.getAttribute('title') || el.textContent || '').trim().slice(0, 30);
  return {name, visible: ring || shadow, outline: `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`};
}"""


@pytest.mark.parametrize("width", [LAPTOP, PHONE])
@pytest.mark.parametrize("rel", FOCUS_PAGES)
def test_every_header_control_shows_keyboard_focus(book_page, rel, width):
    page, _ = book_page(rel, width=width)  # runs after the page's readers (CHANGES_PAGE): it moves the focus
    page.evaluate("() => { window.scrollTo(0, 0); document.activeElement && document.activeElement.blur(); }")
    page.locator("body").focus() if page.locator("body").count() else None
    reached: dict[str, dict] = {}
    for _ in range(120):
        page.keyboard.press("Tab")
        control = page.evaluate(FOCUS_RING_JS)
        if control:
            reached.setdefault(control["name"], control)
        if len(reached) >= 6 and not control:
            break
    page.keyboard.press("Escape")
    names = " | ".join(reached)
    for expected in ("sidebar", "Launch", "Source", "Download"):
        assert any(expected.lower() in n.lower() for n in reached), (
            f"{rel} at {width} px: Tab never reached {expected!r} ({names})"
        )
    hidden = [f"{c['name']} ({c['outline']})" for c in reached.values() if not c["visible"]]
    assert not hidden, f"{rel} at {width} px: header controls without a visible focus ring: {hidden}"


ACTIVE_JS = (
    """() => [...document.querySelectorAll('#pst-page-toc-nav a.nav-link.active')].map(a => a.getAttribute('href'))"""
)
TARGETS_JS = """() => [...document.querySelectorAll('#pst-page-toc-nav a.nav-link')].map(a => {
  const section = document.getElementById(decodeURIComponent(a.hash.slice(1)));
  const heading = section && (section.querySelector('h1, h2, h3, h4, h5, h6') || section);
  return {href: a.getAttribute('href'), text: a.textContent.trim(),
          top: heading ? heading.getBoundingClientRect().top + window.scrollY : null};
})"""


def _settle(page) -> None:
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


@pytest.mark.parametrize("rel", CONTENTS_PAGES)
def test_the_contents_highlight_follows_the_reading_position(book_page, rel):
    page, _ = book_page(rel, width=LAPTOP)  # scrolls the page: runs after its readers (CHANGES_PAGE)
    targets = [t for t in page.evaluate(TARGETS_JS) if t["top"] is not None]
    assert len(targets) >= 4, f"{rel}: the contents list {len(targets)} sections"
    header = page.evaluate(
        "() => document.querySelector('#pst-header, .bd-header-article').getBoundingClientRect().height"
    )
    max_scroll = page.evaluate("() => document.documentElement.scrollHeight - window.innerHeight")
    view = page.evaluate("() => window.innerHeight")
    wrong = []

    def expect_at(y: float, href: str, where: str) -> None:
        now = page.evaluate("() => window.scrollY")
        page.mouse.move(640, 450)
        page.mouse.wheel(0, y - now)
        page.wait_for_function("(y) => Math.abs(window.scrollY - y) < 2", arg=y, timeout=5000)
        _settle(page)
        active = page.evaluate(ACTIVE_JS)
        if active != [href]:
            wrong.append(f"{where}: highlighted {active}")

    # Down the page, then back up (wheel scrolls, so the page fires its scroll events as for a reader's):
    # each section whose heading can reach the top of the window is the one highlighted when it is there,
    # and when the reader is in the middle of it (its heading gone above the window, the next one well
    # below the top third).
    positions = []
    for k, t in enumerate(targets):
        y = t["top"] - header - 40
        if y <= max_scroll - 2:
            positions.append((y, t["href"], f"{t['text']!r} at the top"))
        nxt = targets[k + 1]["top"] if k + 1 < len(targets) else None
        if nxt is not None:
            mid = (t["top"] + nxt) / 2 - header - 0.15 * view
            line = mid + header + 0.3 * (view - header)  # a third of the way down the window
            if t["top"] < mid + header - 20 and nxt - line > 150 and mid <= max_scroll - view - 2:
                positions.append((mid, t["href"], f"in the middle of {t['text']!r}"))
    for y, href, where in positions + positions[::-1]:
        expect_at(y, href, where)
    # Scrolled to the end: the last section is the one highlighted (it may be too short to reach the top).
    page.mouse.wheel(0, max_scroll + 1000)
    page.wait_for_function("(y) => window.scrollY >= y - 2", arg=max_scroll, timeout=5000)
    _settle(page)
    if page.evaluate(ACTIVE_JS) != [targets[-1]["href"]]:
        wrong.append(f"at the end: highlighted {page.evaluate(ACTIVE_JS)}, not {targets[-1]['text']!r}")
    assert not wrong, f"{rel}: the contents highlight is wrong at {len(wrong)} position(s): {wrong[:5]}"
    # and the quick checks and exercises, near the end, are highlighted when they are read
    texts = [t["text"] for t in targets]
    for name in ("Quick checks", "Exercises"):
        match = [t for t in targets if name in t["text"]]
        assert match, f"{rel}: no {name!r} in the contents ({texts})"


OPENER_INDENT_JS = """() => {
  const list = document.querySelector('.page-opener ul, .page-opener ol');
  const box = document.querySelector('.page-opener');
  if (!list || !box) return null;
  const item = list.querySelector('li');
  return item.getBoundingClientRect().left - box.getBoundingClientRect().left;
}"""


@pytest.mark.parametrize("rel", ["book/tokenization/bpe.html"])
def test_the_page_opener_list_is_not_indented_far_on_a_phone(book_page, rel):
    page, _ = book_page(rel, width=PHONE)
    indent = page.evaluate(OPENER_INDENT_JS)
    assert indent is not None, f"{rel} has no page opener"
    assert indent <= 44, f"{rel}: the opener's list starts {indent:.0f} px into its box on a phone"


DEEP_LINKS = [
    "book/rnn/cells.html#gradient-clipping",
    "book/attention/self_attention.html#attention-chosen-weights",
]
LAYOUT_SHIFT_JS = """window.__shift = 0; new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value; })
  .observe({type: 'layout-shift', buffered: true});"""


@pytest.mark.parametrize("url", DEEP_LINKS)
def test_a_deep_link_lands_once(browser, book_url, url):
    """A link to a section of a long page with many equations: the section arrives at the top and stays there
    while the page settles (its equations typeset, its widgets drawn), instead of jumping several times."""
    from .conftest import new_reader_context

    context = new_reader_context(browser, color_scheme="light", width=LAPTOP)
    try:
        page = context.new_page()
        page.add_init_script(LAYOUT_SHIFT_JS)
        page.goto(f"{book_url}/{url}", wait_until="load")
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=30_000)
        page.evaluate("MathJax.startup.promise")
        page.wait_for_timeout(1000)
        shift = page.evaluate("window.__shift")
        top = page.evaluate("(id) => document.getElementById(id).getBoundingClientRect().top", url.split("#")[1])
    finally:
        context.close()
    # measured: 0.37-0.56 when every equation was first swapped for an empty placeholder, 0.04-0.05 since
    assert shift < 0.15, f"{url}: the page shifted by {shift:.2f} while it settled"
    assert 0 <= top < 200, f"{url}: the section ended {top:.0f} px from the top of the window"
