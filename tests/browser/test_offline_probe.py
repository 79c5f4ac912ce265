"""The offline check itself: a page that reaches for the network is caught (``conftest.load_page`` records every
request that leaves localhost, and the browser resolves no other host), on a page this test builds."""

from __future__ import annotations

from .conftest import ROOT, load_page, new_reader_context
from .widgets import serve_static_page

HTML = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>reaches out</title>
<script src="https://cdn.example.org/lib.js"></script></head><body>
<img alt="remote" src="https://images.example.net/figure.png">
<script>fetch("https://api.example.com/data").catch(() => {});</script></body></html>"""


def test_a_page_that_reaches_for_the_network_is_caught(browser, tmp_path):
    with serve_static_page(tmp_path, HTML, ROOT / "book" / "_static") as url:
        context = new_reader_context(browser, color_scheme="light", width=1280)
        try:
            page, log = load_page(context, url)
            page.wait_for_timeout(300)  # the fetch is sent after the load event
            hosts = sorted(u.split("/")[2] for u in log.external_requests)
            assert hosts == ["api.example.com", "cdn.example.org", "images.example.net"], log.external_requests
            # and nothing came back: no host but localhost resolves in this browser
            assert page.evaluate("() => document.querySelector('img').naturalWidth") == 0
        finally:
            context.close()
