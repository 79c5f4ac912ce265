"""Quick checks answered in Chromium, as a reader answers them, on the static page (no kernel).

For every question of a page (read from the page's embedded widget state): a wrong option is marked wrong
with its own feedback, the right one right; a wrong number typed is marked wrong, the right one right; at
390 px nothing scrolls sideways and every option, field and button is a tap target of at least 32 px; in
dark mode the text keeps its contrast.

The full matrix (mouse at 1280 px, touch at 390 px in light and dark mode, the keyboard, "Show the answer")
runs on a small page this test builds itself (the same embedding and the same offline renderer,
``book/_static/nlp-widgets.js``, as the book's pages), so the widget is proven before any chapter uses it.
On every built page holding quick checks, what can differ from page to page is checked: its own questions,
answered by touch at 390 px (drawn once, judged wrong and right with their feedback, fitting the screen).
"""

from __future__ import annotations

import json
import re

import pytest
from ipywidgets.embed import dependency_state, embed_data

from .conftest import BUILD, ROOT, built_pages
from .widgets import serve_static_page

PHONE = 390
MIN_TAP = 32
MIN_CONTRAST = 4.5

QUESTIONS_JS = """() => {
  const out = {};
  for (const s of document.querySelectorAll('script[type="application/vnd.jupyter.widget-state+json"]')) {
    const models = JSON.parse(s.textContent).state || {};
    for (const m of Object.values(models)) if (m.state && m.state.check_id) out[m.state.check_id] = m.state.questions;
  }
  return out;
}"""

LAYOUT_JS = """(minTap) => {
  const small = [];
  for (const el of document.querySelectorAll('.nlpw-qc .qc-option, .nlpw-qc input[type=text], .nlpw-qc button')) {
    const r = el.getBoundingClientRect();
    if (r.height < minTap || r.width < minTap) small.push(`${el.className || el.tagName} ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  const wide = [...document.querySelectorAll('.nlpw-qc')].filter(
    (root) => root.scrollWidth > root.clientWidth + 1 || root.getBoundingClientRect().right > innerWidth + 1);
  return {small, wide: wide.length, scrollWidth: document.documentElement.scrollWidth};
}"""

# The contrast of an element's text against the colour actually behind it (the first ancestor that paints one).
CONTRAST_JS = """(el) => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  let bg = null;
  for (let p = el; p; p = p.parentElement) {
    const c = rgb(getComputedStyle(p).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) { bg = c.slice(0, 3); break; }
  }
  bg = bg || [255, 255, 255];
  const fg = rgb(getComputedStyle(el).color).slice(0, 3);
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def quick_check_pages() -> list[str]:
    """Built pages of the table of contents whose embedded widget state holds a QuickCheck."""
    return [
        rel
        for rel in built_pages()
        if (BUILD / rel).is_file() and '"check_id"' in (BUILD / rel).read_text(encoding="utf-8")
    ]


def _wrong_number(q: dict) -> float:
    """A number far from the answer and from every listed mistake."""
    x = q["answer"] + 1000 * q["tolerance"] + 1
    while any(abs(x - m) <= m_tol for m, m_tol in ((v, q["tolerance"]) for v, _ in q["mistakes"])):
        x += 1000 * q["tolerance"] + 1
    return x


# A verdict said twice: "✗ Not quite. Not quite. Try again", "✓ Right. Right: ...".
_TWICE = re.compile(r"\b(Right|Correct|Not quite|Wrong)\b[.:!]?\s+(Right|Correct|Not quite|Wrong|Yes|No)\b[.:!]", re.I)


def _verdict(fieldset) -> tuple[str | None, str]:
    box = fieldset.locator("[data-testid='qc-feedback']")
    text = re.sub(r"\s+", " ", box.inner_text())
    assert not _TWICE.search(text), f"the verdict is said twice: {text!r}"
    return box.get_attribute("data-verdict"), text


# The same answers as a reader's, sent from the page in one step: a click on an option's label (which checks
# its radio button and fires "change"), typing into the field and Enter, a click on "Check".
ANSWER_JS = """(items) => items.map((it) => {
  const root = document.querySelector(`.nlpw-qc[data-check-id="${CSS.escape(it.check)}"]`);
  const fs = root.querySelectorAll('fieldset.quick-check')[it.index];
  const box = fs.querySelector("[data-testid='qc-feedback']");
  const read = () => [box.getAttribute('data-verdict'), box.innerText.replace(/\\s+/g, ' ')];
  if (it.kind === 'choice') {
    const labels = fs.querySelectorAll('label.qc-option');
    labels[it.wrong].click();
    const wrong = read();
    labels[it.right].click();
    return [wrong, read()];
  }
  const field = fs.querySelector("[data-testid='qc-input']");
  const type = (text) => { field.focus(); field.value = text; field.dispatchEvent(new Event('input', {bubbles: true})); };
  type(it.wrong);
  field.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true, cancelable: true}));
  const wrong = read();
  type(it.right);
  fs.querySelector("[data-testid='qc-check']").click();
  return [wrong, read()];
})"""


def _judged(where: str, q: dict, k, expect: str, verdict: str | None, text: str) -> None:
    """Assert one answer's verdict (and, for an option, its own feedback)."""
    assert not _TWICE.search(text), f"{where}: the verdict is said twice: {text!r}"
    if q["kind"] == "choice":
        assert verdict == expect, f"{where}: option {k} marked {verdict}, expected {expect}"
        feedback = re.sub(r"\s+", " ", q["feedback"][k].replace("`", "")).strip()
        assert feedback in re.sub(r"\s+", " ", text), f"{where}: option {k} feedback missing: {text!r}"
    else:
        assert verdict == expect, f"{where}: the number {k} was marked {verdict}, expected {expect}"


def answer_every_question(page, *, tap: bool = False) -> int:
    """Answer every quick check of ``page`` wrongly, then rightly, checking each verdict; returns how many.

    The first question of each kind (options, a number) is answered as a reader does: a tap (or a click) on
    an option, typing and Enter, a tap on "Check". The widget's code is the same for every question; what
    differs is each question's data, so the others get the same events sent from the page, all in one step.
    """
    questions = page.evaluate(QUESTIONS_JS)
    assert questions, "the page embeds no QuickCheck state"
    n, by_hand, scripted = 0, set(), []
    for check_id, qs in questions.items():
        root = page.locator(f".nlpw-qc[data-check-id='{check_id}']")
        assert root.count() == 1, f"quick check {check_id} is drawn {root.count()} times"
        fieldsets = root.locator("fieldset.quick-check")
        assert fieldsets.count() == len(qs)
        for i, q in enumerate(qs):
            where = f"{check_id} question {i + 1}"
            n += 1
            if q["kind"] == "choice":
                wrong = next(k for k in range(len(q["options"])) if k != q["answer"])
                answers = (wrong, q["answer"])
            else:
                answers = (repr(_wrong_number(q)), repr(q["answer"]))
            if q["kind"] in by_hand:
                scripted.append((where, q, answers, {"check": check_id, "index": i, "kind": q["kind"]}))
                continue
            by_hand.add(q["kind"])
            fs = fieldsets.nth(i)
            fs.scroll_into_view_if_needed()
            if q["kind"] == "choice":
                for k, expect in zip(answers, ("wrong", "right")):
                    row = fs.locator("label.qc-option").nth(k)
                    row.tap() if tap else row.click()
                    _judged(where, q, k, expect, *_verdict(fs))
            else:
                field = fs.locator("[data-testid='qc-input']")
                field.fill(answers[0])
                field.press("Enter")
                _judged(where, q, answers[0], "wrong", *_verdict(fs))
                field.fill(answers[1])
                button = fs.locator("[data-testid='qc-check']")
                button.tap() if tap else button.click()
                _judged(where, q, answers[1], "right", *_verdict(fs))
    items = [{**item, "wrong": answers[0], "right": answers[1]} for _, _, answers, item in scripted]
    for (where, q, answers, _), got in zip(scripted, page.evaluate(ANSWER_JS, items), strict=True):
        for k, expect, (verdict, text) in zip(answers, ("wrong", "right"), got):
            _judged(where, q, k, expect, verdict, text)
    return n


def check_phone_layout(page) -> None:
    layout = page.evaluate(LAYOUT_JS, MIN_TAP)
    assert layout["small"] == [], f"tap targets under {MIN_TAP} px: {layout['small'][:6]}"
    assert layout["wide"] == 0, "a quick check is wider than the screen"
    assert layout["scrollWidth"] <= PHONE, f"the page is {layout['scrollWidth']} px wide at {PHONE} px"


def check_contrast(page) -> None:
    for selector in (".nlpw-qc legend", ".nlpw-qc .qc-option span", ".nlpw-qc .qc-feedback span"):
        for el in page.locator(selector).all()[:12]:
            ratio = el.evaluate(CONTRAST_JS)
            assert ratio >= MIN_CONTRAST, f"{selector} has contrast {ratio:.2f} (< {MIN_CONTRAST})"


# ---------------------------------------------------------------- a page this test builds itself
def _fixture_widgets():
    from nlp_helpers.widgets.quick_check import Choice, Numeric, QuickCheck

    return [
        QuickCheck(
            "fixture-counting",
            [
                Choice(
                    "With add-one smoothing, a word never seen with a class gets…",
                    options=["probability 0", "probability 1 / (n_c + |V|)", "a very long option " * 6],
                    answer=1,
                    feedback=["Not quite: that is the unsmoothed estimate.", "Right: `0 + 1` over n_c + |V|.", "No."],
                ),
                Numeric(
                    "P(great | +) with add-one smoothing, to 3 decimals?",
                    answer=4 / 34,
                    tolerance=0.0005,
                    explanation="(3 + 1) / (14 + 20) = 0.118.",
                    mistakes=[(3 / 14, "You forgot the smoothing.")],
                ),
                Numeric(
                    "The norm of (1, √6), to 2 decimals?",
                    answer=7**0.5,
                    tolerance=0.005,
                    explanation="Right: √(1 + 6) = √7.",
                ),
            ],
        ),
        QuickCheck("fixture-second", [Numeric("Two plus two?", answer=4.0, tolerance=0.1, explanation="4.")]),
    ]


@pytest.fixture(scope="module")
def fixture_url(tmp_path_factory):
    widgets = _fixture_widgets()
    data = embed_data(views=widgets, state=dependency_state(widgets, drop_defaults=False))

    def script_json(obj) -> str:
        return json.dumps(obj).replace("</", "<\\/")

    views = "\n".join(
        f'<div class="cell_output"><script type="application/vnd.jupyter.widget-view+json">{script_json(s)}</script></div>'
        for s in data["view_specs"]
    )
    html = f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">
<title>quick checks</title><style>body {{ font: 16px/1.5 sans-serif; margin: 0 1rem; }}
@media (prefers-color-scheme: dark) {{ body {{ background: #121212; color: #ddd; }} }}</style>
<script src="_static/nlp-widgets.js" defer></script>
<script type="application/vnd.jupyter.widget-state+json">{script_json(data["manager_state"])}</script>
</head><body><main><h1>Quick checks</h1>{views}</main></body></html>"""
    with serve_static_page(tmp_path_factory.mktemp("quick-check"), html, ROOT / "book" / "_static") as url:
        yield url


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (PHONE, "light"), (PHONE, "dark")])
def test_quick_checks_on_a_page_of_their_own(browser, fixture_url, width, scheme):
    context = browser.new_context(
        viewport={"width": width, "height": 900}, color_scheme=scheme, has_touch=width < 600, is_mobile=width < 600
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(fixture_url)
    page.locator("fieldset.quick-check").nth(3).wait_for(timeout=30_000)
    assert answer_every_question(page, tap=width < 600) == 4
    if width < 600:
        check_phone_layout(page)
    check_contrast(page)
    # "Show the answer" names the right option and explains it, and is announced (a live region)
    first = page.locator("fieldset.quick-check").first
    first.locator("[data-testid='qc-reveal']").click()
    assert _verdict(first) == ("shown", "Answer: probability 1 / (n_c + |V|). 0 + 1 over n_c + |V|.")
    # ... and a number to the precision the question asks, its explanation without a second verdict
    norm = page.locator("fieldset.quick-check").nth(2)
    norm.locator("[data-testid='qc-reveal']").click()
    assert _verdict(norm) == ("shown", "Answer: 2.65. √(1 + 6) = √7.")
    assert first.locator("[data-testid='qc-feedback']").get_attribute("aria-live") == "polite"
    assert errors == []
    context.close()


def test_quick_checks_by_keyboard(browser, fixture_url):
    page = browser.new_page()
    page.goto(fixture_url)
    first = page.locator("fieldset.quick-check").first
    first.wait_for(timeout=30_000)
    first.locator("input[type=radio]").first.focus()
    page.keyboard.press("ArrowDown")  # moves to the second option and picks it, as native radios do
    assert _verdict(first)[0] == "right"
    page.keyboard.press("ArrowDown")
    assert _verdict(first)[0] == "wrong"
    numeric = page.locator("fieldset.quick-check").nth(1).locator("[data-testid='qc-input']")
    numeric.focus()
    page.keyboard.type("4/34")
    page.keyboard.press("Enter")
    assert _verdict(page.locator("fieldset.quick-check").nth(1))[0] == "right"
    page.close()


# ---------------------------------------------------------------- every built page with quick checks
PAGES = quick_check_pages() or [pytest.param(None, marks=pytest.mark.skip(reason="no built page has quick checks"))]


@pytest.mark.parametrize("rel", PAGES)
@pytest.mark.parametrize(("width", "scheme"), [(PHONE, "light")])
def test_quick_checks_on_the_book_pages(book_page, rel, width, scheme):
    """Every page's own questions, answered by touch on a phone: each is drawn once, judges a wrong and the
    right answer with its own feedback, fits the screen with tap targets of 32 px, and keeps its contrast.

    The widget's code is the same on every page, so the rest of the matrix (mouse at 1280 px, touch in dark
    mode, the keyboard, "Show the answer") runs on the page of its own above; its text's contrast in dark
    mode is also judged on every page by axe's colour rules (test_pages.py)."""
    page, log = book_page(rel, width=width, color_scheme=scheme)
    assert answer_every_question(page, tap=True) > 0
    check_phone_layout(page)
    check_contrast(page)
    assert log.page_errors == [] and log.console_errors == []
