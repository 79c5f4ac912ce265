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


def test_swap_js_replaces_the_shared_styles_and_keeps_each_widgets_own(tmp_path):
    site = tmp_path / "site"
    (site / "book").mkdir(parents=True)
    (site / "index.html").write_text("<html></html>", encoding="utf-8")
    old_shared = "/* Shared widget styles (an older copy). */\n.nlpw { color: red; }\n"
    own = ".nlpw-bpe-chip { margin: 0; }\n"
    models = {
        "a": {"model_module": "anywidget", "state": {"_esm": "// BPEStepper: old\n", "_css": old_shared + own}},
        "b": {"model_module": "anywidget", "state": {"_esm": "// TfidfSearch: old\n", "_css": old_shared}},
    }
    (site / "book" / "page.html").write_text(_page(models), encoding="utf-8")
    js_dir = tmp_path / "js"
    js_dir.mkdir()
    (js_dir / "_common.js").write_text("// common\n", encoding="utf-8")
    (js_dir / "bpe.js").write_text("// BPEStepper: new\nexport default {};\n", encoding="utf-8")
    (js_dir / "tfidf_search.js").write_text("// TfidfSearch: new\nexport default {};\n", encoding="utf-8")
    (js_dir / "widgets.css").write_text("/* Shared widget styles, new. */\n", encoding="utf-8")
    assert swap_js(site, tmp_path / "copy", js_dir) == 2
    text = (tmp_path / "copy" / "book" / "page.html").read_text(encoding="utf-8")
    start = text.index(MARKER) + len(MARKER)
    state = json.loads(text[start : text.index("</script>", start)])["state"]
    assert state["a"]["state"]["_css"] == "/* Shared widget styles, new. */\n" + own
    assert state["b"]["state"]["_css"] == "/* Shared widget styles, new. */\n"
    assert state["a"]["state"]["_esm"] == "// common\n\n// BPEStepper: new\nexport default {};\n"


def test_standalone_pages_hold_the_module_and_the_widgets_state(tmp_path):
    for name in ("bpe", "positional"):
        html = standalone_page(name).read_text(encoding="utf-8")
        assert "const __widget =" in html and "export default" not in html
        assert "const state = {" in html and "__widget.render({ model" in html
    assert set(STANDALONE) >= {"bpe", "tfidf", "positional"}
