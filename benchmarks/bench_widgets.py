"""How fast every widget of the built book answers its sliders on a slow laptop.

Each chapter page of ``_build/html`` is opened in Chromium (Debian's, driven by Playwright); the CPU is
throttled 4x through the Chrome DevTools Protocol (``Emulation.setCPUThrottlingRate``), the way a
classroom laptop runs; then every slider of every widget is scrolled into view (and given a second, in
which MathJax typesets the equations that came into view) and moved 13 times, and the time from the input
event to the next animation frame is taken. Rows: the median over the last 12 steps, one per slider. The
times come in whole frames (about 16.7 ms each at 60 Hz): a step that misses its third frame counts 67 ms.
Also: how long the page takes, at the same throttling, until the first frame in which every widget is
drawn.

Target: median redraw <= 60 ms per slider step, widgets ready within 3 s.

Run after ``make book``: ``python -m benchmarks.bench_widgets``.

Without a built book, ``python -m benchmarks.bench_widgets --standalone [sampling.js]`` times the
sampling explorer alone (the golden prompt shipped four times, as the chapter's four prompts) on a
bare page with the same throttling and slider steps, for the given module (default: the package's),
to compare a change before/after in the same minute.
"""

from __future__ import annotations

import functools
import http.server
import os
import socketserver
import statistics
import sys
import threading
from pathlib import Path

from tools.toc_notebooks import toc_files

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("NLP_BOOK_SITE", ROOT / "_build" / "html"))  # another build: NLP_BOOK_SITE=<dir>
CHROMIUM = "/usr/bin/chromium"
THROTTLE = 4
TARGET_MS = 60.0
READY_S = 3.0

SLIDER_MS_JS = """async ([index, steps]) => {
  const el = document.querySelectorAll('.nlpw input[type=range]')[index];
  const lo = Number(el.min), hi = Number(el.max), times = [];
  for (let k = 0; k < steps; k++) {
    const value = k % 2 ? lo + Math.floor((hi - lo) / 3) : hi - Math.floor((hi - lo) / 4);
    const t0 = performance.now();
    el.value = String(value);
    el.dispatchEvent(new Event('input', {bubbles: true}));
    await new Promise(r => requestAnimationFrame(() => r()));
    times.push(performance.now() - t0);
  }
  return times;
}"""

# Installed before the page's own scripts: a requestAnimationFrame loop that records the first frame
# (callbacks run just before the browser paints) in which every embedded widget view has drawn content.
READY_PROBE_JS = """(() => {
  const VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]';
  const tick = (t) => {
    const n = document.querySelectorAll(VIEW).length;
    const subs = [...document.querySelectorAll('.widget-subarea')];
    if (document.readyState !== 'loading' && n && subs.length >= n
        && subs.every(s => s.children.length && s.getBoundingClientRect().height > 0)) {
      window.__widgetsDrawnAt = t;
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();"""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # no line per request on the console
        pass


def _serve():
    handler = functools.partial(_QuietHandler, directory=str(SITE))
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _label(page, i: int) -> str:
    return page.evaluate(
        """(i) => { const el = document.querySelectorAll('.nlpw input[type=range]')[i];
        const root = el.closest('[data-testid]'); const lab = el.id && document.querySelector(`label[for="${el.id}"]`);
        return `${root ? root.dataset.testid : 'widget'}: ${lab ? lab.textContent.trim() : el.getAttribute('aria-label') || i}`; }""",
        i,
    )


def run() -> list[dict]:
    from playwright.sync_api import sync_playwright

    if not (SITE / "index.html").exists():
        raise FileNotFoundError(f"no built book in {SITE}: run `make book` first")
    server = _serve()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for rel in (f"{f}.html" for f in toc_files()):
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            cdp = page.context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
            page.add_init_script(READY_PROBE_JS)
            page.goto(f"{base}/{rel}", wait_until="domcontentloaded")
            n_views = page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count()
            if n_views == 0:
                page.close()
                continue
            print(f"{rel}: waiting for {n_views} widget views", file=sys.stderr, flush=True)
            page.wait_for_function("() => window.__widgetsDrawnAt !== undefined", timeout=120_000)
            ready_s = page.evaluate("() => window.__widgetsDrawnAt") / 1000
            rows.append(
                {
                    "helper": f"{rel.removeprefix('book/')}: all {n_views} widget views drawn",
                    "reference": f"page load at {THROTTLE}x CPU throttling",
                    "agreement": "-",
                    "ours_s": ready_s,
                    "reference_s": None,
                    "target": f"<= {READY_S:.0f} s",
                    "met": ready_s <= READY_S,
                    "note": "from navigation start to the first frame in which every view has drawn content",
                }
            )
            for i in range(page.locator(".nlpw input[type=range]").count()):
                page.locator(".nlpw input[type=range]").nth(i).scroll_into_view_if_needed()
                page.wait_for_timeout(1000)
                times = page.evaluate(SLIDER_MS_JS, [i, 13])
                median = statistics.median(times[1:])
                rows.append(
                    {
                        "helper": f"{rel.removeprefix('book/')}: {_label(page, i)}",
                        "reference": f"slider step at {THROTTLE}x CPU throttling",
                        "agreement": "-",
                        "ours_s": median / 1000,
                        "reference_s": None,
                        "target": f"median redraw <= {TARGET_MS:.0f} ms",
                        "met": median <= TARGET_MS,
                        "note": f"input event to next frame, median of {len(times) - 1} steps (max {max(times[1:]):.0f} ms)",
                    }
                )
            page.close()
        browser.close()
    server.shutdown()
    return rows


def run_standalone(js_path: str | None = None, steps: int = 13) -> list[dict]:
    """Slider-step times of the sampling explorer alone on a bare page (see the module docstring)."""
    import json
    import tempfile

    from playwright.sync_api import sync_playwright

    from nlp_helpers.widgets.assets import load_css
    from nlp_helpers.widgets.sampling import NextTokenExplorer

    widgets = ROOT / "nlp_helpers" / "widgets"
    js = Path(js_path) if js_path else widgets / "sampling.js"
    esm = (widgets / "_common.js").read_text(encoding="utf-8") + "\n" + js.read_text(encoding="utf-8")
    g = json.loads((ROOT / "tests" / "golden" / "sampling_widget.json").read_text(encoding="utf-8"))
    rec = {"tokens": g["tokens"], "logits": g["logits"], "tail": g["tail"]}
    w = NextTokenExplorer([{"prompt": f"{g['prompt']} ({i})", **rec} for i in range(4)], top_p=0.9)
    state = {k: getattr(w, k) for k in ("_view", "prompts", "prompt_index", "temperature", "top_k", "top_p")}
    html = (
        f"<!doctype html><html><head><style>{load_css()}</style></head><body><div id='w'></div>"
        f"<script type='module'>{esm.replace('export default', 'const __widget =')}\n"
        f"const state = {json.dumps(state)};\n"
        "const model = { get: (k) => state[k], set: (k, v) => { state[k] = v; }, on() {}, save_changes() {} };\n"
        "__widget.render({ model, el: document.getElementById('w') }); window.__ready = true;</script></body></html>"
    )
    page_file = Path(tempfile.mkdtemp()) / "sampling.html"
    page_file.write_text(html, encoding="utf-8")
    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
        page.goto(page_file.as_uri())
        page.wait_for_function("() => window.__ready === true")
        for i in range(page.locator(".nlpw input[type=range]").count()):
            times = page.evaluate(SLIDER_MS_JS, [i, steps])
            rows.append(
                {"slider": _label(page, i), "median_ms": statistics.median(times[1:]), "max_ms": max(times[1:])}
            )
        browser.close()
    return rows


if __name__ == "__main__":
    import sys

    if len(sys.argv) > 1 and sys.argv[1] == "--standalone":
        for row in run_standalone(sys.argv[2] if len(sys.argv) > 2 else None):
            print(row)
    else:
        for row in run():
            print(row)
