"""Widgets on the built static pages: moving a control redraws them with the numbers Python computed.

Each test moves its own widget's controls on the page's shared load (``book_page``), after the checks that
only read that load (the tests are listed in ``conftest.CHANGES_PAGE``); each widget is a root of its own, so
two tests on one page do not see each other's changes.

The golden files in tests/golden/ are written by each widget's unit tests from the Python
implementation (or the reference library); here the JavaScript on the static page, with no
kernel, must show the same values after the same control changes.
"""

from __future__ import annotations

import numpy as np
import pytest

from .widgets import apply_controls, golden, read_matrix


@pytest.mark.parametrize("rel", [golden("bpe_widget.json")["page"]])
def test_bpe_stepper_replays_merges(book_page, rel):
    spec = golden("bpe_widget.json")
    page, log = book_page(rel)
    root = page.locator("[data-testid='bpe-root']").first
    root.wait_for()
    tokens = root.locator("[data-testid='bpe-tokens'] > *")
    seen = []
    for case in spec["cases"]:
        apply_controls(root, case["controls"])
        shown = tokens.all_text_contents()
        assert shown == case["tokens"], f"{case['name']}: widget shows {shown[:12]}..., Python {case['tokens'][:12]}..."
        assert int(root.locator("[data-testid='bpe-count']").get_attribute("data-count")) == len(case["tokens"])
        seen.append(tuple(shown))
    assert len(set(seen)) == len(seen), "moving the slider did not change the segmentation"
    # Keyboard: the slider is a native range input, so arrow keys move it one merge at a time.
    step = root.locator("[data-testid='bpe-step']")
    apply_controls(root, [{"testid": "bpe-step", "value": "0"}])
    step.focus()
    page.keyboard.press("ArrowRight")
    assert step.input_value() == "1"
    assert root.locator("[data-testid='bpe-merge']").get_attribute("data-left") is not None
    assert log.console_errors == [] and log.page_errors == []


@pytest.mark.parametrize("rel", [golden("tfidf_widget.json")["page"]])
def test_tfidf_search_ranks_documents(book_page, rel):
    spec = golden("tfidf_widget.json")
    page, log = book_page(rel)
    root = page.locator("[data-testid='tfidf-root']").first
    root.wait_for()
    apply_controls(root, spec["controls"])
    for want in spec["results"]:
        item = root.locator(f"[data-testid='tfidf-result-{want['rank']}']")
        assert int(item.get_attribute("data-document")) == want["document"]
        assert float(item.get_attribute("data-score")) == pytest.approx(want["score"], abs=spec["tolerance"])
        # the bar splits the cosine into the query terms' shares, which add up to it
        parts = root.locator(f"[data-testid='tfidf-contrib-{want['rank']}']").get_attribute("data-values").split(";")
        assert sum(float(p.split(":")[1]) for p in parts) == pytest.approx(want["score"], abs=spec["tolerance"])
    # Markup typed by a reader is shown as text, never parsed as HTML.
    apply_controls(root, [{"testid": "tfidf-query", "value": "<img src=x onerror=alert(1)> tampa"}])
    assert root.locator("img").count() == 0
    assert log.dialogs == [] and log.console_errors == [] and log.page_errors == []


ATTN_RESET = [{"testid": "attn-causal", "checked": False}, {"testid": "attn-temperature", "value": "1"}]


def test_attention_explorer_recomputes_in_the_page(open_page):
    spec = golden("attention_widget.json")
    for widget in spec["widgets"]:
        page, log = open_page(widget.get("page", spec["page"]))
        root = page.locator("[data-testid='attn-root']").filter(has_text=widget["title"]).first
        root.wait_for()
        layer_select = root.locator("[data-testid='attn-layer']")
        has_layers = layer_select.count() > 0 and layer_select.is_enabled()
        shown_before = None
        for case in widget["cases"]:
            reset = ATTN_RESET + (
                [{"testid": "attn-layer", "value": "0"}, {"testid": "attn-head", "value": "0"}] if has_layers else []
            )
            apply_controls(root, reset + case["controls"])
            want = np.array(case["matrix"])
            shown = np.array(read_matrix(root, "attn-cell", *want.shape, "data-weight"))
            np.testing.assert_allclose(
                shown, want, atol=spec["tolerance"], err_msg=f"{widget['title']}: {case['name']}"
            )
            if shown_before is not None:
                assert not np.allclose(shown, shown_before), f"{case['name']}: the controls did not change the drawing"
            shown_before = shown
        assert log.console_errors == [] and log.page_errors == []


@pytest.mark.parametrize("rel", [golden("positional_widget.json")["page"]])
def test_positional_encoding_explorer_recomputes_in_the_page(book_page, rel):
    spec = golden("positional_widget.json")
    page, log = book_page(rel)
    root = page.locator("[data-testid='pe-root']").first
    root.wait_for()
    for case in spec["cases"]:
        apply_controls(root, case["controls"])
        values = np.array(case["values"])
        shown = np.array(read_matrix(root, "pe-value", *values.shape, "data-value"))
        np.testing.assert_allclose(shown, values, atol=spec["tolerance"], err_msg=case["name"])
        sims = root.evaluate(
            "(r, n) => Array.from({length: n}, (_, q) => Number(r.querySelector(`[data-testid=\"pe-sim-${q}\"]`)?.getAttribute('data-value')))",
            len(case["similarity"]),
        )
        np.testing.assert_allclose(sims, case["similarity"], atol=spec["tolerance"], err_msg=case["name"])
    assert log.console_errors == [] and log.page_errors == []


@pytest.mark.parametrize("rel", [golden("sampling_widget.json")["page"]])
def test_next_token_explorer_filters_and_renormalises(book_page, rel):
    spec = golden("sampling_widget.json")
    page, log = book_page(rel)
    root = page.locator("[data-testid='sampling-root']").first
    root.wait_for()
    before = None
    for case in spec["cases"]:
        apply_controls(root, case["controls"])
        probs = root.evaluate(
            "(r, n) => Array.from({length: n}, (_, i) => Number(r.querySelector(`[data-testid=\"sampling-prob-${i}\"]`)?.getAttribute('data-value')))",
            len(case["probs"]),
        )
        np.testing.assert_allclose(probs, case["probs"], atol=spec["tolerance"], err_msg=case["name"])
        entropy = float(root.locator("[data-testid='sampling-entropy']").text_content())
        assert entropy == pytest.approx(case["entropy"], abs=1e-3), case["name"]
        assert int(root.locator("[data-testid='sampling-nucleus']").text_content()) == case["nucleus"]
        assert before is None or not np.allclose(probs, before)
        before = probs
    assert log.console_errors == [] and log.page_errors == []


@pytest.mark.parametrize("rel", [golden("viterbi_widget.json")["page"]])
def test_viterbi_trellis_fills_in_word_by_word_and_traces_the_best_path(book_page, rel):
    spec = golden("viterbi_widget.json")
    page, log = book_page(rel)
    root = page.locator("[data-testid='vt-root']").first
    root.wait_for()
    words, tags = spec["construct"]["words"], spec["construct"]["tags"]
    for step in (1, len(words)):
        apply_controls(root, [{"testid": "vt-step", "value": str(step)}])
        shown = read_matrix(root, "vt-cell", len(words), len(tags), "data-log")
        for t in range(step):
            want = [-np.inf if x is None else x for x in spec["trellis"][t]]
            np.testing.assert_allclose(shown[t], want, rtol=1e-12)
    assert root.locator("[data-testid='vt-path']").get_attribute("data-path") == " ".join(spec["path"])
    # Keyboard: Enter on a cell explains it.
    cell = root.locator(f"[data-testid='vt-cell-2-{tags.index('VERB')}']")
    cell.focus()
    page.keyboard.press("Enter")
    assert "VERB" in root.locator("[data-testid='vt-candidates']").inner_text()
    assert log.console_errors == [] and log.page_errors == []


@pytest.mark.parametrize("rel", [golden("naive_bayes_widget.json")["page"]])
def test_naive_bayes_explorer_adds_up_the_words_of_what_the_reader_types(book_page, rel):
    spec = golden("naive_bayes_widget.json")
    page, log = book_page(rel)
    root = page.locator("[data-testid='nb-root']").first
    root.wait_for()
    for case in spec["cases"]:
        apply_controls(root, [{"testid": "nb-text", "value": case["text"]}])
        shown = float(root.locator("[data-testid='nb-logodds']").get_attribute("data-value"))
        assert abs(shown - case["log_odds"]) <= spec["tolerance"], case["text"]
    assert root.locator("[data-testid='nb-tokens'] > *").count() == 2  # "zzzqx blorp": two unknown words
    assert log.console_errors == [] and log.page_errors == []


def _embedded_state(page, key: str) -> dict:
    """The synced state of the first widget on the page whose state has trait ``key``."""
    states = page.evaluate(
        """() => [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-state+json"]')]
        .flatMap(s => Object.values(JSON.parse(s.textContent).state || {}).map(m => m.state))"""
    )
    return next(s for s in states if key in s)


@pytest.mark.parametrize("rel", ["book/word2vec/evaluation.html"])
def test_word_map_lists_the_neighbours_and_analogies_numpy_computes(book_page, rel):
    page, log = book_page(rel)
    root = page.locator("[data-testid='wm-root']").first
    root.wait_for()
    state = _embedded_state(page, "group_of")
    words, unit = state["words"], np.array(state["unit"])
    unit = unit / np.linalg.norm(unit, axis=1, keepdims=True)

    def top(query, skip, k):
        scores = unit @ (query / np.linalg.norm(query))
        scores[list(skip)] = -np.inf
        return [words[i] for i in np.argsort(-scores, kind="stable")[:k]]

    k = state["k"]
    apply_controls(root, [{"testid": "wm-mode", "value": "neighbours"}])
    for word in ("three", "paris"):
        apply_controls(root, [{"testid": "wm-word", "value": word}])
        i = words.index(word)
        shown = root.locator("[data-testid='wm-neighbours']").get_attribute("data-words").split()
        assert shown == top(unit[i], {i}, k), word
    # The query and its neighbours are labelled on the map, and no two labels overlap as the browser draws them.
    labels = root.locator("[data-testid='wm-labels'] text")
    shown_labels = labels.evaluate_all("ts => ts.map(t => t.textContent)")
    assert {"paris", *shown} <= set(shown_labels)
    boxes = labels.evaluate_all(
        "ts => ts.map(t => { const b = t.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; })"
    )
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:  # glyph boxes include the font's line gap: allow 2 px
            assert not (a[0] + 2 < b[2] and b[0] + 2 < a[2] and a[1] + 2 < b[3] and b[1] + 2 < a[3]), (a, b)
    # Clicking a dot on the map selects that word.
    root.locator("[data-testid='wm-map'] circle[data-word='january']").click()
    assert root.locator("[data-testid='wm-word']").input_value() == "january"
    # Keyboard: one tab stop on the selected word's dot; the arrow keys move across the map, Enter selects.
    stop = root.locator("[data-testid='wm-map'] [tabindex='0']")
    assert stop.count() == 1 and stop.get_attribute("data-word") == "january"
    stop.focus()
    page.keyboard.press("ArrowRight")
    moved = page.evaluate("() => document.activeElement.getAttribute('data-word')")
    assert moved not in (None, "january")
    page.keyboard.press("Enter")
    assert root.locator("[data-testid='wm-word']").input_value() == moved
    assert page.evaluate("() => document.activeElement.getAttribute('data-word')") == moved
    apply_controls(root, [{"testid": "wm-mode", "value": "analogy"}])
    # the analogy the page opens on (its a, b, c pickers)
    a, b, c = (words.index(root.locator(f"[data-testid='wm-{n}']").input_value()) for n in "abc")
    shown = root.locator("[data-testid='wm-analogy']").get_attribute("data-words").split()
    assert shown == top(unit[b] - unit[a] + unit[c], {a, b, c}, k)
    assert root.locator("[data-testid='wm-only-c']").get_attribute("data-words").split() == top(unit[c], {a, b, c}, k)
    assert log.console_errors == [] and log.page_errors == []


@pytest.mark.parametrize("rel", ["book/sampling/sampling.html"])
def test_sampling_tree_draws_the_tokens_numpy_draws(book_page, rel):
    from tests.widgets.test_widgets_sampling_tree import uniform

    page, log = book_page(rel)
    root = page.locator("[data-testid='st-root']").first
    root.wait_for()
    state = _embedded_state(page, "top_mass")
    k, seed, t = state["k"], 11, 0.5
    apply_controls(root, [{"testid": "st-seed", "value": str(seed)}, {"testid": "st-temp", "value": str(t)}])
    n, want = 0, [0]
    for step in range(state["depth"]):
        z = np.array(state["logits"][n]) / t
        p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
        shown = [float(root.locator(f"[data-testid='st-p-{j}']").get_attribute("data-p")) for j in range(k)]
        np.testing.assert_allclose(shown, p, rtol=1e-12)
        root.locator("[data-testid='st-draw']").click()
        n = n * k + 1 + min(int(np.searchsorted(np.cumsum(p), uniform(seed, step), side="right")), k - 1)
        want.append(n)
        assert root.locator("[data-testid='st-text']").get_attribute("data-path") == " ".join(map(str, want))
    assert root.locator("[data-testid='st-draw']").is_disabled()
    # Keyboard: the buttons are native buttons.
    root.locator("[data-testid='st-back']").focus()
    page.keyboard.press("Enter")
    assert root.locator("[data-testid='st-text']").get_attribute("data-path") == " ".join(map(str, want[:-1]))


@pytest.mark.parametrize("rel", [golden("ngram_generator_widget.json")["page"]])
def test_ngram_generator_steps_through_a_sample_with_the_models_probabilities(book_page, rel):
    spec = golden("ngram_generator_widget.json")
    page, log = book_page(rel)
    root = page.locator("[data-testid='ng-root']").first
    root.wait_for()
    # The sampled paths depend on the build's seed offset: expect what the page's own state holds (the unit
    # tests check that state against the model); the seed-free unigram candidates also against the golden file.
    state = _embedded_state(page, "paths")
    for case in spec["cases"]:
        order, sample, step = (c["value"] for c in case["controls"])
        path = state["paths"][order][int(sample)]
        if int(step) >= len(path):
            continue  # this seed's sentence is shorter
        apply_controls(root, case["controls"])
        want = path[int(step)]
        bars = root.locator("[data-testid^='ng-bar-']")
        shown = [bars.nth(i).get_attribute("data-word") for i in range(bars.count())]
        probs = [float(bars.nth(i).get_attribute("data-p")) for i in range(bars.count())]
        assert shown == want["w"], f"{case['controls']}: widget shows {shown}, its state {want['w']}"
        np.testing.assert_allclose(probs, want["p"], atol=spec["tolerance"])
        assert root.locator("[data-testid='ng-pick']").get_attribute("data-word") == want["w"][want["s"]]
        if order == "1":  # no context: the top candidates do not depend on the seed
            assert shown[:8] == case["words"][:8]
            np.testing.assert_allclose(probs[:8], case["probs"][:8], atol=spec["tolerance"])
    # Keyboard and touch: the buttons are native <button>s; Enter on "Next word" moves one word on.
    apply_controls(root, spec["cases"][0]["controls"])
    step = root.locator("[data-testid='ng-step']")
    root.locator("[data-testid='ng-next']").focus()
    page.keyboard.press("Enter")
    assert step.input_value() == "1"
    # "New sentence" draws a new sentence in the page each time, a path through the shipped table of the model
    # (whose probabilities the unit tests check against the model's).
    order = int(root.locator("[data-testid='ng-order']").input_value())
    table, ids = state["tables"][str(order)], {w: i for i, w in enumerate(state["vocab"])}
    sentences = []
    for _ in range(10):
        root.locator("[data-testid='ng-new']").click()
        assert step.input_value() == "0"
        assert root.locator("[data-testid='ng-seed']").input_value() == str(len(state["seeds"]))
        sentences.append(root.locator("[data-testid='ng-sentence']").get_attribute("data-sentence"))
    assert len(set(sentences)) >= 5, sentences
    for sentence in sentences:
        ctx = [0] * (order - 1)
        for word in sentence.split():
            assert ids[word] in table[" ".join(map(str, ctx))][0], (sentence, word)
            ctx = (ctx + [ids[word]])[1:] if order > 1 else []
    # it scales to a phone: no sideways scrolling of the widget in a 390 px column
    assert root.evaluate("e => e.scrollWidth <= e.clientWidth + 1")


# ---- attention: the step-through panel and the model view (appended) ---------------------------

STEP_TITLE = "The worked example, one head: when you play game of thrones"


def _step_values(root) -> dict:
    return root.evaluate(
        """(r) => Object.fromEntries(['dot', 'scaled', 'exp', 'sum', 'weight'].map((k) => {
            const e = r.querySelector(`[data-testid="attn-step-${k}"]`);
            return [k, e ? [Number(e.getAttribute('data-value')), e.textContent] : null]; }))"""
    )


@pytest.mark.parametrize("rel", ["book/attention/self_attention.html"])
def test_attention_step_panel_shows_numpys_numbers_for_the_clicked_cell(book_page, rel):
    """Click a cell, then arrow to others: the panel's q.k, /sqrt(d), exp, row sum and weight equal numpy's,
    computed from the worked example's Q and K rounded to the 4 decimals the page holds."""
    from nlp_helpers.attention.positional import positional_encoding
    from nlp_helpers.attention.worked_example import load_worked_example

    ex = load_worked_example()
    X = ex["static_embedding_rows_are_tokens"] + positional_encoding(6, 6)
    Q, K = np.round(X @ ex["W_Q"], 4), np.round(X @ ex["W_K"], 4)
    page, log = book_page(rel)
    root = page.locator("[data-testid='attn-root']").filter(has_text=STEP_TITLE).first
    root.wait_for()
    apply_controls(root, ATTN_RESET)

    def check(i, j):
        dots = Q[i] @ K.T
        e = np.exp(dots / 2 - (dots / 2).max())
        got = _step_values(root)
        want = {"dot": dots[j], "scaled": dots[j] / 2, "exp": e[j], "sum": e.sum(), "weight": e[j] / e.sum()}
        for k, v in want.items():
            assert got[k][0] == pytest.approx(v, rel=1e-9, abs=1e-15), (i, j, k)
        cell = root.locator(f"[data-testid='attn-cell-{i}-{j}']")
        assert got["weight"][1] == cell.text_content() == f"{e[j] / e.sum():.4f}"
        assert root.locator("[data-testid='attn-step-query']").input_value() == str(i)
        assert root.locator("[data-testid='attn-step-key']").input_value() == str(j)

    root.locator("[data-testid='attn-rect-2-4']").click()
    check(2, 4)
    # the selected rows of Q and K are highlighted
    assert root.locator("[data-testid='attn-step-Q'] tr.nlpw-hl th").text_content().startswith("2:")
    assert root.locator("[data-testid='attn-step-K'] tr.nlpw-hl th").text_content().startswith("4:")
    # keyboard: the heatmap keeps focus and the arrow keys move the selected cell
    root.locator("[data-testid='attn-heatmap']").focus()
    page.keyboard.press("ArrowRight")
    check(2, 5)
    page.keyboard.press("ArrowDown")
    check(3, 5)
    assert log.console_errors == [] and log.page_errors == []


@pytest.mark.parametrize("width", [390])
@pytest.mark.parametrize("rel", ["book/attention/self_attention.html"])
def test_attention_step_panel_on_a_phone_follows_a_tap(book_page, rel, width):
    page, log = book_page(rel, width=width)
    root = page.locator("[data-testid='attn-root']").filter(has_text=STEP_TITLE).first
    root.wait_for()
    rect = root.locator("[data-testid='attn-rect-1-0']")
    rect.scroll_into_view_if_needed()
    rect.tap()
    assert root.locator("[data-testid='attn-step-query']").input_value() == "1"
    assert root.locator("[data-testid='attn-step-key']").input_value() == "0"
    assert log.page_errors == []


@pytest.mark.parametrize("rel", ["book/bert/representations.html"])
def test_bert_model_view_enlarges_the_clicked_thumbnail(book_page, rel):
    """Clicking thumbnail (layer 4, head 8) of the canvas grid shows that map, and its numbers equal the
    explorer's for the same layer and head (3 decimals against 5 significant digits)."""
    page, log = book_page(rel)
    mv = page.locator("[data-testid='mv-root']").first
    mv.wait_for()
    grid = mv.locator("[data-testid='mv-grid']")
    box = grid.bounding_box()
    css_width = grid.evaluate("(c) => Number(c.style.maxWidth.replace('px', ''))")
    s = box["width"] / css_width  # the canvas may be scaled down to the column
    layer, head = 3, 7
    grid.click(position={"x": (64 + head * 50 + 22) * s, "y": (20 + layer * 50 + 22) * s})
    assert mv.locator("[data-testid='mv-layer']").input_value() == str(layer)
    assert mv.locator("[data-testid='mv-head']").input_value() == str(head)
    n = mv.locator("[data-testid='mv-table'] tbody tr").count()
    shown = np.array(read_matrix(mv, "mv-cell", n, n, "data-weight"))
    explorer = page.locator("[data-testid='attn-root']").filter(has_text="all-MiniLM-L6-v2").first
    apply_controls(
        explorer,
        ATTN_RESET + [{"testid": "attn-layer", "value": str(layer)}, {"testid": "attn-head", "value": str(head)}],
    )
    want = np.array(read_matrix(explorer, "attn-cell", n, n, "data-weight"))
    np.testing.assert_allclose(shown, want, atol=5e-4 + 1e-5)
    # keyboard: arrows on the focused grid move to the neighbouring map
    grid.focus()
    page.keyboard.press("ArrowDown")
    assert mv.locator("[data-testid='mv-layer']").input_value() == str(layer + 1)


@pytest.mark.parametrize("rel", ["book/rnn/language_model.html"])
def test_lstm_gate_viewer_recomputes_the_memory_update_in_the_page(book_page, rel):
    # Golden numbers: Python's c_t and h_t (lstm_gate_trace of the chapter's trained LM, in data-stored);
    # the page's JavaScript recomputes them from the 3-decimal gates it shows (c = f c_prev + i g).
    page, log = book_page(rel)
    root = page.locator("[data-testid='lg-root']").first
    root.wait_for()
    n_steps = int(root.locator("[data-testid='lg-step']").get_attribute("max"))
    for step in (1, 9, n_steps):
        apply_controls(root, [{"testid": "lg-step", "value": str(step)}])
        pairs = root.evaluate(
            'r => Array.from(r.querySelectorAll(\'[data-testid^="lg-ccalc-"], [data-testid^="lg-hcalc-"]\'),'
            " e => [Number(e.getAttribute('data-value')), Number(e.getAttribute('data-stored'))])"
        )
        assert len(pairs) >= 2
        np.testing.assert_allclose(*np.array(pairs).T, atol=2e-3, err_msg=f"step {step}")
        forget = root.evaluate(
            "r => Array.from(r.querySelectorAll('[data-testid^=\"lg-f-\"]'), e => Number(e.getAttribute('data-value')))"
        )
        assert forget and all(0 <= f <= 1 for f in forget)
    # Keyboard on the heatmap: Home, then one step right.
    root.locator("[data-testid='lg-heatmap']").focus()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert root.locator("[data-testid='lg-step']").input_value() == "2"
    assert "Step 2," in root.locator("[data-testid='lg-readout']").inner_text()
    assert log.console_errors == [] and log.page_errors == []


@pytest.mark.parametrize("rel", [golden("optimiser_paths_widget.json")["page"]])
def test_optimiser_paths_redraw_the_paths_torch_computes(book_page, rel):
    """The training page's explorer: its controls redraw the paths torch.optim computes (the golden file), and
    the arrow keys on the focused map move the start. Its full matrix runs in test_optimiser_paths.py."""
    from tests.widgets.test_widgets_optimiser_paths import check_shown

    spec = golden("optimiser_paths_widget.json")
    page, log = book_page(rel)
    root = page.locator("[data-testid='op-root']").first
    root.wait_for()
    for case in spec["cases"]:
        apply_controls(root, case["controls"])
        shown = root.evaluate(
            """(r) => Object.fromEntries([...r.querySelectorAll('[data-testid^="op-"]')].map((e) => [e.dataset.testid,
            {text: e.textContent, attrs: Object.fromEntries([...e.attributes].map((a) => [a.name, a.value]))}]))"""
        )
        check_shown(shown, case, spec["rtol"])
    root.locator("[data-testid='op-map']").focus()
    page.keyboard.press("ArrowRight")
    assert root.locator("[data-testid='op-start']").get_attribute("data-x") == "-3.75"
    page.keyboard.press("Home")
    assert root.locator("[data-testid='op-start']").get_attribute("data-x") == "-4"
    assert log.console_errors == [] and log.page_errors == []
