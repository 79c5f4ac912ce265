"""Fixtures for the browser tests: the built book served on localhost, Debian's Chromium via Playwright.

The browser is never downloaded: Playwright drives ``/usr/bin/chromium`` (``apt-get install chromium``).
No host but localhost resolves in this browser (``--host-resolver-rules``), and every request that would leave
localhost is recorded, so a test can assert the page is fully offline.
"""

from __future__ import annotations

import functools
import http.server
import os
import socketserver
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
# NLP_BOOK_HTML points the tests at another build (tests/test_browser_collection.py: at none at all).
BUILD = Path(os.environ.get("NLP_BOOK_HTML") or ROOT / "_build" / "html")
CHROMIUM = os.environ.get("NLP_CHROMIUM", "/usr/bin/chromium")
LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}

pytestmark = pytest.mark.browser


# A test that changes the page it is given (answers its quick checks, opens a solution, opens the menu)
# runs after the tests that only read the same load, so they all share one load (see `book_page`).
CHANGES_PAGE = {
    "test_quick_checks_on_the_book_pages",
    "test_solutions_open_from_their_title",
    "test_the_phone_menu_opens_the_chapter_list_and_the_page_contents",
    "test_every_header_control_shows_keyboard_focus",
    "test_the_contents_highlight_follows_the_reading_position",
    "test_the_bpe_slider_is_wide_its_buttons_stay_and_its_chips_show_spaces",
    "test_the_tfidf_example_menu_never_shows_a_stale_choice",
    "test_every_widget_fits_a_phone_or_scrolls_in_a_frame_that_says_so",
    # test_widgets.py: each moves the controls of its own widget
    "test_bpe_stepper_replays_merges",
    "test_tfidf_search_ranks_documents",
    "test_positional_encoding_explorer_recomputes_in_the_page",
    "test_next_token_explorer_filters_and_renormalises",
    "test_viterbi_trellis_fills_in_word_by_word_and_traces_the_best_path",
    "test_naive_bayes_explorer_adds_up_the_words_of_what_the_reader_types",
    "test_word_map_lists_the_neighbours_and_analogies_numpy_computes",
    "test_sampling_tree_draws_the_tokens_numpy_draws",
    "test_ngram_generator_steps_through_a_sample_with_the_models_probabilities",
    "test_attention_step_panel_shows_numpys_numbers_for_the_clicked_cell",
    "test_attention_step_panel_on_a_phone_follows_a_tap",
    "test_bert_model_view_enlarges_the_clicked_thumbnail",
    "test_lstm_gate_viewer_recomputes_the_memory_update_in_the_page",
    "test_optimiser_paths_redraw_the_paths_torch_computes",
}


def _page_key(item: pytest.Item) -> tuple:
    # page, then load (width), then readers before changers, then colour scheme (light before dark)
    # A parametrisation over no pages (no built book) gives one skipped item whose values are pytest's
    # NOTSET marker, which does not compare with strings: such values sort as the defaults.
    params = getattr(getattr(item, "callspec", None), "params", {})
    rel = params.get("rel")
    width = params.get("width")
    rel = rel if isinstance(rel, str) else ""
    width = width if isinstance(width, int) else 1280
    light = params.get("scheme", "light") in ("light", None) or not isinstance(params.get("scheme"), str)
    return (rel, width, item.originalname in CHANGES_PAGE, not light)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # This hook sees every collected test of the session, so it changes only the ones in this folder.
    # Each browser test of a page is marked with the page's group and the tests are ordered page by page,
    # configuration by configuration: with `pytest -n 2 --dist loadgroup` one worker runs all the checks
    # of a page one after another on the same loaded page (one load per page and width; see `book_page`).
    here = Path(__file__).parent
    ours = [item for item in items if here in Path(item.fspath).parents]
    others = [item for item in items if here not in Path(item.fspath).parents]
    for item in ours:
        item.add_marker(pytest.mark.browser)
        rel = _page_key(item)[0]
        if rel:
            item.add_marker(pytest.mark.xdist_group(rel))
    items[:] = others + sorted(ours, key=_page_key)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib signature
        pass


@pytest.fixture(scope="session")
def book_url() -> Iterator[str]:
    """Base URL of the built book, served from ``_build/html`` on a free localhost port."""
    if not (BUILD / "index.html").exists():
        pytest.fail("the book is not built: run `make book` (or the build step of tools/run_tests.sh) first")
    handler = functools.partial(_QuietHandler, directory=str(BUILD))
    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{server.server_address[1]}"
        server.shutdown()


@pytest.fixture(scope="session")
def browser():
    """A headless Debian Chromium driven by Playwright (never a downloaded browser)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `apt-get install chromium`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                # Offline: no other host resolves. (Playwright's request routing would also do, but it turns
                # off the HTTP cache, and a reader's browser caches the book's scripts from page to page.)
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
            ],
        )
        yield browser
        browser.close()


@dataclass
class PageLog:
    """What a page did: console errors, uncaught exceptions and requests that tried to leave localhost."""

    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    external_requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


def new_reader_context(browser, *, color_scheme: str, width: int):
    """A browser context as a reader's device: 390 px is a phone (touch, mobile viewport), wider a laptop.
    Local storage is emptied at every page's start, so a page never sees what an earlier page stored."""
    context = browser.new_context(
        color_scheme=color_scheme,
        viewport={"width": width, "height": 900},
        has_touch=width < 600,
        is_mobile=width < 600,
    )
    context.add_init_script("try { localStorage.clear(); sessionStorage.clear(); } catch (e) {}")
    return context


def load_page(context, url: str):
    """Open ``url`` in a new page of ``context``: (page, log), with widgets rendered and math typeset."""
    log = PageLog()
    page = context.new_page()

    def on_request(request):
        parts = urlparse(request.url)
        if parts.scheme not in ("data", "blob", "about") and (parts.hostname or "") not in LOCAL_HOSTS:
            log.external_requests.append(request.url)

    def on_console(msg):
        if msg.type == "error":
            log.console_errors.append(msg.text)

    def on_dialog(dialog):
        log.dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("request", on_request)
    page.on("console", on_console)
    page.on("pageerror", lambda exc: log.page_errors.append(str(exc)))
    page.on("dialog", on_dialog)
    try:
        page.goto(url, wait_until="load")
        wait_for_widgets(page)
        wait_for_math(page)
    except Exception:
        page.close()
        raise
    return page, log


@pytest.fixture
def open_page(browser, book_url):
    """``open_page("book/tokenization/bpe.html")`` -> (page, log): a fresh load in a fresh context."""
    contexts = []

    def _open(rel: str, *, color_scheme: str = "light", width: int = 1280):
        context = new_reader_context(browser, color_scheme=color_scheme, width=width)
        contexts.append(context)
        return load_page(context, f"{book_url}/{rel}")

    yield _open
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def _loaded_pages(browser):
    """The shared loads of ``book_page`` and, per width, the context they are opened in (one per worker)."""
    loads: dict = {"pages": {}, "contexts": {}}
    yield loads
    for context in loads["contexts"].values():
        context.close()


def set_color_scheme(page, scheme: str) -> None:
    """Switch a loaded page to ``scheme`` as a reader's system setting does: the CSS media feature
    ``prefers-color-scheme`` changes, and the theme (its mode "auto") follows it."""
    page.emulate_media(color_scheme=scheme)
    page.evaluate(
        "(s) => { document.documentElement.dataset.mode = s; document.documentElement.dataset.theme = s; }", scheme
    )
    page.wait_for_function(
        "(s) => matchMedia(`(prefers-color-scheme: ${s})`).matches && document.documentElement.dataset.theme === s",
        arg=scheme,
    )
    # The theme animates its colours (e.g. the search button's background): measured mid-transition, a text
    # had contrast 1.05 against a grey halfway between the two schemes. Wait until the colour transitions
    # the switch started have ended, as a reader's eye does; only CSS transitions (finite), and never more
    # than 2 s (an animation that is paused or waits for something would never finish).
    page.evaluate(
        """() => Promise.race([
            Promise.all(document.getAnimations()
                .filter((a) => a instanceof CSSTransition)
                .map((a) => a.finished.catch(() => null))),
            new Promise((done) => setTimeout(done, 2000)),
        ])"""
    )


@pytest.fixture
def book_page(browser, book_url, _loaded_pages):
    """``book_page(rel, color_scheme=..., width=...)`` -> (page, log), loaded once and shared.

    Every check of a built page that only reads it gets the same loaded page (one load per page and width:
    1280 px, and 390 px as a phone with touch), instead of loading the page again for each check; the tests
    are ordered page by page (``pytest_collection_modifyitems`` above), so only the current page's loads are
    kept open. A test that changes the page (answers a question, opens a solution) is listed in
    ``CHANGES_PAGE`` and runs after the readers of the same load. The pages of one width are opened in one
    context (a laptop, a phone), whose HTTP cache keeps the book's scripts and styles from page to page as a
    reader's browser does; its local storage is emptied at each page's start.

    Dark mode is the same load switched to dark (``set_color_scheme``), not a second load: the book's and
    the widgets' styles follow ``prefers-color-scheme`` and the theme's ``data-theme`` live, so the page
    shows what a fresh dark load shows. (Loading the page was half of a page's browser time; a page's
    script errors, requests and rendering are checked on its light loads. A fresh dark load at 390 px
    is still made by the quick-check test of its own page, ``test_quick_check.py``.)
    """

    pages, contexts = _loaded_pages["pages"], _loaded_pages["contexts"]

    def _get(rel: str, *, color_scheme: str = "light", width: int = 1280):
        key = (rel, width)
        if key not in pages:
            for old in [k for k in pages if k[0] != rel]:
                pages.pop(old)[0].close()
            if width not in contexts:
                contexts[width] = new_reader_context(browser, color_scheme="light", width=width)
            pages[key] = (*load_page(contexts[width], f"{book_url}/{rel}"), "light")
        page, log, scheme = pages[key]
        if scheme != color_scheme:
            set_color_scheme(page, color_scheme)
            pages[key] = (page, log, color_scheme)
        return page, log

    return _get


def widget_view_count(page) -> int:
    return page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count()


def wait_for_widgets(page, timeout_ms: int = 30_000) -> None:
    """Wait until every widget view script on the page has a rendered, non-empty view next to it."""
    n = widget_view_count(page)
    if n == 0:
        return
    page.wait_for_function(
        """(n) => {
            const subs = [...document.querySelectorAll('.widget-subarea')];
            return subs.length >= n && subs.every(s => s.children.length > 0 && s.getBoundingClientRect().height > 0);
        }""",
        arg=n,
        timeout=timeout_ms,
    )


def wait_for_math(page, timeout_ms: int = 30_000) -> None:
    """Wait for MathJax to typeset every equation of the page, if it has any."""
    has_math = page.evaluate("() => document.querySelectorAll('.math, span.math, div.math').length")
    if has_math:
        page.wait_for_function(
            "() => window.MathJax && MathJax.startup && MathJax.startup.promise && document.querySelectorAll('mjx-container').length > 0",
            timeout=timeout_ms,
        )
        page.evaluate("() => MathJax.startup.promise")
        # The book typesets lazily (an equation when it scrolls into view); the tests check every equation.
        page.evaluate(
            "async () => { const doc = MathJax.startup.document; if (doc.lazyTypesetAll) await doc.lazyTypesetAll(); }"
        )


def built_pages() -> list[str]:
    """Relative URLs of the chapter pages listed in the table of contents."""
    from tools.toc_notebooks import toc_files

    return [f"{f}.html" for f in toc_files()]
