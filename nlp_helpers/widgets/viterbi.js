// ViterbiTrellis: the Viterbi recursion over a sentence, recomputed here from the model's log scores.
// v_1(j) = log pi_j + log b_j(w_1);  v_t(j) = max_i [v_{t-1}(i) + log a_ij] + log b_j(w_t)  (SLP3 ch. 17).
// _common.js (h, svg, slider, fmt, srOnly, setTrait) is prepended by nlp_helpers.widgets.assets.load_esm.

const NEG = -Infinity;
const num = (x) => (x === null || x === undefined ? NEG : Number(x));

// The full trellis: v (T x K) log scores, back (T x K) previous tag (-1 at t = 0 or when impossible).
export function trellis(logStart, logTrans, logEm) {
  const T = logEm.length;
  const K = logStart.length;
  const v = [logStart.map((s, j) => num(s) + num(logEm[0][j]))];
  const back = [Array(K).fill(-1)];
  for (let t = 1; t < T; t++) {
    const row = [];
    const ptr = [];
    for (let j = 0; j < K; j++) {
      let best = NEG;
      let arg = -1;
      for (let i = 0; i < K; i++) {
        const c = v[t - 1][i] + num(logTrans[i][j]);
        if (c > best) { best = c; arg = i; } // ties go to the lowest index, as in the package
      }
      row.push(best + num(logEm[t][j]));
      ptr.push(arg);
    }
    v.push(row);
    back.push(ptr);
  }
  return { v, back };
}

export function bestPath(v, back) {
  const T = v.length;
  let j = 0;
  for (let k = 1; k < v[T - 1].length; k++) if (v[T - 1][k] > v[T - 1][j]) j = k;
  const path = [j];
  for (let t = T - 1; t > 0; t--) path.push(back[t][path[path.length - 1]]);
  return path.reverse();
}

function prob(x) {
  if (x === NEG) return "0";
  const p = Math.exp(x);
  return p >= 0.001 ? p.toFixed(4) : p.toExponential(1);
}

const CW_MAX = 92;
const CW_MIN = 72; // a cell's number (11 px) and a finger's tap still fit
const CH = 40; // a cell is 80 x 34 px: a tap target on a phone
const LEFT = 56;
const TOP = 24;

function render({ model, el }) {
  const root = h("div", { class: "nlpw nlpw-viterbi", "data-testid": "vt-root" });
  el.replaceChildren(root);
  const words = model.get("words");
  const tags = model.get("tags");
  const T = words.length;
  const K = tags.length;
  const { v, back } = trellis(model.get("log_start"), model.get("log_trans"), model.get("log_emissions"));
  const path = bestPath(v, back);
  let focus = null; // [t, j] of the cell whose computation is shown

  const stepSlider = slider({
    label: "words filled in", min: 1, max: T, step: 1, value: model.get("step"),
    format: (s) => `${s} of ${T} (“${words[s - 1]}”)`,
    onInput: (s) => setTrait(model, "step", s),
  });
  stepSlider.input.setAttribute("data-testid", "vt-step");
  const drawing = h("div", { class: "nlpw-drawing" });
  const pathOut = h("p", { "data-testid": "vt-path", "aria-live": "polite" });
  const cands = h("div", { "data-testid": "vt-candidates", "aria-live": "polite" });
  const table = h("details", { class: "nlpw-details" });
  root.append(h("div", { class: "nlpw-controls" }, [stepSlider.root]), drawing, pathOut, h("div", { class: "nlp-scroll" }, [cands]), table);

  function explain(t, j) {
    focus = [t, j];
    const em = num(model.get("log_emissions")[t][j]);
    if (t === 0) {
      const s = num(model.get("log_start")[j]);
      cands.replaceChildren(h("p", { text: `v₁(${tags[j]}) = log π(${tags[j]}) + log b(${words[0]} | ${tags[j]}) = ${fmt(s, 3)} + ${fmt(em, 3)} = ${fmt(v[0][j], 3)} (probability ${prob(v[0][j])})` }));
      return;
    }
    const rows = tags.map((tag, i) => {
      const a = num(model.get("log_trans")[i][j]);
      const total = v[t - 1][i] + a + em;
      const win = i === back[t][j];
      return h("tr", { class: win ? "win" : "" }, [
        h("th", { scope: "row", text: win ? `${tag} ◀ best` : tag }),
        h("td", { text: fmt(v[t - 1][i], 3) }), h("td", { text: fmt(a, 3) }), h("td", { text: fmt(em, 3) }),
        h("td", { class: win ? "win" : "", "data-value": String(total), text: fmt(total, 3) }),
      ]);
    });
    patchChildren(cands, [h("table", { class: "nlpw-vt-cands" }, [
      h("caption", { text: `v${t + 1}(${tags[j]}) for “${words[t]}”: the best previous tag wins` }),
      h("thead", {}, h("tr", {}, ["previous tag i", `v${t}(i)`, `log a(i → ${tags[j]})`, `log b(${words[t]} | ${tags[j]})`, "sum"].map((x) => h("th", { scope: "col", text: x })))),
      h("tbody", {}, rows),
    ])]);
  }

  // Words per row of the drawing: all of them when they fit the column; on a phone the trellis wraps,
  // each further row starting with the last word of the row before (faded), so that its back-pointers
  // are drawn where they lead.
  const layout = () => {
    const avail = root.clientWidth || drawing.clientWidth || 0;
    if (!avail) return [T, CW_MAX];
    const cw = Math.max(CW_MIN, Math.min(CW_MAX, Math.floor((avail - LEFT - 8) / T)));
    return [Math.max(2, Math.min(T, Math.floor((avail - LEFT - 8) / cw))), cw];
  };
  let rowWords = T;
  let CW = CW_MAX;

  function trellisRow(step, t0, t1, context) {
    const n = t1 - t0 + (context ? 1 : 0);
    const first = context ? t0 - 1 : t0; // the first column's word
    const x = (t) => LEFT + CW * (t - first);
    const W = LEFT + CW * n + 8;
    const H = TOP + CH * K + 8;
    const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "group", style: `width: 100%; max-width: ${W}px; height: auto;`,
      "aria-label": t0 === 0 && t1 === T
        ? `Viterbi trellis: ${K} tags (rows) by ${T} words (columns), ${step} filled in`
        : `Viterbi trellis, words ${t0 + 1} to ${t1} of ${T}: ${K} tags (rows), ${step} words filled in` });
    legible(s, W);
    for (let t = first; t < t1; t++) {
      s.append(svg("text", { x: x(t) + CW / 2, y: 15, "text-anchor": "middle", "font-size": 12, "font-weight": t < step ? "bold" : "normal",
        "fill-opacity": t < t0 ? 0.55 : 1, text: w(t) }));
    }
    tags.forEach((tag, j) => s.append(svg("text", { x: LEFT - 6, y: TOP + CH * j + CH / 2 + 4, "text-anchor": "end", "font-size": 11, text: tag })));
    const onPath = (t, j) => step === T && path[t] === j;
    for (let t = Math.max(1, first + 1); t < Math.min(step, t1); t++) {
      for (let j = 0; j < K; j++) {
        const i = back[t][j];
        if (i < 0 || v[t][j] === NEG) continue;
        s.append(svg("line", { x1: x(t - 1) + CW - 6, y1: TOP + CH * i + CH / 2, x2: x(t) + 6, y2: TOP + CH * j + CH / 2,
          stroke: onPath(t, j) && onPath(t - 1, i) ? "#d55e00" : "currentColor", "stroke-opacity": onPath(t, j) && onPath(t - 1, i) ? 1 : 0.35,
          "stroke-width": onPath(t, j) && onPath(t - 1, i) ? 3 : 1 }));
      }
    }
    for (let t = first; t < t1; t++) {
      const repeat = t < t0; // the previous row's last word, shown again
      for (let j = 0; j < K; j++) {
        const filled = t < step;
        const g = svg("g", filled && !repeat
          ? { class: "nlpw-vt-cell", tabindex: 0, role: "button", "data-testid": `vt-cell-${t}-${j}`, "data-log": String(v[t][j]),
            "aria-label": `v at word ${t + 1} (${words[t]}), tag ${tags[j]}: probability ${prob(v[t][j])}` }
          : repeat ? { "aria-hidden": "true", opacity: 0.55 } : { "data-testid": `vt-cell-${t}-${j}`, "data-log": "", "aria-hidden": "true" });
        const best = filled && v[t][j] !== NEG && v[t][j] === Math.max(...v[t]);
        g.append(svg("rect", { x: x(t) + 6, y: TOP + CH * j + 3, width: CW - 12, height: CH - 6, rx: 4,
          fill: filled ? (v[t][j] === NEG ? "transparent" : best ? "#56b4e9" : "#cfe8f7") : "transparent",
          stroke: onPath(t, j) ? "#d55e00" : "currentColor", "stroke-opacity": onPath(t, j) ? 1 : 0.3, "stroke-width": onPath(t, j) ? 3 : 1 }));
        if (filled) g.append(svg("text", { x: x(t) + CW / 2, y: TOP + CH * j + CH / 2 + 4, "text-anchor": "middle", "font-size": 11,
          style: v[t][j] === NEG ? "" : "fill: #111", text: prob(v[t][j]) }));
        if (filled && !repeat) {
          g.addEventListener("click", () => explain(t, j));
          g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); explain(t, j); } });
        }
        s.append(g);
      }
    }
    return s;
  }
  const w = (t) => words[t];

  function draw() {
    const step = Math.min(Math.max(model.get("step"), 1), T);
    if (Number(stepSlider.input.value) !== step) stepSlider.set(step);
    [rowWords, CW] = layout();
    const rows = [trellisRow(step, 0, Math.min(T, rowWords), false)];
    for (let t0 = rowWords; t0 < T; t0 += rowWords - 1) rows.push(trellisRow(step, t0, Math.min(T, t0 + rowWords - 1), true));
    drawing.replaceChildren(...rows);
    pathOut.textContent = step === T
      ? `Best path: ${path.map((j, t) => `${words[t]}/${tags[j]}`).join(" ")} (probability ${prob(v[T - 1][path[T - 1]])})`
      : `Move the slider to the last word to trace the best path back.`;
    pathOut.setAttribute("data-path", step === T ? path.map((j) => tags[j]).join(" ") : "");
    if (!focus || focus[0] >= step) explain(step - 1, v[step - 1].indexOf(Math.max(...v[step - 1])));
    else explain(focus[0], focus[1]);
    patchChildren(table, [h("summary", { text: "The trellis as a table (probabilities)" }), h("table", { "data-testid": "vt-table" }, [
      h("thead", {}, h("tr", {}, [h("th", { scope: "col", text: "tag" }), ...words.map((w) => h("th", { scope: "col", text: w }))])),
      h("tbody", {}, tags.map((tag, j) => h("tr", {}, [h("th", { scope: "row", text: tag }),
        ...words.map((_, t) => h("td", { text: t < step ? prob(v[t][j]) : "·" }))]))),
    ])]);
  }

  draw();
  model.on("change:step", draw);
  // The column's width changes (a phone turned, a window resized): the trellis wraps anew when the words
  // that fit a row change.
  if (typeof ResizeObserver === "function") new ResizeObserver(() => { const [n, cw] = layout(); if (n !== rowWords || cw !== CW) draw(); }).observe(root);
}

export default { render };
