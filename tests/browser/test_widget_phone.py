"""Wide widgets on a phone (390 px): they reflow, and what still does not fit scrolls in a frame that says so.

* The Viterbi trellis wraps into rows that fit the column, every word drawn once (a further row starts with
  the previous row's last word again, faded, where its back-pointers lead), with its cells' text at 11 px.
* The LSTM gate viewer keeps ◀ slider ▶ on one line; its heatmap and its step table scroll sideways in
  frames with a faded edge and a visible scrollbar, and its row names are not clipped.
* At 1280 px the same widgets draw in one piece (the trellis in one row).
"""

from __future__ import annotations

import pytest

from .widgets import golden

PHONE, LAPTOP = 390, 1280
VITERBI_PAGE = golden("viterbi_widget.json")["page"]
LSTM_PAGE = "book/rnn/language_model.html"

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
