"""Widgets on the built static pages: moving a control redraws them with the numbers Python computed.

The golden files in tests/golden/ are written by each widget's unit tests from the Python
implementation (or the reference library); here the JavaScript on the static page, with no
kernel, must show the same values after the same control changes.
"""

from __future__ import annotations

import numpy as np
import pytest

from .widgets import apply_controls, golden, read_matrix


def test_bpe_stepper_replays_merges(open_page):
    spec = golden("bpe_widget.json")
    page, log = open_page(spec["page"])
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


def test_tfidf_search_ranks_documents(open_page):
    spec = golden("tfidf_widget.json")
    page, log = open_page(spec["page"])
    root = page.locator("[data-testid='tfidf-root']").first
    root.wait_for()
    apply_controls(root, spec["controls"])
    for want in spec["results"]:
        item = root.locator(f"[data-testid='tfidf-result-{want['rank']}']")
        assert int(item.get_attribute("data-document")) == want["document"]
        assert float(item.get_attribute("data-score")) == pytest.approx(want["score"], abs=spec["tolerance"])
    # Markup typed by a reader is shown as text, never parsed as HTML.
    apply_controls(root, [{"testid": "tfidf-query", "value": "<img src=x onerror=alert(1)> tampa"}])
    assert root.locator("img").count() == 0
    assert log.dialogs == [] and log.console_errors == [] and log.page_errors == []


ATTN_RESET = [{"testid": "attn-causal", "checked": False}, {"testid": "attn-temperature", "value": "1"}]


def test_attention_explorer_recomputes_in_the_page(open_page):
    spec = golden("attention_widget.json")
    page, log = open_page(spec["page"])
    for widget in spec["widgets"]:
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


def test_positional_encoding_explorer_recomputes_in_the_page(open_page):
    spec = golden("positional_widget.json")
    page, log = open_page(spec["page"])
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


def test_next_token_explorer_filters_and_renormalises(open_page):
    spec = golden("sampling_widget.json")
    page, log = open_page(spec["page"])
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


def test_viterbi_trellis_fills_in_word_by_word_and_traces_the_best_path(open_page):
    spec = golden("viterbi_widget.json")
    page, log = open_page(spec["page"])
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


def test_naive_bayes_explorer_adds_up_the_words_of_what_the_reader_types(open_page):
    spec = golden("naive_bayes_widget.json")
    page, log = open_page(spec["page"])
    root = page.locator("[data-testid='nb-root']").first
    root.wait_for()
    for case in spec["cases"]:
        apply_controls(root, [{"testid": "nb-text", "value": case["text"]}])
        shown = float(root.locator("[data-testid='nb-logodds']").get_attribute("data-value"))
        assert abs(shown - case["log_odds"]) <= spec["tolerance"], case["text"]
    assert root.locator("[data-testid='nb-tokens'] > *").count() == 2  # "zzzqx blorp": two unknown words
    assert log.console_errors == [] and log.page_errors == []


def test_lstm_gate_viewer_recomputes_the_memory_update_in_the_page(open_page):
    # Golden numbers: Python's c_t and h_t (lstm_gate_trace of the chapter's trained LM, in data-stored);
    # the page's JavaScript recomputes them from the 3-decimal gates it shows (c = f c_prev + i g).
    page, log = open_page("book/rnn.html")
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
