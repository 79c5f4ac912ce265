"""axe-core in the built pages, run so that a page costs seconds, not half a minute.

Measured on the book's longest pages (9,000 elements, 2,000 highlighted code tokens, 3,900 MathJax
nodes): axe's colour rules were two thirds of a page's browser time. Each judged every text element
of the page (3,500 on a long page) in light and again in dark, and each run of axe rebuilt its grid of
the whole page (every element's box and stacking order) before judging anything.

What decides a text's contrast is a short list of computed styles: its colour, size, weight, opacity,
text shadow, filter and blend mode, and the backgrounds behind it (every ancestor's background colour,
image, opacity and positioning, up to the first opaque, static one). Text elements with the same list
get the same verdict from axe's ``color-contrast`` rule; a link in a text block gets the same verdict
from ``link-in-text-block`` when its own list, its decoration and its surrounding text's colour are the
same. So the colour rules judge two elements of each such style class (not the 1,500 code tokens of
one colour on the code background), and a class already judged on an earlier page of the same worker in the
same scheme is not judged again. A page whose every style class has been judged skips the colour rules
(in dark: skips axe). A new colour anywhere (a widget's CSS, an output's inline style, a theme change,
an admonition's background) is a new class, judged where it first appears; an injected low-contrast
code token, inline output style or link colour is caught this way (``tests/browser/test_axe_classes.py``
proves it on a page it builds, with axe on every element as the reference).

Everything else of WCAG 2.1 A/AA runs on the whole page in light, in the same run as the colour rules
(one grid per run).
"""

from __future__ import annotations

from .conftest import ROOT

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
MARK = "data-nlp-contrast"
PER_CLASS = 2

# The colour rules judge only the elements marked below (their selectors are narrowed once per page).
CONFIGURE_JS = f"""() => axe.configure({{rules: [
    {{id: 'color-contrast', selector: '[{MARK}]'}},
    {{id: 'link-in-text-block', selector: 'a[href][{MARK}], [role=link][{MARK}]'}},
]}})"""

# Mark up to ``perClass`` visible elements of every contrast class not in ``judged``; return the new
# classes. MathJax containers are skipped: their only text nodes are the assistive MathML, clipped to
# 1 px off-screen for screen readers (the visible glyphs are CSS content, which axe cannot see); the
# typeset equations take their paragraph's colour, which is judged.
MARK_JS = f"""([judged, perClass]) => {{
  const done = new Set(judged);
  for (const el of document.querySelectorAll('[{MARK}]')) el.removeAttribute('{MARK}');
  const opaque = (s) => {{
    const a = s.backgroundColor.match(/[\\d.]+/g);
    return s.backgroundImage === 'none' && a && (a.length === 3 || Number(a[3]) === 1);
  }};
  const style = (el) => {{
    const cs = getComputedStyle(el);
    const parts = [cs.color, cs.fontSize, cs.fontWeight, cs.opacity, cs.textShadow, cs.filter, cs.mixBlendMode];
    for (let p = el; p; p = p.parentElement) {{
      const s = p === el ? cs : getComputedStyle(p);
      const pos = s.position === 'static' ? '' : `${{s.position}} ${{p.tagName}}.${{p.className}}`;
      const layer = [s.backgroundColor, s.backgroundImage, s.opacity, s.filter, s.mixBlendMode, pos].join(' ');
      // an ancestor that paints nothing and positions nothing does not change the contrast
      if (layer !== 'rgba(0, 0, 0, 0) none 1 none normal ') parts.push(layer);
      if (opaque(s) && s.opacity === '1' && !pos) break;
    }}
    return parts.join('|');
  }};
  const link = (el) => {{
    const cs = getComputedStyle(el);
    const around = el.parentElement ? getComputedStyle(el.parentElement).color : '';
    return ['link', style(el), around, cs.textDecorationLine, cs.textDecorationStyle, cs.textDecorationColor,
            cs.borderBottomStyle, cs.borderBottomColor, cs.outlineStyle].join('|');
  }};
  const groups = new Map();
  const add = (key, el) => {{
    if (done.has(key) || !el.getClientRects().length) return;
    const g = groups.get(key) || [];
    if (g.length < perClass) {{ g.push(el); groups.set(key, g); }}
  }};
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {{
    const el = n.parentElement;
    if (!el || seen.has(el) || !n.textContent.trim() || el.closest('mjx-container, script, style, noscript')) continue;
    seen.add(el);
    add(style(el), el);
  }}
  for (const el of document.querySelectorAll('a[href], [role=link]')) add(link(el), el);
  for (const els of groups.values()) for (const el of els) el.setAttribute('{MARK}', '');
  return [...groups.keys()];
}}"""

RUN_JS = """async (options) => {
    const r = await axe.run(document, {...options, resultTypes: ['violations']});
    return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' :: ' + (n.failureSummary || '').slice(0, 160))}));
}"""

# Per worker (a pytest-xdist worker is one process): the contrast classes judged so far, by scheme.
_JUDGED: dict[str, set[str]] = {"light": set(), "dark": set()}


def run_axe(page, scheme: str, *, judged: dict[str, set[str]] | None = None) -> list[dict]:
    """axe-core's serious or critical violations on ``page`` in ``scheme``.

    Light: every WCAG 2.1 A/AA rule, the colour rules on the contrast classes not yet judged. Dark (the same
    load switched to dark): the colour rules only, likewise; dark mode changes colours, not structure.
    ``judged`` (default: this worker's memory) holds the classes already judged, by scheme; pass fresh sets
    to judge every class of the page."""
    assert AXE.exists(), "axe-core is missing: run `make assets` (npm ci)"
    judged = _JUDGED if judged is None else judged
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
        page.evaluate(CONFIGURE_JS)
    new = page.evaluate(MARK_JS, [sorted(judged[scheme]), PER_CLASS])
    if scheme == "light":
        options: dict = {"runOnly": {"type": "tag", "values": WCAG_TAGS}}
        if not new:
            options["rules"] = {r: {"enabled": False} for r in COLOUR_RULES}
    elif new:
        options = {"runOnly": {"type": "rule", "values": COLOUR_RULES}}
    else:
        return []
    violations = page.evaluate(RUN_JS, options)
    judged[scheme].update(new)
    return [v for v in violations if v["impact"] in ("serious", "critical")]
