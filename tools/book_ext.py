r"""Small Sphinx extension for the book's HTML.

1. sphinx-thebe registers its inline configuration script once per read phase, so a page can
get the same ``const THEBE_JS_URL = ...`` twice, which is a JavaScript error in the browser.
This drops exact duplicate script entries before a page is written.

2. myst-nb escapes only the exact string "</script>" in the embedded widget state, but an HTML
parser ends a script element at any case of "</script". Widget state carries text from data
(tokens, documents), so every "</" in it is written as "<\/" (the same JSON string).

3. Two controls of pydata-sphinx-theme (and two pieces of myst-nb's and sphinxcontrib-bibtex's
markup, see ``fix_content_accessibility``) fail axe-core's "label-content-name-mismatch" check
(a screen-reader user who says the visible label cannot activate them): the search button
is labelled "Search" but shows "Search Ctrl+K", and the colour-mode button is labelled
"Color mode" while its icons carry the titles "Light"/"Dark". After the build, the search
button's visible text becomes its name and the decorative icons are hidden from assistive
technology.

4. The notebooks run in kernels started by the build, which inherit its environment: the extension
sets ``TQDM_DISABLE=1`` (no training progress bar is baked into a page; readers see them in a live
kernel) and ``NLP_BOOK_BUILD=1`` (exercise checkers tell the reader what to do instead of showing
their verdict on the hidden solution).

5. Page weight and console: the widget renderer (``book/_static/nlp-widgets.js``, configured as
``nb_ipywidgets_js``) is loaded only by pages that show a widget, right after their first widget view
(``tools/early_widgets.py``: that widget is drawn before MathJax and the theme's scripts run); the
".pdf" download (the browser's print dialog on a 40,000 px page, not a real PDF) is removed from the
download menu; and the theme's start-up script, which sets the colour mode to "" when the reader never
chose one (logging "Got invalid theme mode" on every first visit), defaults to "auto"; and the theme's
1.5 MB Font Awesome script (which only swaps the icons its stylesheet already draws from web fonts for
SVGs) is not loaded.

6. Exercises on the web page: an exercise's starting point (the code cell tagged ``exercise-stub``, and
``remove-cell`` because students' notebooks show it as a cell to edit) is shown read-only under its
exercise box, read from the notebook into the page's document tree (the notebook, and so the build's
execution cache, is untouched); the checker's "how to answer" note gets a class that wraps it.

Every rewrite checks that it found what it rewrites and every page is checked after the build:
a theme or Sphinx release that changes this markup fails the build with a message naming the page
and the pattern, instead of silently shipping the bug the rewrite was there to fix. The versions
this was written against are pinned in ``pyproject.toml`` (extra ``book``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from sphinx.errors import ExtensionError

try:  # private in Sphinx 7; the pinned Sphinx has it (see pyproject.toml)
    from sphinx.builders.html._assets import _JavaScript
except ImportError as err:  # pragma: no cover - only with an unpinned Sphinx
    raise ExtensionError(
        "tools/book_ext.py needs sphinx.builders.html._assets._JavaScript; install the Sphinx version "
        "pinned in pyproject.toml (pip install -e '.[book]')"
    ) from err

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
_SEARCH_FIELD = re.compile(r'(<button class="btn search-button-field[^"]*"[^>]*?) aria-label="Search"')
_THEME_ICON = re.compile(r'(<i class="theme-switch [^"]*" data-mode="\w+")\s+title="[^"]*"')
# The same controls once fixed (an incremental build leaves unchanged pages as the last build wrote them).
_SEARCH_FIXED = re.compile(r'<button class="btn search-button-field[^"]*"(?![^>]*aria-label=)[^>]*>')
_THEME_ICON_FIXED = re.compile(r'<i class="theme-switch [^"]*" data-mode="\w+" aria-hidden="true">')


# The scripts of the widget manager (configured as nb_ipywidgets_js in _config.yml), needed only on a
# page that embeds a widget view.
WIDGET_MANAGER_JS = ("nlp-widgets.js", "require.js", "widgets-config.js", "embed-amd.js")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


EXERCISE_STUB = "exercise-stub"
STUB_CLASS = "nlp-exercise-stub"
_EXERCISE_LABEL = re.compile(r"```\{exercise\}[^\n]*\n(?::[\w-]+:[^\n]*\n)*?:label:\s*(\S+)")


def exercise_stubs(nb: dict) -> dict[str, str]:
    """``{exercise label: starter code}`` of a notebook (its JSON as a dict).

    A stub is the first code cell tagged ``exercise-stub`` after the markdown cell that opens the
    exercise (```` ```{exercise} ```` with a ``:label:``).
    """
    stubs: dict[str, str] = {}
    label = None
    for cell in nb.get("cells", []):
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        if cell.get("cell_type") == "markdown":
            found = _EXERCISE_LABEL.findall(source)
            label = found[-1] if found else label
        elif EXERCISE_STUB in cell.get("metadata", {}).get("tags", []) and label and label not in stubs:
            stubs[label] = source.rstrip()
            label = None
    return stubs


def _show_exercise_stubs(app: Any, doctree: Any) -> None:
    """Put each exercise's starting point (read-only code) under the exercise on the web page.

    The stub cell stays tagged ``remove-cell`` in the notebook (students' notebooks show it as a cell
    to edit; the notebook, and so the build's execution cache, is untouched): the code is read from the
    notebook and added to the page's document tree after the exercise box.
    """
    import json

    from docutils import nodes

    source = Path(app.env.doc2path(app.env.docname))
    if source.suffix != ".ipynb":
        return
    stubs = exercise_stubs(json.loads(source.read_text(encoding="utf-8")))
    if not stubs:
        return
    placed = set()
    for node in list(doctree.findall(nodes.Element)):
        label = node.get("label") if type(node).__name__.startswith("exercise") else None
        if label not in stubs or label in placed or node.parent is None:
            continue
        code = nodes.literal_block(stubs[label], stubs[label], language="python")
        intro = nodes.paragraph("", "Starting point (open the chapter in Jupyter to write your answer in it):")
        box = nodes.container("", intro, code, classes=[STUB_CLASS])
        node.parent.insert(node.parent.index(node) + 1, box)
        placed.add(label)
    missing = sorted(set(stubs) - placed)
    if missing:
        raise ExtensionError(f"tools/book_ext.py: {source.name}: no exercise box found for the stubs of {missing}")


# The checker's note on the web page ("✏️ Your turn: open this chapter ..."): one long line, wrapped.
_CHECKER_NOTE = re.compile(r"<pre>((?:<span></span>)?✏️ Your turn)")


def wrap_checker_notes(html: str) -> str:
    """Give the ``<pre>`` of every exercise checker's "Your turn" note the class ``nlp-wrap`` (book.css wraps it)."""
    return _CHECKER_NOTE.sub(r'<pre class="nlp-wrap">\1', html)


def _clean_scripts(app: Any, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    scripts = context.get("script_files")
    if not scripts:
        return
    if WIDGET_VIEW not in context.get("body", ""):
        scripts = [s for s in scripts if Path(str(getattr(s, "filename", s) or "")).name not in WIDGET_MANAGER_JS]
    seen: set[tuple[str, str]] = set()
    unique = []
    for script in scripts:
        attrs = getattr(script, "attributes", {})
        if attrs.get("type") == WIDGET_STATE and "</" in attrs.get("body", ""):
            safe = {**attrs, "body": attrs["body"].replace("</", "<\\/")}
            script = _JavaScript(script.filename, priority=script.priority, **safe)
        key = (str(getattr(script, "filename", script) or ""), str(getattr(script, "attributes", {}).get("body", "")))
        if key in seen:
            continue
        seen.add(key)
        unique.append(script)
    context["script_files"] = unique


# myst-nb's "hide-input" toggle is labelled "Toggle hidden content" while it shows "Show code cell
# source" (axe: label-content-name-mismatch); its visible text should be its name.
_HIDE_INPUT_SUMMARY = '<summary aria-label="Toggle hidden content">'
# sphinxcontrib-bibtex gives the reference list role="list" but its entries are doc-biblioentry
# divs, not list items (axe: aria-required-children); the list role is dropped.
_CITATION_LIST = '<div role="list" class="citation-list">'
# The sidebar's toggle that opens a chapter's section pages is an icon alone (axe: summary-name); it gets a name.
_TOC_TOGGLE = '<summary><span class="toctree-toggle" role="presentation">'
_TOC_TOGGLE_NAMED = (
    '<summary aria-label="Show or hide the sections of this chapter"><span class="toctree-toggle" role="presentation">'
)
_THEBE_CONFIG = "const THEBE_JS_URL"
_WIDGET_STATE_SCRIPT = re.compile(r'<script type="application/vnd\.jupyter\.widget-state\+json">(.*?)</script>', re.S)


def fix_theme_accessibility(html: str, page: str = "page") -> str:
    """Give the search button its visible name and hide the theme icons from assistive technology.

    Raises ``ExtensionError`` when a page has the theme's header but either pattern matches nothing.
    """
    if "search-button-field" not in html and "theme-switch" not in html:
        return html  # a page without the theme's header (e.g. a redirect)
    html, n_search = _SEARCH_FIELD.subn(r"\1", html)
    html, n_icons = _THEME_ICON.subn(r'\1 aria-hidden="true"', html)
    n_search = n_search or len(_SEARCH_FIXED.findall(html))
    n_icons = n_icons or len(_THEME_ICON_FIXED.findall(html))
    if n_search == 0 or n_icons == 0:
        missing = [name for name, n in (("search button", n_search), ("theme-switch icons", n_icons)) if n == 0]
        raise ExtensionError(
            f"tools/book_ext.py: {page}: the {' and '.join(missing)} markup changed and the accessibility "
            "fix matched nothing; update the patterns or pin the theme version in pyproject.toml"
        )
    return html


def fix_content_accessibility(html: str, page: str = "page") -> str:
    """Name the code-cell toggles by their visible text and the sidebar's section toggles; drop the bibliography's list role.

    Raises ``ExtensionError`` when a page has the markup these fixes are for in a form they do not know.
    """
    html = html.replace(_HIDE_INPUT_SUMMARY, "<summary>")
    html = html.replace(_TOC_TOGGLE, _TOC_TOGGLE_NAMED)
    if 'class="toctree-toggle"' in html and _TOC_TOGGLE_NAMED not in html:
        raise ExtensionError(f"tools/book_ext.py: {page}: the theme's section-toggle markup changed; update the fix")
    if "hide above-input" in html and "<summary>" not in html:
        raise ExtensionError(f"tools/book_ext.py: {page}: myst-nb's hide-input toggle markup changed; update the fix")
    html = html.replace(_CITATION_LIST, '<div class="citation-list">')
    if 'class="citation-list"' in html and '<div class="citation-list">' not in html:
        raise ExtensionError(f"tools/book_ext.py: {page}: sphinxcontrib-bibtex's list markup changed; update the fix")
    return html


_PDF_ITEM = re.compile(
    r'<li>\s*<button onclick="window\.print\(\)"\s+class="btn btn-sm btn-download-pdf-button.*?</li>', re.S
)
_MODE_DEFAULT = 'document.documentElement.dataset.mode = localStorage.getItem("mode") || "";'
# The theme loads Font Awesome twice: as web fonts from its stylesheet (enough to draw every icon) and as
# a 1.5 MB script that swaps each icon for an SVG. The script goes; the icons stay.
_FONTAWESOME_JS = re.compile(r'<script defer src="[^"]*scripts/fontawesome\.js(\?[^"]*)?"></script>\s*')


# pydata-sphinx-theme loads Sphinx's search tools and the whole search index (over 300 KB) on every page, for
# its search-as-you-type, which this book leaves off: the search box opens search.html, which loads them.
_SEARCH_SCRIPTS = re.compile(
    r'<script src="[^"]*_static/searchtools\.js"></script>\s*'
    r'<script src="[^"]*_static/language_data\.js"></script>\s*'
    r'<script src="[^"]*searchindex\.js"></script>\s*'
)


# MathJax's lazy typesetting (_config.yml) first swaps every equation for an empty placeholder: on a page
# opened at a section (a link with #anchor) the text above the section collapses and grows back, and the
# section jumps several times (layout shift 0.37-0.56 measured). Such a page typesets all its math at once.
_LAZY = '"loader": {"load": ["ui/lazy"]}'
_LAZY_UNLESS_ANCHORED = '"loader": {"load": location.hash ? [] : ["ui/lazy"]}'


def fix_theme_defaults(html: str, page: str = "page") -> str:
    """Drop the print-to-PDF download entry, the Font Awesome script and (but on the search page) the search
    index; give the colour mode the default "auto"; typeset a page opened at an anchor all at once.

    Raises ``ExtensionError`` when a page has the theme's download menu or mode script in a form these
    fixes do not know.
    """
    html, n_pdf = _PDF_ITEM.subn("", html)
    if n_pdf == 0 and "btn-download-pdf-button" in html:
        raise ExtensionError(f"tools/book_ext.py: {page}: the theme's PDF download markup changed; update the fix")
    html = html.replace(_MODE_DEFAULT, _MODE_DEFAULT.replace('|| ""', '|| "auto"'))
    html = _FONTAWESOME_JS.sub("", html).replace(_LAZY, _LAZY_UNLESS_ANCHORED)
    if '"ui/lazy"' in html and _LAZY_UNLESS_ANCHORED not in html:
        raise ExtensionError(f"tools/book_ext.py: {page}: the MathJax configuration changed; update the fix")
    if Path(page).name != "search.html":
        html = _SEARCH_SCRIPTS.sub("", html)
        if "searchindex.js" in html:
            raise ExtensionError(f"tools/book_ext.py: {page}: the theme's search script tags changed; update the fix")
    if "scripts/fontawesome.js" in html:
        raise ExtensionError(f"tools/book_ext.py: {page}: the theme's Font Awesome script tag changed; update the fix")
    if 'localStorage.getItem("mode") || ""' in html:
        raise ExtensionError(f"tools/book_ext.py: {page}: the theme's colour-mode script changed; update the fix")
    return html


# A figure drawn by a cell: Sphinx writes the PNG's display size (from the output's metadata) inline.
_SIZED_IMAGE = re.compile(r'<img ([^>]*?)style="width: (\d+(?:\.\d+)?)px; height: (\d+(?:\.\d+)?)px;"')
_SIZED_DIAGRAM = re.compile(r'<img ([^>]*?)style="width: (\d+(?:\.\d+)?)px;"')
WIDE_FIGURE = "nlp-wide-figure"
# The book's plots put tick labels at 10 pt (nlp_helpers.plotting: 13.9 px at 100 dpi, their display size):
# shrunk below 0.66 of that size, they are under 9 px. A figure is never shown smaller than that on a phone;
# one that would be (wider than a phone's column, 358 px, over 0.66: about 540 px) scrolls sideways in its
# box instead (book.css, book.js).
MIN_SCALE = 0.66
PHONE_COLUMN_PX = 358
WIDE_MIN_WIDTH = PHONE_COLUMN_PX / MIN_SCALE


def _unmarked(attrs: str) -> str:
    """The attributes without the class an older build gave without ``--nlp-min-w`` (an incremental build
    leaves unchanged pages as they were; once marked, the style no longer matches the patterns above)."""
    return attrs.replace(f'class="{WIDE_FIGURE}" ', "").replace(f"{WIDE_FIGURE} ", "")


def _mark(attrs: str) -> str:
    return (
        attrs.replace('class="', f'class="{WIDE_FIGURE} ', 1)
        if 'class="' in attrs
        else attrs + f'class="{WIDE_FIGURE}" '
    )


def mark_wide_figures(html: str) -> str:
    """Mark every figure a phone would shrink below legibility: class ``nlp-wide-figure`` and ``--nlp-min-w``.

    A plot (a PNG with its display size inline) or an SVG diagram wider than ``WIDE_MIN_WIDTH`` gets the
    class and, in its inline style, the smallest width it may be shown at (``MIN_SCALE`` of its display
    width). ``book.css`` shows it at least that wide on a phone, where it scrolls sideways inside its box
    (with a visible scrollbar and a faded edge) instead of shrinking its labels to 5 px.
    """

    def mark(m: re.Match) -> str:
        attrs, width, height = m.group(1), float(m.group(2)), float(m.group(3))
        if width < WIDE_MIN_WIDTH or height <= 0:
            return m.group(0)
        attrs = _unmarked(attrs)
        minimum = f"--nlp-min-w: {round(width * MIN_SCALE)}px;"
        return f'<img {_mark(attrs)}style="width: {m.group(2)}px; height: {m.group(3)}px; {minimum}"'

    html = _SIZED_IMAGE.sub(mark, html)

    def mark_diagram(m: re.Match) -> str:
        attrs, width = m.group(1), float(m.group(2))
        if width < WIDE_MIN_WIDTH or not re.search(r'src="[^"]*\.svg"', attrs):
            return m.group(0)
        attrs = _unmarked(attrs)
        minimum = f"--nlp-min-w: {round(width * MIN_SCALE)}px;"
        return f'<img {_mark(attrs)}style="width: {m.group(2)}px; {minimum}"'

    return _SIZED_DIAGRAM.sub(mark_diagram, html)


_VIEWPORT = re.compile(r'[ \t]*<meta\s+name="viewport"[^>]*>[ \t]*\n?')


def one_viewport(html: str) -> str:
    """Keep the first ``<meta name="viewport">`` of a page and drop the others.

    Sphinx's basic layout, pydata-sphinx-theme and sphinx-book-theme each write one; a browser uses the
    last, and three of them make a validator (and a reader of the source) wonder which one counts.
    """
    seen = False

    def keep_first(m: re.Match) -> str:
        nonlocal seen
        if seen:
            return ""
        seen = True
        return m.group(0)

    return _VIEWPORT.sub(keep_first, html)


def check_page(html: str, page: str = "page") -> None:
    """Post-conditions of the script rewrites: one thebe configuration, no ``</`` inside widget state."""
    if html.count(_THEBE_CONFIG) > 1:
        raise ExtensionError(f"tools/book_ext.py: {page} still defines {_THEBE_CONFIG} twice")
    for body in _WIDGET_STATE_SCRIPT.findall(html):
        if "</" in body:
            raise ExtensionError(f"tools/book_ext.py: {page} has an unescaped '</' inside its widget state")


def _fix_theme_accessibility(app: Any, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    # The pages the book wrote (not the theme's template fragments copied into _static/).
    pages = sorted(p for p in Path(app.outdir).rglob("*.html") if "_static" not in p.relative_to(app.outdir).parts)
    if not pages:
        raise ExtensionError(f"tools/book_ext.py: the HTML build wrote no page into {app.outdir}")
    # Helpers of their own modules (tools/ is on sys.path: it holds this extension, _config.yml's
    # local_extensions).
    import pydata_sphinx_theme
    from early_widgets import WidgetScriptError, draw_widgets_early
    from figure_space import mark_wide_diagrams, reserve_figure_space, svg_size, svg_width_and_text
    from font_subset import subset_theme_fonts

    for page in pages:
        html = page.read_text(encoding="utf-8")
        name = str(page.relative_to(app.outdir))
        fixed = fix_theme_defaults(fix_content_accessibility(fix_theme_accessibility(html, name), name), name)
        fixed = one_viewport(wrap_checker_notes(mark_wide_figures(fixed)))
        text = lambda src, here=page.parent: svg_width_and_text(here / src)  # noqa: E731
        fixed = mark_wide_diagrams(fixed, text, min_scale=MIN_SCALE, column_px=PHONE_COLUMN_PX, css_class=WIDE_FIGURE)
        fixed = reserve_figure_space(fixed, lambda src, here=page.parent: svg_size(here / src))
        try:
            fixed = draw_widgets_early(fixed, name)
        except WidgetScriptError as err:
            raise ExtensionError(f"tools/book_ext.py: {err}") from err
        check_page(fixed, name)
        if fixed != html:
            page.write_text(fixed, encoding="utf-8")
    # Only the icons the pages draw, cut from the theme's own fonts.
    theme_fonts = Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static"
    try:
        subset_theme_fonts(Path(app.outdir), theme_fonts / "vendor" / "fontawesome" / "webfonts")
    except FileNotFoundError as err:
        raise ExtensionError(f"tools/book_ext.py: {err}") from err


def setup(app: Any) -> dict[str, Any]:
    # The notebooks are executed by kernels this process starts, which inherit its environment:
    # no training progress bar is baked into a page (tqdm reads TQDM_* defaults from the environment),
    # and exercise checkers show the reader what to do rather than their verdict on the hidden solution.
    os.environ.setdefault("TQDM_DISABLE", "1")
    os.environ.setdefault("NLP_BOOK_BUILD", "1")
    app.connect("doctree-read", _show_exercise_stubs)
    app.connect("html-page-context", _clean_scripts)
    app.connect("build-finished", _fix_theme_accessibility)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
