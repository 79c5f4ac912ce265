"""``patchChildren`` (``_common.js``): a redraw of the same shape updates the shown nodes in place; another
shape replaces them. Run under Node with a tiny module that redraws a panel when a button is clicked."""

from __future__ import annotations

import json
from pathlib import Path

from tests.widget_node import run_widget_js

COMMON = Path(__file__).resolve().parents[2] / "nlp_helpers" / "widgets" / "_common.js"

# Each click draws the next version. v1 keeps v0's shape (new numbers, one attribute dropped); v2 has
# another shape (an extra row). The reader opens the <details> between the first two draws. After each
# draw the module records whether the panel still shows the node it showed first.
MODULE = """
function version(k) {
  const rows = [[1, 2], [3, 4], [5, 6, 7]][k];
  const td = (v, i) => h("td", i === 0 && k === 0 ? { "data-note": "first" } : {}, [String(v)]);
  const body = h("tbody", {}, (k === 2 ? [rows, rows] : [rows]).map((r) => h("tr", {}, r.map(td))));
  return [h("details", {}, [h("summary", { text: `version ${k}` }), h("table", {}, [body])])];
}
export default {
  render({ el }) {
    const panel = h("div", { "data-testid": "panel" });
    const go = h("button", { "data-testid": "go" });
    let k = 0;
    patchChildren(panel, version(0));
    const first = panel.childNodes[0];
    first.setAttribute("open", "");
    go.addEventListener("click", () => {
      k += 1;
      patchChildren(panel, version(k));
      const cell = panel.childNodes[0].querySelector("td");
      panel.setAttribute(`data-after-${k}`, JSON.stringify({
        same: panel.childNodes[0] === first,
        open: panel.childNodes[0].getAttribute("open"),
        note: cell.getAttribute("data-note"),
        text: panel.textContent,
      }));
    });
    el.append(panel, go);
  },
};
"""


def test_same_shape_is_updated_in_place_and_another_shape_replaced(tmp_path):

    esm = COMMON.read_text(encoding="utf-8") + "\n" + MODULE
    out = run_widget_js(esm, {}, [{"testid": "go", "click": True}, {"testid": "go", "click": True}], tmp_path)
    after1 = json.loads(out["panel"]["attrs"]["data-after-1"])
    after2 = json.loads(out["panel"]["attrs"]["data-after-2"])
    # Same shape: the node shown is kept, its numbers are the new ones, the dropped attribute is gone,
    # and the <details> the reader opened stays open.
    assert after1 == {"same": True, "open": "", "note": None, "text": "version 134"}
    # Another shape: the panel shows new nodes (closed again), with the new content.
    assert after2["same"] is False and after2["open"] is None and after2["text"] == "version 2567567"
