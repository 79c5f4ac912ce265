"""Every widget shows text from data as text: markup in tokens, labels or documents never runs.

Each widget class is constructed here with hostile strings, embedded into a standalone page with
the same offline script the book serves (book/_static/nlp-widgets.js, the widget renderer), and opened
in Chromium. A script that ran would open a dialog or add an element; neither may happen, and the
hostile string must be visible as literal text.
"""

from __future__ import annotations

import functools
import http.server
import json
import socketserver
import threading

import numpy as np
import pytest
from ipywidgets.embed import dependency_state, embed_data

from .conftest import ROOT

HOSTILE = "<img src=x onerror=alert(1)>"
HOSTILE_2 = '<script>alert(2)</script>"&amp;'


def _widgets():
    from nlp_helpers.ngram.models import NGramLM
    from nlp_helpers.tokenization.bpe import BPE
    from nlp_helpers.widgets.attention import AttentionExplorer
    from nlp_helpers.widgets.bpe import BPEStepper
    from nlp_helpers.widgets.lstm_gates import LSTMGates
    from nlp_helpers.widgets.model_view import AttentionModelView
    from nlp_helpers.widgets.ngram_generator import NGramGenerator
    from nlp_helpers.widgets.optimiser_paths import OptimiserPaths
    from nlp_helpers.widgets.quick_check import Choice, Numeric, QuickCheck
    from nlp_helpers.widgets.sampling import NextTokenExplorer, SoftmaxTemperature
    from nlp_helpers.widgets.sampling_tree import SamplingTree
    from nlp_helpers.widgets.tfidf_search import TfidfSearch
    from nlp_helpers.widgets.word_map import WordMap

    text = f"{HOSTILE} and {HOSTILE_2} مرحبا 你好"
    bpe = BPE.train([text] * 3, 20)
    return {
        "bpe-root": BPEStepper.from_bpe(bpe, text, step=5),
        "attn-root": AttentionExplorer([HOSTILE, HOSTILE_2, "ok"], np.full((3, 3), 1 / 3), title=HOSTILE),
        "sampling-root": NextTokenExplorer(
            [{"prompt": HOSTILE_2, "tokens": [HOSTILE, HOSTILE_2, " ok"], "logits": [2.0, 1.0, 0.5]}]
        ),
        "softmax-root": SoftmaxTemperature([2.0, 1.0, 0.0], [HOSTILE, HOSTILE_2, "ok"]),
        "tfidf-root": TfidfSearch(
            [f"{HOSTILE} first document", f"{HOSTILE_2} second document"],
            titles=[HOSTILE, HOSTILE_2],
            query="document",
            top_k=2,
        ),
        "st-root": SamplingTree(HOSTILE, [HOSTILE, HOSTILE_2, "a", "b"] * 1 + ["c", "d"], np.zeros((3, 2)), [0.5] * 3),
        "ng-root": NGramGenerator(
            NGramLM(2, "mle").fit([[HOSTILE, HOSTILE_2, "ok"]] * 3), orders=[1, 2], n_sentences=1
        ),
        "mv-root": AttentionModelView([HOSTILE, HOSTILE_2, "ok"], np.full((2, 2, 3, 3), 1 / 3), title=HOSTILE),
        "lg-root": LSTMGates(
            [HOSTILE, HOSTILE_2, "ok"], {key: np.full((3, 2), 0.5) for key in ("i", "f", "g", "o", "c", "h")}, [0, 1]
        ),
        "quick-checks": QuickCheck(
            "hostile",
            [
                Choice(HOSTILE, options=[HOSTILE, HOSTILE_2], answer=0, feedback=[HOSTILE_2, f"`{HOSTILE}`"]),
                Numeric(HOSTILE_2, answer=1.0, tolerance=0.1, explanation=HOSTILE, mistakes=[(2.0, HOSTILE_2)]),
            ],
        ),
        "op-root": OptimiserPaths({HOSTILE: np.eye(2), HOSTILE_2: np.diag([1.0, 4.0])}),
        "wm-root": WordMap(
            [HOSTILE, HOSTILE_2, "ok", "fine"], np.eye(4) + 0.1, word=HOSTILE, groups={HOSTILE_2: ["ok"]}
        ),
    }


@pytest.fixture(scope="module")
def hostile_page_url(tmp_path_factory):
    static = ROOT / "book" / "_static"  # the renderer the book's pages load (book/_static/nlp-widgets.js)
    widgets = _widgets()
    views_list = list(widgets.values())
    data = embed_data(views=views_list, state=dependency_state(views_list, drop_defaults=False))

    def script_json(obj) -> str:
        # As the book's pages do (tools/book_ext.py): no "</" may end the script element early.
        return json.dumps(obj).replace("</", "<\\/")

    views = "\n".join(
        f'<section data-expect="{key}"><script type="application/vnd.jupyter.widget-view+json">{script_json(spec)}</script></section>'
        for key, spec in zip(widgets, data["view_specs"])
    )
    html = f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>widget text safety</title>
<script src="_static/nlp-widgets.js" defer></script>
<script type="application/vnd.jupyter.widget-state+json">{script_json(data["manager_state"])}</script>
</head><body>{views}</body></html>"""
    site = tmp_path_factory.mktemp("hostile")
    (site / "_static").symlink_to(static, target_is_directory=True)
    (site / "index.html").write_text(html, encoding="utf-8")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site))) as srv:
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        yield f"http://127.0.0.1:{srv.server_address[1]}/index.html", list(widgets)
        srv.shutdown()


def test_hostile_text_is_shown_as_text(browser, hostile_page_url):
    url, roots = hostile_page_url
    context = browser.new_context()
    page = context.new_page()
    dialogs, errors = [], []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("pageerror", lambda e: errors.append(str(e)))
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    for testid in roots:
        page.locator(f"[data-testid='{testid}']").first.wait_for(timeout=30_000)
    page.wait_for_timeout(500)
    assert dialogs == [], f"a script ran from widget data: {dialogs}"
    assert not [u for u in requests if u.endswith("/x")], "an <img> from widget data was created"
    assert errors == []
    for section in page.locator("section[data-expect]").all():
        assert section.locator("img, script:not([type])").count() == 0, section.get_attribute("data-expect")
        text = section.text_content()  # includes the text tables of collapsed <details>
        assert HOSTILE in text or HOSTILE_2 in text, section.get_attribute("data-expect")
    context.close()
