"""The widget benchmark's helpers that need no browser: swapping embedded modules, the standalone pages."""

from __future__ import annotations

import json

from benchmarks.bench_widgets import swap_js
from benchmarks.bench_widgets_standalone import STANDALONE, standalone_page
from nlp_helpers.widgets.assets import load_esm

MARKER = '<script type="application/vnd.jupyter.widget-state+json">'


def _page(models: dict) -> str:
    state = {"version_major": 2, "version_minor": 0, "state": models}
    return f"<html><body><p>text</p>{MARKER}{json.dumps(state)}</script><p>after</p></body></html>"


def test_swap_js_replaces_each_embedded_module_by_the_current_one_of_the_same_widget(tmp_path):
    site = tmp_path / "site"
    (site / "book" / "tokenization").mkdir(parents=True)
    (site / "index.html").write_text("<html></html>", encoding="utf-8")
    old_common = "// Shared helpers (an older copy).\n// Rules: user/data text goes in with textContent.\n"
    models = {
        "a": {"model_module": "anywidget", "state": {"_esm": old_common + "// BPEStepper: old\nexport default {};"}},
        "b": {"model_module": "anywidget", "state": {"_esm": old_common + "// TfidfSearch: old\nexport default {};"}},
        "c": {"model_module": "anywidget", "state": {"_esm": "// Something else: not ours\n", "step": 3}},
        "d": {"model_module": "@jupyter-widgets/base", "state": {}},
    }
    (site / "book" / "tokenization" / "bpe.html").write_text(_page(models), encoding="utf-8")
    copy = tmp_path / "copy"
    assert swap_js(site, copy) == 2
    text = (copy / "book" / "tokenization" / "bpe.html").read_text(encoding="utf-8")
    assert text.startswith("<html><body><p>text</p>") and text.endswith("</script><p>after</p></body></html>")
    start = text.index(MARKER) + len(MARKER)
    state = json.loads(text[start : text.index("</script>", start)])["state"]
    assert state["a"]["state"]["_esm"] == load_esm("bpe.js")
    assert state["b"]["state"]["_esm"] == load_esm("tfidf_search.js")
    assert state["c"]["state"] == models["c"]["state"]  # not a module of ours: left alone
    # the original site is unchanged
    assert (site / "book" / "tokenization" / "bpe.html").read_text(encoding="utf-8") == _page(models)


def test_standalone_pages_hold_the_module_and_the_widgets_state(tmp_path):
    for name in ("bpe", "positional"):
        html = standalone_page(name).read_text(encoding="utf-8")
        assert "const __widget =" in html and "export default" not in html
        assert "const state = {" in html and "__widget.render({ model" in html
    assert set(STANDALONE) >= {"bpe", "tfidf", "positional"}
