// PositionalEncodingExplorer: the sinusoidal positional encoding, computed here from the sliders.
// PE(pos, x) = sin(pos / base^(x/d)) for even x, cos(pos / base^((x-1)/d)) for odd x (seed 001).
// _common.js (h, svg, slider, cividis, fmt, srOnly) is prepended by nlp_helpers.widgets.assets.load_esm.

export function peFrequency(x, d, base = 10000) {
  return 1 / Math.pow(base, (x - (x % 2)) / d);
}

export function positionalEncoding(n, d, base = 10000) {
  const rows = [];
  for (let pos = 0; pos < n; pos++) {
    const row = [];
    for (let x = 0; x < d; x++) {
      const a = pos * peFrequency(x, d, base);
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
const PLOT_H = 170;
const PAD = { left: 48, right: 12, top: 22, bottom: 36 };

// A line chart with labelled axes. series: [{ys, color, label, dots}], xs shared.
function chart({ xs, series, title, xlabel, ylabel, ymin, ymax, testid, marker = null }) {
  const W = PLOT_W + PAD.left + PAD.right;
  const H = PLOT_H + PAD.top + PAD.bottom;
  const s = svg("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": title, "data-testid": testid });
  const x0 = xs[0];
  const x1 = xs[xs.length - 1] === x0 ? x0 + 1 : xs[xs.length - 1];
  const X = (x) => PAD.left + ((x - x0) / (x1 - x0)) * PLOT_W;
  const Y = (y) => PAD.top + (1 - (y - ymin) / (ymax - ymin || 1)) * PLOT_H;
  s.append(svg("text", { x: PAD.left, y: 14, "font-size": 12, "font-weight": "bold", text: title }));
  s.append(svg("line", { x1: PAD.left, y1: PAD.top + PLOT_H, x2: PAD.left + PLOT_W, y2: PAD.top + PLOT_H, stroke: "currentColor" }));
  s.append(svg("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: PAD.top + PLOT_H, stroke: "currentColor" }));
  if (ymin < 0 && ymax > 0) {
    s.append(svg("line", { x1: PAD.left, y1: Y(0), x2: PAD.left + PLOT_W, y2: Y(0), stroke: "currentColor", "stroke-opacity": 0.3 }));
  }
  for (const y of [ymin, ymax]) {
    s.append(svg("text", { x: PAD.left - 4, y: Y(y) + 4, "text-anchor": "end", "font-size": 10, text: fmt(y, 1) }));
  }
  for (const x of [x0, x1]) s.append(svg("text", { x: X(x), y: PAD.top + PLOT_H + 13, "text-anchor": "middle", "font-size": 10, text: String(x) }));
  s.append(svg("text", { x: PAD.left + PLOT_W / 2, y: H - 4, "text-anchor": "middle", "font-size": 11, text: xlabel }));
  s.append(svg("text", { x: 12, y: PAD.top + PLOT_H / 2, "text-anchor": "middle", "font-size": 11, transform: `rotate(-90 12 ${PAD.top + PLOT_H / 2})`, text: ylabel }));
  if (marker !== null) {
    s.append(svg("line", { x1: X(marker), y1: PAD.top, x2: X(marker), y2: PAD.top + PLOT_H, stroke: "#d55e00", "stroke-dasharray": "4 3" }));
  }
  series.forEach((ser, k) => {
    const pts = ser.curve || xs.map((x, i) => [x, ser.ys[i]]);
    s.append(svg("polyline", { points: pts.map(([x, y]) => `${X(x).toFixed(1)},${Y(y).toFixed(1)}`).join(" "), fill: "none", stroke: ser.color, "stroke-width": 2, "stroke-dasharray": k ? "6 3" : "" }));
    if (ser.dots) xs.forEach((x, i) => s.append(svg("circle", { cx: X(x), cy: Y(ser.ys[i]), r: 2.5, fill: ser.color })));
    s.append(svg("text", { x: PAD.left + PLOT_W - 4, y: PAD.top + 12 + 14 * k, "text-anchor": "end", "font-size": 11, style: `fill: ${ser.color}`, text: ser.label }));
  });
  return s;
}

function render({ model, el }) {
  const root = h("div", { class: "nlpw nlpw-positional", "data-testid": "pe-root" });
  el.replaceChildren(root);
  const get = (k) => model.get(k);
  const setModel = (k, v) => setTrait(model, k, v);

  const controls = h("div", { class: "nlpw-controls" });
  const heat = h("div", { class: "nlpw-drawing" });
  const plots = h("div", { class: "nlpw-drawing" });
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
    sl.pair.input.setAttribute("max", String(get("d_model") / 2 - 1));
    sl.pos.input.setAttribute("max", String(get("length") - 1));
    for (const [k, name] of [["d", "d_model"], ["n", "length"], ["pair", "pair"], ["pos", "position"]]) {
      if (Number(sl[k].input.value) !== get(name)) sl[k].set(get(name));
    }
  }

  function heatmap(pe, n, d) {
    const left = 44;
    const top = 20;
    const cw = Math.max(2, Math.min(28, Math.floor(PLOT_W / d)));
    const ch = Math.max(2, Math.min(16, Math.floor(300 / n)));
    const W = left + cw * d + 70;
    const H = top + ch * n + 34;
    const s = svg("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "data-testid": "pe-heatmap",
      "aria-label": `Positional encoding heatmap: ${n} positions (rows) by ${d} dimensions (columns)` });
    s.append(svg("text", { x: left, y: 13, "font-size": 12, "font-weight": "bold", text: `PE table: ${n} positions × ${d} dimensions` }));
    pe.forEach((row, p) => row.forEach((v, x) => {
      const r = svg("rect", { x: left + cw * x, y: top + ch * p, width: cw, height: ch, fill: cividis((v + 1) / 2), "data-pos": p, "data-dim": x, "data-value": v });
      if (cw >= 6 && ch >= 6) r.append(svg("title", { text: `PE(${p}, ${x}) = ${fmt(v, 4)}` }));
      s.append(r);
    }));
    const pr = get("pair");
    s.append(svg("rect", { x: left + cw * 2 * pr, y: top, width: 2 * cw, height: ch * n, fill: "none", stroke: "#d55e00", "stroke-width": 2 }));
    s.append(svg("rect", { x: left, y: top + ch * get("position"), width: cw * d, height: ch, fill: "none", stroke: "#cc79a7", "stroke-width": 2 }));
    s.append(svg("text", { x: left + (cw * d) / 2, y: H - 6, "text-anchor": "middle", "font-size": 11, text: "dimension x" }));
    s.append(svg("text", { x: 12, y: top + (ch * n) / 2, "font-size": 11, "text-anchor": "middle", transform: `rotate(-90 12 ${top + (ch * n) / 2})`, text: "position" }));
    // colour bar
    const bx = left + cw * d + 16;
    for (let k = 0; k < 20; k++) s.append(svg("rect", { x: bx, y: top + (ch * n * k) / 20, width: 12, height: (ch * n) / 20 + 0.5, fill: cividis(1 - k / 19) }));
    s.append(svg("text", { x: bx + 16, y: top + 8, "font-size": 10, text: "+1" }));
    s.append(svg("text", { x: bx + 16, y: top + ch * n, "font-size": 10, text: "−1" }));
    return s;
  }

  function valueTables(pe, sim, n, d) {
    const rows = Math.min(TABLE, n);
    const cols = Math.min(TABLE, d);
    const head = h("tr", {}, [h("th", { scope: "col", text: "pos \\ dim" }), ...Array.from({ length: cols }, (_, x) => h("th", { scope: "col", text: String(x) }))]);
    const body = Array.from({ length: rows }, (_, p) => h("tr", {}, [
      h("th", { scope: "row", text: String(p) }),
      ...Array.from({ length: cols }, (_, x) => h("td", { "data-testid": `pe-value-${p}-${x}`, "data-value": String(pe[p][x]), text: fmt(pe[p][x], 4) })),
    ]));
    const t1 = h("table", { "data-testid": "pe-table" }, [h("caption", { text: `First ${rows} positions × ${cols} dimensions of PE` }), h("thead", {}, head), h("tbody", {}, body)]);
    const p = get("position");
    const t2 = h("table", { "data-testid": "pe-sim-table" }, [
      h("caption", { text: `PE(${p}) · PE(q) for every position q` }),
      h("thead", {}, h("tr", {}, [h("th", { scope: "col", text: "q" }), h("th", { scope: "col", text: "dot product" })])),
      h("tbody", {}, sim.map((v, q) => h("tr", {}, [h("th", { scope: "row", text: String(q) }), h("td", { "data-testid": `pe-sim-${q}`, "data-value": String(v), text: fmt(v, 4) })]))),
    ]);
    return [t1, t2];
  }

  function draw() {
    syncControls();
    const n = get("length");
    const d = get("d_model");
    const base = get("base");
    const pr = Math.min(get("pair"), d / 2 - 1);
    const p = Math.min(get("position"), n - 1);
    const pe = positionalEncoding(n, d, base);
    const sim = similarity(pe, p);
    heat.replaceChildren(heatmap(pe, n, d));
    const w = peFrequency(2 * pr, d, base);
    const xs = Array.from({ length: n }, (_, i) => i);
    const fine = Array.from({ length: 200 }, (_, k) => ((n - 1) * k) / 199);
    plots.replaceChildren(
      chart({
        xs, testid: "pe-waves", ymin: -1, ymax: 1, xlabel: "position", ylabel: "PE value",
        title: `Dimensions ${2 * pr} (sin) and ${2 * pr + 1} (cos): frequency ${w.toPrecision(3)}, period ${(2 * Math.PI / w).toPrecision(4)} positions`,
        series: [
          { ys: xs.map((x) => Math.sin(w * x)), curve: fine.map((x) => [x, Math.sin(w * x)]), color: "#0072b2", label: `sin, dim ${2 * pr}`, dots: true },
          { ys: xs.map((x) => Math.cos(w * x)), curve: fine.map((x) => [x, Math.cos(w * x)]), color: "#e69f00", label: `cos, dim ${2 * pr + 1}`, dots: true },
        ],
      }),
      chart({
        xs, testid: "pe-similarity", ymin: Math.min(0, ...sim), ymax: d / 2, xlabel: "position q", ylabel: "PE(p)·PE(q)", marker: p,
        title: `Dot product of position p = ${p} with every position (maximum d_model/2 = ${d / 2} at q = p)`,
        series: [{ ys: sim, color: "#009e73", label: "PE(p)·PE(q)", dots: n <= 64 }],
      })
    );
    tables.replaceChildren(...valueTables(pe, sim, n, d));
    summary.textContent = `d_model ${d}, ${n} positions. PE(${p}) = [${pe[p].slice(0, 6).map((v) => fmt(v, 3)).join(", ")}${d > 6 ? ", …" : ""}]. ` +
      `Its dot product with the other positions falls from ${fmt(sim[p], 2)} at q = ${p} as |p − q| grows.`;
  }

  buildControls();
  draw();
  for (const k of ["d_model", "length", "pair", "position", "base"]) model.on(`change:${k}`, draw);
  for (const k of ["max_len", "max_d_model"]) model.on(`change:${k}`, () => { buildControls(); draw(); });
}

export default { render };
