// OptimiserPaths: SGD, momentum and Adam on a 2-D quadratic loss f(θ) = ½ θᵀHθ, computed here from the controls.
// The update rules of the training page (g = ∇f(θ) = Hθ, exact: no mini-batch noise):
//   SGD       θ ← θ − η g
//   momentum  v ← β v + g,                    θ ← θ − η v
//   Adam      m ← β₁ m + (1 − β₁) g,  s ← β₂ s + (1 − β₂) g²,  θ ← θ − η m̂ / (√ŝ + ε)   (m̂, ŝ bias-corrected)
// nlp_helpers.widgets.optimiser_paths.optimiser_path is the same in numpy (tested against torch.optim).
// _common.js (h, svg, slider, select, checkbox, fmt, srOnly, setTrait, uid) is prepended by load_esm.

export const OPTIMISERS = ["SGD", "momentum", "Adam"];
const COLOURS = ["#0072B2", "#E69F00", "#009E73"]; // the page's figure colours (Okabe-Ito)
const DASHES = ["", "7 4", "2 3"]; // and a line style each, so colour is never the only cue
export const LIMIT = 1e4; // a path farther than this from the minimum has diverged: it stops there
const GOAL = 1e-3; // "loss below 0.001 from step …"

export const loss = (H, p) => 0.5 * (H[0][0] * p[0] * p[0] + 2 * H[0][1] * p[0] * p[1] + H[1][1] * p[1] * p[1]);
export const grad = (H, p) => [H[0][0] * p[0] + H[0][1] * p[1], H[1][0] * p[0] + H[1][1] * p[1]];

// The path θ_0 = start, θ_1, …, θ_steps of one optimiser (shorter if it diverges: it ends at the first
// point farther than LIMIT from the minimum, or that is not a number).
export function optimiserPath(H, start, name, lr, steps, { beta = 0.9, beta1 = 0.9, beta2 = 0.999, eps = 1e-8 } = {}) {
  let p = [Number(start[0]), Number(start[1])];
  const v = [0, 0];
  const m = [0, 0];
  const s = [0, 0];
  const path = [p];
  for (let t = 1; t <= steps; t++) {
    const g = grad(H, p);
    const d = [0, 1].map((k) => {
      if (name === "SGD") return lr * g[k];
      if (name === "momentum") {
        v[k] = beta * v[k] + g[k];
        return lr * v[k];
      }
      m[k] = beta1 * m[k] + (1 - beta1) * g[k];
      s[k] = beta2 * s[k] + (1 - beta2) * g[k] * g[k];
      const mHat = m[k] / (1 - beta1 ** t);
      const sHat = s[k] / (1 - beta2 ** t);
      return (lr * mHat) / (Math.sqrt(sHat) + eps);
    });
    p = [p[0] - d[0], p[1] - d[1]];
    path.push(p);
    if (!(Math.hypot(p[0], p[1]) <= LIMIT)) break;
  }
  return path;
}

// Eigenvalues (largest first) and the angle of the first eigenvector of a symmetric 2 x 2 matrix.
export function eigen2(H) {
  const [a, b, c] = [H[0][0], H[0][1], H[1][1]];
  const mid = (a + c) / 2;
  const r = Math.hypot((a - c) / 2, b);
  return { l1: mid + r, l2: mid - r, angle: 0.5 * Math.atan2(2 * b, a - c) };
}

const LEVELS = [0.01, 0.03, 0.1, 0.3, 1, 3, 10, 30, 100, 300];
const SUP = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };
const pow10 = (k) => (k === 0 ? "1" : k === 1 ? "10" : `10${String(k).replace(/./g, (ch) => SUP[ch])}`);
const num = (x, digits = 3) => fmt(x, digits).replace("-", "−");
const short = (x) => String(Number(x.toPrecision(3)));
const pair = (p, digits = 2) => `(${num(p[0], digits)}, ${num(p[1], digits)})`;
// A loss as a reader reads it: 3 significant digits, powers of ten below 0.001 ("2.41 × 10⁻⁵").
export function lossText(x) {
  if (!Number.isFinite(x)) return "∞";
  if (x === 0) return "0";
  if (x >= 1e-3 && x < 1e5) return x >= 100 ? x.toFixed(0) : x.toPrecision(3);
  const k = Math.floor(Math.log10(x));
  return `${(x / 10 ** k).toFixed(2)} × ${pow10(k)}`;
}

// The map: plot coordinates at 30 px per unit, equal on both axes, so a gradient is drawn at right angles
// to its contour.
const UNIT = 30;
const PAD = { left: 34, right: 10, top: 10, bottom: 32 };
// The loss chart: log10 of the loss against the step.
const CHART = { w: 300, h: 170 };

function mapGeometry(extent) {
  const [x0, x1, y0, y1] = extent;
  const pw = (x1 - x0) * UNIT;
  const ph = (y1 - y0) * UNIT;
  return {
    W: PAD.left + pw + PAD.right,
    H: PAD.top + ph + PAD.bottom,
    pw,
    ph,
    X: (x) => PAD.left + (x - x0) * UNIT,
    Y: (y) => PAD.top + (y1 - y) * UNIT,
    inv: (px, py) => [x0 + (px - PAD.left) / UNIT, y1 - (py - PAD.top) / UNIT],
  };
}

// Pixel coordinates of a path, kept within a few plot widths (a diverging path's points are huge).
function pixels(path, g) {
  const clamp = (v) => Math.max(-2000, Math.min(2000, v));
  return path.map((p) => `${clamp(g.X(p[0])).toFixed(1)},${clamp(g.Y(p[1])).toFixed(1)}`);
}

// Set an attribute only when its value changes: rewriting a long list of points, even unchanged, makes the
// browser restyle and repaint the drawing.
function setIfChanged(node, name, value) {
  const v = String(value);
  if (node.getAttribute(name) !== v) node.setAttribute(name, v);
}

// Change a text in place (the data of its text node): a new text node would be a change to the page's
// structure, which the book's page script answers by measuring the scrolling frames around it, a layout
// of the whole page at every slider step.
function setText(node, text) {
  const first = node.firstChild;
  if (first && first === node.lastChild && first.nodeType === 3) {
    if (first.data !== text) first.data = text;
  } else if (node.textContent !== text) node.textContent = text;
}

function marker(k) {
  if (k === 0) return svg("circle", { r: 4.5 });
  if (k === 1) return svg("rect", { width: 8, height: 8, x: -4, y: -4 });
  return svg("path", { d: "M0,-5.5 L5,3.5 L-5,3.5 Z" });
}

function render({ model, el }) {
  const get = (k) => model.get(k);
  const root = h("div", { class: "nlpw nlpw-optpaths", "data-testid": "op-root" });
  el.replaceChildren(root);
  const extent = get("extent");
  const g = mapGeometry(extent);
  const grid = get("learning_rates");
  const names = OPTIMISERS;

  // ---- controls: the surface, then one row per optimiser (shown? and its η), then the step
  const surfaceSelect = select({
    label: "loss surface",
    options: get("surfaces").map((s) => ({ value: s.name, label: s.name })),
    value: get("surface"),
    onChange: (v) => setTrait(model, "surface", v),
  });
  surfaceSelect.input.setAttribute("data-testid", "op-surface");
  const rows = names.map((name, k) => {
    const box = checkbox({
      label: name,
      checked: get("shown").includes(name),
      onChange: (on) => setTrait(model, "shown", names.filter((n) => (n === name ? on : get("shown").includes(n)))),
    });
    box.input.setAttribute("data-testid", `op-show-${k}`);
    const swatch = svg("svg", { width: 28, height: 10, "aria-hidden": "true", class: "nlpw-op-swatch" });
    swatch.append(svg("line", { x1: 1, y1: 5, x2: 27, y2: 5, stroke: COLOURS[k], "stroke-width": 3, "stroke-dasharray": DASHES[k] }));
    box.root.querySelector("label").replaceChildren(swatch, ` ${name}`);
    const lr = slider({
      label: "η", min: 0, max: grid.length - 1, step: 1, value: Math.max(0, grid.indexOf(get("lr")[name])),
      format: (i) => String(grid[i]),
      onInput: (i) => setTrait(model, "lr", { ...get("lr"), [name]: grid[i] }),
    });
    lr.input.setAttribute("data-testid", `op-lr-${k}`);
    lr.input.setAttribute("aria-label", `learning rate η of ${name}`);
    return { box, lr, root: h("div", { class: "nlpw-op-row" }, [box.root, lr.root]) };
  });
  const steps = get("steps");
  const stepSlider = slider({
    label: "step t", min: 0, max: steps, step: 1, value: get("step"),
    format: (t) => `${t} of ${steps}`,
    onInput: (t) => setTrait(model, "step", t),
  });
  stepSlider.input.setAttribute("data-testid", "op-step");
  const move = (d) => setTrait(model, "step", Math.min(steps, Math.max(0, get("step") + d)));
  const prev = h("button", { type: "button", "aria-label": "previous step", "data-testid": "op-prev", text: "◀", onclick: () => move(-1) });
  const next = h("button", { type: "button", "aria-label": "next step", "data-testid": "op-next", text: "▶", onclick: () => move(1) });
  root.append(
    h("div", { class: "nlpw-controls" }, [surfaceSelect.root]),
    h("div", { class: "nlpw-op-rows" }, rows.map((r) => r.root)),
    h("div", { class: "nlpw-controls nlpw-stepper" }, [prev, stepSlider.root, next]),
  );

  // ---- the map: contours (rebuilt when the surface changes), then per optimiser its whole path (faint),
  // the path up to step t and a marker at θ_t (updated in place)
  const clipId = uid("op-clip");
  const map = svg("svg", {
    viewBox: `0 0 ${g.W} ${g.H}`, role: "img", tabindex: 0, class: "nlpw-op-map", "data-testid": "op-map",
  });
  const defs = svg("defs");
  const clip = svg("clipPath", { id: clipId });
  clip.append(svg("rect", { x: PAD.left, y: PAD.top, width: g.pw, height: g.ph }));
  defs.append(clip);
  const frame = svg("rect", { x: PAD.left, y: PAD.top, width: g.pw, height: g.ph, fill: "none", stroke: "currentColor", "stroke-opacity": 0.5 });
  const contours = svg("g", { "clip-path": `url(#${clipId})`, fill: "none", stroke: "currentColor", "stroke-opacity": 0.3, "aria-hidden": "true" });
  const minimum = svg("g", { "aria-hidden": "true" });
  minimum.append(
    svg("path", { d: `M${g.X(0) - 5},${g.Y(0) - 5} L${g.X(0) + 5},${g.Y(0) + 5} M${g.X(0) - 5},${g.Y(0) + 5} L${g.X(0) + 5},${g.Y(0) - 5}`, stroke: "currentColor", "stroke-width": 2 }),
  );
  const startDot = svg("circle", { r: 5, fill: "none", stroke: "currentColor", "stroke-width": 2 });
  const layers = names.map((name, k) => {
    const all = svg("polyline", { fill: "none", stroke: COLOURS[k], "stroke-width": 1.5, "stroke-opacity": 0.35, "stroke-dasharray": DASHES[k] });
    const done = svg("polyline", { fill: "none", stroke: COLOURS[k], "stroke-width": 2.5, "stroke-dasharray": DASHES[k], "stroke-linejoin": "round" });
    const dot = marker(k);
    dot.setAttribute("fill", COLOURS[k]);
    dot.setAttribute("stroke", "var(--pst-color-background, #fff)");
    const at = svg("g");
    at.append(dot);
    const group = svg("g", { "clip-path": `url(#${clipId})`, "data-testid": `op-path-${k}` });
    group.append(all, done, at);
    return { group, all, done, at };
  });
  const ticks = svg("g", { "font-size": 12, "aria-hidden": "true" });
  for (let x = Math.ceil(extent[0]); x <= extent[1]; x += 1) {
    if (x % 2) continue;
    ticks.append(svg("text", { x: g.X(x), y: PAD.top + g.ph + 14, "text-anchor": "middle", text: num(x, 0) }));
  }
  for (let y = Math.ceil(extent[2]); y <= extent[3]; y += 1) {
    if (y % 2) continue;
    ticks.append(svg("text", { x: PAD.left - 5, y: g.Y(y) + 4, "text-anchor": "end", text: num(y, 0) }));
  }
  ticks.append(
    svg("text", { x: PAD.left + g.pw / 2, y: g.H - 3, "text-anchor": "middle", text: "θ₁" }),
    svg("text", { x: 10, y: PAD.top + g.ph / 2 + 4, "text-anchor": "middle", text: "θ₂" }),
  );
  map.append(defs, contours, frame, ticks, minimum, startDot, ...layers.map((l) => l.group));
  const mapTitle = h("figcaption", { class: "nlpw-figtitle", "data-testid": "op-map-title" });
  const hint = h("div", { class: "nlpw-readout", "data-testid": "op-start", "aria-live": "polite" });
  const mapFigure = h("figure", { class: "nlpw-op-panel nlpw-drawing" }, [mapTitle, map, hint]);

  // ---- the loss chart
  const CW = PAD.left + CHART.w + PAD.right;
  const CH = PAD.top + CHART.h + PAD.bottom;
  const chart = svg("svg", { viewBox: `0 0 ${CW} ${CH}`, role: "img", class: "nlpw-op-chart", "data-testid": "op-chart" });
  const chartClip = uid("op-chart-clip");
  const cdefs = svg("defs");
  const cclip = svg("clipPath", { id: chartClip });
  cclip.append(svg("rect", { x: PAD.left, y: PAD.top - 2, width: CHART.w + 2, height: CHART.h + 4 }));
  cdefs.append(cclip);
  const axes = svg("path", { d: `M${PAD.left},${PAD.top} V${PAD.top + CHART.h} H${PAD.left + CHART.w}`, fill: "none", stroke: "currentColor" });
  const yTicks = svg("g", { "font-size": 12, "aria-hidden": "true" });
  const xTicks = svg("g", { "font-size": 12, "aria-hidden": "true" });
  const cx = (t) => PAD.left + (t / Math.max(1, steps)) * CHART.w;
  for (const t of [0, Math.round(steps / 2), steps]) {
    xTicks.append(svg("text", { x: cx(t), y: PAD.top + CHART.h + 14, "text-anchor": "middle", text: String(t) }));
  }
  xTicks.append(svg("text", { x: PAD.left + CHART.w / 2, y: CH - 3, "text-anchor": "middle", text: "step t" }));
  const stepLine = svg("line", { y1: PAD.top, y2: PAD.top + CHART.h, stroke: "currentColor", "stroke-dasharray": "3 3", "stroke-opacity": 0.7 });
  const curves = names.map((name, k) => svg("polyline", { fill: "none", stroke: COLOURS[k], "stroke-width": 2, "stroke-dasharray": DASHES[k], "clip-path": `url(#${chartClip})` }));
  const curveDots = names.map((name, k) => {
    const d = marker(k);
    d.setAttribute("fill", COLOURS[k]);
    const at = svg("g", { "clip-path": `url(#${chartClip})` });
    at.append(d);
    return at;
  });
  chart.append(cdefs, yTicks, axes, xTicks, stepLine, ...curves, ...curveDots);
  const chartTitle = h("figcaption", { class: "nlpw-figtitle", text: "Loss f(θ_t) at each step, log scale" });
  const chartNote = h("div", { class: "nlpw-readout", "data-testid": "op-chart-note" });
  const chartFigure = h("figure", { class: "nlpw-op-panel nlpw-drawing" }, [chartTitle, chart, chartNote]);
  root.append(h("div", { class: "nlpw-op-panels" }, [mapFigure, chartFigure]));

  // ---- the numbers of step t
  const table = h("div", { class: "nlpw-op-table nlp-scroll", "data-testid": "op-table" });
  const summary = srOnly("");
  root.append(table, summary);

  // ---- the start: a click or tap on the map, a mouse drag, or the arrow keys on the focused map
  const clampStart = (p) => [
    Math.min(extent[1], Math.max(extent[0], Math.round(p[0] * 20) / 20)),
    Math.min(extent[3], Math.max(extent[2], Math.round(p[1] * 20) / 20)),
  ];
  const setStart = (p) => setTrait(model, "start", clampStart(p));
  const fromPointer = (e) => {
    if (typeof map.getBoundingClientRect !== "function") return;
    const box = map.getBoundingClientRect();
    const scale = g.W / box.width;
    setStart(g.inv((e.clientX - box.left) * scale, (e.clientY - box.top) * scale));
  };
  // A tap is a click (a finger that scrolls the page across the map moves nothing); a mouse may also drag.
  map.addEventListener("click", fromPointer);
  map.addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "mouse") return;
    fromPointer(e);
    if (map.setPointerCapture) map.setPointerCapture(e.pointerId);
  });
  map.addEventListener("pointermove", (e) => {
    if (e.pointerType === "mouse" && e.buttons === 1) fromPointer(e);
  });
  map.addEventListener("keydown", (e) => {
    const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
    if (d) {
      e.preventDefault();
      const by = e.shiftKey ? 1 : 0.25;
      const s = get("start");
      setStart([s[0] + d[0] * by, s[1] + d[1] * by]);
    }
    if (e.key === "Home") {
      e.preventDefault();
      setStart(get("initial_start"));
    }
  });

  // ---- drawing
  let surfaceKey = "";
  let H = null;
  const cache = {}; // optimiser -> {key, path, losses, px}
  function surfaceNow() {
    const all = get("surfaces");
    return all.find((s) => s.name === get("surface")) || all[0];
  }

  function drawContours(s) {
    H = s.hessian;
    const { l1, l2, angle } = eigen2(H);
    const deg = (-angle * 180) / Math.PI; // the screen's y axis points down
    contours.replaceChildren(...LEVELS.map((c) => svg("ellipse", {
      cx: g.X(0), cy: g.Y(0), rx: (Math.sqrt((2 * c) / l1) * UNIT).toFixed(2), ry: (Math.sqrt((2 * c) / l2) * UNIT).toFixed(2),
      transform: `rotate(${deg.toFixed(3)} ${g.X(0)} ${g.Y(0)})`,
    })));
    mapTitle.textContent = `Paths on the ${s.name} (curvatures ${short(l2)} and ${short(l1)})`;
    map.setAttribute("aria-label", `Contour map of the ${s.name}, f(θ) = ½ θᵀHθ, minimum at (0, 0). Contours at loss ${LEVELS.join(", ")}. ` +
      "Click or tap to start the optimisers elsewhere; on the focused map the arrow keys move the start.");
  }

  function run(name) {
    const lr = get("lr")[name];
    const start = get("start");
    const key = `${get("surface")}|${start[0]},${start[1]}|${lr}|${steps}`;
    const c = cache[name];
    if (c && c.key === key) return c;
    const path = optimiserPath(H, start, name, lr, steps, get("hyper"));
    const losses = path.map((p) => loss(H, p));
    const reached = losses.findIndex((f) => f < GOAL);
    cache[name] = { key, path, losses, reached, px: pixels(path, g), diverged: path.length <= steps };
    return cache[name];
  }

  function draw() {
    const s = surfaceNow();
    if (s.name !== surfaceKey) {
      surfaceKey = s.name;
      drawContours(s);
    }
    if (surfaceSelect.input.value !== s.name) surfaceSelect.input.value = s.name;
    const t = Math.min(Math.max(0, get("step")), steps);
    stepSlider.set(t);
    const shown = get("shown");
    const start = get("start");
    setIfChanged(hint, "data-x", start[0]);
    setIfChanged(hint, "data-y", start[1]);
    setIfChanged(startDot, "cx", g.X(start[0]).toFixed(1));
    setIfChanged(startDot, "cy", g.Y(start[1]).toFixed(1));
    setText(hint, `Start θ₀ = ${pair(start)} (ring), loss ${lossText(loss(H, start))}; × is the minimum. Click or tap the map to start elsewhere.`);
    const runs = {};
    const top = Math.ceil(Math.log10(Math.max(loss(H, start), 1e-12))) + 1;
    const bottom = top - 10;
    const cy = (f) => PAD.top + ((top - Math.max(bottom, Math.min(top + 1, Math.log10(Math.max(f, 1e-300))))) / (top - bottom)) * CHART.h;
    names.forEach((name, k) => {
      const on = shown.includes(name);
      if (rows[k].box.input.checked !== on) rows[k].box.input.checked = on;
      const lrIndex = Math.max(0, grid.indexOf(get("lr")[name]));
      rows[k].lr.set(lrIndex);
      for (const node of [layers[k].group, curves[k], curveDots[k]]) setIfChanged(node, "visibility", on ? "visible" : "hidden");
      if (!on) return;
      const r = run(name);
      runs[name] = r;
      const i = Math.min(t, r.path.length - 1);
      setIfChanged(layers[k].all, "points", r.px.join(" "));
      setIfChanged(layers[k].done, "points", r.px.slice(0, i + 1).join(" "));
      const p = r.path[i];
      layers[k].at.setAttribute("transform", `translate(${Math.max(-2000, Math.min(2000, g.X(p[0]))).toFixed(1)} ${Math.max(-2000, Math.min(2000, g.Y(p[1]))).toFixed(1)})`);
      const curveKey = `${r.key}|${top}`;
      if (r.curveKey !== curveKey) Object.assign(r, { curveKey, curve: r.losses.map((f, j) => `${cx(j).toFixed(1)},${cy(f).toFixed(1)}`).join(" ") });
      setIfChanged(curves[k], "points", r.curve);
      curveDots[k].setAttribute("transform", `translate(${cx(i).toFixed(1)} ${cy(r.losses[i]).toFixed(1)})`);
    });
    setIfChanged(stepLine, "x1", cx(t).toFixed(1));
    setIfChanged(stepLine, "x2", cx(t).toFixed(1));
    if (yTicks.getAttribute("data-top") !== String(top)) {
      yTicks.setAttribute("data-top", String(top));
      yTicks.replaceChildren(...Array.from({ length: 6 }, (_, j) => {
        const k = top - 2 * j;
        return svg("text", { x: PAD.left - 4, y: (cy(10 ** k) + 4).toFixed(1), "text-anchor": "end", text: pow10(k) });
      }));
    }
    setIfChanged(chart, "aria-label", `Loss against step, log scale from ${pow10(bottom)} to ${pow10(top)}, with a line at step ${t}.`);
    const diverged = names.filter((n) => runs[n] && runs[n].diverged);
    setText(chartNote, diverged.length ? `${diverged.join(" and ")} diverged: the loss grows without bound.` : `Dashed line: step ${t}.`);
    drawTable(t, runs);
  }

  // One column per optimiser shown, one row per quantity: narrow enough for a phone.
  // The table is built once per set of optimisers shown, then only the text and attributes of its cells
  // change (rebuilding it at every step made the browser lay out a new table at each slider step).
  const ROWS = [
    ["position θ_t", "theta"], ["loss f(θ_t)", "loss"], ["gradient ∇f(θ_t)", "grad"],
    ["last step’s length", "size"], ["loss < 0.001 from step", "reached"],
  ];
  const tableParts = { key: null, caption: h("caption"), heads: {}, cells: {} };
  function buildTable(cols) {
    tableParts.key = cols.join("|");
    tableParts.heads = {};
    tableParts.cells = {};
    const head = h("tr", {}, [h("td"), ...cols.map((name) => {
      tableParts.heads[name] = h("span");
      return h("th", { scope: "col" }, [name, h("br"), tableParts.heads[name]]);
    })]);
    const body = cols.length
      ? ROWS.map(([label, what]) => h("tr", {}, [h("th", { scope: "row", text: label }), ...cols.map((name) => {
        const cell = h("td", { "data-testid": `op-${what}-${names.indexOf(name)}` });
        tableParts.cells[`${what}-${name}`] = cell;
        return cell;
      })]))
      : [h("tr", {}, [h("td", { text: "Tick an optimiser to see its path." })])];
    table.replaceChildren(h("table", {}, [tableParts.caption, h("thead", {}, head), h("tbody", {}, body)]));
  }

  function drawTable(t, runs) {
    const cols = names.filter((n) => runs[n]);
    if (tableParts.key !== cols.join("|")) buildTable(cols);
    setText(tableParts.caption, `The numbers at step t = ${t}`);
    for (const name of cols) {
      const r = runs[name];
      const i = Math.min(t, r.path.length - 1);
      const far = i < t; // this path diverged before step t
      const p = r.path[i];
      const size = i > 0 ? Math.hypot(p[0] - r.path[i - 1][0], p[1] - r.path[i - 1][1]) : 0;
      const cell = (what) => tableParts.cells[`${what}-${name}`];
      setText(tableParts.heads[name], `η = ${get("lr")[name]}`);
      for (const [k, v] of [["data-x", p[0]], ["data-y", p[1]], ["data-step", i]]) setIfChanged(cell("theta"), k, v);
      setText(cell("theta"), far ? `diverged at step ${i}` : pair(p, 3));
      setIfChanged(cell("loss"), "data-value", r.losses[i]);
      setText(cell("loss"), lossText(r.losses[i]));
      setText(cell("grad"), far ? "—" : pair(grad(H, p), 3));
      setIfChanged(cell("size"), "data-value", size);
      setText(cell("size"), i > 0 && !far ? fmt(size, 4) : "—");
      setIfChanged(cell("reached"), "data-value", r.reached);
      setText(cell("reached"), r.reached >= 0 ? String(r.reached) : r.diverged ? "never: diverged" : `not in ${steps}`);
    }
    setText(summary, `${surfaceKey}, start ${pair(get("start"))}, step ${t}: ` + cols.map((n) => {
      const r = runs[n];
      const i = Math.min(t, r.path.length - 1);
      return `${n} (η ${get("lr")[n]}) at ${pair(r.path[i])}, loss ${lossText(r.losses[i])}`;
    }).join("; ") + ".");
  }

  const requestDraw = batchedDraw(draw); // one redraw per input (_common.js)
  draw();
  for (const k of ["surface", "start", "lr", "shown", "step"]) model.on(`change:${k}`, requestDraw);
}

export default { render };
