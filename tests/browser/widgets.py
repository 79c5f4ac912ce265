"""Helpers for driving the book's widgets on a built page, shared by the widget browser tests."""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import socketserver
import threading
from collections.abc import Iterator
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@contextlib.contextmanager
def serve_static_page(site: Path, html: str, static: Path) -> Iterator[str]:
    """Write ``html`` as ``site/index.html`` beside a link to the book's ``_static`` folder and serve it on
    localhost; yields the page's URL (for tests of the widget renderer on a page they build themselves)."""
    (site / "_static").symlink_to(static, target_is_directory=True)
    (site / "index.html").write_text(html, encoding="utf-8")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site))) as srv:
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        try:
            yield f"http://127.0.0.1:{srv.server_address[1]}/index.html"
        finally:
            srv.shutdown()


def golden(name: str) -> dict:
    """The golden numbers a widget must show, computed in Python by the widget's unit tests."""
    return json.loads((GOLDEN / name).read_text(encoding="utf-8"))


def set_control(root, testid: str, value) -> None:
    """Set a widget control the way a user would (fires input/change), whatever its kind."""
    control = root.locator(f"[data-testid='{testid}']").first
    kind = control.evaluate("e => e.tagName.toLowerCase() + ':' + (e.type || '')")
    if kind == "input:checkbox":
        want = value in (True, "true", "1", 1, "on")
        if control.is_checked() != want:
            control.click()
    elif kind.startswith("select"):
        control.select_option(str(value))
    elif kind == "input:range" or kind == "input:number":
        control.evaluate(
            "(e, v) => { e.value = v; e.dispatchEvent(new Event('input', {bubbles: true}));"
            " e.dispatchEvent(new Event('change', {bubbles: true})); }",
            str(value),
        )
    else:
        control.fill(str(value))
        control.dispatch_event("input")
        control.dispatch_event("change")


def apply_controls(root, controls: list[dict]) -> None:
    """Apply ``[{testid, value}]`` (or ``{testid, checked}`` for checkboxes) in order."""
    for c in controls:
        set_control(root, c["testid"], c["checked"] if "checked" in c else c["value"])


def read_matrix(root, prefix: str, rows: int, cols: int, attr: str) -> list[list[float]]:
    """Read cells ``<prefix>-<i>-<j>`` (full precision in attribute ``attr``) from a widget's text table."""
    return root.evaluate(
        """(root, a) => { const [prefix, rows, cols, attr] = a; const out = [];
            for (let i = 0; i < rows; i++) { const row = [];
              for (let j = 0; j < cols; j++) {
                const cell = root.querySelector(`[data-testid="${prefix}-${i}-${j}"]`);
                row.push(cell ? Number(cell.getAttribute(attr)) : NaN); }
              out.push(row); }
            return out; }""",
        [prefix, rows, cols, attr],
    )
