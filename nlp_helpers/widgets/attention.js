// AttentionExplorer: heatmap / line view of attention weights (rows = queries, columns = keys).
// Python ships weights of shape (L, H, n_q, n_k); everything below is recomputed here, so the
// controls work on the static page. _common.js (h, svg, select, checkbox, slider, cividis,
// textOn, fmt, srOnly) is prepended by nlp_helpers.widgets.assets.load_esm.

// Row-wise w^(1/T) * mask, renormalised; equals softmax((scores + mask) / T) when w = softmax(scores).
// An all-zero row stays all zero (a fully masked query attends to nothing).
export function transformWeights(w, temperature = 1, causal = false) {
  return w.map((row, i) => {
    const t = row.map((x, j) => (x > 0 && (!causal || j <= i) ? Math.exp(Math.log(x) / temperature) : 0));
    const s = t.reduce((a, b) => a + b, 0);
    return t.map((x) => (s > 0 ? x / s : 0));
  });
}

// The matrix of one layer and head; head = -1 averages the heads (before the transform).
export function baseMatrix(weights, layer, head) {
  const heads = weights[layer];
  if (head >= 0) return heads[head];
  return heads[0].map((row, i) => row.map((_, j) => heads.reduce((a, hm) => a + hm[i][j], 0) / heads.length));
}

const CELL = 34; // px per heatmap cell
const FONT = 12;

function labelWidth(tokens) {
  return Math.min(160, 12 + 7 * Math.max(...tokens.map((t) => t.length)));
}

function render({ model, el }) {
  const root = h("div", { class: "nlpw nlpw-attention", "data-testid": "attn-root" });
  el.replaceChildren(root);

  const state = { cursor: [0, 0], query: null };
  const ctl = {}; // the control inputs, kept in step with the model
  const get = (k) => model.get(k);
  const setModel = (k, v) => setTrait(model, k, v);

  const title = h("div", { class: "nlpw-title", text: get("title") });
  const controls = h("div", { class: "nlpw-controls" });
  const readout = h("div", { class: "nlpw-readout", "aria-live": "polite", "data-testid": "attn-readout" });
  const drawing = h("div", { class: "nlpw-drawing" });
  const summary = srOnly("");
  const tableBox = h("details", { class: "nlpw-details" }, [h("summary", { text: "The weights as a table" })]);
  root.append(title, controls, readout, drawing, summary, tableBox);

  // ---- controls ---------------------------------------------------------------------------
  function buildControls() {
    controls.replaceChildren();
    const layers = get("layer_labels").map((label, i) => ({ value: i, label }));
    const heads = get("head_labels").map((label, i) => ({ value: i, label }));
    if (heads.length > 1) heads.push({ value: -1, label: "mean of heads" });
    const layerSel = select({ label: "Layer", options: layers, value: get("layer"), onChange: (v) => setModel("layer", Number(v)) });
    layerSel.input.setAttribute("data-testid", "attn-layer");
    if (layers.length < 2) layerSel.input.disabled = true;
    const headSel = select({ label: "Head", options: heads, value: get("head"), onChange: (v) => setModel("head", Number(v)) });
    headSel.input.setAttribute("data-testid", "attn-head");
    if (heads.length < 2) headSel.input.disabled = true;
    const square = get("query_tokens").length === get("tokens").length;
    const causal = checkbox({ label: "Causal mask (hide future keys)", checked: get("causal"), onChange: (v) => setModel("causal", v) });
    causal.input.setAttribute("data-testid", "attn-causal");
    if (!square) {
      causal.input.disabled = true;
      causal.input.title = "needs as many queries as keys";
    }
    const temp = slider({
      label: "Temperature",
      min: 0.1,
      max: 5,
      step: 0.1,
      value: get("temperature"),
      format: (v) => Number(v).toFixed(1),
      onInput: (v) => setModel("temperature", v),
    });
    temp.input.setAttribute("data-testid", "attn-temperature");
    const view = select({
      label: "View",
      options: [{ value: "heatmap", label: "heatmap" }, { value: "lines", label: "lines" }],
      value: get("view"),
      onChange: (v) => setModel("view", v),
    });
    view.input.setAttribute("data-testid", "attn-view");
    controls.append(layerSel.root, headSel.root, causal.root, temp.root, view.root);
    Object.assign(ctl, { layer: layerSel.input, head: headSel.input, causal: causal.input, temperature: temp, view: view.input });
  }

  // When Python (or another view of the same model) changes the state, move the controls too.
  function syncControls() {
    if (ctl.layer.value !== String(get("layer"))) ctl.layer.value = String(get("layer"));
    if (ctl.head.value !== String(get("head"))) ctl.head.value = String(get("head"));
    ctl.causal.checked = !!get("causal");
    if (Number(ctl.temperature.input.value) !== get("temperature")) ctl.temperature.set(get("temperature"));
    if (ctl.view.value !== get("view")) ctl.view.value = get("view");
  }

  function current() {
    const base = baseMatrix(get("weights"), get("layer"), get("head"));
    return transformWeights(base, get("temperature"), get("causal"));
  }

  function describe(m, i, j) {
    const q = get("query_tokens")[i];
    const k = get("tokens")[j];
    return `query ${i} "${q}" → key ${j} "${k}": weight ${m[i][j].toFixed(4)}`;
  }

  // ---- heatmap ----------------------------------------------------------------------------
  function heatmap(m) {
    const qs = get("query_tokens");
    const ks = get("tokens");
    const left = labelWidth(qs);
    const top = labelWidth(ks);
    const width = left + CELL * ks.length + 4;
    const height = top + CELL * qs.length + 4;
    const s = svg("svg", {
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: "img",
      tabindex: "0",
      "aria-label": "Attention heatmap; use the arrow keys to read the weights",
      "data-testid": "attn-heatmap",
    });
    ks.forEach((t, j) => {
      const x = left + CELL * j + CELL / 2;
      s.append(svg("text", { x, y: top - 6, transform: `rotate(-55 ${x} ${top - 6})`, "font-size": FONT, text: t }));
    });
    qs.forEach((t, i) => {
      s.append(svg("text", { x: left - 6, y: top + CELL * i + CELL / 2 + 4, "text-anchor": "end", "font-size": FONT, text: t }));
    });
    const mark = svg("rect", { width: CELL, height: CELL, fill: "none", stroke: "#d55e00", "stroke-width": 3, "pointer-events": "none" });
    const showCell = (i, j) => {
      state.cursor = [i, j];
      mark.setAttribute("x", left + CELL * j);
      mark.setAttribute("y", top + CELL * i);
      readout.textContent = describe(m, i, j);
    };
    m.forEach((row, i) =>
      row.forEach((v, j) => {
        const r = svg("rect", {
          x: left + CELL * j,
          y: top + CELL * i,
          width: CELL - 1,
          height: CELL - 1,
          fill: cividis(v),
          "data-i": i,
          "data-j": j,
          "data-weight": v,
        });
        r.append(svg("title", { text: describe(m, i, j) }));
        r.addEventListener("mouseenter", () => showCell(i, j));
        s.append(r);
        if (ks.length <= 14 && qs.length <= 14) {
          s.append(svg("text", {
            x: left + CELL * j + CELL / 2,
            y: top + CELL * i + CELL / 2 + 4,
            "text-anchor": "middle",
            "font-size": 10,
            "pointer-events": "none",
            style: `fill: ${textOn(v)}`,
            text: v.toFixed(2).replace(/^0/, ""),
          }));
        }
      })
    );
    s.append(mark);
    s.addEventListener("keydown", (ev) => {
      const [i, j] = state.cursor;
      const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      if (!(ev.key in moves)) return;
      ev.preventDefault();
      const [di, dj] = moves[ev.key];
      showCell(Math.min(qs.length - 1, Math.max(0, i + di)), Math.min(ks.length - 1, Math.max(0, j + dj)));
    });
    s.addEventListener("focus", () => showCell(...state.cursor));
    const [ci, cj] = state.cursor;
    if (ci < qs.length && cj < ks.length) {
      mark.setAttribute("x", left + CELL * cj);
      mark.setAttribute("y", top + CELL * ci);
    }
    return s;
  }

  // ---- line view: queries on the left, keys on the right, line opacity = weight ------------
  function lines(m) {
    const qs = get("query_tokens");
    const ks = get("tokens");
    const rowH = 22;
    const wl = labelWidth(qs);
    const wr = labelWidth(ks);
    const gap = 160;
    const width = wl + gap + wr;
    const height = rowH * Math.max(qs.length, ks.length) + 8;
    const s = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "data-testid": "attn-lines",
      "aria-label": "Attention as lines from each query token to the key tokens; hover or focus a query to isolate it" });
    const group = svg("g");
    s.append(group);
    const drawLines = () => {
      group.replaceChildren();
      m.forEach((row, i) => {
        if (state.query !== null && state.query !== i) return;
        row.forEach((v, j) => {
          if (v < 0.005) return;
          group.append(svg("line", {
            x1: wl, y1: rowH * i + rowH / 2 + 4, x2: wl + gap, y2: rowH * j + rowH / 2 + 4,
            stroke: "#0072b2", "stroke-opacity": v, "stroke-width": 1 + 4 * v,
          }));
        });
      });
    };
    qs.forEach((t, i) => {
      const label = svg("text", { x: wl - 6, y: rowH * i + rowH / 2 + 8, "text-anchor": "end", "font-size": FONT, tabindex: "0", text: t });
      const pick = () => {
        state.query = i;
        drawLines();
        const best = m[i].indexOf(Math.max(...m[i]));
        readout.textContent = `query ${i} "${t}" attends most to key ${best} "${ks[best]}" (${m[i][best].toFixed(4)})`;
      };
      label.addEventListener("mouseenter", pick);
      label.addEventListener("focus", pick);
      s.append(label);
    });
    ks.forEach((t, j) => s.append(svg("text", { x: wl + gap + 6, y: rowH * j + rowH / 2 + 8, "font-size": FONT, text: t })));
    s.addEventListener("mouseleave", () => {
      state.query = null;
      drawLines();
    });
    drawLines();
    return s;
  }

  // ---- text alternative ---------------------------------------------------------------------
  function table(m) {
    const qs = get("query_tokens");
    const ks = get("tokens");
    const head = h("tr", {}, [h("th", { scope: "col", text: "query \\ key" }), ...ks.map((t) => h("th", { scope: "col", text: t }))]);
    const rows = m.map((row, i) =>
      h("tr", {}, [
        h("th", { scope: "row", text: qs[i] }),
        ...row.map((v, j) => h("td", { "data-testid": `attn-cell-${i}-${j}`, "data-weight": String(v), text: v.toFixed(4) })),
      ])
    );
    return h("table", { "data-testid": "attn-table" }, [h("thead", {}, head), h("tbody", {}, rows)]);
  }

  function draw() {
    syncControls();
    title.textContent = get("title");
    title.hidden = !get("title");
    const m = current();
    const [ci, cj] = state.cursor;
    state.cursor = [Math.min(ci, m.length - 1), Math.min(cj, m[0].length - 1)];
    drawing.replaceChildren(get("view") === "lines" ? lines(m) : heatmap(m));
    readout.textContent = describe(m, ...state.cursor);
    const old = tableBox.querySelector("table");
    if (old) old.remove();
    tableBox.append(table(m));
    const qs = get("query_tokens");
    const ks = get("tokens");
    summary.textContent = "Strongest key for each query: " + m.map((row, i) => {
      const best = row.indexOf(Math.max(...row));
      return `${qs[i]} → ${ks[best]} (${row[best].toFixed(2)})`;
    }).join("; ");
  }

  buildControls();
  draw();
  for (const k of ["layer", "head", "causal", "temperature", "view"]) model.on(`change:${k}`, draw);
  for (const k of ["weights", "tokens", "query_tokens", "layer_labels", "head_labels", "title"]) {
    model.on(`change:${k}`, () => {
      buildControls();
      draw();
    });
  }
}

export default { render };
