"""One widget alone on a bare page, timed like the built pages (``python -m benchmarks.bench_widgets --standalone``).

Each widget is built from its chapter's constructor or its golden data in ``tests/golden``, given a model
like the static page's, and timed with :mod:`benchmarks.bench_widgets`'s throttling and bare-slider
comparison: a change to a widget's JS can be compared before and after in the same minute, without a build.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from benchmarks.bench_widgets import CHROMIUM, ROOT, WIDGETS, throttled_page, time_controls


def _golden(name: str) -> dict:
    return json.loads((ROOT / "tests" / "golden" / name).read_text(encoding="utf-8"))


def _bpe():
    from nlp_helpers.widgets.bpe import BPEStepper

    g = _golden("bpe_widget.json")
    return "bpe.js", BPEStepper(g["construct"]["text"], [tuple(m) for m in g["merges"]])


def _tfidf():
    from nlp_helpers.widgets.tfidf_search import TfidfSearch

    examples = ["asylum seekers Tampa", "flooding in Germany", "famine in Malawi", "Mugabe Zimbabwe land"]
    return "tfidf_search.js", TfidfSearch(query="asylum seekers Tampa", top_k=3, examples=examples)


def _positional():
    from nlp_helpers.widgets.positional import PositionalEncodingExplorer

    return "positional.js", PositionalEncodingExplorer(max_len=50, d_model=16, pair=1, position=10)


def _sampling():
    from nlp_helpers.widgets.sampling import NextTokenExplorer

    g = _golden("sampling_widget.json")
    rec = {"tokens": g["tokens"], "logits": g["logits"], "tail": g["tail"]}
    return "sampling.js", NextTokenExplorer([{"prompt": f"{g['prompt']} ({i})", **rec} for i in range(4)], top_p=0.9)


def _viterbi():
    from nlp_helpers.widgets.viterbi import ViterbiTrellis

    c = _golden("viterbi_widget.json")["construct"]
    inf = float("-inf")
    fix = lambda x: [fix(v) for v in x] if isinstance(x, list) else (inf if x is None else x)  # noqa: E731
    return "viterbi.js", ViterbiTrellis(
        c["words"], c["tags"], fix(c["log_start"]), fix(c["log_trans"]), fix(c["log_emissions"]), step=2
    )


def _optimiser():
    from nlp_helpers.widgets.optimiser_paths import OptimiserPaths

    return "optimiser_paths.js", OptimiserPaths()


STANDALONE = {
    "bpe": _bpe,
    "tfidf": _tfidf,
    "positional": _positional,
    "sampling": _sampling,
    "viterbi": _viterbi,
    "optimiser": _optimiser,
}


def _state(widget) -> dict:
    """The synced traits a view reads (``_view`` included; the module and stylesheet are not state)."""
    names = [n for n in widget.traits(sync=True) if n not in ("_esm", "_css", "comm", "keys", "log")]
    state = {}
    for n in names:
        v = getattr(widget, n)
        try:
            json.dumps(v)
        except TypeError:
            continue
        state[n] = v
    return state


# A model like the static page's: set() fires "change:<name>" synchronously when the value changes.
MODEL_JS = """const listeners = {};
const model = {
  get: (k) => state[k],
  set: (k, v) => { const old = state[k]; state[k] = v; if (JSON.stringify(old) !== JSON.stringify(v)) (listeners['change:' + k] || []).forEach((f) => f()); },
  on: (ev, f) => { (listeners[ev] = listeners[ev] || []).push(f); },
  off() {}, save_changes() {}, send() {},
};"""


def standalone_page(name: str, js_dir: Path = WIDGETS) -> Path:
    """A bare page holding one widget ``name`` (a key of ``STANDALONE``), with modules from ``js_dir``."""
    from nlp_helpers.widgets.assets import load_css

    js_name, widget = STANDALONE[name]()
    esm = (js_dir / "_common.js").read_text(encoding="utf-8") + "\n" + (js_dir / js_name).read_text(encoding="utf-8")
    html = (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<style>{load_css()}</style></head><body><main style='max-width:820px;margin:auto'>"
        "<p>A page with one widget.</p><div id='w'></div></main>"
        f"<script type='module'>{esm.replace('export default', 'const __widget =')}\n"
        f"const state = {json.dumps(_state(widget))};\n{MODEL_JS}\n"
        "__widget.render({ model, el: document.getElementById('w') }); window.__ready = true;</script></body></html>"
    )
    page_file = Path(tempfile.mkdtemp()) / f"{name}.html"
    page_file.write_text(html, encoding="utf-8")
    return page_file


def run_standalone(names: list[str] | None = None, js_dir: Path = WIDGETS) -> list[dict]:
    """Own-cost rows of widgets alone on bare pages (see the module docstring)."""
    from playwright.sync_api import sync_playwright

    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for name in names or list(STANDALONE):
            page = throttled_page(browser)
            page.goto(standalone_page(name, js_dir).as_uri())
            page.wait_for_function("() => window.__ready === true")
            page.wait_for_timeout(500)
            rows += time_controls(page, f"{name} (standalone)", settle_ms=300)
            page.close()
        browser.close()
    return rows
