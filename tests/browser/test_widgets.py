"""Widgets on the built static pages: moving a control redraws them with the numbers Python computed.

The golden files in tests/golden/ are written by each widget's unit tests from the Python
implementation (or the reference library); here the JavaScript on the static page, with no
kernel, must show the same values after the same control changes.
"""

from __future__ import annotations

import pytest

from .widgets import apply_controls, golden


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
