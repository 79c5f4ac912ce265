"""Every page of the built book: offline, math rendered, every widget rendered, figures described, no console errors."""

from __future__ import annotations

import re

import pytest
import yaml

from .conftest import ROOT, built_pages, widget_view_count

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

    # The build ran the exercise checkers on the hidden solutions: the page must not show their
    # verdict as if the reader had solved the exercise, nor training progress bars frozen mid-run.
    text = page.locator("article.bd-article").inner_text() if page.locator("article.bd-article").count() else ""
    assert "✅ Correct" not in text, f"{rel} shows a checker's verdict on the hidden solution"
    state = page.evaluate("""() => [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-state+json"]')]
        .map(s => s.textContent).join('')""")
    assert "ProgressModel" not in state, f"{rel} embeds a progress bar widget (tqdm ran during the build)"

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


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# The WCAG 2.1 A/AA rules of axe-core that depend on colours.
DARK_RULES = ["color-contrast", "link-in-text-block"]


@pytest.mark.parametrize("rel", built_pages())
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_page_has_no_serious_accessibility_violations(book_page, rel, scheme):
    """axe-core (from the npm registry, run in the page) finds no serious or critical WCAG violation."""
    assert AXE.exists(), "axe-core is missing: run `make assets` (npm ci)"
    page, _log = book_page(rel, color_scheme=scheme)
    page.evaluate(
        f"document.documentElement.dataset.mode = '{scheme}'; document.documentElement.dataset.theme = '{scheme}'"
    )
    page.add_script_tag(path=str(AXE))
    # Dark mode changes only colours: the light run checks every WCAG rule, the dark run the colour rules.
    run_only = (
        {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}
        if scheme == "light"
        else {"type": "rule", "values": DARK_RULES}
    )
    result = page.evaluate(
        """async (runOnly) => {
            const r = await axe.run(document, {runOnly, resultTypes: ['violations']});
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' :: ' + (n.failureSummary || '').slice(0, 160))}));
        }""",
        run_only,
    )
    bad = [v for v in result if v["impact"] in ("serious", "critical")]
    assert not bad, f"{rel} ({scheme}): " + "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} {v['nodes']}" for v in bad
    )


@pytest.mark.parametrize("rel", [p for p in built_pages() if (ROOT / p.replace(".html", ".ipynb")).exists()])
def test_exercises_are_numbered_per_chapter_and_solutions_open_from_their_title(book_page, rel):
    page, _log = book_page(rel)
    numbers = page.locator(".exercise .caption-number").all_inner_texts()
    if not numbers and rel.removesuffix(".html").count("/") >= 2:
        pytest.skip("a section page without exercises (its chapter's other pages have them)")
    assert numbers, f"{rel} has no numbered exercise"
    chapter, first = numbers[0].split()[1].split(".")
    # A chapter's numbers start at 1; its section pages (``sections:`` in _toc.yml) continue its numbering.
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    sections = {s["file"] for part in toc["parts"] for c in part["chapters"] for s in c.get("sections", [])}
    start = int(first) if rel.removesuffix(".html") in sections else 1
    assert [n.split()[1] for n in numbers] == [f"{chapter}.{i}" for i in range(start, start + len(numbers))], numbers
    # Clicking the middle of a solution's title (where its link back to the exercise is) opens it.
    title = page.locator(".solution.dropdown > .admonition-title").first
    content = page.locator(".solution.dropdown").first.locator("section, .cell").first
    assert not content.is_visible()
    title.click()
    page.wait_for_timeout(300)
    assert content.is_visible() and page.url.endswith(rel), "the solution did not open (or the page navigated)"


@pytest.mark.parametrize("rel", [p for p in built_pages() if (ROOT / p.replace(".html", ".ipynb")).exists()])
def test_chapter_has_launch_buttons(rel):
    """Every chapter can be opened in Binder, on a JupyterHub (nbgitpuller) and in Colab."""
    html = (ROOT / "_build" / "html" / rel).read_text(encoding="utf-8")
    notebook = rel.replace(".html", ".ipynb")
    assert f"mybinder.org/v2/gh/nlp-step-by-step/nlp-step-by-step/main?urlpath=lab/tree/{notebook}" in html
    assert f"colab.research.google.com/github/nlp-step-by-step/nlp-step-by-step/blob/main/{notebook}" in html
    # The JupyterHub button appears only when an instructor configures a hub (_config.yml).
    configured = bool(yaml.safe_load((ROOT / "_config.yml").read_text())["launch_buttons"].get("jupyterhub_url"))
    assert ("/hub/user-redirect/git-pull?repo=" in html) == configured


def test_search_snippets_show_no_raw_tex(open_page):
    page, log = open_page("search.html?q=softmax")
    page.wait_for_selector("#search-results p.context", timeout=60_000)
    snippets = page.locator("#search-results p.context").all_inner_texts()
    assert snippets, "searching for 'softmax' found nothing"
    raw = [s for s in snippets if "\\(" in s or "\\[" in s or "$" in s or "\\frac" in s or "\\mathbf" in s]
    assert raw == [], f"search snippets show raw TeX: {raw[:3]}"
    assert log.console_errors == [] and log.page_errors == []
