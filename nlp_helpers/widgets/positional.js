// PositionalEncodingExplorer: the sinusoidal positional encoding, computed here from the sliders.
// PE(pos, x) = sin(pos / base^(x/d)) for even x, cos(pos / base^((x-1)/d)) for odd x (the lecture notes; Vaswani et al. 2017).
// _common.js (h, svg, slider, cividis, fmt, srOnly) is prepended by nlp_helpers.widgets.assets.load_esm.

export function peFrequency(x, d, base = 10000) {
  return 1 / Math.pow(base, (x - (x % 2)) / d);
}

export function positionalEncoding(n, d, base = 10000) {
  const freq = Array.from({ length: d }, (_, x) => peFrequency(x, d, base)); // one power per dimension
  const rows = [];
  for (let pos = 0; pos < n; pos++) {
    const row = [];
    for (let x = 0; x < d; x++) {
      const a = pos * freq[x];
      row.push(x % 2 === 0 ? Math.sin(a) : Math.cos(a));
    }
    rows.push(row);
  }
  return rows;
}

// Dot product of row p with every row: depends only on p - q.
export function similarity(pe, p) {
  return pe.map((row) => row.reduce((a, v, x) => a + v * pe[p][x], 0));
}

const TABLE = 8;
const PLOT_W = 460;
const PHONE_PLOT_W = 230; // on a phone: a heatmap of 330 px and plots of 290 px, which fit its column
const PLOT_H = 170;
const HEAT_H = 300;
const PAD = { left: 48, right: 12, top: 12, bottom: 36 };

// Set an attribute only when its value changes: writing one, even with its old value, can make the browser
// restyle the element (a range input's maximum: its whole slider).
function setIfChanged(node, name, value) {
  if (node.getAttribute(name) !== String(value)) node.setAttribute(name, value);
}

// Set attributes of an existing element (an update in place: no new elements, no re-layout of the rest).
function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs)) setIfChanged(node, k, v);
}

// A period in positions as a reader writes it: "6.283", "628.3", "54,410" (never "5.441e+4").
export function period(x) {
  return x >= 1000 ? Math.round(x).toLocaleString("en") : x.toPrecision(4);
}

// A line chart with labelled axes, scaled to its container (viewBox, width 100%), built once and updated
// in place at every redraw: rebuilding its hundreds of elements made the browser restyle and lay out the
// whole figure at each slider step. The title and the legend sit above the plot in HTML, so neither is
// cut off nor covers a curve. update({xs, series: [{ys, color, label, dots, curve}], title, subtitle,
// ymin, ymax, marker}) redraws it; xs are shared by the series. plotW: the plot's width in px.
function makeChart({ testid, xlabel, ylabel, plotW = PLOT_W }) {
  const W = plotW + PAD.left + PAD.right;
  const H = PLOT_H + PAD.top + PAD.bottom;
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "data-testid": testid,
    style: `width: 100%; max-width: ${W}px; height: auto; display: block;` });
  legible(s, W);
  const bottom = PAD.top + PLOT_H;
  s.append(svg("line", { x1: PAD.left, y1: bottom, x2: PAD.left + plotW, y2: bottom, stroke: "currentColor" }));
  s.append(svg("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: bottom, stroke: "currentColor" }));
  const zero = svg("line", { x1: PAD.left, x2: PAD.left + plotW, stroke: "currentColor", "stroke-opacity": 0.3 });
  const yTicks = [0, 1].map(() => svg("text", { x: PAD.left - 4, "text-anchor": "end", "font-size": 11 }));
  const xTicks = [0, 1, 2].map(() => svg("text", { y: bottom + 13, "text-anchor": "middle", "font-size": 11 }));
  const markerLine = svg("line", { y1: PAD.top, y2: bottom, stroke: "#d55e00", "stroke-dasharray": "4 3" });
  s.append(zero, ...yTicks, ...xTicks, markerLine);
  s.append(svg("text", { x: PAD.left + plotW / 2, y: H - 4, "text-anchor": "middle", "font-size": 11, text: xlabel }));
  s.append(svg("text", { x: 12, y: PAD.top + PLOT_H / 2, "text-anchor": "middle", "font-size": 11,
    transform: `rotate(-90 12 ${PAD.top + PLOT_H / 2})`, text: ylabel }));
  const layers = []; // per series: its polyline and a group of dots, reused from one redraw to the next
  const titleText = h("strong");
  const subtitleText = h("span");
  const legend = h("div", { class: "nlpw-legend" });
  let legendKey = "";
  const root = h("figure", { class: "nlpw-chart" }, [h("figcaption", {}, [titleText, h("br"), subtitleText]), legend, s]);

  function update({ xs, series, title, subtitle, ymin, ymax, marker = null }) {
    const x0 = xs[0];
    const x1 = xs[xs.length - 1] === x0 ? x0 + 1 : xs[xs.length - 1];
    const X = (x) => PAD.left + ((x - x0) / (x1 - x0)) * plotW;
    const Y = (y) => PAD.top + (1 - (y - ymin) / (ymax - ymin || 1)) * PLOT_H;
    titleText.textContent = title;
    subtitleText.textContent = subtitle;
    setIfChanged(s, "aria-label", `${title}. ${subtitle}`);
    setAttrs(zero, { y1: Y(0), y2: Y(0), visibility: ymin < 0 && ymax > 0 ? "visible" : "hidden" });
    [ymin, ymax].forEach((y, k) => {
      yTicks[k].setAttribute("y", Y(y) + 4);
      yTicks[k].textContent = fmt(y, 1);
    });
    [x0, Math.round((x0 + x1) / 2), x1].forEach((x, k) => {
      xTicks[k].setAttribute("x", X(x));
      xTicks[k].textContent = String(x);
    });
    setAttrs(markerLine, { x1: X(marker ?? x0), x2: X(marker ?? x0), visibility: marker === null ? "hidden" : "visible" });
    while (layers.length < series.length) {
      // the dots: one path of zero-length strokes with round caps (one attribute written per redraw, where
      // a circle per position took two per dot: thousands of attribute writes at each slider step)
      const layer = { line: svg("polyline", { fill: "none", "stroke-width": 2 }),
        dots: svg("path", { fill: "none", "stroke-width": 5, "stroke-linecap": "round" }) };
      s.append(layer.line, layer.dots);
      layers.push(layer);
    }
    series.forEach((ser, k) => {
      const { line, dots } = layers[k];
      const pts = ser.curve || xs.map((x, i) => [x, ser.ys[i]]);
      setAttrs(line, { points: pts.map(([x, y]) => `${X(x).toFixed(1)},${Y(y).toFixed(1)}`).join(" "),
        stroke: ser.color, "stroke-dasharray": k ? "6 3" : "" });
      const dotPath = ser.dots ? xs.map((x, i) => `M${X(x).toFixed(1)} ${Y(ser.ys[i]).toFixed(1)}h0`).join("") : "";
      setAttrs(dots, { d: dotPath, stroke: ser.color, "data-dots": ser.dots ? xs.length : 0 });
    });
    const key = series.map((ser) => `${ser.color} ${ser.label}`).join("|");
    if (key !== legendKey) {
      legendKey = key;
      legend.replaceChildren(...series.map((ser, k) => h("span", { class: "nlpw-legend-item" }, [
        h("span", { class: "nlpw-swatch", style: `border-top: 3px ${k ? "dashed" : "solid"} ${ser.color};` }),
        h("span", { text: ser.label }),
      ])));
    }
  }
  return { root, update };
}

// cividis at 256 levels, as [r, g, b] (the heatmap's colours, looked up instead of interpolated per cell).
const CIVIDIS_LUT = Array.from({ length: 256 }, (_, k) => cividis(k / 255).match(/\d+/g).map(Number));
let _cells = null;
function cellBuffer(d, n) {
  if (!_cells) {
    const canvas = document.createElement("canvas");
    _cells = { canvas, ctx: canvas.getContext("2d") };
  }
  if (_cells.canvas.width < d) _cells.canvas.width = d;
  if (_cells.canvas.height < n) _cells.canvas.height = n;
  return _cells;
}

// The PE table as a heatmap on a canvas: one pixel per cell, scaled up (thousands of SVG elements took
// hundreds of milliseconds per redraw at a throttled CPU), with tick labels, the
// selected dimension pair and position outlined, a colour bar, and the value under the pointer read out.
function heatmapCanvas(canvas, pe, n, d, pair, position, plotW = PLOT_W) {
  const left = 44;
  const top = 8;
  // The heatmap is always plotW x 300 px (460 px, 230 on a phone), its cells as large as the sliders leave
  // them: moving a slider neither resizes (reallocates) the canvas nor shifts the page below it.
  const cw = plotW / d;
  const ch = HEAT_H / n;
  const W = Math.round(left + cw * d + 56);
  const H = Math.round(top + ch * n + 40);
  const ratio = (typeof window !== "undefined" && window.devicePixelRatio) || 1;
  const [pw, ph] = [Math.round(W * ratio), Math.round(H * ratio)];
  if (canvas.width !== pw || canvas.height !== ph) {  // resizing reallocates the canvas: only when it changes
    canvas.width = pw;
    canvas.height = ph;
    canvas.style.maxWidth = `${W}px`;
    legible(canvas, W);
    canvas.style.aspectRatio = `${W} / ${H}`;
    canvas.style.width = "100%";
  }
  setIfChanged(canvas, "aria-label", `Positional encoding heatmap: ${n} positions (rows) by ${d} dimensions (columns), values from −1 to +1`);
  const ctx = typeof canvas.getContext === "function" ? canvas.getContext("2d") : null;
  const geometry = { left, top, cw, ch, n, d, W };
  if (!ctx) return geometry; // a DOM without canvas (the unit tests' Node DOM): tables still carry the numbers
  const ink = (typeof getComputedStyle === "function" && getComputedStyle(canvas).color) || "#222";
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, W, H);
  // One pixel per cell in a small buffer, coloured from a 256-entry cividis table, then scaled up in
  // one drawImage: a few thousand fillRect calls with colour strings cost far more at a slow CPU.
  const cells = cellBuffer(d, n);
  const img = cells.ctx.createImageData(d, n);
  for (let q = 0; q < n; q++) {
    const row = pe[q];
    for (let x = 0; x < d; x++) {
      const c = CIVIDIS_LUT[Math.max(0, Math.min(255, Math.round(((row[x] + 1) / 2) * 255)))];
      const o = 4 * (q * d + x);
      img.data[o] = c[0];
      img.data[o + 1] = c[1];
      img.data[o + 2] = c[2];
      img.data[o + 3] = 255;
    }
  }
  cells.ctx.putImageData(img, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(cells.canvas, 0, 0, d, n, left, top, cw * d, ch * n);
  ctx.lineWidth = 2;
  ctx.strokeStyle = "#d55e00";
  ctx.strokeRect(left + cw * 2 * pair, top, 2 * cw, ch * n);
  ctx.strokeStyle = "#cc79a7";
  ctx.strokeRect(left, top + ch * position, cw * d, ch);
  ctx.fillStyle = ink;
  ctx.font = "11px sans-serif";
  ctx.textAlign = "right";
  for (const p of new Set([0, Math.floor((n - 1) / 2), n - 1])) ctx.fillText(String(p), left - 4, top + ch * p + ch / 2 + 3);
  ctx.textAlign = "center";
  for (const x of new Set([0, Math.floor((d - 1) / 2), d - 1])) ctx.fillText(String(x), left + cw * x + cw / 2, top + ch * n + 12);
  ctx.font = "11px sans-serif";
  ctx.fillText("dimension x", left + (cw * d) / 2, top + ch * n + 30);
  ctx.save();
  ctx.translate(12, top + (ch * n) / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText("position", 0, 0);
  ctx.restore();
  const bx = left + cw * d + 14;
  for (let k = 0; k < 40; k++) {
    ctx.fillStyle = cividis(1 - k / 39);
    ctx.fillRect(bx, top + (ch * n * k) / 40, 12, (ch * n) / 40 + 0.5);
  }
  ctx.fillStyle = ink;
  ctx.font = "11px sans-serif";
  ctx.textAlign = "left";
  ctx.fillText("+1", bx + 16, top + 8);
  ctx.fillText("0", bx + 16, top + (ch * n) / 2 + 3);
  ctx.fillText("−1", bx + 16, top + ch * n);
  return geometry;
}

function render({ model, el }) {
  const root = h("div", { class: "nlpw nlpw-positional", "data-testid": "pe-root" });
  el.replaceChildren(root);
  const get = (k) => model.get(k);
  const setModel = (k, v) => setTrait(model, k, v);

  const controls = h("div", { class: "nlpw-controls" });
  const heat = h("div", { class: "nlpw-drawing" });
  const canvas = h("canvas", { role: "img", "data-testid": "pe-heatmap", class: "nlpw-canvas" });
  const readout = h("div", { class: "nlpw-readout", "aria-live": "polite", text: "Point at a cell to read its value." });
  const heatTitle = h("div", { class: "nlpw-figtitle", "data-testid": "pe-heatmap-title" });
  heat.append(heatTitle, canvas, readout);
  let geometry = null;
  let current = null;
  function readCell(ev) {
    if (!geometry || !current) return;
    const box = canvas.getBoundingClientRect();
    const scale = geometry.W / box.width;
    const x = Math.floor(((ev.clientX - box.left) * scale - geometry.left) / geometry.cw);
    const p = Math.floor(((ev.clientY - box.top) * scale - geometry.top) / geometry.ch);
    if (x >= 0 && x < geometry.d && p >= 0 && p < geometry.n) {
      readout.textContent = `PE(position ${p}, dimension ${x}) = ${fmt(current[p][x], 4)} (${x % 2 ? "cos" : "sin"} of ${p} × ${peFrequency(x, geometry.d, get("base")).toPrecision(3)})`;
    }
  }
  canvas.addEventListener("pointermove", readCell);
  canvas.addEventListener("pointerdown", readCell);
  const plotW = narrowScreen() ? PHONE_PLOT_W : PLOT_W;
  const waves = makeChart({ testid: "pe-waves", xlabel: "position", ylabel: "PE value", plotW });
  const similar = makeChart({ testid: "pe-similarity", xlabel: "position q", ylabel: "PE(p)·PE(q)", plotW });
  const plots = h("div", { class: "nlpw-drawing" }, [waves.root, similar.root]);
  const summary = srOnly("");
  const details = h("details", { class: "nlpw-details" }, [h("summary", { text: "The values as tables" })]);
  const tables = h("div");
  details.append(tables);
  root.append(controls, heat, plots, summary, details);

  const sl = {};
  function buildControls() {
    controls.replaceChildren();
    sl.d = slider({ label: "d_model", min: 2, max: get("max_d_model"), step: 2, value: get("d_model"), onInput: (v) => {
      setModel("d_model", v);
      if (get("pair") > v / 2 - 1) setModel("pair", v / 2 - 1);
    } });
    sl.n = slider({ label: "sequence length", min: 2, max: get("max_len"), step: 1, value: get("length"), onInput: (v) => {
      setModel("length", v);
      if (get("position") > v - 1) setModel("position", v - 1);
    } });
    sl.pair = slider({ label: "dimension pair i", min: 0, max: get("d_model") / 2 - 1, step: 1, value: get("pair"),
      format: (v) => `${v} (dims ${2 * v}, ${2 * v + 1})`, onInput: (v) => setModel("pair", v) });
    sl.pos = slider({ label: "position p", min: 0, max: get("length") - 1, step: 1, value: get("position"), onInput: (v) => setModel("position", v) });
    sl.d.input.setAttribute("data-testid", "pe-dmodel");
    sl.n.input.setAttribute("data-testid", "pe-length");
    sl.pair.input.setAttribute("data-testid", "pe-dim");
    sl.pos.input.setAttribute("data-testid", "pe-position");
    controls.append(sl.d.root, sl.n.root, sl.pair.root, sl.pos.root);
  }

  function syncControls() {
    setIfChanged(sl.pair.input, "max", String(get("d_model") / 2 - 1));
    setIfChanged(sl.pos.input, "max", String(get("length") - 1));
    for (const [k, name] of [["d", "d_model"], ["n", "length"], ["pair", "pair"], ["pos", "position"]]) sl[k].set(get(name));
  }

  // The values as tables, inside a closed <details> until the reader opens it: the cells are updated
  // in place, and rows are added or removed only when the table's shape changes.
  const valueCaption = h("caption");
  const valueTable = h("table", { "data-testid": "pe-table" }, [valueCaption]);
  let valueCells = [];
  let valueShape = "";
  const simCaption = h("caption");
  const simBody = h("tbody");
  const simTable = h("table", { "data-testid": "pe-sim-table" }, [simCaption,
    h("thead", {}, h("tr", {}, [h("th", { scope: "col", text: "q" }), h("th", { scope: "col", text: "dot product" })])), simBody]);
  tables.append(valueTable, simTable);
  const setCell = (cell, v) => {
    const value = String(v);
    if (cell.getAttribute("data-value") === value) return; // unchanged: nothing written
    cell.setAttribute("data-value", value);
    cell.textContent = fmt(v, 4);
  };

  function updateTables(pe, sim, n, d, p, newPe) {
    const rows = Math.min(TABLE, n);
    const cols = Math.min(TABLE, d);
    if (valueShape !== `${rows}x${cols}`) {
      valueShape = `${rows}x${cols}`;
      valueCells = Array.from({ length: rows }, (_, q) => Array.from({ length: cols }, (_, x) => h("td", { "data-testid": `pe-value-${q}-${x}` })));
      const head = h("tr", {}, [h("th", { scope: "col", text: "pos \\ dim" }), ...Array.from({ length: cols }, (_, x) => h("th", { scope: "col", text: String(x) }))]);
      valueTable.replaceChildren(valueCaption, h("thead", {}, head),
        h("tbody", {}, valueCells.map((cells, q) => h("tr", {}, [h("th", { scope: "row", text: String(q) }), ...cells]))));
    }
    valueCaption.textContent = `First ${rows} positions × ${cols} dimensions of PE`;
    if (newPe) valueCells.forEach((cells, q) => cells.forEach((cell, x) => setCell(cell, pe[q][x])));
    simCaption.textContent = `PE(${p}) · PE(q) for every position q`;
    while (simBody.children.length > n) simBody.children[simBody.children.length - 1].remove();
    while (simBody.children.length < n) {
      const q = simBody.children.length;
      simBody.append(h("tr", {}, [h("th", { scope: "row", text: String(q) }), h("td", { "data-testid": `pe-sim-${q}` })]));
    }
    for (let q = 0; q < n; q++) setCell(simBody.children[q].children[1], sim[q]);
  }

  const last = {}; // what the previous redraw computed, and for which slider values
  function draw() {
    syncControls();
    const n = get("length");
    const d = get("d_model");
    const base = get("base");
    const pr = Math.min(get("pair"), d / 2 - 1);
    const p = Math.min(get("position"), n - 1);
    // Only what the moved slider changes is recomputed and redrawn: the table PE for a new length,
    // width or base; the waves for a new dimension pair; the similarities for a new position.
    const peKey = `${n}/${d}/${base}`;
    const newPe = last.peKey !== peKey;
    if (newPe) Object.assign(last, { peKey, pe: positionalEncoding(n, d, base) });
    const pe = last.pe;
    const sim = similarity(pe, p);
    current = pe;
    heatTitle.textContent = `PE table: ${n} positions × ${d} dimensions (outlined: dimension pair ${pr}, position ${p})`;
    geometry = heatmapCanvas(canvas, pe, n, d, pr, p, plotW);
    const w = peFrequency(2 * pr, d, base);
    const xs = Array.from({ length: n }, (_, i) => i);
    const fine = Array.from({ length: 200 }, (_, k) => ((n - 1) * k) / 199);
    const wavesKey = `${peKey}/${pr}`;
    const newWaves = last.wavesKey !== wavesKey;
    last.wavesKey = wavesKey;
    if (newWaves) waves.update({
      xs, ymin: -1, ymax: 1,
      title: `Period ${period(2 * Math.PI / w)} positions (frequency ${w.toPrecision(3)})`,
      subtitle: `Dimensions ${2 * pr} (sin) and ${2 * pr + 1} (cos) along the positions`,
      series: [
        { ys: xs.map((x) => Math.sin(w * x)), curve: fine.map((x) => [x, Math.sin(w * x)]), color: "#0072b2", label: `sin, dim ${2 * pr}`, dots: true },
        { ys: xs.map((x) => Math.cos(w * x)), curve: fine.map((x) => [x, Math.cos(w * x)]), color: "#e69f00", label: `cos, dim ${2 * pr + 1}`, dots: true },
      ],
    });
    similar.update({
      xs, ymin: Math.min(0, ...sim), ymax: d / 2, marker: p,
      title: `Largest at q = p = ${p}: d_model/2 = ${d / 2}`,
      subtitle: `Dot product of the encoding of position p with that of every position q`,
      series: [{ ys: sim, color: "#009e73", label: "PE(p)·PE(q)", dots: n <= 64 }],
    });
    updateTables(pe, sim, n, d, p, newPe);
    summary.textContent = `d_model ${d}, ${n} positions. PE(${p}) = [${pe[p].slice(0, 6).map((v) => fmt(v, 3)).join(", ")}${d > 6 ? ", …" : ""}]. ` +
      `Its dot product with the other positions falls from ${fmt(sim[p], 2)} at q = ${p} as |p − q| grows.`;
  }

  const requestDraw = batchedDraw(draw); // one redraw per input (_common.js)

  buildControls();
  draw();
  for (const k of ["d_model", "length", "pair", "position", "base"]) model.on(`change:${k}`, requestDraw);
  for (const k of ["max_len", "max_d_model"]) model.on(`change:${k}`, () => { buildControls(); requestDraw(); });
}

export default { render };
