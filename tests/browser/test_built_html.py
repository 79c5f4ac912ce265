"""Checks of the built book that need only its HTML files, not a browser: they parse ``_build/html``.

What the build writes into a page's HTML (launch buttons, cell outputs, exercise numbers and starting
points, the embedded widget state) is checked here, without Chromium, in a few seconds for the whole
book: a page's failure is found before the browser tests start, and on a machine without Chromium.
What only a browser can see (layout, scripts that ran, MathJax, contrast, clicks) stays in the other
modules of this folder. The reader's-path checks of the built pages (``tools/reader_path_html.py``) are
in ``test_reader_path_html.py``, also browser-free.

Run them alone after a build: ``pytest tests/browser/test_built_html.py tests/browser/test_reader_path_html.py``.
"""

from __future__ import annotations

import functools
import re

import pytest
import yaml
from bs4 import BeautifulSoup

from .conftest import BUILD, ROOT, built_pages

NOTEBOOK_PAGES = [p for p in built_pages() if (ROOT / p.replace(".html", ".ipynb")).exists()]
# What the build machine may print that a reader must never see in an output: a warning, a traceback,
# a path of the machine that built the book, a kernel's temporary file name.
WARNING_IN_OUTPUT = re.compile(
    r"\b\w*Warning:|Traceback \(most recent call last\)|/work/|/home/|/tmp/|site-packages|ipykernel_\d+"
)


@functools.lru_cache(maxsize=8)
def _soup(rel: str) -> BeautifulSoup:
    path = BUILD / rel
    if not (BUILD / "index.html").exists():
        pytest.fail("the book is not built: run `make book` (or the build step of tools/run_tests.sh) first")
    if not path.exists():
        pytest.skip(f"{rel} is not built (a build with a reduced table of contents?)")
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def _article(rel: str):
    soup = _soup(rel)
    return soup.select_one("article.bd-article") or soup.body or soup


@pytest.mark.parametrize("rel", NOTEBOOK_PAGES)
def test_chapter_has_launch_buttons(rel):
    """Every chapter can be opened in Binder, on a JupyterHub (nbgitpuller) and in Colab."""
    html = (BUILD / rel).read_text(encoding="utf-8")
    notebook = rel.replace(".html", ".ipynb")
    assert f"mybinder.org/v2/gh/nlp-step-by-step/nlp-step-by-step/main?urlpath=lab/tree/{notebook}" in html
    assert f"colab.research.google.com/github/nlp-step-by-step/nlp-step-by-step/blob/main/{notebook}" in html
    # The JupyterHub button appears only when an instructor configures a hub (_config.yml).
    configured = bool(yaml.safe_load((ROOT / "_config.yml").read_text())["launch_buttons"].get("jupyterhub_url"))
    assert ("/hub/user-redirect/git-pull?repo=" in html) == configured


@pytest.mark.parametrize("rel", built_pages())
def test_no_warning_or_machine_path_in_outputs(rel):
    outputs = [o.get_text() for o in _article(rel).select("div.cell_output")]
    found = [m.group(0) for text in outputs for m in [WARNING_IN_OUTPUT.search(text)] if m]
    assert not found, f"{rel} shows build output to the reader: {found[:5]}"


@pytest.mark.parametrize("rel", built_pages())
def test_no_checker_verdict_or_frozen_progress_bar(rel):
    # The build ran the exercise checkers on the hidden solutions: the page must not show their verdict
    # as if the reader had solved the exercise, nor training progress bars frozen mid-run.
    assert "✅ Correct" not in _article(rel).get_text(), f"{rel} shows a checker's verdict on the hidden solution"
    state = "".join(s.get_text() for s in _soup(rel).select('script[type="application/vnd.jupyter.widget-state+json"]'))
    assert "ProgressModel" not in state, f"{rel} embeds a progress bar widget (tqdm ran during the build)"


@pytest.mark.parametrize("rel", NOTEBOOK_PAGES)
def test_exercises_are_numbered_per_chapter(rel):
    numbers = [n.get_text(" ", strip=True) for n in _article(rel).select(".exercise .caption-number")]
    if not numbers and rel.removesuffix(".html").count("/") >= 2:
        pytest.skip("a section page without exercises (its chapter's other pages have them)")
    assert numbers, f"{rel} has no numbered exercise"
    chapter, first = numbers[0].split()[1].split(".")
    # A chapter's numbers start at 1; its section pages (``sections:`` in _toc.yml) continue its numbering.
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    sections = {s["file"] for part in toc["parts"] for c in part["chapters"] for s in c.get("sections", [])}
    start = int(first) if rel.removesuffix(".html") in sections else 1
    assert [n.split()[1] for n in numbers] == [f"{chapter}.{i}" for i in range(start, start + len(numbers))], numbers
    # every exercise has a solution the reader can open (its dropdown)
    assert len(_article(rel).select(".solution.dropdown")) >= len(numbers), f"{rel}: an exercise has no solution"


@pytest.mark.parametrize("rel", [p for p in built_pages() if not p.startswith(("book/intro", "book/appendix"))])
def test_every_exercise_shows_its_starting_point(rel):
    article = _article(rel)
    n_exercises = len(article.select(".exercise"))
    stubs = [pre.get_text() for pre in article.select("div.nlp-exercise-stub pre")]
    assert len(stubs) == n_exercises, f"{rel}: {n_exercises} exercises, {len(stubs)} starting points"
    assert all("def " in t or "=" in t for t in stubs)


@pytest.mark.parametrize("rel", built_pages())
def test_a_page_has_one_viewport_and_shows_the_title_once_in_the_sidebar(rel):
    soup = _soup(rel)
    viewports = soup.find_all("meta", attrs={"name": "viewport"})
    assert len(viewports) == 1, f"{rel} has {len(viewports)} viewport meta tags"
    sidebar = soup.select_one(".bd-sidebar-primary")
    title = soup.select_one(".logo__title")
    assert title is not None, f"{rel}: no site title in the sidebar"
    texts = [a.get_text(" ", strip=True) for a in sidebar.select("a")]
    assert texts.count(title.get_text(strip=True)) <= 1, f"{rel}: the sidebar shows the book's title twice"


@functools.lru_cache(maxsize=1)
def _served_icons() -> tuple[dict[str, set[int]], set[int]]:
    """The icon classes the built stylesheets define, and the code points the built icon fonts can draw."""
    from fontTools.ttLib import TTFont

    from tools.font_subset import FONT_DIR, icon_table

    icons: dict[str, set[int]] = {}
    for css in (BUILD / "_static").rglob("*.css"):
        for name, points in icon_table(css.read_text(encoding="utf-8", errors="replace"))[0].items():
            icons.setdefault(name, set()).update(points)
    drawable: set[int] = set()
    for font in (BUILD / FONT_DIR).glob("fa-*.woff2"):
        drawable |= set(TTFont(font).getBestCmap())
    return icons, drawable


@pytest.mark.parametrize("rel", built_pages())
def test_every_icon_a_page_names_is_in_the_served_fonts_and_only_search_loads_the_index(rel):
    """The icon fonts are cut to the glyphs the pages use (tools/font_subset.py): none may be missing; and the
    300 KB search index is loaded by the search page alone."""
    html = (BUILD / rel).read_text(encoding="utf-8")
    icons, drawable = _served_icons()
    named = set(re.findall(r"\bfa-([a-z0-9]+(?:-[a-z0-9]+)*)", html)) & icons.keys()
    missing = sorted(name for name in named if not icons[name] & drawable)
    assert not missing, f"{rel} names icons the served fonts cannot draw: {missing}"
    assert ("searchindex.js" in html) == (rel == "search.html")


@pytest.mark.parametrize("rel", built_pages())
def test_a_widget_page_loads_the_renderer_right_after_its_first_widget(rel):
    """The renderer is a plain script just after the first view (its widget is drawn while the page is
    parsed, before MathJax and the theme's scripts), and appears nowhere else; a page without a widget
    does not load it."""
    html = (BUILD / rel).read_text(encoding="utf-8")
    renderers = re.findall(r"<script[^>]*nlp-widgets\.js[^>]*>", html)
    first_view = html.find('<script type="application/vnd.jupyter.widget-view+json">')
    if first_view < 0:
        assert renderers == [], f"{rel} shows no widget but loads the renderer"
        return
    assert len(renderers) == 1, f"{rel} loads the renderer {len(renderers)} times"
    assert "defer" not in renderers[0] and "async" not in renderers[0], renderers[0]
    end_of_view = html.index("</script>", first_view) + len("</script>")
    assert html.startswith(renderers[0], end_of_view), f"{rel}: the renderer is not right after the first widget view"
