// AttentionExplorer: heatmap / line view of attention weights (rows = queries, columns = keys),
// with a step-through panel for the selected cell. Python ships weights (L, H, n_q, n_k) and,
// optionally, the rounded query/key vectors (L, H, n, d); everything below is recomputed here,
// so the controls work on the static page. _common.js (h, svg, select, checkbox, slider,
// cividis, textOn, fmt, srOnly, setTrait) is prepended by nlp_helpers.widgets.assets.load_esm.
//
// Speed: the drawing is built once per shape and then updated in place; the numbers (table,
// readout, panel) change at once, the painting of the heatmap waits for the next animation frame,
// so several changes in one frame are drawn once.

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

export function dot(a, b) {
  let s = 0;
  for (let m = 0; m < a.length; m++) s += a[m] * b[m];
  return s;
}

// One query's computation from its vectors: q.k, scaled, masked, divided by T, exp(s - max), sum, weights.
export function queryStep(Q, K, i, scale, temperature = 1, causal = false) {
  const dots = K.map((k) => dot(Q[i], k));
  const scaled = dots.map((x) => x * scale);
  const s = scaled.map((x, j) => (causal && j > i ? -Infinity : x / temperature));
  const finite = s.filter((x) => Number.isFinite(x));
  const max = finite.length ? Math.max(...finite) : 0;
  const exps = s.map((x) => (Number.isFinite(x) ? Math.exp(x - max) : 0));
  const sum = exps.reduce((a, b) => a + b, 0);
  return { dots, scaled, s, max, exps, sum, weights: exps.map((e) => (sum > 0 ? e / sum : 0)) };
}

const CELL = 34; // px per heatmap cell
const FONT = 12;
const SIN55 = Math.sin((55 * Math.PI) / 180);
const raf = typeof requestAnimationFrame === "function" ? requestAnimationFrame : (fn) => (fn(), null);

function labelWidth(tokens) {
  return Math.min(160, 12 + 7 * Math.max(...tokens.map((t) => t.length)));
}

function render({ model, el }) {
  const root = h("div", { class: "nlpw nlpw-attention", "data-testid": "attn-root" });
  el.replaceChildren(root);

  const state = { cursor: [0, 0], query: null, m: null, frame: null };
  const ctl = {}; // the control inputs, kept in step with the model
  const get = (k) => model.get(k);
  const setModel = (k, v) => setTrait(model, k, v);
  const hasVectors = () => (get("query_vectors") || []).length > 0;

  const title = h("div", { class: "nlpw-title", text: get("title") });
  const controls = h("div", { class: "nlpw-controls" });
  const readout = h("div", { class: "nlpw-readout", "aria-live": "polite", "data-testid": "attn-readout" });
  const drawing = h("div", { class: "nlpw-drawing" });
  const pick = h("div", { class: "nlpw-controls" });
  // Contained: its changes never make the browser lay out the whole (long) chapter page again.
  const panel = h("div", { class: "nlpw-step", "data-testid": "attn-step", "aria-live": "polite", style: "contain: content" });
  const summary = srOnly("");
  const tableBox = h("details", { class: "nlpw-details" }, [h("summary", { text: "The weights as a table" })]);
  const stepBox = h("details", { class: "nlpw-details", open: "" }, [
    h("summary", { text: "Step through one cell: q·k → ÷√d → exp → ÷ row sum" }),
    pick,
    panel,
  ]);
  root.append(title, controls, readout, drawing, stepBox, summary, tableBox);

  // ---- controls ---------------------------------------------------------------------------
  function buildControls() {
    controls.replaceChildren();
    const layers = get("layer_labels").map((label, i) => ({ value: i, label }));
    const heads = get("head_labels").map((label, i) => ({ value: i, label }));
    if (heads.length > 1) heads.push({ value: -1, label: "mean of heads" });
    const layerSel = select({ label: "Layer", options: layers, value: get("layer"), onChange: (v) => setModel("layer", Number(v)) });
    layerSel.input.setAttribute("data-testid", "attn-layer");
    const headSel = select({ label: "Head", options: heads, value: get("head"), onChange: (v) => setModel("head", Number(v)) });
    headSel.input.setAttribute("data-testid", "attn-head");
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
    // A control with one choice is not shown (nothing to choose), but stays in the DOM for scripts.
    layerSel.root.hidden = layerSel.input.disabled = layers.length < 2;
    headSel.root.hidden = headSel.input.disabled = heads.length < 2;
    // An encoder (show_causal false) never masks the future: no checkbox that suggests it could.
    causal.root.hidden = !square || get("show_causal") === false;
    causal.input.disabled = causal.input.disabled || get("show_causal") === false;
    controls.append(layerSel.root, headSel.root, causal.root, temp.root, view.root);
    Object.assign(ctl, { layer: layerSel.input, head: headSel.input, causal: causal.input, temperature: temp, view: view.input });
    // The step-through panel computes a cell from its query and key vectors: without them it is not shown.
    stepBox.hidden = !hasVectors();

    // The cell of the step-through panel, also chosen by clicking, tapping or arrowing the heatmap.
    const qOpts = get("query_tokens").map((t, i) => ({ value: i, label: `${i}: ${t}` }));
    const kOpts = get("tokens").map((t, j) => ({ value: j, label: `${j}: ${t}` }));
    const qSel = select({ label: "Query", options: qOpts, value: state.cursor[0], onChange: (v) => selectCell(Number(v), state.cursor[1]) });
    const kSel = select({ label: "Key", options: kOpts, value: state.cursor[1], onChange: (v) => selectCell(state.cursor[0], Number(v)) });
    qSel.input.setAttribute("data-testid", "attn-step-query");
    kSel.input.setAttribute("data-testid", "attn-step-key");
    pick.replaceChildren(qSel.root, kSel.root);
    Object.assign(ctl, { stepQuery: qSel.input, stepKey: kSel.input });
  }

  // When Python (or another view of the same model) changes the state, move the controls too.
  function syncControls() {
    if (ctl.layer.value !== String(get("layer"))) ctl.layer.value = String(get("layer"));
    if (ctl.head.value !== String(get("head"))) ctl.head.value = String(get("head"));
    ctl.causal.checked = !!get("causal");
    if (Number(ctl.temperature.input.value) !== get("temperature")) ctl.temperature.set(get("temperature"));
    if (ctl.view.value !== get("view")) ctl.view.value = get("view");
  }

  function vectors(head) {
    const layer = get("layer");
    return { Q: get("query_vectors")[layer][head], K: get("key_vectors")[layer][head] };
  }

  // The shown matrix. With vectors, each row is computed the way the panel shows it.
  function current() {
    const head = get("head");
    if (hasVectors() && head >= 0) {
      const { Q, K } = vectors(head);
      return Q.map((_, i) => queryStep(Q, K, i, get("scale"), get("temperature"), get("causal")).weights);
    }
    const base = baseMatrix(get("weights"), get("layer"), head);
    return transformWeights(base, get("temperature"), get("causal"));
  }

  function describe(m, i, j) {
    const q = get("query_tokens")[i];
    const k = get("tokens")[j];
    return `query ${i} "${q}" → key ${j} "${k}": weight ${m[i][j].toFixed(4)}`;
  }

  // ---- heatmap: built once per shape, recoloured in place ------------------------------------
  let heat = null; // {svg, rects, texts, mark, left, top}

  function buildHeatmap() {
    const qs = get("query_tokens");
    const ks = get("tokens");
    const left = labelWidth(qs) + 18;
    const top = labelWidth(ks) * SIN55 + 22;
    const right = Math.max(8, labelWidth(ks) * 0.6 - CELL / 2); // the last rotated label must fit
    const width = left + CELL * ks.length + right;
    const legendY = top + CELL * qs.length + 10;
    const height = legendY + 34;
    const s = svg("svg", {
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      style: "max-width: 100%; height: auto; touch-action: manipulation",
      role: "img",
      tabindex: "0",
      "aria-label": "Attention heatmap; click or tap a cell, or use the arrow keys, to step through its computation",
      "data-testid": "attn-heatmap",
    });
    legible(s, width);
    s.append(svg("text", { x: left + (CELL * ks.length) / 2, y: 12, "text-anchor": "middle", "font-size": FONT, "font-weight": 600, text: "key (attended to)" }));
    const qx = 12;
    const qy = top + (CELL * qs.length) / 2;
    s.append(svg("text", { x: qx, y: qy, transform: `rotate(-90 ${qx} ${qy})`, "text-anchor": "middle", "font-size": FONT, "font-weight": 600, text: "query (attending)" }));
    ks.forEach((t, j) => {
      const x = left + CELL * j + CELL / 2;
      s.append(svg("text", { x, y: top - 6, transform: `rotate(-55 ${x} ${top - 6})`, "font-size": FONT, text: t }));
    });
    qs.forEach((t, i) => {
      s.append(svg("text", { x: left - 6, y: top + CELL * i + CELL / 2 + 4, "text-anchor": "end", "font-size": FONT, text: t }));
    });
    const labelled = ks.length <= 14 && qs.length <= 14;
    const rects = [];
    const texts = [];
    qs.forEach((_, i) => {
      rects.push([]);
      texts.push([]);
      ks.forEach((_, j) => {
        const r = svg("rect", { x: left + CELL * j, y: top + CELL * i, width: CELL - 1, height: CELL - 1, "data-testid": `attn-rect-${i}-${j}` });
        r.addEventListener("click", () => selectCell(i, j));
        r.addEventListener("mouseenter", () => hoverCell(i, j));
        s.append(r);
        rects[i].push(r);
        if (labelled) {
          const t = svg("text", { x: left + CELL * j + CELL / 2, y: top + CELL * i + CELL / 2 + 4, "text-anchor": "middle", "font-size": 11, "pointer-events": "none" });
          s.append(t);
          texts[i].push(t);
        }
      });
    });
    // Colour legend: 0 to 1 in the same colour map.
    const lw = Math.min(CELL * ks.length, 200);
    const steps = 20;
    for (let k = 0; k < steps; k++) {
      s.append(svg("rect", { x: left + (lw * k) / steps, y: legendY, width: lw / steps + 0.5, height: 10, fill: cividis((k + 0.5) / steps) }));
    }
    s.append(svg("text", { x: left, y: legendY + 24, "font-size": 11, text: "0" }));
    s.append(svg("text", { x: left + lw, y: legendY + 24, "font-size": 11, "text-anchor": "end", text: "1" }));
    s.append(svg("text", { x: left + lw / 2, y: legendY + 24, "font-size": 11, "text-anchor": "middle", text: "attention weight" }));
    const mark = svg("rect", { width: CELL, height: CELL, fill: "none", stroke: "#d55e00", "stroke-width": 3, "pointer-events": "none" });
    s.append(mark);
    s.addEventListener("keydown", (ev) => {
      const [i, j] = state.cursor;
      const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      if (!(ev.key in moves)) return;
      ev.preventDefault();
      const [di, dj] = moves[ev.key];
      selectCell(Math.min(qs.length - 1, Math.max(0, i + di)), Math.min(ks.length - 1, Math.max(0, j + dj)));
    });
    s.addEventListener("focus", () => selectCell(...state.cursor));
    heat = { svg: s, rects, texts, mark, left, top };
  }

  // Each cell's colour, number and ink are written only when they change (a cell whose shown value stays
  // is not touched, so the browser restyles only the cells that moved); a number is changed in its text
  // node, not by replacing the node.
  function paintHeatmap(m) {
    const { rects, texts } = heat;
    m.forEach((row, i) =>
      row.forEach((v, j) => {
        const fill = cividis(v);
        const rect = rects[i][j];
        if (rect.__fill !== fill) {
          rect.setAttribute("fill", fill);
          rect.__fill = fill;
        }
        const t = texts[i][j];
        if (t) {
          const label = v.toFixed(2).replace(/^0/, "");
          if (t.__label !== label) {
            if (t.firstChild && t.firstChild.nodeType === 3) t.firstChild.nodeValue = label;
            else t.textContent = label;
            t.__label = label;
          }
          const ink = `fill: ${textOn(v)}`;
          if (t.__ink !== ink) {
            t.setAttribute("style", ink);
            t.__ink = ink;
          }
        }
      })
    );
    moveMark();
  }

  function moveMark() {
    if (!heat) return;
    const [i, j] = state.cursor;
    heat.mark.setAttribute("x", heat.left + CELL * j);
    heat.mark.setAttribute("y", heat.top + CELL * i);
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
      style: "max-width: 100%; height: auto",
      "aria-label": "Attention as lines from each query token to the key tokens; hover or focus a query to isolate it" });
    legible(s, width);
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
      const pickQuery = () => {
        state.query = i;
        drawLines();
        const best = m[i].indexOf(Math.max(...m[i]));
        readout.textContent = `query ${i} "${t}" attends most to key ${best} "${ks[best]}" (${m[i][best].toFixed(4)})`;
      };
      label.addEventListener("mouseenter", pickQuery);
      label.addEventListener("focus", pickQuery);
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

  // ---- text alternative: built once per shape, numbers updated in place -----------------------
  let cells = null;
  function buildTable() {
    const qs = get("query_tokens");
    const ks = get("tokens");
    const head = h("tr", {}, [h("th", { scope: "col", text: "query \\ key" }), ...ks.map((t) => h("th", { scope: "col", text: t }))]);
    cells = qs.map((_, i) => ks.map((_, j) => h("td", { "data-testid": `attn-cell-${i}-${j}` })));
    const rows = qs.map((t, i) => h("tr", {}, [h("th", { scope: "row", text: t }), ...cells[i]]));
    const old = tableBox.querySelector("table");
    if (old) old.remove();
    tableBox.append(h("table", { "data-testid": "attn-table" }, [h("thead", {}, head), h("tbody", {}, rows)]));
  }

  function fillTable(m) {
    m.forEach((row, i) =>
      row.forEach((v, j) => {
        const cell = cells[i][j];
        const weight = String(v);
        if (cell.getAttribute("data-weight") === weight) return;
        cell.setAttribute("data-weight", weight);
        cell.textContent = v.toFixed(4);
      })
    );
  }

  // ---- the step-through panel ---------------------------------------------------------------
  // The panel is updated in place when its new content has the shape of what it shows (a temperature
  // step changes numbers, not lines), so the browser restyles a few numbers instead of laying out a new
  // panel at every slider step.
  const showPanel = (nodes) => patchChildren(panel, nodes);

  const numCell = (testid, value, digits, extra = {}) =>
    h("span", { class: "nlpw-num", "data-testid": testid, "data-value": String(value), text: Number(value).toFixed(digits), ...extra });

  function vectorTable(name, tokens, rows, hl, digits, testid) {
    const body = rows.map((r, i) =>
      h("tr", { class: i === hl ? "nlpw-hl" : "", style: i === hl ? "outline: 2px solid #d55e00; font-weight: 700" : "" }, [
        h("th", { scope: "row", text: `${i}: ${tokens[i]}` }),
        ...r.map((x) => h("td", { text: x.toFixed(digits) })),
      ])
    );
    return h("table", { "data-testid": testid }, [h("caption", { text: name }), h("tbody", {}, body)]);
  }

  function fillPanel(m) {
    const [i, j] = state.cursor;
    const qs = get("query_tokens");
    const ks = get("tokens");
    const head = get("head");
    const T = get("temperature");
    const causal = get("causal");
    const w = m[i][j];
    const line = (...kids) => h("div", { class: "nlpw-step-line" }, kids);
    const out = [line(`Query ${i} "${qs[i]}" → key ${j} "${ks[j]}"`)];
    if (!hasVectors() || head < 0) {
      out.push(line(
        head < 0 && hasVectors()
          ? "The mean of heads has no single q·k: pick one head to step through its computation. Weight "
          : "This explorer was given the weights only (no query and key vectors). Weight ",
        numCell("attn-step-weight", w, 4),
      ));
      showPanel(out);
      return;
    }
    const { Q, K } = vectors(head);
    const d = Q[i].length;
    const digits = get("qk_decimals");
    const scale = get("scale");
    const st = queryStep(Q, K, i, scale, T, causal);
    const rootD = Math.abs(scale * Math.sqrt(d) - 1) < 1e-12;
    out.push(line(`q = row ${i} of Q = [${Q[i].map((x) => x.toFixed(digits)).join(", ")}]`));
    out.push(line(`k = row ${j} of K = [${K[j].map((x) => x.toFixed(digits)).join(", ")}]`));
    const terms = d <= 8 ? " = " + Q[i].map((x, n) => `${x.toFixed(digits)}×${K[j][n].toFixed(digits)}`).join(" + ") : "";
    out.push(line(`q·k${terms} = `, numCell("attn-step-dot", st.dots[j], 4)));
    out.push(line(
      rootD ? `÷ √d = ÷ √${d} = ÷ ${Math.sqrt(d).toFixed(4)}: ` : `× scale ${scale.toFixed(4)}: `,
      numCell("attn-step-scaled", st.scaled[j], 4),
    ));
    if (causal && j > i) {
      out.push(line("the causal mask hides key " + j + " (it comes after query " + i + "): score −∞, exp 0, weight ", numCell("attn-step-weight", 0, 4)));
      showPanel(out);
      return;
    }
    if (T !== 1) out.push(line(`÷ temperature ${T.toFixed(1)}: `, numCell("attn-step-tempered", st.s[j], 4)));
    out.push(line(`exp(score − row maximum ${st.max.toFixed(4)}) = `, numCell("attn-step-exp", st.exps[j], 4)));
    out.push(line("sum of exp over the row = ", numCell("attn-step-sum", st.sum, 4)));
    out.push(line(`weight = ${st.exps[j].toFixed(4)} ÷ ${st.sum.toFixed(4)} = `, numCell("attn-step-weight", st.weights[j], 4)));
    // The whole row: where the sum comes from.
    if (ks.length <= 24) {
      const hl = (jj) => (jj === j ? { style: "outline: 2px solid #d55e00; font-weight: 700" } : {});
      const row = (label, xs, dg) => h("tr", {}, [h("th", { scope: "row", text: label }), ...xs.map((x, jj) => h("td", { text: Number.isFinite(x) ? x.toFixed(dg) : "−∞", ...hl(jj) }))]);
      out.push(h("table", { "data-testid": "attn-step-row" }, [
        h("caption", { text: `Row ${i} ("${qs[i]}"): every key's score, exp and weight` }),
        h("thead", {}, h("tr", {}, [h("th", { text: "key" }), ...ks.map((t, jj) => h("th", { scope: "col", text: t, ...hl(jj) }))])),
        h("tbody", {}, [row("score", st.s, 3), row("exp", st.exps, 4), row("weight", st.weights, 4)]),
      ]));
    }
    if (d <= 8 && qs.length <= 16 && ks.length <= 16) {
      // Q and K do not change with the temperature or the mask: rebuilt only for another cell or head.
      const key = `${get("layer")}/${head}/${i}/${j}`;
      if (!vecCache || vecCache.key !== key) {
        vecCache = {
          key,
          node: h("div", { class: "nlpw-controls" }, [
            vectorTable("Q (queries as rows)", qs, Q, i, digits, "attn-step-Q"),
            vectorTable("K (keys as rows)", ks, K, j, digits, "attn-step-K"),
          ]),
        };
      }
      out.push(vecCache.node);
    }
    showPanel(out);
  }
  let vecCache = null;

  // ---- selection and drawing ------------------------------------------------------------------
  function selectCell(i, j) {
    state.cursor = [i, j];
    if (ctl.stepQuery && ctl.stepQuery.value !== String(i)) ctl.stepQuery.value = String(i);
    if (ctl.stepKey && ctl.stepKey.value !== String(j)) ctl.stepKey.value = String(j);
    readout.textContent = describe(state.m, i, j);
    fillPanel(state.m); // at once: the reader asked for this cell
    moveMark();
  }

  function hoverCell(i, j) {
    readout.textContent = describe(state.m, i, j);
  }

  function paint() {
    state.frame = null;
    if (state.panelStale) fillText(state.m);
    if (get("view") === "lines") drawing.replaceChildren(lines(state.m));
    else {
      if (!heat || drawing.firstChild !== heat.svg) drawing.replaceChildren(heat.svg);
      paintHeatmap(state.m);
    }
  }

  function draw() {
    syncControls();
    title.textContent = get("title");
    title.hidden = !get("title");
    const m = current();
    state.m = m;
    const [ci, cj] = state.cursor;
    state.cursor = [Math.min(ci, m.length - 1), Math.min(cj, m[0].length - 1)];
    fillTable(m);
    readout.textContent = describe(m, ...state.cursor);
    state.panelStale = true; // the panel and the summary follow in the next frame, with the heatmap
    if (state.frame === null) state.frame = raf(paint) ?? null;
  }

  function fillText(m) {
    state.panelStale = false;
    fillPanel(m);
    const qs = get("query_tokens");
    const ks = get("tokens");
    summary.textContent = "Strongest key for each query: " + m.map((row, i) => {
      const best = row.indexOf(Math.max(...row));
      return `${qs[i]} → ${ks[best]} (${row[best].toFixed(2)})`;
    }).join("; ");
  }

  function rebuild() {
    state.cursor = [0, 0];
    vecCache = null;
    buildControls();
    buildHeatmap();
    buildTable();
    draw();
  }

  rebuild();
  for (const k of ["layer", "head", "causal", "temperature", "view"]) model.on(`change:${k}`, draw);
  for (const k of ["weights", "tokens", "query_tokens", "layer_labels", "head_labels", "title", "query_vectors", "key_vectors", "scale"]) {
    model.on(`change:${k}`, rebuild);
  }
}

export default { render };
