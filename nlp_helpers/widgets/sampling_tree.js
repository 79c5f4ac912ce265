// SamplingTree: draw a token, append it, repeat, from a real model's precomputed top-k distributions.
// p_j = exp(z_j / T) / sum_i exp(z_i / T) over the k tokens (T = 0: the most likely token, greedy);
// the draw is inverse-CDF: the first token whose cumulative probability exceeds u ~ Uniform[0, 1).
// _common.js (h, svg, slider, softmax, fmt, srOnly, setTrait) is prepended by nlp_helpers.widgets.assets.load_esm.

const COLOURS = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#8C6D1F", "#000000", "#999999", "#F0E442"];

// mulberry32: a small seeded generator, the same on every browser (tests/widgets re-implements it).
export function uniform(seed, t) {
  let a = (seed >>> 0) + 0x6d2b79f5 * (t + 1);
  a = a >>> 0;
  let x = Math.imul(a ^ (a >>> 15), a | 1);
  x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
}

export function probabilities(logits, temperature) {
  if (temperature === 0) return logits.map((_, j) => (j === 0 ? 1 : 0)); // sorted: the first is the argmax
  return softmax(logits, temperature);
}

export function draw(probs, u) {
  let c = 0;
  for (let j = 0; j < probs.length; j++) {
    c += probs[j];
    if (u < c) return j;
  }
  return probs.length - 1; // u just below 1 and rounding: the last token
}

// A space is "␣" and a newline "↵", as in the other widgets of the book.
export const visible = (t) => t.replace(/\n/g, "↵").replace(/ /g, "␣");

function render({ model, el }) {
  const k = model.get("k");
  const logits = model.get("logits");
  const tokens = model.get("tokens");
  const mass = model.get("top_mass");
  const nInternal = logits.length;
  let path = [0];
  let lastU = null;

  const root = h("div", { class: "nlpw nlpw-sampling-tree", "data-testid": "st-root" });
  el.replaceChildren(root);
  const temp = slider({
    label: "Temperature",
    min: 0, max: 2, step: 0.05, value: model.get("temperature"),
    format: (v) => (v === 0 ? "0 (greedy)" : fmt(v, 2)),
    onInput: (v) => { setTrait(model, "temperature", v); redraw(); },
  });
  temp.input.setAttribute("data-testid", "st-temp");
  const seedId = uid("seed");
  const seedBox = h("input", { type: "number", id: seedId, min: 0, step: 1, value: String(model.get("seed")), "data-testid": "st-seed", style: "width: 6em" });
  seedBox.addEventListener("input", () => { const s = Math.max(0, Math.floor(Number(seedBox.value) || 0)); setTrait(model, "seed", s); });
  const button = (text, testid, fn) => h("button", { type: "button", "data-testid": testid, text, onclick: fn });
  const drawBtn = button("Draw the next token", "st-draw", () => step(null));
  const backBtn = button("Back", "st-back", () => { if (path.length > 1) { path.pop(); lastU = null; redraw(); } });
  const restartBtn = button("Start again", "st-restart", () => { path = [0]; lastU = null; redraw(); });
  const text = h("p", { "data-testid": "st-text", style: "font-size: 1.1em; line-height: 1.8" });
  const table = h("table", { "data-testid": "st-dist" });
  const strip = svg("svg", { viewBox: "0 0 500 34", width: "100%", role: "img", class: "nlpw-drawing", "data-testid": "st-strip" });
  strip.style.maxWidth = "500px";
  // The strip holds no text (its tokens are named in the legend under it, u in its title): it shrinks with the column.
  const stripTitle = h("div", { class: "nlpw-figtitle" });
  // Which token each interval of the strip is: a swatch, the token and its interval [a, b).
  const stripLegend = h("p", { class: "nlpw-legend", "data-testid": "st-strip-legend" });
  const readout = h("p", { class: "nlpw-readout", "data-testid": "st-readout", "aria-live": "polite" });
  root.append(
    h("div", { class: "nlpw-controls" }, [temp.root, h("div", { class: "nlpw-control" }, [h("label", { for: seedId, text: "Seed" }), seedBox])]),
    h("div", { class: "nlpw-controls" }, [drawBtn, backBtn, restartBtn]),
    text, table, stripTitle, strip, stripLegend, readout,
  );

  const current = () => path[path.length - 1];
  const probsAt = (n) => probabilities(logits[n], model.get("temperature"));

  function step(choice) {
    const n = current();
    if (n >= nInternal) return;
    let j = choice;
    if (j === null) {
      lastU = uniform(model.get("seed"), path.length - 1);
      j = draw(probsAt(n), lastU);
    } else lastU = null;
    path.push(n * k + 1 + j);
    redraw();
  }

  function redraw() {
    text.replaceChildren(h("span", { style: "opacity: 0.7", text: model.get("prompt") }));
    path.slice(1).forEach((n, i) => text.append(h("span", { class: "nlpw-token", style: `border-color: ${COLOURS[(n - 1) % k]}`, "data-step": String(i), text: visible(tokens[n - 1]) })));
    text.setAttribute("data-path", path.join(" "));
    const n = current();
    const done = n >= nInternal;
    drawBtn.disabled = done;
    backBtn.disabled = path.length === 1;
    table.replaceChildren();
    strip.replaceChildren();
    stripLegend.replaceChildren();
    const end = `The tree was computed ${model.get("depth")} tokens deep: go back, or start again.`;
    if (done && lastU === null) {
      readout.textContent = end;
      stripTitle.textContent = "";
      return;
    }
    const p = done ? [] : probsAt(n);
    if (!done) {
      table.append(h("caption", { text: `Next token after this text: the model's ${k} most likely (they hold ${fmt(100 * mass[n], 1)}% of its probability at temperature 1)` }));
      table.append(h("tr", {}, [h("th", { text: "token" }), h("th", { text: "logit" }), h("th", { text: "probability (top-k, temperature)" }), h("th", { text: "" })]));
      p.forEach((q, j) => {
        const bar = svg("svg", { viewBox: "0 0 100 10", width: "120", height: "12", "aria-hidden": "true" });
        bar.append(svg("rect", { x: 0, y: 0, width: 100, height: 10, fill: "none", stroke: "currentColor", "stroke-opacity": 0.3 }));
        bar.append(svg("rect", { x: 0, y: 0, width: 100 * q, height: 10, fill: COLOURS[j] }));
        const pick = button("Choose", `st-choose-${j}`, () => step(j));
        table.append(h("tr", {}, [
          h("td", { style: "text-align: left", text: visible(tokens[n * k + j]) }),
          h("td", { text: fmt(logits[n][j], 2) }),
          h("td", { "data-testid": `st-p-${j}`, "data-p": String(q) }, [bar, ` ${fmt(q, 3)}`]),
          h("td", {}, [pick]),
        ]));
      });
    }
    // The interval picture: of the last draw (with its u), or of the next one before any draw.
    const at = lastU !== null ? path[path.length - 2] : n;
    const pa = probsAt(at);
    stripTitle.textContent = lastU !== null ? `The last draw: u = ${fmt(lastU, 3)} (the line) on the intervals of the distribution it was drawn from` : "The next draw: one interval of [0, 1) per token";
    let c = 0;
    pa.forEach((q, j) => {
      strip.append(svg("rect", { x: 500 * c, y: 6, width: Math.max(0, 500 * q), height: 20, fill: COLOURS[j] }));
      stripLegend.append(h("span", { class: "nlpw-legend-item" }, [
        h("span", { class: "nlpw-st-swatch", style: `background: ${COLOURS[j]}`, "aria-hidden": "true" }),
        h("span", { class: "nlpw-token", text: visible(tokens[at * k + j]) }),
        ` [${fmt(c, 3)}, ${fmt(c + q, 3)})`,
      ]));
      c += q;
    });
    strip.setAttribute("aria-label", `The interval from 0 to 1 split into ${k} pieces, one per token, of length its probability`);
    if (lastU !== null) {
      const x = 500 * lastU;
      strip.append(svg("line", { x1: x, x2: x, y1: 0, y2: 32, stroke: "currentColor", "stroke-width": 2, "data-testid": "st-u", "data-u": String(lastU) }));

      readout.textContent = `The strip is the last draw: u = ${fmt(lastU, 3)} fell in the interval of “${visible(tokens[n - 1])}” (probability ${fmt(pa[(n - 1) % k], 3)}), so it was appended.${done ? " " + end : ""}`;
    } else readout.textContent = "The strip splits [0, 1) into one interval per token, as long as its probability: a draw u picks the token whose interval it falls in. " +
      `The model's next-token choices were computed ${model.get("depth")} tokens ahead (its ${k} most likely at each step), so the text stops after ${model.get("depth")} draws.`;
  }
  redraw();
}

export default { render };
