// WordMap: word vectors on a 2-D map; neighbours and analogies computed here in full dimension.
// cos(u, v) = u.v / (|u| |v|);  3CosAdd(a, b, c) = argmax_w cos(w, b - a + c) over w not in {a, b, c}.
// _common.js (h, svg, select, fmt, srOnly, setTrait) is prepended by nlp_helpers.widgets.assets.load_esm.

const GROUP_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#8C6D1F", "#000000"];
const OTHER = "#999999";

const dot = (u, v) => u.reduce((s, x, i) => s + x * v[i], 0);
const norm = (u) => Math.sqrt(dot(u, u));
export const cosine = (u, v) => dot(u, v) / (norm(u) * norm(v));

// The k words most similar to `query` (a vector), skipping the indices in `exclude`: [{i, cos}].
export function nearest(unit, query, k, exclude = new Set()) {
  const scored = [];
  for (let i = 0; i < unit.length; i++) if (!exclude.has(i)) scored.push({ i, cos: cosine(unit[i], query) });
  scored.sort((x, y) => y.cos - x.cos || x.i - y.i);
  return scored.slice(0, k);
}

export function analogyQuery(unit, a, b, c) {
  return unit[b].map((x, d) => x - unit[a][d] + unit[c][d]);
}

// Width of a label in px, estimated (no layout engine needed, so Node tests see the same placement):
// average glyph widths of a sans-serif face, bold about 8% wider.
function textWidth(text, size, bold) {
  let em = 0;
  for (const ch of text) em += /[ilj.,'’|!]/.test(ch) ? 0.3 : /[mw]/.test(ch) ? 0.85 : /[A-Z]/.test(ch) ? 0.68 : 0.56;
  return em * size * (bold ? 1.08 : 1) + 2;
}

const GAP = 3; // px kept free between two labels: real glyph widths differ from the estimate by a little
const MAP_W = 560;
const MAP_H = 380;
// On a phone the map is 330 x 330 px, which fits its column with the labels at their size (11 px and up);
// fewer labels find a free place on it (the lists name every word).
const PHONE_MAP = 330;
const PAD = 28;

function render({ model, el }) {
  const [W, H] = narrowScreen() ? [PHONE_MAP, PHONE_MAP] : [MAP_W, MAP_H];
  const words = model.get("words");
  const unit = model.get("unit");
  const xy = model.get("coords");
  const names = model.get("group_names");
  const groupOf = model.get("group_of");
  const index = new Map(words.map((w, i) => [w, i]));
  const k = model.get("k");
  const colour = (i) => (groupOf[i] >= 0 ? GROUP_COLOURS[groupOf[i] % GROUP_COLOURS.length] : OTHER);

  const xs = xy.map((p) => p[0]);
  const ys = xy.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const sx = (x) => PAD + ((x - x0) / (x1 - x0 || 1)) * (W - 2 * PAD);
  const sy = (y) => H - PAD - ((y - y0) / (y1 - y0 || 1)) * (H - 2 * PAD);
  const at = (p) => [sx(p[0]), sy(p[1])];
  const proj = (i) => xy[i];

  const root = h("div", { class: "nlpw nlpw-wordmap", "data-testid": "wm-root" });
  el.replaceChildren(root);
  const options = words.map((w) => ({ value: w, label: w })).sort((p, q) => p.label.localeCompare(q.label));
  const mode = select({
    label: "Show",
    options: [
      { value: "neighbours", label: "nearest neighbours" },
      { value: "analogy", label: "an analogy b − a + c" },
    ],
    value: model.get("mode"),
    onChange: (v) => { setTrait(model, "mode", v); draw(); },
  });
  mode.input.setAttribute("data-testid", "wm-mode");
  const pick = select({ label: "Word", options, value: model.get("word"), onChange: (v) => { setTrait(model, "word", v); draw(); } });
  pick.input.setAttribute("data-testid", "wm-word");
  const trio = ["a", "b", "c"].map((name, n) => {
    const s = select({
      label: name,
      options,
      value: model.get("analogy")[n],
      onChange: (v) => { const t = [...model.get("analogy")]; t[n] = v; setTrait(model, "analogy", t); draw(); },
    });
    s.input.setAttribute("data-testid", `wm-${name}`);
    return s;
  });
  const wordControls = h("div", { class: "nlpw-controls" }, [pick.root]);
  const trioControls = h("div", { class: "nlpw-controls" }, trio.map((s) => s.root));
  const map = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "group", "aria-label": "Map of the words in two dimensions (PCA); each dot is a word you can select", "data-testid": "wm-map" });
  map.style.maxWidth = `${W}px`;
  legible(map, W);
  const lists = h("div", { class: "nlpw-wm-lists" });
  const legend = h("div", { class: "nlpw-legend" }, names.map((g, n) =>
    h("span", { class: "nlpw-legend-item" }, [h("span", { class: "nlpw-swatch", style: `border-top: 0.6em solid ${GROUP_COLOURS[n]}; width: 0.6em` }), g])));
  const hint = h("p", { class: "nlpw-readout", "data-testid": "wm-focus", "aria-live": "polite",
    text: "Keyboard: Tab to the map, arrow keys move between the dots, Enter selects a word." });
  const note = h("p", { class: "nlpw-readout", text: "The map shows two of the vectors' dimensions (principal components), so it distorts distances; the lists are computed from the full vectors." });
  root.append(h("div", { class: "nlpw-controls" }, [mode.root]), wordControls, trioControls, h("figure", { class: "nlpw-chart" }, [h("div", { class: "nlpw-drawing" }, [map]), legend]), hint, lists, note);

  function list(title, testid, rows, extra = {}) {
    const ol = h("ol", { "data-testid": testid, "data-words": rows.map((r) => words[r.i]).join(" "), ...extra });
    for (const r of rows) ol.append(h("li", { "data-cos": String(r.cos) }, `${words[r.i]}  ${fmt(r.cos, 3)}`));
    return h("div", {}, [h("div", { class: "nlpw-figtitle", text: title }), ol]);
  }

  function line(p, q, attrs) {
    const [a, b] = [at(p), at(q)];
    map.append(svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], ...attrs }));
  }

  // Greedy label placement: the most important labels first (the query words, then the listed words in
  // rank order, then the other dots); each tries positions around its dot and takes the first whose box
  // stays on the map and overlaps no label placed before it; a label with no free position is skipped.
  function placeLabels(order, bold) {
    const boxes = [];
    const apart = (b, o, gap) => b[2] + gap <= o[0] || o[2] + gap <= b[0] || b[3] + gap <= o[1] || o[3] + gap <= b[1];
    // the other dots are obstacles for the labels of the other words (the listed words' labels may cover one)
    const dots = words.map((_, j) => { const [x, y] = at(proj(j)); return [j, [x - 4, y - 4, x + 4, y + 4]]; });
    const free = (b, i, avoidDots) => b[0] >= 0 && b[2] <= W && b[1] >= 0 && b[3] <= H &&
      boxes.every((o) => apart(b, o, GAP)) && (!avoidDots || dots.every(([j, d]) => j === i || apart(b, d, 0)));
    const group = svg("g", { "data-testid": "wm-labels", "aria-hidden": "true", "pointer-events": "none" });
    const placed = [];
    for (const i of order) {
      const strong = bold.has(i);
      const size = strong ? 15 : bold.size && labelled.has(i) ? 13 : 11;
      const [x, y] = at(proj(i));
      const wide = textWidth(words[i], size, strong);
      // [dx, dy] of the box's corner nearest the dot, and which way the box grows
      const spots = [[6, -5, 1, -1], [6, 5, 1, 1], [-6, -5, -1, -1], [-6, 5, -1, 1], [0, -8, 0, -1], [0, 8, 0, 1],
        [10, -12, 1, -1], [-10, -12, -1, -1], [10, 12, 1, 1], [-10, 12, -1, 1]];
      const far = [[14, -22, 1, -1], [-14, -22, -1, -1], [14, 22, 1, 1], [-14, 22, -1, 1], [0, -26, 0, -1], [0, 26, 0, 1]];
      const tries = labelled.has(i) ? [...spots, ...far].map((s) => [...s, false]) : spots.map((s) => [...s, true]);
      for (const [dx, dy, gx, gy, avoidDots] of tries) {
        const left = gx > 0 ? x + dx : gx < 0 ? x + dx - wide : x - wide / 2;
        const top = gy < 0 ? y + dy - size : y + dy;
        const box = [left, top, left + wide, top + size];
        if (!free(box, i, avoidDots)) continue;
        boxes.push(box);
        placed.push(words[i]);
        group.append(svg("text", {
          x: left.toFixed(1), y: (top + size * 0.8).toFixed(1), "font-size": size, "font-weight": strong ? 700 : 400,
          "fill-opacity": labelled.has(i) ? 1 : 0.6, "data-word": words[i], "data-testid": `wm-label-${i}`, "data-box": box.map((v) => v.toFixed(1)).join(" "),
          text: words[i],
        }));
        break;
      }
    }
    group.setAttribute("data-words", placed.join(" "));
    map.append(group);
  }

  // Dots are reachable by keyboard with one tab stop (a roving tabindex): Tab reaches the selected word's
  // dot, the arrow keys move left and right across the map, Enter or Space selects the focused word.
  let focusWord = null;
  function focusDot(word) {
    const targets = [...map.querySelectorAll("g")];
    const node = [...targets].find((g) => g.getAttribute("role") === "button" && g.getAttribute("data-word") === word);
    if (!node) return;
    for (const g of targets) if (g.getAttribute("role") === "button") g.setAttribute("tabindex", "-1");
    node.setAttribute("tabindex", "0");
    focusWord = word;
    if (typeof node.focus === "function") node.focus();
  }

  function choose(word) {
    if (model.get("mode") === "analogy") return;
    pick.input.value = word;
    setTrait(model, "word", word);
    draw();
  }
  const byX = words.map((_, i) => i).sort((p, q) => xy[p][0] - xy[q][0] || xy[p][1] - xy[q][1]);

  let labelled = new Map(); // index -> bold? (the query words bold, the listed words plain)
  function draw() {
    const analogy = model.get("mode") === "analogy";
    wordControls.style.display = analogy ? "none" : ""; // the hidden attribute loses to display: flex
    trioControls.style.display = analogy ? "" : "none";
    map.replaceChildren();
    lists.replaceChildren();
    labelled = new Map(); // index -> bold?
    if (!analogy) {
      const w = index.get(model.get("word"));
      const near = nearest(unit, unit[w], k, new Set([w]));
      for (const r of near) { line(proj(w), proj(r.i), { stroke: "currentColor", "stroke-opacity": 0.45 }); labelled.set(r.i, false); }
      labelled.set(w, true);
      lists.append(list(`Nearest to ${words[w]} (cosine)`, "wm-neighbours", near));
      map.setAttribute("aria-label", `Map of ${words.length} words; ${words[w]} joined to its nearest neighbours ${near.map((r) => words[r.i]).join(", ")}`);
    } else {
      const [a, b, c] = model.get("analogy").map((x) => index.get(x));
      const skip = new Set([a, b, c]);
      const distinct = skip.size === 3;
      const best = distinct ? nearest(unit, analogyQuery(unit, a, b, c), k, skip) : [];
      const onlyC = distinct ? nearest(unit, unit[c], k, skip) : [];
      const target = [proj(b)[0] - proj(a)[0] + proj(c)[0], proj(b)[1] - proj(a)[1] + proj(c)[1]];
      const arrow = { stroke: "currentColor", "stroke-width": 2 };
      line(proj(a), proj(b), arrow);
      line(proj(c), target, { ...arrow, "stroke-dasharray": "5 3" });
      const [tx, ty] = at(target);
      map.append(svg("circle", { cx: tx, cy: ty, r: 5, fill: "none", stroke: "currentColor", "stroke-width": 2 }));
      map.append(svg("text", { x: tx + 7, y: ty + 14, "font-size": 13, "font-style": "italic", text: "b − a + c" }));
      for (const i of skip) labelled.set(i, true);
      if (best.length) labelled.set(best[0].i, false);
      lists.append(distinct
        ? list(`${words[b]} − ${words[a]} + ${words[c]} (3CosAdd)`, "wm-analogy", best)
        : h("p", { "data-testid": "wm-analogy", "data-words": "", text: "Pick three different words." }));
      if (distinct) lists.append(list(`Nearest to ${words[c]} alone (baseline)`, "wm-only-c", onlyC));
      map.setAttribute("aria-label", `Map of ${words.length} words with the offset from ${words[a]} to ${words[b]} drawn again from ${words[c]}`);
    }
    const home = analogy ? words[[...labelled.keys()][0]] : model.get("word");
    const current = focusWord !== null && words.includes(focusWord) ? focusWord : home;
    // Each word is a button: a transparent 32 px target (a comfortable tap on a phone) under its dot. The
    // targets come first and the dots on top, so a tap on a dot always picks that dot's word.
    const dotsLayer = [];
    for (const i of byX) {
      const [x, y] = at(proj(i));
      const target = svg("g", {
        class: "nlpw-wm-target", "data-word": words[i], "data-testid": `wm-dot-${i}`,
        tabindex: words[i] === current ? "0" : "-1", role: "button",
        "aria-label": analogy ? words[i] : `${words[i]}: show its nearest neighbours`,
        "aria-pressed": String(!analogy && words[i] === model.get("word")),
      });
      target.append(svg("circle", { cx: x, cy: y, r: 16, fill: "transparent" }), svg("title", { text: words[i] }));
      target.addEventListener("click", () => choose(words[i]));
      target.addEventListener("focus", () => { focusWord = words[i]; hint.textContent = `Focused: ${words[i]}`; });
      target.addEventListener("keydown", (ev) => {
        const at_ = byX.indexOf(i);
        const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
        if (step !== undefined) { ev.preventDefault(); focusDot(words[byX[(at_ + step + byX.length) % byX.length]]); }
        else if (ev.key === "Home" || ev.key === "End") { ev.preventDefault(); focusDot(words[byX[ev.key === "Home" ? 0 : byX.length - 1]]); }
        else if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); choose(words[i]); focusDot(words[i]); }
      });
      map.append(target);
      const dotNode = svg("circle", {
        cx: x, cy: y, r: labelled.get(i) !== undefined ? 5 : 3.5, fill: colour(i), class: "nlpw-wm-dot", "data-word": words[i],
        "aria-hidden": "true",
      });
      dotNode.addEventListener("click", () => choose(words[i]));
      dotsLayer.push(dotNode);
    }
    map.append(...dotsLayer);
    const bold = new Set([...labelled].filter(([, b]) => b).map(([i]) => i));
    const others = byX.filter((i) => !labelled.has(i));
    placeLabels([...bold, ...[...labelled.keys()].filter((i) => !bold.has(i)), ...others], bold);
  }
  draw();
}

export default { render };
