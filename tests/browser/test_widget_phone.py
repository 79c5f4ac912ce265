"""Wide widgets on a phone (390 px): they reflow, and what still does not fit scrolls in a frame that says so.

* The Viterbi trellis wraps into rows that fit the column, every word drawn once (a further row starts with
  the previous row's last word again, faded, where its back-pointers lead), with its cells' text at 11 px.
* The LSTM gate viewer keeps ◀ slider ▶ on one line; its heatmap and its step table scroll sideways in
  frames with a faded edge and a visible scrollbar, and its row names are not clipped.
* At 1280 px the same widgets draw in one piece (the trellis in one row).
* On every page at 390 px, every part of every widget fits the column or scrolls in a frame that says so
  (not the whole widget), no text a widget draws is under 9 px, and every figure is shown at 0.66 of its
  size or more, a diagram with its smallest text at 9 px or more, a wide one in a frame that says it scrolls.
"""

from __future__ import annotations

import re

import pytest

from tools.book_ext import MIN_SCALE

from .conftest import ROOT, built_pages
from .widgets import golden

PHONE, LAPTOP = 390, 1280
VITERBI_PAGE = golden("viterbi_widget.json")["page"]
LSTM_PAGE = "book/rnn/language_model.html"
WIDGET_JS = ROOT / "nlp_helpers" / "widgets"

TRELLIS_JS = """(root) => {
  const col = root.getBoundingClientRect();
  return [...root.querySelectorAll('svg')].filter(s => s.closest('.nlpw-drawing')).map(s => {
    const r = s.getBoundingClientRect();
    const words = [...s.querySelectorAll(':scope > text')].filter(t => t.getAttribute('y') === '15')
      .map(t => ({text: t.textContent, faded: t.getAttribute('fill-opacity') !== '1'}));
    return {left: r.left - col.left, right: r.right - col.left, width: col.width, words};
  });
}"""


@pytest.mark.parametrize("width", [LAPTOP, PHONE])
def test_the_viterbi_trellis_wraps_to_the_column(book_page, width):
    page, _ = book_page(VITERBI_PAGE, width=width)
    root = page.locator("[data-testid='vt-root']").first
    root.scroll_into_view_if_needed()
    rows = root.evaluate(TRELLIS_JS)
    words = golden("viterbi_widget.json")["construct"]["words"]
    shown = [w["text"] for r in rows for w in r["words"] if not w["faded"]]
    assert shown == words, f"the trellis shows {shown}, not each of {words} once"
    assert all(r["right"] <= r["width"] + 1 for r in rows), f"a trellis row is wider than the column: {rows}"
    if width == LAPTOP:
        assert len(rows) == 1, f"at {width} px the trellis is cut into {len(rows)} rows"
    else:
        assert len(rows) >= 2 and all(r["words"][0]["faded"] for r in rows[1:]), rows


FRAMES_JS = """(root) => {
  const frames = [root.querySelector('.nlpw-drawing'), root.querySelector('[data-testid="lg-readout"]')];
  const buttons = ['lg-prev', 'lg-next'].map(id => root.querySelector(`[data-testid="${id}"]`).getBoundingClientRect());
  const slider = root.querySelector('[data-testid="lg-step"]').getBoundingClientRect();
  return {
    frames: frames.map(f => {
      const s = getComputedStyle(f);
      return {wide: f.scrollWidth > f.clientWidth + 1, marked: f.classList.contains('nlp-overflows'), more: f.dataset.more,
              mask: s.maskImage !== 'none' || s.webkitMaskImage !== 'none', bar: s.backgroundImage.includes('gradient'),
              right: f.getBoundingClientRect().right - root.getBoundingClientRect().right};
    }),
    oneLine: buttons.every(b => b.top < slider.bottom && b.bottom > slider.top),
  };
}"""


def test_the_lstm_viewer_scrolls_its_heatmap_and_table_in_frames_on_a_phone(book_page):
    page, _ = book_page(LSTM_PAGE, width=PHONE)
    root = page.locator("[data-testid='lg-root']").first
    root.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    got = root.evaluate(FRAMES_JS)
    assert got["oneLine"], "◀ and ▶ are not on the slider's line"
    for name, frame in zip(("heatmap", "step table"), got["frames"], strict=True):
        assert frame["right"] <= 1, f"the {name} frame is wider than the widget"
        assert frame["wide"], f"the {name} fits a phone: this test expects it to scroll (update the test)"
        assert frame["marked"] and frame["more"] == "right" and frame["mask"] and frame["bar"], (
            f"the {name} scrolls without a faded edge and a visible scrollbar: {frame}"
        )
    # the row names are drawn inside the canvas (LEFT leaves room for "memory c" at 11 px)
    fits = root.evaluate(
        "r => { const c = document.createElement('canvas').getContext('2d'); c.font = '11px sans-serif';"
        " return 70 - 6 - c.measureText('memory c').width; }"
    )
    assert fits >= 2, f"'memory c' needs {-fits + 2:.0f} px more on the left"


BPE_JS = """(root) => {
  const input = root.querySelector('[data-testid="bpe-step"]');
  const next = root.querySelector('[data-testid="bpe-next"]');
  const at = (v) => { input.value = v; input.dispatchEvent(new Event('input', {bubbles: true}));
                      const r = next.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top)]; };
  const positions = [0, 9, 99, Number(input.max)].map(at);
  const spaced = [...root.querySelectorAll('[data-testid="bpe-tokens"] .nlpw-space')]
    .map(s => getComputedStyle(s, '::after').content);
  const chips = [...root.querySelectorAll('[data-testid="bpe-tokens"] > *')];
  const leading = chips.filter(c => c.textContent.startsWith(' ')).length;
  const marked = chips.filter(c => c.textContent.startsWith(' ') && c.firstChild.nodeType === 1
                               && c.firstChild.classList.contains('nlpw-space')).length;
  return {slider: input.getBoundingClientRect().width, widget: root.getBoundingClientRect().width,
          merges: Number(input.max), positions, spaced: [...new Set(spaced)], leading, marked};
}"""


@pytest.mark.parametrize("width", [LAPTOP, PHONE])
def test_the_bpe_slider_is_wide_its_buttons_stay_and_its_chips_show_spaces(book_page, width):
    page, _ = book_page("book/tokenization/bpe.html", width=width)  # moves the slider: CHANGES_PAGE
    root = page.locator("[data-testid='bpe-root']").first
    root.scroll_into_view_if_needed()
    got = root.evaluate(BPE_JS)
    assert got["slider"] >= 0.5 * got["widget"], f"a {got['merges']}-merge slider is {got['slider']:.0f} px wide"
    assert len(set(map(tuple, got["positions"]))) == 1, f"'Next merge' moves as the count grows: {got['positions']}"
    assert got["leading"] > 0 and got["marked"] == got["leading"], f"chips hide their leading space: {got}"
    assert got["spaced"] == ['"␣"'], f"a chip's space is drawn as {got['spaced']}"


@pytest.mark.parametrize("width", [LAPTOP, PHONE])
def test_the_tfidf_example_menu_never_shows_a_stale_choice(book_page, width):
    page, _ = book_page("book/tfidf/retrieval.html", width=width)  # types a query: CHANGES_PAGE
    root = page.locator(".nlpw-tfidf").first
    root.scroll_into_view_if_needed()
    menu = root.locator("[data-testid='tfidf-examples']")
    example = menu.locator("option").nth(1).get_attribute("value")
    menu.select_option(example)
    assert root.locator("[data-testid='tfidf-query']").input_value() == example
    assert menu.input_value() == example
    root.locator("[data-testid='tfidf-query']").fill("church")
    assert menu.input_value() == "", "the menu still shows an example the query no longer is"
    root.locator("[data-testid='tfidf-query']").fill(example)
    assert menu.input_value() == example


@pytest.mark.parametrize("width", [LAPTOP, PHONE])
def test_the_next_token_chart_labels_fit_left_of_the_bars(book_page, width):
    page, _ = book_page("book/sampling/sampling.html", width=width)
    chart = page.locator(".nlpw-sampling svg").first
    chart.scroll_into_view_if_needed()
    labels = chart.evaluate(
        "s => [...s.querySelectorAll('text[text-anchor=end]')].map(t => ({text: t.firstChild.textContent, x: t.getBBox().x}))"
    )
    assert labels, "the next-token chart has no labels"
    clipped = [t for t in labels if t["x"] < 0]
    assert not clipped, f"labels cut at the chart's left edge: {clipped}"
    assert labels[-1]["text"].endswith(" others") and "␣" not in labels[-1]["text"], labels[-1]


@pytest.mark.parametrize("width", [LAPTOP, PHONE])
def test_the_sampling_tree_strip_names_its_tokens(book_page, width):
    page, _ = book_page("book/sampling/sampling.html", width=width)
    root = page.locator(".nlpw-sampling-tree").first
    root.scroll_into_view_if_needed()
    tokens = root.locator("table tr td:first-child").all_inner_texts()
    legend = root.locator("[data-testid='st-strip-legend'] .nlpw-token").all_inner_texts()
    assert legend and legend == tokens[: len(legend)] and len(legend) == len(tokens), (legend, tokens)
    assert root.locator("[data-testid='st-strip-legend']").is_visible()


# Every widget and figure of a page at 390 px. Each element a widget draws either lies inside the column (the
# widget's area), or sits in a frame that scrolls sideways, fits the column itself, and says that it scrolls:
# book.js's class "nlp-overflows", data-more, a faded edge (a mask) and a visible scrollbar (on a touch screen
# book.css draws it as a background layer). The widget's root does not count as such a frame: when the whole
# widget scrolls, its controls scroll away with the part that is too wide. No text a widget draws is under
# 9 px: HTML at its computed size, SVG text at its size times the drawing's scale, a canvas at the size it
# draws its labels (CANVAS_FONT_PX, see test_canvas_labels_are_drawn_at_11_px) times its scale.
MIN_LABEL_PX = 9
CANVAS_FONT_PX = 11

FIT_JS = """([minPx, canvasPx]) => {
  const frameOf = (e, root) => {
    for (let f = e.parentElement; f && f !== root; f = f.parentElement) {
      const o = getComputedStyle(f).overflowX;
      if ((o === 'auto' || o === 'scroll' || o === 'hidden') && f.scrollWidth > f.clientWidth + 1) return f;
    }
    return null;
  };
  const says = (f) => {
    const s = getComputedStyle(f);
    const mask = s.maskImage !== 'none' || s.webkitMaskImage !== 'none';
    const bar = s.backgroundImage.includes('gradient') || (s.scrollbarWidth !== 'none' && matchMedia('(hover: hover)').matches);
    const scrolls = s.overflowX === 'auto' || s.overflowX === 'scroll'; // not a frame that only cuts it off
    return scrolls && f.classList.contains('nlp-overflows') && ['right', 'left', 'both'].includes(f.dataset.more) && mask && bar;
  };
  const name = (e) => (e.dataset.testid ? `[${e.dataset.testid}]` : '') + e.tagName.toLowerCase()
    + (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && !e.closest('.nlpw-sr-only'); };
  const problems = [];
  for (const root of document.querySelectorAll('article .nlpw')) {
    if (!shown(root)) continue;
    const col = root.parentElement.getBoundingClientRect();
    const what = root.dataset.testid || root.className;
    const bad = new Map();
    for (const e of root.querySelectorAll('*')) {
      if (!shown(e) || e.closest('svg') && e.tagName.toLowerCase() !== 'svg') continue;
      const r = e.getBoundingClientRect();
      const past = Math.max(r.right - col.right, col.left - r.left);
      if (past > 1) {
        const f = frameOf(e, root);
        if (!f) { bad.set(e, `${name(e)} is ${Math.round(past)} px past the column, in no scroll frame`); continue; }
        const fr = f.getBoundingClientRect();
        const fpast = Math.max(fr.right - col.right, col.left - fr.left);
        if (fpast > 1) bad.set(e, `the frame ${name(f)} of ${name(e)} is ${Math.round(fpast)} px past the column`);
        else if (!says(f)) bad.set(e, `${name(e)} scrolls in ${name(f)}, which does not show that it scrolls`);
      }
    }
    // Only the outermost element of each part that does not fit is named (not each of its cells).
    for (const [e, text] of bad) {
      let up = e.parentElement;
      while (up && up !== root && !bad.has(up)) up = up.parentElement;
      if (!up || up === root) problems.push(`${what}: ${text}`);
    }
    const small = new Set();
    for (const t of root.querySelectorAll('svg text')) {
      if (!shown(t) || !t.textContent.trim()) continue;
      const m = t.getScreenCTM();
      const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      if (px < minPx - 0.05) small.add(`svg text "${t.textContent.slice(0, 20)}" at ${px.toFixed(1)} px`);
    }
    for (const c of root.querySelectorAll('canvas')) {
      const w = parseFloat(getComputedStyle(c).getPropertyValue('--nlpw-w')) || c.width / devicePixelRatio;
      const px = canvasPx * c.getBoundingClientRect().width / w;
      if (shown(c) && px < minPx - 0.05) small.add(`canvas ${name(c)} labels at ${px.toFixed(1)} px`);
    }
    for (const e of root.querySelectorAll('*')) {
      if (e.closest('svg') || !shown(e)) continue;
      const text = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      const px = parseFloat(getComputedStyle(e).fontSize);
      if (text && px < minPx - 0.05) small.add(`${name(e)} text at ${px.toFixed(1)} px`);
    }
    problems.push(...[...small].map((s) => `${what}: ${s}`));
  }
  return problems;
}"""

FIGURES_JS = """async ([minScale, minPx]) => {
  const problems = [];
  // A diagram's smallest text, as the SVG file draws it (its font-size attributes and CSS) and its width.
  const label = async (img) => {
    const text = await (await fetch(img.src)).text();
    const sizes = [...text.matchAll(/font-size(?:="|:\\s*)(\\d+(?:\\.\\d+)?)/g)].map((m) => Number(m[1])).filter((x) => x > 0);
    const box = text.match(/viewBox="\\s*[-\\d.]+[\\s,]+[-\\d.]+[\\s,]+(\\d+(?:\\.\\d+)?)/);
    return sizes.length && box ? [Math.min(...sizes), Number(box[1])] : null;
  };
  for (const img of document.querySelectorAll('article.bd-article img')) {
    const r = img.getBoundingClientRect();
    if (!r.width || img.closest('.nlpw')) continue;
    const column = img.closest('section, article').getBoundingClientRect();
    const drawn = parseFloat(img.style.width) || img.naturalWidth;
    const src = img.getAttribute('src').split('/').pop().slice(0, 16);
    if (drawn && r.width < minScale * drawn - 1)
      problems.push(`figure ${src} is shown at ${(r.width / drawn).toFixed(2)} of its size`);
    if (/\\.svg$/.test(img.getAttribute('src')) && r.width < img.naturalWidth - 1) {
      const found = await label(img);
      const px = found && (found[0] * r.width) / found[1];
      if (px && px < minPx - 0.05) problems.push(`diagram ${src}: its smallest text is shown at ${px.toFixed(1)} px`);
    }
    if (r.right > column.right + 1 || r.left < column.left - 1) {
      const f = img.closest('a.image-reference, .nlp-figure-frame');
      const s = f && getComputedStyle(f);
      const marked = f && f.classList.contains('nlp-overflows') && ['right', 'left', 'both'].includes(f.dataset.more)
        && (s.maskImage !== 'none' || s.webkitMaskImage !== 'none');
      const fr = f && f.getBoundingClientRect();
      if (!marked || fr.right > column.right + 1)
        problems.push(`figure ${src} is ${Math.round(r.right - column.right)} px past the column, in no frame that says it scrolls`);
    }
  }
  return problems;
}"""


@pytest.mark.parametrize("rel", built_pages())
def test_every_widget_fits_a_phone_or_scrolls_in_a_frame_that_says_so(book_page, rel):
    page, _ = book_page(rel, width=PHONE)  # opens the widgets' <details>: CHANGES_PAGE
    # Scroll through the page: widgets and equations finish drawing when they come into view. What a
    # widget folds away (a table in a <details>) must fit too when the reader opens it.
    page.evaluate(
        "() => document.querySelectorAll('article .nlpw details:not([open])').forEach((d) => { d.open = true; })"
    )
    page.evaluate(
        """async () => { for (let y = 0; y < document.body.scrollHeight; y += innerHeight) {
             scrollTo(0, y); await new Promise(requestAnimationFrame); } scrollTo(0, 0);
             await new Promise(requestAnimationFrame); await new Promise(requestAnimationFrame); }"""
    )
    problems = page.evaluate(FIT_JS, [MIN_LABEL_PX, CANVAS_FONT_PX])
    problems += page.evaluate(FIGURES_JS, [MIN_SCALE, MIN_LABEL_PX])
    assert problems == [], f"{rel} at {PHONE} px:\n" + "\n".join(problems)


def test_canvas_labels_are_drawn_at_11_px():
    # What the test above assumes of every canvas: its labels are drawn at CANVAS_FONT_PX or larger.
    sizes = {
        (path.name, int(px))
        for path in WIDGET_JS.glob("*.js")
        for px in re.findall(r"\.font = [`\"'][^`\"']*?(\d+)px", path.read_text(encoding="utf-8"))
    }
    assert sizes and all(px >= CANVAS_FONT_PX for _, px in sizes), sorted(sizes)
