// Sampling widgets: NextTokenExplorer (view "explorer") and SoftmaxTemperature (view "softmax").
// Python ships the logits; everything below recomputes in the browser, so the sliders
// work on the static page. The filters mirror nlp_helpers/sampling/distributions.py exactly:
// temperature -> top-k -> top-p, ties kept, temperature 0 = all mass on the maximum.

// Filtered distribution of `logits` (sorted or not) at a setting. Returns {probs, kept, scaledProbs}.
function filterDistribution(logits, temperature, topK, topP) {
  const n = logits.length;
  if (temperature === 0) {
    const m = Math.max(...logits);
    const count = logits.filter((x) => x === m).length;
    const probs = logits.map((x) => (x === m ? 1 / count : 0));
    return { probs, kept: probs.map((p) => p > 0), scaledProbs: probs };
  }
  let x = logits.map((v) => v / temperature);
  const scaledProbs = softmax(x, 1);
  // Top-k: keep every logit >= the k-th largest (ties kept).
  if (topK < n) {
    const kth = [...x].sort((a, b) => b - a)[topK - 1];
    x = x.map((v) => (v >= kth ? v : -Infinity));
  }
  // Top-p: smallest prefix of the sorted survivors whose mass reaches p, plus ties with its last token.
  if (topP < 1) {
    const p = softmax(x, 1);
    const order = x.map((_, i) => i).sort((a, b) => x[b] - x[a] || a - b);
    let above = 0;
    let nKept = 0;
    for (const i of order) {
      if (above < topP) nKept += 1;
      above += p[i];
    }
    nKept = Math.max(nKept, 1);
    const threshold = x[order[nKept - 1]];
    x = x.map((v) => (v >= threshold ? v : -Infinity));
  }
  const probs = softmax(x, 1);
  return { probs, kept: x.map((v) => Number.isFinite(v)), scaledProbs };
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

// Horizontal bar chart (SVG) of labels/probabilities; removed tokens drawn as outlines of their pre-filter probability.
function barChart({ labels, probs, ghost = null, kept = null, maxBars = 20, title }) {
  const nBars = Math.min(maxBars, labels.length);
  const rowH = 18, labelW = 130, barW = 300, valueW = 60;
  const width = labelW + barW + valueW, height = nBars * rowH + 6;
  const root = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": title });
  const maxP = Math.max(1e-12, ...probs.slice(0, nBars), ...(ghost ? ghost.slice(0, nBars) : []));
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
  const chartBox = h("div");
  const tableBox = h("div");
  const note = h("p", { class: "nlpw-note" });

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
  const kSlider = slider({ label: "Top-k", min: 1, max: prompts[state.index].tokens.length, step: 1, value: state.topK,
    onInput: (v) => { state.topK = v; sync("top_k", v); draw(); } });
  kSlider.input.setAttribute("data-testid", "sampling-topk");
  const pSlider = slider({ label: "Top-p", min: 0.05, max: 1, step: 0.05, value: state.topP, format: (v) => Number(v).toFixed(2),
    onInput: (v) => { state.topP = v; sync("top_p", v); draw(); } });
  pSlider.input.setAttribute("data-testid", "sampling-topp");

  // A new prompt may ship a different number of tokens: top-k "all" stays "all", otherwise it is capped.
  function setPrompt(i) {
    const nOld = prompts[state.index].tokens.length;
    const nNew = prompts[i].tokens.length;
    state.index = i;
    state.topK = state.topK >= nOld ? nNew : Math.min(state.topK, nNew);
    kSlider.input.setAttribute("max", String(nNew));
    kSlider.set(state.topK);
    sel.input.value = String(i);
  }

  function sync(name, value) {
    setTrait(model, name, value);
  }

  function draw() {
    const p = prompts[state.index];
    const n = p.tokens.length;
    const k = Math.min(state.topK, n);
    const res = filterDistribution(p.logits, state.temperature, k, state.topP);
    const nKept = res.kept.filter(Boolean).length;
    promptText.textContent = "";
    promptText.append("Prompt: ", h("span", { class: "nlpw-token", text: p.prompt }), " → next token?");
    entropyOut.textContent = fmt(entropyNats(res.probs), 3);
    nucleusOut.textContent = String(nKept);
    note.textContent = `Only the model's ${n} most likely next tokens are shipped (together ${fmt(100 * p.shown_mass, 1)}% ` +
      "of the probability at temperature 1); the widget renormalises over them. In the chart ␣ marks a space, ↵ a newline; " +
      "dashed outlines are removed tokens, drawn at their probability before filtering.";
    chartBox.replaceChildren(barChart({ labels: p.tokens, probs: res.probs, ghost: res.scaledProbs, kept: res.kept, maxBars: 20,
      title: `Probabilities of the 20 most likely next tokens after the filters; ${nKept} tokens can be sampled` }));
    chartBox.append(srOnly(`Most likely next token ${showToken(p.tokens[0])} with probability ${fmt(res.probs[0], 3)}; ${nKept} tokens survive the filters.`));
    tableBox.replaceChildren(probTable({ labels: p.tokens, probs: res.probs, kept: res.kept, prefix: "sampling",
      caption: `Table: all ${n} tokens and their probabilities` }));
  }

  model.on("change:temperature", () => { state.temperature = model.get("temperature"); tSlider.set(state.temperature); draw(); });
  model.on("change:top_k", () => { state.topK = model.get("top_k"); kSlider.set(state.topK); draw(); });
  model.on("change:top_p", () => { state.topP = model.get("top_p"); pSlider.set(state.topP); draw(); });
  model.on("change:prompt_index", () => {
    if (model.get("prompt_index") !== state.index) { setPrompt(model.get("prompt_index")); sync("top_k", state.topK); draw(); }
  });

  root.append(h("div", { class: "nlpw-controls" }, [sel.root, tSlider.root, kSlider.root, pSlider.root]), promptText, stats, chartBox, note, tableBox);
  el.append(root);
  draw();
}

function renderSoftmax(model, el) {
  const labels = model.get("labels");
  const logits = model.get("logits");
  const root = h("div", { class: "nlpw nlpw-softmax", "data-testid": "softmax-root" });
  let temperature = model.get("temperature");
  const chartBox = h("div");
  const tableBox = h("div");
  const entropyOut = h("output", { "data-testid": "softmax-entropy" });
  const tSlider = slider({ label: "Temperature", min: model.get("min_temperature"), max: model.get("max_temperature"), step: 0.05,
    value: temperature, format: (v) => Number(v).toFixed(2),
    onInput: (v) => { temperature = v; setTrait(model, "temperature", v); draw(); } });
  tSlider.input.setAttribute("data-testid", "softmax-temperature");
  function draw() {
    const probs = temperature === 0 ? filterDistribution(logits, 0, logits.length, 1).probs : softmax(logits, temperature);
    entropyOut.textContent = fmt(entropyNats(probs), 3);
    chartBox.replaceChildren(barChart({ labels, probs, maxBars: labels.length, title: `softmax of the logits at temperature ${fmt(temperature, 2)}` }));
    tableBox.replaceChildren(probTable({ labels, probs, prefix: "softmax", caption: "Table: logits and probabilities" }));
  }
  model.on("change:temperature", () => { temperature = model.get("temperature"); tSlider.set(temperature); draw(); });
  const stats = h("p", { "aria-live": "polite" }, ["Entropy: ", entropyOut, " nats"]);
  root.append(h("div", { class: "nlpw-controls" }, [tSlider.root]), stats, chartBox, tableBox);
  el.append(root);
  draw();
}

export default {
  render({ model, el }) {
    if (model.get("_view") === "softmax") renderSoftmax(model, el);
    else renderExplorer(model, el);
  },
};
