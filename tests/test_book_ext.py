"""The book's Sphinx extension: its HTML rewrites work, and fail loudly when the theme's markup changes."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from sphinx.errors import ExtensionError

_spec = importlib.util.spec_from_file_location(
    "book_ext", Path(__file__).resolve().parent.parent / "tools" / "book_ext.py"
)
book_ext = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(book_ext)

HEADER = (
    '<button class="btn search-button-field search-button__button" title="Search" aria-label="Search" '
    'data-bs-placement="bottom" data-bs-toggle="tooltip"><i class="fa-solid fa-magnifying-glass"></i>'
    '<span class="search-button__default-text">Search</span></button>'
    '<i class="theme-switch fa-solid fa-sun fa-lg" data-mode="light" title="Light"></i>'
    '<i class="theme-switch fa-solid fa-moon fa-lg" data-mode="dark" title="Dark"></i>'
)


def test_the_accessibility_fix_rewrites_the_pydata_header():
    fixed = book_ext.fix_theme_accessibility(HEADER)
    assert 'aria-label="Search"' not in fixed
    assert fixed.count('aria-hidden="true"') == 2 and 'title="Light"' not in fixed


@pytest.mark.parametrize(
    "broken",
    [
        HEADER.replace('aria-label="Search"', 'aria-label="Find"'),  # a new label: the search pattern misses
        HEADER.replace('data-mode="light" title="Light"', 'data-theme="light"').replace(
            'data-mode="dark" title="Dark"', "x"
        ),
    ],
)
def test_a_changed_theme_fails_the_build_naming_the_page(broken):
    with pytest.raises(ExtensionError, match="chapter.html"):
        book_ext.fix_theme_accessibility(broken, "chapter.html")


def test_pages_without_the_theme_header_are_left_alone():
    assert book_ext.fix_theme_accessibility("<html>redirect</html>") == "<html>redirect</html>"


def test_the_post_build_check_catches_duplicate_thebe_config_and_unescaped_widget_state():
    book_ext.check_page('<script>const THEBE_JS_URL = "x"</script>')
    with pytest.raises(ExtensionError, match="twice"):
        book_ext.check_page("const THEBE_JS_URL = 1; const THEBE_JS_URL = 1;", "p.html")
    state = '<script type="application/vnd.jupyter.widget-state+json">{"t": "a<\\/b"}</script>'
    book_ext.check_page(state)
    with pytest.raises(ExtensionError, match="unescaped"):
        book_ext.check_page(state.replace("<\\/b", "</b"), "p.html")


def test_the_build_environment_hides_progress_bars_and_checker_verdicts(monkeypatch):
    import os
    import subprocess
    import sys

    from nlp_helpers.exercises.checker import CheckResult

    class App:
        def connect(self, *args):
            pass

    for name in ("TQDM_DISABLE", "NLP_BOOK_BUILD"):
        monkeypatch.setenv(name, "x")  # so that monkeypatch removes what setup() sets when the test ends
        monkeypatch.delenv(name)
    done = CheckResult("Relative term frequency", "correct", "all checks passed. Well done!")
    assert "✅" in repr(done)
    book_ext.setup(App())
    # A kernel started by the build inherits the environment; tqdm reads TQDM_* defaults at import.
    kernel = subprocess.run(
        [sys.executable, "-c", "from tqdm.auto import tqdm; print(tqdm(range(3)).disable)"],
        env=dict(os.environ),
        capture_output=True,
        text=True,
        check=True,
    )
    assert kernel.stdout.strip() == "True"
    assert "✅" not in repr(done) and "Your turn" in repr(done) and "Colab" in repr(done)
    assert "✅" in str(done)  # str() is still the verdict (strict mode's AssertionError uses it)


def test_a_page_fixed_by_an_earlier_build_passes_unchanged():
    once = book_ext.fix_theme_accessibility(HEADER)
    assert book_ext.fix_theme_accessibility(once, "again.html") == once


def test_code_toggles_are_named_by_their_text_and_the_bibliography_is_not_a_list():
    toggle = (
        '<details class="admonition hide above-input"><summary aria-label="Toggle hidden content">'
        '<p class="collapsed admonition-title">Show code cell source</p></summary></details>'
    )
    fixed = book_ext.fix_content_accessibility(toggle)
    assert "<summary>" in fixed and "aria-label" not in fixed
    assert book_ext.fix_content_accessibility(fixed) == fixed  # an incremental build's page passes again
    refs = '<div role="list" class="citation-list"><div class="citation" role="doc-biblioentry"></div></div>'
    assert 'role="list"' not in book_ext.fix_content_accessibility(refs)
    with pytest.raises(ExtensionError, match="hide-input"):
        book_ext.fix_content_accessibility(toggle.replace("aria-label=", "data-x="), "p.html")
    with pytest.raises(ExtensionError, match="bibtex"):
        book_ext.fix_content_accessibility(refs.replace('role="list" ', 'role="feed" '), "p.html")


def test_the_sidebar_section_toggle_gets_a_name():
    toc = (
        '<li class="toctree-l1 has-children"><a href="sampling.html">11. Sampling</a><details><summary>'
        '<span class="toctree-toggle" role="presentation"><i class="fa-solid fa-chevron-down"></i></span></summary>'
    )
    fixed = book_ext.fix_content_accessibility(toc)
    assert '<summary aria-label="Show or hide the sections of this chapter">' in fixed
    assert book_ext.fix_content_accessibility(fixed) == fixed
    with pytest.raises(ExtensionError, match="section-toggle"):
        book_ext.fix_content_accessibility(toc.replace("<summary>", '<summary class="x">'), "p.html")


PDF_MENU = (
    '<ul class="dropdown-menu"><li><a href="../_sources/book/x.ipynb" class="btn btn-sm btn-download-source-button">'
    ".ipynb</a></li>\n<li>\n"
    '<button onclick="window.print()"\n  class="btn btn-sm btn-download-pdf-button dropdown-item"\n  title="Print to PDF">'
    '<span class="btn__text-container">.pdf</span>\n</button>\n</li></ul>'
)
MODE_SCRIPT = '<script>document.documentElement.dataset.mode = localStorage.getItem("mode") || "";</script>'
FONTAWESOME = '<script defer src="../_static/scripts/fontawesome.js?digest=55c26ed414f5f8a31ebb"></script>\n'


def test_the_pdf_download_goes_and_the_colour_mode_defaults_to_auto():
    fixed = book_ext.fix_theme_defaults(PDF_MENU + FONTAWESOME + MODE_SCRIPT)
    assert "fontawesome.js" not in fixed
    assert "btn-download-pdf-button" not in fixed and "print()" not in fixed
    assert "btn-download-source-button" in fixed  # the .ipynb download stays
    assert 'localStorage.getItem("mode") || "auto"' in fixed
    assert book_ext.fix_theme_defaults(fixed) == fixed  # a second build changes nothing
    with pytest.raises(ExtensionError, match="PDF download markup changed"):
        book_ext.fix_theme_defaults('<a class="btn-download-pdf-button" href="x.pdf">.pdf</a>')
    with pytest.raises(ExtensionError, match="Font Awesome script tag changed"):
        book_ext.fix_theme_defaults('<script src="_static/scripts/fontawesome.js"></script>')
    with pytest.raises(ExtensionError, match="colour-mode script changed"):
        book_ext.fix_theme_defaults('x = localStorage.getItem("mode") || ""')


def test_a_page_opened_at_an_anchor_typesets_its_math_at_once():
    config = '<script>window.MathJax = {"loader": {"load": ["ui/lazy"]}, "options": {}}</script>'
    fixed = book_ext.fix_theme_defaults(config, "book/x.html")
    assert '"load": location.hash ? [] : ["ui/lazy"]' in fixed
    assert book_ext.fix_theme_defaults(fixed, "book/x.html") == fixed
    with pytest.raises(ExtensionError, match="MathJax configuration changed"):
        book_ext.fix_theme_defaults('window.MathJax = {"loader": {"load": ["ui/lazy", "x"]}}', "book/x.html")


SEARCH_SCRIPTS = (
    '    <script src="../../_static/searchtools.js"></script>\n'
    '    <script src="../../_static/language_data.js"></script>\n'
    '    <script src="../../searchindex.js"></script>\n'
)


def test_only_the_search_page_loads_the_search_index():
    page = "<head>" + SEARCH_SCRIPTS + "</head>"
    assert book_ext.fix_theme_defaults(page, "book/rnn/cells.html").replace(" ", "") == "<head></head>"
    assert book_ext.fix_theme_defaults(page, "search.html") == page
    with pytest.raises(ExtensionError, match="search script tags changed"):
        book_ext.fix_theme_defaults('<script defer src="../searchindex.js"></script>', "book/x.html")


@pytest.mark.parametrize("has_widget", [False, True])
def test_the_widget_manager_is_loaded_only_by_pages_with_a_widget(has_widget):
    class Script:
        def __init__(self, filename):
            self.filename, self.priority, self.attributes = filename, 500, {}

    files = [
        "_static/jquery.js",
        "_static/nlp-widgets.js",
        "require.js",
        "_static/widgets-config.js",
        "embed-amd.js",
        "_static/book.js",
    ]
    body = '<script type="application/vnd.jupyter.widget-view+json">{}</script>' if has_widget else "<p>text</p>"
    context = {"script_files": [Script(f) for f in files], "body": body}
    book_ext._clean_scripts(None, "page", "page.html", context, None)
    kept = [s.filename for s in context["script_files"]]
    assert kept == (files if has_widget else ["_static/jquery.js", "_static/book.js"])


def test_exercise_stubs_are_found_under_their_exercise():
    md = "```{exercise} Relative term frequency\n:label: tfidf-ex-rel\n\nWrite `relative_tf`.\n```"
    nb = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": md},
            {
                "cell_type": "code",
                "metadata": {"tags": ["exercise-stub", "remove-cell"]},
                "source": ["def f():\n", "    pass\n"],
            },
            {"cell_type": "code", "metadata": {"tags": ["solution"]}, "source": "def f():\n    return 1"},
            {"cell_type": "code", "metadata": {"tags": ["exercise-stub"]}, "source": "orphan = 1"},  # no exercise above
        ]
    }
    assert book_ext.exercise_stubs(nb) == {"tfidf-ex-rel": "def f():\n    pass"}


def test_every_exercise_of_a_real_chapter_has_its_stub():
    import json

    stubs, labels = {}, set()
    for page in sorted((Path(__file__).resolve().parent.parent / "book" / "word2vec").glob("*.ipynb")):
        nb = json.loads(page.read_text(encoding="utf-8"))
        stubs.update(book_ext.exercise_stubs(nb))
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                labels |= set(re.findall(r"```\{exercise\}[^\n]*\n:label: (\S+)", "".join(cell["source"])))
    assert len(labels) >= 4 and set(stubs) == labels  # every exercise of the chapter, and nothing else
    assert stubs["word2vec-ex-cbow"].startswith("def cbow_probabilities(context_ids, W1, W2):")


def test_the_checker_note_wraps():
    html = '<div class="highlight"><pre><span></span>✏️ Your turn: open this chapter</pre></div><pre>other</pre>'
    fixed = book_ext.wrap_checker_notes(html)
    assert fixed.count('class="nlp-wrap"') == 1 and "<pre>other</pre>" in fixed


@pytest.mark.parametrize(
    ("size", "wide"),
    [((1500, 400), True), ((750, 420), True), ((538, 316), False), ((500, 200), False), ((1200, 600), True)],
)
def test_wide_figures_are_marked(size, wide):
    """A plot a phone's 358 px column would shrink below 0.66 of its size (tick labels under 9 px) is marked,
    with the narrowest width it may be shown at."""
    html = f'<img alt="a plot" class="x" src="../_images/a.png" style="width: {size[0]}px; height: {size[1]}px;" />'
    fixed = book_ext.mark_wide_figures(html)
    assert ("nlp-wide-figure" in fixed) == wide
    assert f"width: {size[0]}px; height: {size[1]}px;" in fixed
    if wide:
        assert f"--nlp-min-w: {round(size[0] * 0.66)}px;" in fixed and round(size[0] * 0.66) >= 358
    assert book_ext.mark_wide_figures(fixed) == fixed  # idempotent (incremental builds)
    if wide:  # marked by an older build (the class without a minimum width)
        assert book_ext.mark_wide_figures(html.replace('class="x"', 'class="nlp-wide-figure x"')) == fixed


def test_wide_diagrams_are_marked():
    wide = '<img alt="d" src="../_images/a.svg" style="width: 680px;" />'
    narrow = '<img alt="d" src="../_images/b.svg" style="width: 420px;" />'
    png = '<img alt="d" src="../_images/c.png" style="width: 680px;" />'
    assert "nlp-wide-figure" in book_ext.mark_wide_figures(wide)
    assert book_ext.mark_wide_figures(narrow) == narrow and book_ext.mark_wide_figures(png) == png
    assert book_ext.mark_wide_figures(book_ext.mark_wide_figures(wide)) == book_ext.mark_wide_figures(wide)


def test_a_page_keeps_one_viewport_meta_tag():
    head = (
        '<meta charset="utf-8" />\n<meta name="viewport" content="width=device-width, initial-scale=1.0" />\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1" />\n<title>t</title>\n'
        '    <meta name="viewport" content="width=device-width, initial-scale=1" />\n'
    )
    fixed = book_ext.one_viewport(head)
    assert fixed.count('name="viewport"') == 1 and fixed.index("viewport") < fixed.index("<title>")
    assert book_ext.one_viewport(fixed) == fixed and "<title>t</title>" in fixed
