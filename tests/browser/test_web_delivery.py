"""How the pages deliver the chapters, at a laptop's 1280 px and a phone's 390 px.

* Every image keeps its aspect ratio (within 3 %): a plot is never squashed to fit the column.
* At 1280 px no code cell is wider than its column (notebook code is formatted to 80 characters).
* On a phone the chapter list (☰) and the page contents open when tapped; at 992 px and wider there is
  no second header row holding only the search field.
* Widget text is at least 11 px and widget controls are tap targets of at least 32 px on a phone.
* Keyboard: equations are not tab stops, "Search" is in the tab order once, copy buttons have a name.
* The checker's note under an exercise wraps in its column.
* A page weighs at most 1.5 MB as a compressing web server sends it (gzip), loads no search index (but the
  search page) and at most 30 KB of icon fonts.

That no warning, traceback or build-machine path reaches a cell's output, and that every exercise shows
its starting point, is read from the built HTML without a browser (``test_built_html.py``).
"""

from __future__ import annotations

import functools
import urllib.parse

import PIL.Image
import pytest

from tools.figure_space import svg_size

from .conftest import BUILD, built_pages

LAPTOP, PHONE = 1280, 390
MIN_TEXT_PX, MIN_TAP_PX = 11.0, 32.0

# Each image's box as the page lays it out. The browser draws an image in its box, so a box of another
# shape than the file squashes it; the file's own shape is read from the file (test below), so no lazy image
# needs loading or decoding here. An image still without a box of its own (no size known before its file
# arrives) is loaded first.
ASPECTS_JS = """async () => {
  const imgs = [...document.querySelectorAll('article.bd-article img')].filter(i => i.getClientRects().length > 0
    && getComputedStyle(i).objectFit !== 'contain');  // drawn with object-fit: contain, it keeps its aspect
  const unsized = imgs.filter(i => { const r = i.getBoundingClientRect(); return r.width < 2 || r.height < 2; });
  await Promise.all(unsized.map(i => i.decode().catch(() => null)));
  return imgs.map(i => {
    const r = i.getBoundingClientRect();
    return {src: i.currentSrc || i.src, shown: r.width / Math.max(r.height, 1e-9), width: r.width,
            natural: i.naturalWidth > 0 ? i.naturalWidth / i.naturalHeight : null};
  });
}"""


@functools.cache
def _file_aspect(url: str) -> float | None:
    """Width over height of the image file a built page's ``url`` (served from ``BUILD``) names, or None."""
    if url.startswith("data:"):
        return None
    path = BUILD / urllib.parse.unquote(urllib.parse.urlsplit(url).path).lstrip("/")
    if path.suffix.lower() == ".svg":
        size = svg_size(path)
    else:
        with PIL.Image.open(path) as image:
            size = image.size
    return size[0] / size[1] if size else None


WIDE_CODE_JS = """() => [...document.querySelectorAll('div.cell_input pre, div.nlp-exercise-stub pre')]
  .filter(p => p.getClientRects().length > 0 && p.scrollWidth > p.clientWidth + 1)
  .map(p => {
    const longest = p.textContent.split('\\n').sort((a, b) => b.length - a.length)[0];
    return {chars: [...longest].length, text: `${p.scrollWidth} > ${p.clientWidth}: ${longest.slice(0, 90)}`};
  })"""

WIDGET_TEXT_JS = """(minPx) => {
  const small = [];
  for (const root of document.querySelectorAll('.nlpw')) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!n.textContent.trim() || !el || el.getClientRects().length === 0) continue;
      if (el.closest('.nlpw-sr-only, details:not([open]) > :not(summary), [hidden], title, desc')) continue;
      let px = parseFloat(getComputedStyle(el).fontSize);
      if (el instanceof SVGElement) {
        const m = el.getScreenCTM();
        if (!m) continue;
        px *= Math.hypot(m.a, m.b);
      }
      if (px < minPx - 0.05) small.push(`${px.toFixed(1)} px: "${n.textContent.trim().slice(0, 30)}" in ${root.className}`);
    }
  }
  return small;
}"""

TAP_TARGETS_JS = """(minPx) => [...document.querySelectorAll(
    '.nlpw button, .nlpw select, .nlpw input[type=range], .nlpw [role=button]')]
  .filter(e => e.getClientRects().length > 0 && !e.closest('details:not([open]) > :not(summary)'))
  .map(e => ({e, r: e.getBoundingClientRect()}))
  .filter(({r}) => r.height < minPx - 0.5 || (r.width < minPx - 0.5))
  .map(({e, r}) => {
    const name = (e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 30);
    return `${e.tagName.toLowerCase()} ${Math.round(r.width)}x${Math.round(r.height)} "${name}" in ${e.closest('.nlpw').className}`;
  })"""


@pytest.mark.parametrize("width", [LAPTOP, PHONE])
@pytest.mark.parametrize("rel", built_pages())
def test_every_image_keeps_its_aspect_ratio(book_page, rel, width):
    page, _ = book_page(rel, width=width)
    bad = []
    for img in page.evaluate(ASPECTS_JS):
        natural = _file_aspect(img["src"]) or img["natural"]
        assert natural, f"{rel}: {img['src']} has no size of its own (a file the test cannot read)"
        if abs(img["shown"] / natural - 1) > 0.03:
            bad.append(f"{img['src']}: shown {img['shown']:.2f}, drawn {natural:.2f} ({img['width']:.0f} px wide)")
    assert not bad, f"{rel} at {width} px distorts {len(bad)} image(s): {bad[:5]}"


@pytest.mark.parametrize("rel", built_pages())
def test_no_code_cell_is_wider_than_its_column_on_a_laptop(book_page, rel):
    """80 characters of code fit the column at 1280 px. A longer line (a docstring or string the formatter
    does not split) scrolls inside its block, which says so (test_code_keeps_its_lines_...)."""
    page, _ = book_page(rel, width=LAPTOP)
    wide = [w["text"] for w in page.evaluate(WIDE_CODE_JS) if w["chars"] <= 80]
    assert not wide, f"{rel}: {len(wide)} code cell(s) of lines <= 80 characters scroll at {LAPTOP} px: {wide[:3]}"


CODE_LINES_JS = """() => [...document.querySelectorAll('div.cell_input pre, div.nlp-exercise-stub pre')]
  .filter(p => p.getClientRects().length > 0)
  .map(p => {
    const s = getComputedStyle(p);
    const wide = p.scrollWidth > p.clientWidth + 1;
    const marked = p.classList.contains('nlp-overflows') && p.tabIndex === 0 && p.dataset.more !== ''
      && s.overflowX === 'auto' && (s.maskImage !== 'none' || s.webkitMaskImage !== 'none')
      && (matchMedia('(hover: none)').matches ? s.backgroundImage.includes('gradient') : true);
    return {wraps: s.whiteSpace !== 'pre', wide, marked, line: p.textContent.split('\\n')[0].slice(0, 60)};
  })"""


@pytest.mark.parametrize("width", [LAPTOP, PHONE])
@pytest.mark.parametrize("rel", built_pages())
def test_code_keeps_its_lines_and_scrolls_inside_its_block(book_page, rel, width):
    """Code never wraps to column 0 (nor breaks a name): a line longer than the column (on a phone, most)
    scrolls sideways inside its block, which says so (a visible scrollbar, a faded edge) and is a tab stop."""
    page, _ = book_page(rel, width=width)
    blocks = page.evaluate(CODE_LINES_JS)
    wrapping = [b["line"] for b in blocks if b["wraps"]]
    assert not wrapping, f"{rel} at {width} px wraps code lines: {wrapping[:3]}"
    unmarked = [b["line"] for b in blocks if b["wide"] and not b["marked"]]
    assert not unmarked, f"{rel} at {width} px: code that scrolls without saying so: {unmarked[:3]}"


# The menu is the theme's, the same on every page: the landing page, a chapter page and a section page.
@pytest.mark.parametrize("rel", built_pages()[:3])
def test_the_phone_menu_opens_the_chapter_list_and_the_page_contents(book_page, rel):
    page, _ = book_page(rel, width=PHONE)  # runs after the page's other checks at 390 px (CHANGES_PAGE)
    page.evaluate("() => window.scrollTo(0, 0)")
    chapters = page.locator(".bd-sidebar-primary nav.bd-docs-nav a.reference").first
    toggle = page.locator("button.primary-toggle:visible")
    assert toggle.count() == 1, "one visible ☰ button on a phone"
    assert not chapters.is_visible()
    toggle.tap()
    page.wait_for_timeout(500)
    assert chapters.is_visible(), "tapping ☰ did not open the chapter list"
    page.keyboard.press("Escape")
    page.wait_for_timeout(400)
    assert not chapters.is_visible(), "Escape did not close the chapter list"
    if page.locator("button.secondary-toggle:visible").count():
        contents = page.locator(".bd-sidebar-secondary nav a.nav-link").first
        page.locator("button.secondary-toggle:visible").tap()
        page.wait_for_timeout(500)
        assert contents.is_visible(), "tapping the page-contents button did not open the contents"


@pytest.mark.parametrize("width", [992, LAPTOP])
def test_no_second_header_row_with_only_search(open_page, width):
    page, _ = open_page(built_pages()[0], width=width)
    header = page.locator("header.bd-header")
    height = header.evaluate("h => h.getBoundingClientRect().height") if header.count() else 0
    assert height < 1, f"pydata-sphinx-theme's header row is drawn ({height:.0f} px tall) at {width} px"
    # and the hidden duplicates of the book theme's buttons, which took their click handlers, are gone
    assert page.locator("button.primary-toggle").count() == 1


@pytest.mark.parametrize("rel", built_pages())
def test_widget_text_and_tap_targets_on_a_phone(book_page, rel):
    page, _ = book_page(rel, width=PHONE)
    if page.locator(".nlpw").count() == 0:
        pytest.skip(f"{rel} has no widget")
    small = page.evaluate(WIDGET_TEXT_JS, MIN_TEXT_PX)
    assert not small, f"{rel}: {len(small)} widget text(s) under {MIN_TEXT_PX} px at {PHONE} px: {small[:5]}"
    tiny = page.evaluate(TAP_TARGETS_JS, MIN_TAP_PX)
    assert not tiny, f"{rel}: {len(tiny)} control(s) smaller than {MIN_TAP_PX} px at {PHONE} px: {tiny[:5]}"


@pytest.mark.parametrize("rel", built_pages())
def test_keyboard_tab_order(book_page, rel):
    page, _ = book_page(rel)
    # Only an equation wider than the column (it scrolls in its own box) is a tab stop, so that a
    # keyboard reader can scroll it.
    tab_math = page.evaluate(
        """() => [...document.querySelectorAll('mjx-container')]
            .filter(m => m.tabIndex >= 0 && !(m.scrollWidth > m.clientWidth + 1)).length"""
    )
    assert tab_math == 0, f"{rel}: {tab_math} equations that fit the column are tab stops"
    # the theme shows its search button once its script has run (class pst-js-only)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.search-button-field')].some(b => b.getClientRects().length)"
    )
    searches = page.evaluate(
        """() => [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
            .filter(e => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length > 0
                    && getComputedStyle(e).visibility !== 'hidden')
            .filter(e => e.closest('.bd-header-article, .bd-sidebar-primary, .bd-header, .bd-sidebar-secondary'))
            .filter(e => /^search(\\s|$)/i.test((e.getAttribute('aria-label') || e.textContent || '').trim()))
            .map(e => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} in ${e.parentElement.className}`)"""
    )
    assert len(searches) == 1, f"{rel}: 'Search' is {len(searches)} times in the tab order: {searches}"
    page.wait_for_function(
        "() => document.querySelectorAll('button.copybtn').length > 0 || !document.querySelector('div.cell_input pre')"
    )
    unnamed = page.locator("button.copybtn:not([aria-label])").count()
    assert unnamed == 0, f"{rel}: {unnamed} copy buttons have no accessible name"


def _pages_with_checker_notes() -> list[str]:
    return [rel for rel in built_pages() if (BUILD / rel).is_file() and "nlp-wrap" in (BUILD / rel).read_text("utf-8")]


@pytest.mark.parametrize("rel", _pages_with_checker_notes())
def test_the_checkers_note_wraps(book_page, rel):
    page, _ = book_page(rel)
    notes = page.locator("pre.nlp-wrap")
    wide = notes.evaluate_all(
        "ps => ps.filter(p => p.getClientRects().length && p.scrollWidth > p.clientWidth + 1).length"
    )
    assert notes.count() and wide == 0, f"{rel}: {wide} of the checker's notes do not wrap"


WEIGHT_PAGES = ["book/rnn/cells.html", "book/attention/self_attention.html", "book/sampling/sampling.html"]
ALREADY_COMPRESSED = (".png", ".jpg", ".woff2", ".woff")


@pytest.mark.parametrize("rel", WEIGHT_PAGES)
def test_a_page_is_light_and_loads_no_search_index(browser, book_url, rel):
    """Measured before the fixes: 2.8-3.1 MB per page as files, of which 343 KB search index and 274 KB icon
    fonts on every page; since: about 2.4 MB as files, 0.7-0.8 MB compressed (MathJax is most of it)."""
    import gzip

    from .conftest import new_reader_context

    context = new_reader_context(browser, color_scheme="light", width=LAPTOP)
    bodies: dict[str, bytes] = {}
    try:
        page = context.new_page()
        page.on("response", lambda r: bodies.__setitem__(r.url.split("?")[0], r.body()) if r.ok else None)
        page.goto(f"{book_url}/{rel}", wait_until="networkidle")
        page.wait_for_timeout(1000)
    finally:
        context.close()
    sent = sum(
        len(body) if url.endswith(ALREADY_COMPRESSED) else len(gzip.compress(body, 6)) for url, body in bodies.items()
    )
    fonts = sum(len(body) for url, body in bodies.items() if "/fontawesome/" in url)
    assert not [u for u in bodies if u.endswith("searchindex.js")], f"{rel} loads the search index"
    assert fonts <= 30_000, f"{rel} loads {fonts / 1e3:.0f} KB of icon fonts"
    assert sent <= 1_500_000, f"{rel} weighs {sent / 1e6:.2f} MB compressed"
