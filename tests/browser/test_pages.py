"""Every page of the built book: offline, math rendered, every widget rendered, figures described, no console errors."""

from __future__ import annotations

import re

import pytest

from .axe import run_axe
from .conftest import built_pages, widget_view_count

RAW_TEX_JS = r"""() => {
  const skip = el => el.closest('mjx-container, pre, code, script, style, .MathJax, mjx-assistive-mml, .highlight, .cell_output');
  const root = document.querySelector('article.bd-article') || document.body;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const bad = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.parentElement || skip(n.parentElement)) continue;
    const t = n.textContent;
    const m = t.match(/\$[^\s$][^$]*\$|\$\$|\\[A-Za-z]{2,}|\\[{}_^]/);
    if (m) bad.push(t.slice(Math.max(0, m.index - 30), m.index + 40).replace(/\s+/g, ' '));
  }
  return bad;
}"""


@pytest.mark.parametrize("rel", built_pages())
def test_page_is_offline_and_renders(book_page, rel):
    page, log = book_page(rel)

    assert log.external_requests == [], f"{rel} tried to reach the network: {log.external_requests[:5]}"
    assert log.page_errors == [], f"uncaught errors on {rel}: {log.page_errors}"
    assert log.console_errors == [], f"console errors on {rel}: {log.console_errors}"
    assert log.dialogs == [], f"{rel} opened a dialog (script injection?): {log.dialogs}"

    # Math: every math node on the page was typeset by the local MathJax.
    n_math = page.locator("div.math, span.math").count()
    if n_math:
        assert page.locator("mjx-container").count() >= n_math
        assert page.locator("mjx-merror").count() == 0, "MathJax reported a TeX error"

    # No raw TeX: display maths written inside a paragraph or list item is not typeset and reaches
    # the reader as literal `$`, `\\mathbf z` or `\\sum_u`. Prose (text outside maths, code and cell outputs) must have none.
    raw_tex = page.evaluate(RAW_TEX_JS)
    assert raw_tex == [], f"{rel} shows raw TeX (put display maths in a paragraph of its own): {raw_tex[:5]}"

    # Widgets: one rendered, visible view for every widget the page embeds.
    n_views = widget_view_count(page)
    rendered = page.locator(".widget-subarea").count()
    assert rendered == n_views, f"{rel}: {n_views} widget views embedded, {rendered} rendered"

    # Figures: every image in the article has a real text alternative. Without the cell metadata
    # `mystnb.image.alt`, Sphinx writes the image's own path ("../_images/<hash>.png") as its alt,
    # which a screen reader reads out as noise. Only an image marked decorative may have alt="".
    images = page.evaluate(
        """() => [...document.querySelectorAll('article.bd-article img')].map(img => ({
            src: img.getAttribute('src'), alt: img.getAttribute('alt'),
            decorative: img.getAttribute('role') === 'presentation' || img.getAttribute('aria-hidden') === 'true'}))"""
    )
    bad_alts = [
        (img["src"], img["alt"])
        for img in images
        if img["alt"] is None
        or re.search(r"\.(png|svg|jpe?g|gif)$", img["alt"].strip(), re.I)
        or img["alt"].strip().startswith(("../_images", "_images/"))
        or (not img["alt"].strip() and not img["decorative"])
    ]
    assert not bad_alts, (
        f"{rel}: images without a real alt text (set the cell metadata mystnb.image.alt): {bad_alts[:5]}"
    )


@pytest.mark.parametrize("rel", built_pages())
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_page_has_no_serious_accessibility_violations(book_page, rel, scheme):
    """axe-core (from the npm registry, run in the page) finds no serious or critical WCAG violation.

    Dark mode changes only colours: the light run checks every WCAG rule, the dark run the colour rules
    (on the same load, switched to dark: see ``book_page``). The colour rules judge each contrast class
    once (``tests/browser/axe.py``)."""
    page, _log = book_page(rel, color_scheme=scheme)
    bad = run_axe(page, scheme)
    assert not bad, f"{rel} ({scheme}): " + "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} {v['nodes']}" for v in bad
    )


# How a solution opens is the theme's dropdown, the same on every page (the exercise numbers and that
# every exercise has a solution are checked on every page in test_built_html.py): a chapter page and a
# section page are enough to prove the click.
SOLUTION_PAGES = ["book/tokenization/bpe.html", "book/attention/self_attention.html"]


@pytest.mark.parametrize("rel", SOLUTION_PAGES)
def test_solutions_open_from_their_title(book_page, rel):
    page, _log = book_page(rel)
    assert page.locator(".exercise .caption-number").count(), f"{rel} has no numbered exercise"
    # Clicking the middle of a solution's title (where its link back to the exercise is) opens it.
    title = page.locator(".solution.dropdown > .admonition-title").first
    content = page.locator(".solution.dropdown").first.locator("section, .cell").first
    assert not content.is_visible()
    title.click()
    page.wait_for_timeout(300)
    assert content.is_visible() and page.url.endswith(rel), "the solution did not open (or the page navigated)"


def test_search_snippets_show_no_raw_tex(open_page):
    page, log = open_page("search.html?q=softmax")
    page.wait_for_selector("#search-results p.context", timeout=60_000)
    snippets = page.locator("#search-results p.context").all_inner_texts()
    assert snippets, "searching for 'softmax' found nothing"
    raw = [s for s in snippets if "\\(" in s or "\\[" in s or "$" in s or "\\frac" in s or "\\mathbf" in s]
    assert raw == [], f"search snippets show raw TeX: {raw[:3]}"
    # each snippet quotes a sentence of prose that names the word (or the line of code that does, or the
    # page's first sentence), not a toggle's label, not a contents list
    not_prose = [
        s for s in snippets if len(s) < 30 or "Show code cell" in s or re.search(r"\b\d+\.\d+\.\s.*\b\d+\.\d+\.\s", s)
    ]
    assert not_prose == [], f"search snippets that are not the matching sentence: {not_prose[:3]}"
    naming = [s for s in snippets if "softmax" in s.lower()]
    assert len(naming) >= 0.8 * len(snippets), f"only {len(naming)} of {len(snippets)} snippets name the word"
    # the field's magnifier is beside the query, not over its first letter
    icon, field = (
        page.locator(
            "article form.bd-search i.fa-magnifying-glass, main form.bd-search i.fa-magnifying-glass"
        ).last.bounding_box(),
        page.locator("article form.bd-search input[type=search], main form.bd-search input[type=search]").last,
    )
    text_left = field.evaluate("e => e.getBoundingClientRect().left + parseFloat(getComputedStyle(e).paddingLeft)")
    assert icon["x"] + icon["width"] <= text_left, f"the magnifier ({icon}) overlaps the query (text from {text_left})"
    assert log.console_errors == [] and log.page_errors == []
