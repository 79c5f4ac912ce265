// LSTMGates: input/forget/output gates and memory of a few LSTM units along a sentence.
// The readout recomputes the memory update from the numbers it shows:
//   c_t = f_t · c_{t-1} + i_t · g_t,   h_t = o_t · tanh(c_t)   (c_0 = 0).
// _common.js (h, slider, fmt, cividis, setTrait) is prepended by nlp_helpers.widgets.assets.load_esm.

const ROWS = [
  ["i", "input i"],
  ["f", "forget f"],
  ["o", "output o"],
  ["c", "memory c"],
];

// The memory update of one unit at step t from the shipped (rounded) gates and previous memory.
export function memoryUpdate(values, t, u) {
  const cPrev = t > 0 ? values.c[t - 1][u] : 0;
  const c = values.f[t][u] * cPrev + values.i[t][u] * values.g[t][u];
  return { cPrev, c, h: values.o[t][u] * Math.tanh(c) };
}

const CELL_H = 9;
const par = (x) => (x < 0 ? `(${fmt(x, 2)})` : fmt(x, 2)); // a negative factor in brackets
const GAP = 8;
const LEFT = 70; // room for the longest row name, "memory c", at 11 px
const TOP = 18; // room for the tokens above the columns

// The cells of the heatmap do not change with the step: they are painted once into a buffer canvas;
// a redraw copies the buffer and adds the step's outline and bold token (thousands of fillRect calls
// with colour strings per slider step cost a slow CPU tens of milliseconds).
function paintCells(tokens, values, units, cMax, cw, W, H, ratio, ink) {
  const buffer = document.createElement("canvas");
  buffer.width = Math.round(W * ratio);
  buffer.height = Math.round(H * ratio);
  const ctx = buffer.getContext("2d");
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  const T = values.i.length;
  const U = units.length;
  ctx.font = "11px sans-serif";
  ctx.textBaseline = "middle";
  ROWS.forEach(([key, name], r) => {
    const y0 = TOP + r * (U * CELL_H + GAP);
    ctx.fillStyle = ink;
    ctx.textAlign = "right";
    ctx.fillText(name, LEFT - 6, y0 + (U * CELL_H) / 2);
    for (let t = 0; t < T; t++) {
      for (let k = 0; k < U; k++) {
        const v = values[key][t][k];
        ctx.fillStyle = cividis(key === "c" ? (v / cMax + 1) / 2 : v);
        ctx.fillRect(LEFT + t * cw, y0 + k * CELL_H, cw, CELL_H);
      }
    }
  });
  return buffer;
}

function drawHeatmap(canvas, cache, tokens, values, units, step, cMax) {
  const T = values.i.length;
  const U = units.length;
  const cw = Math.max(6, Math.min(16, Math.floor(560 / T)));
  const W = LEFT + cw * T + 4;
  const H = TOP + ROWS.length * (U * CELL_H + GAP);
  const ratio = (typeof window !== "undefined" && window.devicePixelRatio) || 1;
  const [pw, ph] = [Math.round(W * ratio), Math.round(H * ratio)];
  if (canvas.width !== pw || canvas.height !== ph) { // resizing reallocates the canvas: only when it changes
    canvas.width = pw;
    canvas.height = ph;
    canvas.style.width = "100%";
    canvas.style.maxWidth = `${W}px`;
    legible(canvas, W);
    canvas.style.aspectRatio = `${W} / ${H}`;
  }
  const geometry = { W, H, cw, T };
  const ctx = typeof canvas.getContext === "function" ? canvas.getContext("2d") : null;
  if (!ctx) return geometry; // a DOM without canvas (the unit tests' Node DOM): the readout carries the numbers
  const ink = (typeof getComputedStyle === "function" && getComputedStyle(canvas).color) || "#222";
  const key = `${pw}x${ph} ${ink}`; // the colour of the labels follows the page's light or dark mode
  if (cache.key !== key) Object.assign(cache, { key, buffer: paintCells(tokens, values, units, cMax, cw, W, H, ratio, ink) });
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, pw, ph);
  ctx.drawImage(cache.buffer, 0, 0);
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.textBaseline = "middle";
  ctx.textAlign = "center";
  ctx.fillStyle = ink;
  tokens.forEach((tok, t) => {
    ctx.font = t === step ? "bold 11px monospace" : "11px monospace";
    ctx.fillText(tok, LEFT + t * cw + cw / 2, TOP / 2);
  });
  ctx.strokeStyle = "#d55e00";
  ctx.lineWidth = 2;
  ctx.strokeRect(LEFT + step * cw - 1, 1, cw + 2, H - GAP);
  return geometry;
}

function render({ model, el }) {
  const root = h("div", { class: "nlpw nlpw-lstm", "data-testid": "lg-root" });
  el.replaceChildren(root);
  const tokens = model.get("tokens");
  const units = model.get("units");
  const values = model.get("values");
  const T = tokens.length;
  const cMax = Math.max(1e-3, ...values.c.flat().map(Math.abs));

  const stepSlider = slider({
    label: "time step", min: 1, max: T, step: 1, value: model.get("step") + 1,
    format: (s) => `${s} of ${T} (“${tokens[s - 1]}”)`,
    onInput: (s) => setTrait(model, "step", s - 1),
  });
  stepSlider.input.setAttribute("data-testid", "lg-step");
  const move = (d) => setTrait(model, "step", Math.min(T - 1, Math.max(0, model.get("step") + d)));
  const prev = h("button", { type: "button", "aria-label": "previous step", "data-testid": "lg-prev", text: "◀" });
  const next = h("button", { type: "button", "aria-label": "next step", "data-testid": "lg-next", text: "▶" });
  prev.addEventListener("click", () => move(-1));
  next.addEventListener("click", () => move(1));
  const strip = h("p", { class: "nlpw-lg-tokens", "aria-hidden": "true" });
  const canvas = h("canvas", {
    role: "img", tabindex: 0, class: "nlpw-canvas", "data-testid": "lg-heatmap",
    "aria-label": `Heatmap of ${units.length} LSTM units over ${T} steps: input, forget and output gates (0 to 1) and memory; arrow keys move the selected step`,
  });
  const legend = h("p", { class: "nlpw-legend" }, [
    h("span", { class: "nlpw-legend-item" }, ["gates: 0", h("span", { class: "nlpw-lg-bar" }), "1"]),
    h("span", { class: "nlpw-legend-item" }, [`memory c: −${fmt(cMax, 2)}`, h("span", { class: "nlpw-lg-bar" }), `+${fmt(cMax, 2)}`]),
    h("span", { class: "nlpw-legend-item", text: `rows: units ${units.join(", ")} in each block; columns: tokens` }),
  ]);
  const readout = h("div", { class: "nlpw-lg-readout nlp-scroll", "data-testid": "lg-readout", "aria-live": "polite" });
  // ◀ slider ▶ stay on one line at every width (the slider gives way), so the buttons never stack.
  const frame = h("div", { class: "nlpw-drawing nlp-scroll" }, [canvas]);
  root.append(h("div", { class: "nlpw-controls nlpw-stepper" }, [prev, stepSlider.root, next]), strip,
    frame, legend, readout);

  let geometry = null;
  const cells = {}; // the painted cells, kept between redraws
  canvas.addEventListener("keydown", (e) => {
    const d = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 }[e.key];
    if (d) { e.preventDefault(); move(d); }
    if (e.key === "Home" || e.key === "End") { e.preventDefault(); setTrait(model, "step", e.key === "Home" ? 0 : T - 1); }
  });
  canvas.addEventListener("pointerdown", (e) => {
    if (!geometry || typeof canvas.getBoundingClientRect !== "function") return;
    const box = canvas.getBoundingClientRect();
    const x = ((e.clientX - box.left) * geometry.W) / box.width;
    const t = Math.floor((x - LEFT) / geometry.cw);
    if (t >= 0 && t < T) setTrait(model, "step", t);
  });

  function draw() {
    const t = Math.min(Math.max(model.get("step"), 0), T - 1);
    if (Number(stepSlider.input.value) !== t + 1) stepSlider.set(t + 1);
    patchChildren(strip, tokens.map((tok, k) => h("span", { class: k === t ? "nlpw-lg-tok sel" : "nlpw-lg-tok", text: tok })));
    geometry = drawHeatmap(canvas, cells, tokens, values, units, t, cMax);
    // On a phone the heatmap scrolls in its frame: keep the selected step in view.
    if (frame.scrollWidth > frame.clientWidth + 1 && typeof canvas.getBoundingClientRect === "function") {
      const scale = canvas.getBoundingClientRect().width / geometry.W;
      const x = (LEFT + t * geometry.cw) * scale;
      if (x < frame.scrollLeft + LEFT * scale || x > frame.scrollLeft + frame.clientWidth - 24) {
        frame.scrollLeft = Math.max(0, x - frame.clientWidth / 2);
      }
    }
    const cell = (key, k, digits = 3) => h("td", { "data-testid": `lg-${key}-${k}`, "data-value": String(values[key][t][k]), text: fmt(values[key][t][k], digits) });
    const rows = units.map((unit, k) => {
      const m = memoryUpdate(values, t, k);
      return h("tr", {}, [
        h("th", { scope: "row", text: String(unit) }),
        cell("i", k), cell("f", k), cell("g", k), cell("o", k),
        h("td", { text: fmt(m.cPrev, 3) }),
        h("td", { "data-testid": `lg-ccalc-${k}`, "data-value": String(m.c), "data-stored": String(values.c[t][k]), text: `${fmt(values.f[t][k], 2)}·${par(m.cPrev)} + ${fmt(values.i[t][k], 2)}·${par(values.g[t][k])} = ${fmt(m.c, 3)}` }),
        h("td", { "data-testid": `lg-hcalc-${k}`, "data-value": String(m.h), "data-stored": String(values.h[t][k]), text: fmt(m.h, 3) }),
      ]);
    });
    patchChildren(readout, [h("table", {}, [
      h("caption", { text: `Step ${t + 1}, token “${tokens[t]}”: c = f·c_prev + i·g, h = o·tanh(c)` }),
      h("thead", {}, h("tr", {}, ["unit", "i", "f", "g (new)", "o", "c_prev", "c = f·c_prev + i·g", "h = o·tanh(c)"].map((x) => h("th", { scope: "col", text: x })))),
      h("tbody", {}, rows),
    ])]);
  }

  draw();
  model.on("change:step", draw);
  // The labels are painted in the page's text colour: drawn again when the reader switches light and dark
  // (the theme sets data-theme on <html>, possibly after the first drawing).
  if (typeof MutationObserver === "function" && typeof document !== "undefined" && document.documentElement) {
    new MutationObserver(() => { if (root.isConnected) draw(); })
      .observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  }
}

export default { render };
