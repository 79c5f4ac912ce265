"""The colour rules judged by contrast class (``axe.py``) catch what axe on every element catches.

A page this test builds holds 100 code tokens of three good colours and text of the kinds the book shows
(paragraphs, links, an output table, a dark-mode style). Each bad case adds one low-contrast element to
it: one token among the 100, an inline-styled output cell, a link told apart by colour alone, a colour that
fails only in dark mode. The class-based run must report the same rule as axe run on every element, also
when the good page's classes were judged before (a worker's memory across pages).
"""

from __future__ import annotations

import pytest

from .axe import AXE, COLOUR_RULES, run_axe
from .conftest import ROOT, set_color_scheme
from .widgets import serve_static_page

GOOD_TOKENS = "".join(f'<span class="t{i % 3}">tok{i}</span> ' for i in range(100))
PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>contrast</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>
body {{ font: 16px/1.5 sans-serif; background: #fff; color: #222; margin: 1rem; }}
pre {{ background: #f5f5f5; padding: 1rem; white-space: pre-wrap; }}
.t0 {{ color: #0b4f8a; }} .t1 {{ color: #7a2e00; }} .t2 {{ color: #1f5f1f; font-weight: bold; }}
a {{ color: #0645ad; text-decoration: underline; }}
@media (prefers-color-scheme: dark) {{ body {{ background: #121212; color: #ddd; }} pre {{ background: #222; }}
  .t0 {{ color: #9cf; }} .t1 {{ color: #fc9; }} .t2 {{ color: #9f9; }} a {{ color: #8ab4f8; }}
  .dark-only {{ color: #333; }} }}
</style></head><body><main><h1>Contrast</h1>
<p>A paragraph with <a href="#x">a link</a> and <em>emphasis</em>.</p>
<pre>{tokens}</pre><table><tr><th>word</th><td>0.25</td></tr></table>{extra}</main></body></html>"""

BAD = {
    "a token": ('<pre><span class="t0">ok</span> <span style="color:#ccc">faint</span></pre>', "light"),
    "an output's inline style": ('<div class="cell_output"><span style="color:#aaa">0.31</span></div>', "light"),
    "a link told by colour alone": (
        '<p style="color:#222">Text with <a href="#y" style="color:#333;text-decoration:none">a link</a>.</p>',
        "light",
    ),
    "a dark-mode colour": ('<p class="dark-only">Readable in light, not in dark.</p>', "dark"),
}

EVERY_ELEMENT_JS = """async (rules) => {
  const r = await axe.run(document, {runOnly: {type: 'rule', values: rules}, resultTypes: ['violations']});
  return r.violations.filter(v => ['serious', 'critical'].includes(v.impact)).map(v => v.id).sort();
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("contrast")
    with serve_static_page(root, "", ROOT / "book" / "_static") as url:
        yield root, url.rsplit("/", 1)[0]


def _open(browser, site, name: str, extra: str):
    root, base = site
    (root / f"{name}.html").write_text(PAGE.format(tokens=GOOD_TOKENS, extra=extra), encoding="utf-8")
    page = browser.new_page()
    page.goto(f"{base}/{name}.html")
    return page


def _every_element(browser, site, extra: str, scheme: str) -> list[str]:
    """The reference: axe's colour rules on every element of the page (a fresh load, no narrowing)."""
    page = _open(browser, site, "reference", extra)
    set_color_scheme(page, scheme)
    page.add_script_tag(path=str(AXE))
    ids = page.evaluate(EVERY_ELEMENT_JS, COLOUR_RULES)
    page.close()
    return ids


def _by_class(browser, site, extra: str, scheme: str, judged) -> list[str]:
    page = _open(browser, site, "classes", extra)
    found = []
    for s in ("light", "dark") if scheme == "dark" else ("light",):
        set_color_scheme(page, s)
        found = sorted({v["id"] for v in run_axe(page, s, judged=judged) if v["id"] in COLOUR_RULES})
    page.close()
    return found


@pytest.fixture(scope="module")
def remembered(browser, site) -> dict[str, set[str]]:
    """The contrast classes of the good page, judged in light and dark (as on an earlier page of a worker)."""
    assert _every_element(browser, site, "", "light") == []
    assert _every_element(browser, site, "", "dark") == []
    judged: dict[str, set[str]] = {"light": set(), "dark": set()}
    assert _by_class(browser, site, "", "dark", judged) == []
    assert judged["light"] and judged["dark"]
    return judged


@pytest.mark.parametrize("case", list(BAD))
def test_a_low_contrast_element_is_caught_as_axe_on_every_element_catches_it(browser, site, remembered, case):
    extra, scheme = BAD[case]
    want = _every_element(browser, site, extra, scheme)
    assert want, f"the reference found nothing in {case}: the case does not test anything"
    assert _by_class(browser, site, extra, scheme, {"light": set(), "dark": set()}) == want
    # a worker that judged the good page before still judges the new class
    judged = {s: set(classes) for s, classes in remembered.items()}
    assert _by_class(browser, site, extra, scheme, judged) == want
