// Sampling widgets: NextTokenExplorer (view "explorer") and SoftmaxTemperature (view "softmax").
// Python ships the logits; everything below recomputes in the browser, so the sliders
// work on the static page. The filters mirror nlp_helpers/sampling/distributions.py:
// temperature -> top-k -> top-p, ties kept, temperature 0 = all mass on the maximum.
// The explorer computes over the FULL vocabulary: besides the shipped tokens (the most likely
// ones, drawn as bars) a prompt carries the rest of the vocabulary as a histogram of its logits
// (`tail.logits` on a 0.01 grid, `tail.counts` tokens each), so temperature, top-k, top-p,
// entropy and the number of tokens that can be sampled are those of the whole distribution.
// Tail tokens are distinct tokens with (almost) equal logits: top-p keeps as many of a tail
// group as it needs, one by one; Python's `compact_filter` (widgets/sampling.py) is the twin.

// The groups of a prompt sorted by logit (largest first, stable): each shipped token (count 1),
// then each tail bin. Sorting ~2,000 groups is the costly part, and it does not depend on the
// sliders, so it runs once per (logits, tail) pair and is cached (the arrays are never mutated).
const _sortedGroups = new WeakMap();
function sortedGroups(logits, tail) {
  const hit = _sortedGroups.get(logits);
  if (hit && hit.tail === tail) return hit;
  const n = logits.length;
  const tl = tail ? tail.logits : [];
  const tc = tail ? tail.counts : [];
  const m = n + tl.length;
  const val = (r) => (r < n ? logits[r] : tl[r - n]);
  const order = Array.from({ length: m }, (_, r) => r).sort((a, b) => val(b) - val(a) || a - b);
  const g = { tail, v: new Float64Array(m), c: new Float64Array(m), idx: new Int32Array(m), total: 0 };
  order.forEach((r, k) => {
    g.v[k] = val(r);
    g.c[k] = r < n ? 1 : tc[r - n];
    g.idx[k] = r < n ? r : -1; // index of the shipped token, -1 for a tail bin
    g.total += g.c[k];
  });
  _sortedGroups.set(logits, g);
  return g;
}

// Filtered distribution of `logits` (sorted or not) plus an optional tail {logits, counts}.
// Returns {probs, kept, scaledProbs} per shipped token and, for the tail, {other, otherKept,
// scaledOther}: its total probability, how many of its tokens survive, its mass before filtering;
// `nucleus` = tokens that can be sampled, `entropy` in nats over the whole distribution.
function filterDistribution(logits, temperature, topK, topP, tail = null) {
  const n = logits.length;
  const G = sortedGroups(logits, tail);
  const m = G.v.length;
  const keep = Float64Array.from(G.c); // tokens of each group still in the running
  const x = new Float64Array(m);
  for (let r = 0; r < m; r++) x[r] = temperature === 0 ? G.v[r] : G.v[r] / temperature;
  if (temperature === 0) {
    for (let r = 0; r < m; r++) keep[r] = x[r] === x[0] && G.idx[r] >= 0 ? 1 : 0;
  }
  const mass = new Float64Array(m); // one token of group r, unnormalised: one exp per group
  let zAll = 0;
  for (let r = 0; r < m; r++) {
    mass[r] = Math.exp(x[r] - x[0]);
    zAll += G.c[r] * mass[r];
  }
  if (temperature !== 0) {
    // Top-k (0 = off): the k most likely tokens, plus shipped tokens tied with the k-th.
    if (topK > 0 && topK < G.total) {
      let before = 0;
      let kth = -Infinity;
      for (let r = 0; r < m; r++) {
        if (before + G.c[r] >= topK) { kth = x[r]; break; }
        before += G.c[r];
      }
      let seen = 0;
      for (let r = 0; r < m; r++) {
        if (x[r] > kth) keep[r] = G.c[r];
        else if (x[r] < kth) keep[r] = 0;
        else keep[r] = G.idx[r] >= 0 ? 1 : Math.max(0, Math.min(G.c[r], topK - seen));
        seen += keep[r];
      }
    }
    // Top-p: keep a token while the mass ranked above it is below p; ties with the last kept token stay.
    if (topP < 1) {
      let z = 0;
      for (let r = 0; r < m; r++) z += keep[r] * mass[r];
      let above = 0;
      let last = null;
      for (let r = 0; r < m; r++) {
        if (keep[r] === 0) continue;
        const q = mass[r] / z;
        let take = 0;
        if (above < topP) take = G.idx[r] >= 0 ? 1 : Math.min(keep[r], Math.ceil((topP - above) / q));
        above += keep[r] * q;
        keep[r] = take;
        if (take > 0) last = x[r];
      }
      if (last === null) { keep[0] = 1; last = x[0]; }
      for (let r = 0; r < m; r++) if (G.idx[r] >= 0 && x[r] === last) keep[r] = 1;
    }
  }
  let z = 0;
  for (let r = 0; r < m; r++) z += keep[r] * mass[r];
  const probs = new Array(n).fill(0);
  const scaledProbs = new Array(n).fill(0);
  const kept = new Array(n).fill(false);
  let other = 0, otherKept = 0, scaledOther = 0, entropy = 0, nucleus = 0;
  for (let r = 0; r < m; r++) {
    const q = keep[r] > 0 ? mass[r] / z : 0;
    nucleus += keep[r];
    if (q > 0) entropy -= keep[r] * q * Math.log(q);
    const i = G.idx[r];
    if (i >= 0) {
      probs[i] = q; kept[i] = keep[r] > 0; scaledProbs[i] = temperature === 0 ? q : mass[r] / zAll;
    } else {
      other += keep[r] * q; otherKept += keep[r]; scaledOther += temperature === 0 ? 0 : G.c[r] * mass[r] / zAll;
    }
  }
  return { probs, kept, scaledProbs, other, otherKept, scaledOther, nucleus, entropy };
}

// Entropy in nats (0 ln 0 = 0).
function entropyNats(probs) {
  return -probs.reduce((s, p) => (p > 0 ? s + p * Math.log(p) : s), 0);
}

// Show a token as text: newlines/tabs made visible, everything else as typed (inserted with textContent).
function showToken(t) {
  return String(t).replace(/\n/g, "↵").replace(/\t/g, "⇥");
}

// Short label for a bar: spaces made visible (a token's leading space matters), long tokens cut.
function barLabel(t, max = 18) {
  const s = showToken(t).replace(/ /g, "␣");
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

// The longest bar in px: shorter on a phone, so that the labels, the bars and their values fit its column
// at the text's own size (330 px in all, instead of 490).
function barLength() {
  return narrowScreen() ? 140 : 300;
}

// Horizontal bar chart (SVG) of labels/probabilities; removed tokens drawn as outlines of their pre-filter probability.
// fixedAxis: bars on a 0-1 axis (with ticks), so a temperature change shows on the top token too.
function barChart({ labels, probs, ghost = null, kept = null, maxBars = 20, title, fixedAxis = false }) {
  const nBars = Math.min(maxBars, labels.length);
  const rowH = 18, labelW = 130, barW = barLength(), valueW = 60, axisH = fixedAxis ? 18 : 0;
  const width = labelW + barW + valueW, height = nBars * rowH + 6 + axisH;
  const root = svg("svg", { width: "100%", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": title });
  root.style.maxWidth = `${width}px`;
  legible(root, width);
  const maxP = fixedAxis ? 1 : Math.max(1e-12, ...probs.slice(0, nBars), ...(ghost ? ghost.slice(0, nBars) : []));
  if (fixedAxis) {
    const y = nBars * rowH + 6;
    root.append(svg("line", { x1: labelW, x2: labelW + barW, y1: y, y2: y, stroke: "currentColor", "stroke-opacity": 0.5 }));
    for (const t of [0, 0.25, 0.5, 0.75, 1]) {
      root.append(svg("line", { x1: labelW + barW * t, x2: labelW + barW * t, y1: 0, y2: y + 3, stroke: "currentColor", "stroke-opacity": t === 0 ? 0.5 : 0.15 }));
      root.append(svg("text", { x: labelW + barW * t, y: y + 15, "text-anchor": "middle", "font-size": 11, text: String(t) }));
    }
  }
  for (let i = 0; i < nBars; i++) {
    const y = 3 + i * rowH;
    const label = svg("text", { x: labelW - 6, y: y + rowH * 0.7, "text-anchor": "end", "font-size": 12, text: barLabel(labels[i]) });
    label.append(svg("title", { text: showToken(labels[i]) }));  // the full token on hover
    root.append(label);
    const isKept = kept ? kept[i] : true;
    if (ghost && !isKept) {
      const w = (barW * ghost[i]) / maxP;
      root.append(svg("rect", { x: labelW, y: y + 2, width: Math.max(w, 1), height: rowH - 5, fill: "none", stroke: "#888", "stroke-dasharray": "3 2" }));
      root.append(svg("text", { x: labelW + Math.max(w, 1) + 4, y: y + rowH * 0.7, "font-size": 11, text: "removed" }));
      continue;
    }
    const w = (barW * probs[i]) / maxP;
    root.append(svg("rect", { x: labelW, y: y + 2, width: Math.max(w, 0.5), height: rowH - 5, fill: cividis(0.15 + 0.7 * (probs[i] / maxP)) }));
    root.append(svg("text", { x: labelW + w + 4, y: y + rowH * 0.7, "font-size": 11, text: fmt(probs[i], 3) }));
  }
  return root;
}

// Text table: rank, token, probability (data-testid `${prefix}-prob-${i}`, exact value in data-value).
function probTable({ labels, probs, kept, prefix, caption }) {
  const body = h("tbody");
  labels.forEach((label, i) => {
    const cell = h("td", { "data-testid": `${prefix}-prob-${i}`, "data-value": String(probs[i]), text: fmt(probs[i], 4) });
    const status = kept ? (kept[i] ? "kept" : "removed") : "";
    body.append(h("tr", {}, [h("td", { text: String(i + 1) }), h("td", {}, [h("span", { class: "nlpw-token", text: showToken(label) })]), cell, ...(kept ? [h("td", { text: status })] : [])]));
  });
  const head = h("tr", {}, [h("th", { text: "rank" }), h("th", { text: "token" }), h("th", { text: "probability" }), ...(kept ? [h("th", { text: "status" })] : [])]);
  return h("details", {}, [h("summary", { text: caption }), h("table", {}, [h("thead", {}, [head]), body])]);
}

function renderExplorer(model, el) {
  const prompts = model.get("prompts");
  const root = h("div", { class: "nlpw nlpw-sampling", "data-testid": "sampling-root" });
  const state = {
    index: model.get("prompt_index"),
    temperature: model.get("temperature"),
    topK: model.get("top_k"),
    topP: model.get("top_p"),
  };
  const promptText = h("p", { class: "nlpw-sampling-prompt" });
  const stats = h("p", { "aria-live": "polite" });
  const entropyOut = h("output", { "data-testid": "sampling-entropy" });
  const nucleusOut = h("output", { "data-testid": "sampling-nucleus" });
  stats.append("Entropy of the sampled distribution: ", entropyOut, " nats · tokens that can be sampled: ", nucleusOut);
  const chartBox = h("div", { class: "nlpw-drawing" }); // a frame that scrolls on a phone narrower than the chart
  const tableBox = h("div");
  const note = h("p", { class: "nlpw-note" });
  const restKeptOut = h("span", { "data-testid": "sampling-rest-kept" });

  const sel = select({
    label: "Prompt",
    options: prompts.map((p, i) => ({ value: i, label: p.prompt })),
    value: state.index,
    onChange: (v) => { setPrompt(Number(v)); sync("prompt_index", state.index); sync("top_k", state.topK); draw(); },
  });
  sel.input.setAttribute("data-testid", "sampling-prompt");
  const tSlider = slider({ label: "Temperature", min: 0, max: 3, step: 0.05, value: state.temperature, format: (v) => Number(v).toFixed(2),
    onInput: (v) => { state.temperature = v; sync("temperature", v); draw(); } });
  tSlider.input.setAttribute("data-testid", "sampling-temperature");
  // Top-k slider: 1 .. n drawn tokens, and one step further = off (0 in the model: the whole vocabulary).
  const nOf = (i) => prompts[i].tokens.length;
  const kPos = (k, i) => (k === 0 ? nOf(i) + 1 : k);
  const kSlider = slider({ label: "Top-k", min: 1, max: nOf(state.index) + 1, step: 1, value: kPos(state.topK, state.index),
    format: (v) => (v > nOf(state.index) ? "off" : String(v)),
    onInput: (v) => { state.topK = v > nOf(state.index) ? 0 : v; sync("top_k", state.topK); draw(); } });
  kSlider.input.setAttribute("data-testid", "sampling-topk");
  const pSlider = slider({ label: "Top-p", min: 0.05, max: 1, step: 0.05, value: state.topP, format: (v) => Number(v).toFixed(2),
    onInput: (v) => { state.topP = v; sync("top_p", v); draw(); } });
  pSlider.input.setAttribute("data-testid", "sampling-topp");

  // A new prompt may draw a different number of tokens: "all" stays all, a cut-off is capped.
  function setPrompt(i) {
    const hasTail = (j) => prompts[j].tail.counts.length > 0;
    const allOld = state.topK === 0 || (state.topK >= nOf(state.index) && !hasTail(state.index));
    state.index = i;
    state.topK = allOld ? (hasTail(i) ? 0 : nOf(i)) : Math.min(state.topK, nOf(i));
    kSlider.input.setAttribute("max", String(nOf(i) + 1));
    kSlider.set(kPos(state.topK, i));
    sel.input.value = String(i);
  }

  function sync(name, value) {
    setTrait(model, name, value);
  }

  // The chart and the table are built once per prompt; a slider step only updates their numbers.
  // The numbers (stats, table) change at once; the chart's SVG is redrawn once per animation frame.
  let chart = null; // {root, rows: [{labText, tip, rect, value}], sr}
  let table = null; // {rows: [{cell, status}]}
  let built = -1; // the prompt the chart and table were built for
  let last = null; // the latest filtered distribution
  let framePending = false;
  const nextFrame = typeof requestAnimationFrame === "function" ? requestAnimationFrame : (f) => f();

  function build(p, nRows, tLabels) {
    const rowH = 18, labelW = 130, barW = barLength(), valueW = 60;
    const width = labelW + barW + valueW, height = nRows * rowH + 6;
    const svgRoot = legible(svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
      style: `width: 100%; max-width: ${width}px; height: auto` }), width);
    const rows = [];
    for (let i = 0; i < nRows; i++) {
      const y = 3 + i * rowH;
      const label = svg("text", { x: labelW - 6, y: y + rowH * 0.7, "text-anchor": "end", "font-size": 12 });
      const labText = document.createTextNode("");
      const tip = svg("title"); // the full token on hover
      label.append(labText, tip);
      const rect = svg("rect", { x: labelW, y: y + 2, height: rowH - 5, width: 1 });
      const value = svg("text", { y: y + rowH * 0.7, "font-size": 11 });
      svgRoot.append(label, rect, value);
      rows.push({ labText, tip, rect, value, x0: labelW, barW });
    }
    const sr = srOnly("");
    chart = { root: svgRoot, rows, sr };
    chartBox.replaceChildren(svgRoot, sr);
    const body = h("tbody");
    const tRows = tLabels.map((label, i) => {
      const cell = h("td", { "data-testid": `sampling-prob-${i}` });
      const status = h("td");
      body.append(h("tr", {}, [h("td", { text: String(i + 1) }), h("td", {}, [h("span", { class: "nlpw-token", text: showToken(label) })]), cell, status]));
      return { cell, status };
    });
    const head = h("tr", {}, ["rank", "token", "probability", "status"].map((t) => h("th", { text: t })));
    table = { rows: tRows };
    tableBox.replaceChildren(h("details", {}, [h("summary", { text: `Table: the ${p.tokens.length} most likely tokens and the rest of the vocabulary, with their probabilities` }),
      h("table", {}, [h("thead", {}, [head]), body])]));
    promptText.textContent = "";
    promptText.append("Prompt: ", h("span", { class: "nlpw-token", text: p.prompt }), " → next token?");
    built = state.index;
  }

  function setAttr(node, k, v) {
    const s = String(v);
    if (node.getAttribute(k) !== s) node.setAttribute(k, s);
  }

  function setText(node, v) {
    const s = String(v);
    if (node.textContent !== s) node.textContent = s;
  }

  // The bars: removed tokens as dashed outlines of their probability before filtering.
  function drawChart() {
    framePending = false;
    const { p, res, labels, probs, ghost, kept, shown } = last;
    const maxP = Math.max(1e-12, ...probs, ...ghost);
    chart.rows.forEach((row, i) => {
      setText(row.tip, showToken(labels[i]));
      // the last bar gathers the other tokens: its label is words, not a token (no ␣, and short enough to
      // fit left of the bars: "49,132 others", not "other␣49,132␣toke…" cut at the edge)
      const tail = i === shown && labels.length > shown;
      setText(row.labText, tail ? `${last.rest.toLocaleString("en")} others` : barLabel(labels[i]));
      const removed = !kept[i];
      const w = removed ? Math.max((row.barW * ghost[i]) / maxP, 1) : Math.max((row.barW * probs[i]) / maxP, 0.5);
      setAttr(row.rect, "width", w.toFixed(2));
      setAttr(row.rect, "fill", removed ? "none" : cividis(0.15 + 0.7 * (probs[i] / maxP)));
      setAttr(row.rect, "stroke", removed ? "#888" : "none");
      setAttr(row.rect, "stroke-dasharray", removed ? "3 2" : "none");
      setAttr(row.value, "x", (row.x0 + w + 4).toFixed(2));
      setText(row.value, removed ? "removed" : fmt(probs[i], 3));
    });
    setAttr(chart.root, "aria-label", `Probabilities of the ${shown} most likely next tokens and of all other tokens after the filters; ${res.nucleus} tokens can be sampled`);
    setText(chart.sr, `Most likely next token ${showToken(p.tokens[0])} with probability ${fmt(res.probs[0], 3)}; ${res.nucleus} tokens survive the filters.`);
  }

  // One redraw per input: a slider's own event and the model's echo of it (sync -> change:...) both ask.
  const draw = batchedDraw(drawNow);

  function drawNow() {
    const p = prompts[state.index];
    const n = p.tokens.length;
    const nTail = p.tail.counts.reduce((s, c) => s + c, 0);
    const res = filterDistribution(p.logits, state.temperature, Math.min(state.topK, n), state.topP, p.tail);
    const shown = Math.min(20, n);
    const labels = p.tokens.slice(0, shown);
    const probs = res.probs.slice(0, shown);
    const ghost = res.scaledProbs.slice(0, shown);
    const kept = res.kept.slice(0, shown);
    const rest = n - shown + nTail;
    if (rest > 0) {
      const restP = res.probs.slice(shown).reduce((s, q) => s + q, 0) + res.other;
      labels.push(`other ${rest.toLocaleString("en")} tokens`);
      probs.push(restP);
      ghost.push(res.scaledProbs.slice(shown).reduce((s, q) => s + q, 0) + res.scaledOther);
      kept.push(restP > 0);
    }
    const tLabels = nTail > 0 ? [...p.tokens, `all ${nTail.toLocaleString("en")} other tokens`] : p.tokens;
    if (built !== state.index) build(p, labels.length, tLabels);
    setText(entropyOut, fmt(res.entropy, 3));
    setText(nucleusOut, String(res.nucleus));
    const restKept = res.kept.slice(shown).filter(Boolean).length + res.otherKept;
    // The note's words change only with the prompt; a slider step rewrites one number in it (rewriting the
    // whole paragraph would have the browser shape and lay out all of its text again at every step).
    const noteKey = `${n}/${nTail}/${shown}`;
    if (note.nlpKey !== noteKey) {
      note.nlpKey = noteKey;
      note.replaceChildren(`All ${(n + nTail).toLocaleString("en")} tokens of the vocabulary count: the chart draws the ${shown} most likely one by one ` +
        `and the other ${rest.toLocaleString("en")} in its last bar (`, restKeptOut, " of them can be sampled); " +
        `the table lists the ${n} most likely. ` +
        "In the chart ␣ marks a space, ↵ a newline; dashed outlines are removed tokens, drawn at their probability before filtering.");
    }
    setText(restKeptOut, restKept.toLocaleString("en"));
    const tProbs = nTail > 0 ? [...res.probs, res.other] : res.probs;
    const tKept = nTail > 0 ? [...res.kept, res.otherKept > 0] : res.kept;
    table.rows.forEach(({ cell, status }, i) => {
      setAttr(cell, "data-value", String(tProbs[i]));
      setText(cell, fmt(tProbs[i], 4));
      setText(status, tKept[i] ? "kept" : "removed");
    });
    last = { p, res, labels, probs, ghost, kept, shown, rest };
    if (!framePending) {
      framePending = true;
      nextFrame(drawChart);
    }
  }

  model.on("change:temperature", () => { state.temperature = model.get("temperature"); tSlider.set(state.temperature); draw(); });
  model.on("change:top_k", () => { state.topK = model.get("top_k"); kSlider.set(kPos(state.topK, state.index)); draw(); });
  model.on("change:top_p", () => { state.topP = model.get("top_p"); pSlider.set(state.topP); draw(); });
  model.on("change:prompt_index", () => {
    if (model.get("prompt_index") !== state.index) { setPrompt(model.get("prompt_index")); sync("top_k", state.topK); draw(); }
  });

  root.append(h("div", { class: "nlpw-controls" }, [sel.root, tSlider.root, kSlider.root, pSlider.root]), promptText, stats, chartBox, note, tableBox);
  el.append(root);
  drawNow();
}

// The computation behind each bar: z -> z / T -> exp(z / T - max) -> / sum = p.
export function softmaxSteps(logits, temperature) {
  const scaled = logits.map((z) => z / temperature);
  const m = Math.max(...scaled);
  const e = scaled.map((x) => Math.exp(x - m));
  const total = e.reduce((a, b) => a + b, 0);
  return { scaled, max: m, exp: e, total, probs: e.map((x) => x / total) };
}

function stepsTable(labels, logits, temperature) {
  const box = h("details", { open: "" }, [h("summary", { text: "How each probability is computed" })]);
  if (temperature === 0) {
    box.append(h("p", { text: "At temperature 0 the division by T is undefined: decoding takes the largest logit (greedy), probability 1." }));
    return box;
  }
  const st = softmaxSteps(logits, temperature);
  const T = fmt(temperature, 2);
  const head = ["token", "logit z", `z / ${T}`, `exp(z / ${T} − ${fmt(st.max, 2)})`, "÷ sum = p"];
  const rows = labels.map((label, i) => h("tr", { "data-testid": `softmax-step-${i}` }, [
    h("th", { scope: "row", text: showToken(label) }),
    h("td", { text: fmt(logits[i], 2) }),
    h("td", { text: fmt(st.scaled[i], 3) }),
    h("td", { "data-exp": String(st.exp[i]), text: st.exp[i] >= 0.001 ? fmt(st.exp[i], 4) : st.exp[i].toExponential(2) }),
    h("td", { "data-p": String(st.probs[i]), text: fmt(st.probs[i], 4) }),
  ]));
  const sum = h("tr", {}, [h("th", { scope: "row", text: "sum" }), h("td"), h("td"),
    h("td", { "data-testid": "softmax-sum", "data-sum": String(st.total), text: fmt(st.total, 4) }), h("td", { text: "1" })]);
  box.append(h("table", { "data-testid": "softmax-steps" }, [
    h("caption", { text: "Subtracting the largest scaled logit first keeps exp from overflowing; it cancels in the division." }),
    h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col", text: c })))),
    h("tbody", {}, [...rows, sum]),
  ]));
  return box;
}

function renderSoftmax(model, el) {
  const labels = model.get("labels");
  const logits = model.get("logits");
  const root = h("div", { class: "nlpw nlpw-softmax", "data-testid": "softmax-root" });
  let temperature = model.get("temperature");
  const chartBox = h("div", { class: "nlpw-drawing" });
  const tableBox = h("div");
  const stepsBox = h("div");
  const entropyOut = h("output", { "data-testid": "softmax-entropy" });
  const tSlider = slider({ label: "Temperature", min: model.get("min_temperature"), max: model.get("max_temperature"), step: 0.05,
    value: temperature, format: (v) => Number(v).toFixed(2),
    onInput: (v) => setTrait(model, "temperature", v) }); // the change listener below redraws, once
  tSlider.input.setAttribute("data-testid", "softmax-temperature");
  function draw() {
    const probs = temperature === 0 ? filterDistribution(logits, 0, 0, 1).probs : softmax(logits, temperature);
    entropyOut.textContent = fmt(entropyNats(probs), 3);
    // Updated in place: a temperature step changes the numbers, not the shape, of the chart and tables.
    patchChildren(chartBox, [barChart({ labels, probs, maxBars: labels.length, title: `softmax of the logits at temperature ${fmt(temperature, 2)}`, fixedAxis: true })]);
    patchChildren(tableBox, [probTable({ labels, probs, prefix: "softmax", caption: "Table: logits and probabilities" })]);
    patchChildren(stepsBox, [stepsTable(labels, logits, temperature)]);
  }
  model.on("change:temperature", () => { temperature = model.get("temperature"); tSlider.set(temperature); draw(); });
  const stats = h("p", { "aria-live": "polite" }, ["Entropy: ", entropyOut, " nats"]);
  root.append(h("div", { class: "nlpw-controls" }, [tSlider.root]), stats, chartBox, stepsBox, tableBox);
  el.append(root);
  draw();
}

export default {
  render({ model, el }) {
    if (model.get("_view") === "softmax") renderSoftmax(model, el);
    else renderExplorer(model, el);
  },
};
