// NGramGenerator: a sentence drawn from an n-gram model, one word at a time. Python ships the paths
// (context, top candidates and their probabilities, the drawn word) for each order and sample, and a
// table of each model's likelier continuations; "New sentence" samples a fresh path from that table
// here, with a seeded PRNG, so it works on the static page with no kernel.
// _common.js (h, slider, select, setTrait, srOnly) is prepended by nlp_helpers.widgets.assets.load_esm.

// mulberry32: a small seeded PRNG, uniform in [0, 1); the same seed gives the same draws everywhere.
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EOS = "</s>";

// A new sentence from the table of one order: [{c, w, p, s}] steps, the shape of a shipped path. At each
// step the next word is drawn among the context's shipped words in proportion to their probabilities;
// the step lists the `top` likeliest (plus the drawn word if it is not among them). null: no table.
export function drawPath(table, vocab, order, maxWords, top, random) {
  let ctx = Array(order - 1).fill(0); // ids; 0 is <s>
  if (!(ctx.join(" ") in table)) return null;
  const steps = [];
  for (let n = 0; n < maxWords; n++) {
    const [ids, ps] = table[ctx.join(" ")];
    const total = ps.reduce((a, b) => a + b, 0);
    let u = random() * total;
    let pick = ids.length - 1;
    for (let i = 0; i < ids.length; i++) { u -= ps[i]; if (u < 0) { pick = i; break; } }
    const shown = Math.min(top, ids.length);
    const w = ids.slice(0, shown).map((i) => vocab[i]);
    const p = ps.slice(0, shown);
    if (pick >= shown) { w.push(vocab[ids[pick]]); p.push(ps[pick]); }
    steps.push({ c: ctx.map((i) => vocab[i]), w, p, s: pick >= shown ? shown : pick });
    if (vocab[ids[pick]] === EOS) break;
    if (order > 1) ctx = [...ctx.slice(1), ids[pick]];
  }
  return steps;
}

function render({ model, el }) {
  const root = h("div", { class: "nlpw nlpw-ngram", "data-testid": "ng-root" });
  el.replaceChildren(root);
  const orders = model.get("orders");
  const seeds = model.get("seeds");
  const vocab = model.get("vocab");
  const drawn = {}; // order -> the sentence drawn here last
  let draws = 0; // the k-th press of "New sentence" uses seed k
  const freshOf = (order) => {
    if (!drawn[order]) {
      draws += 1;
      drawn[order] = drawPath(model.get("tables")[String(order)], vocab, order, model.get("max_words"), model.get("top"), prng(draws));
    }
    return drawn[order];
  };
  const steps = () => {
    const order = model.get("order");
    const stored = model.get("paths")[String(order)];
    const sample = model.get("sample");
    return (sample >= seeds.length && freshOf(order)) || stored[Math.min(sample, seeds.length - 1)];
  };
  const clamp = (s) => Math.min(Math.max(Number(s) || 0, 0), steps().length - 1);

  const orderSel = select({
    label: "order n", value: model.get("order"),
    options: orders.map((o) => ({ value: o, label: `${o}-gram` })),
    onChange: (v) => { setTrait(model, "order", Number(v)); setTrait(model, "step", 0); },
  });
  orderSel.input.setAttribute("data-testid", "ng-order");
  const seedSel = select({
    label: "sample (seed)", value: 0,
    options: [...seeds.map((s, i) => ({ value: i, label: String(s) })), { value: seeds.length, label: "new (drawn here)" }],
    onChange: (v) => { setTrait(model, "sample", Number(v)); setTrait(model, "step", 0); },
  });
  seedSel.input.setAttribute("data-testid", "ng-seed");
  const stepSlider = slider({
    label: "word", min: 0, max: 1, step: 1, value: 0,
    format: (s) => `${s + 1} of ${steps().length}`,
    onInput: (s) => setTrait(model, "step", clamp(s)),
  });
  stepSlider.input.setAttribute("data-testid", "ng-step");
  const next = h("button", { type: "button", "data-testid": "ng-next", text: "Next word ▶",
    onclick: () => setTrait(model, "step", clamp(model.get("step") + 1)) });
  const fresh = h("button", { type: "button", "data-testid": "ng-new", text: "New sentence ↻",
    onclick: () => {
      const order = model.get("order");
      delete drawn[order];
      seedSel.input.value = String(seeds.length);
      if (model.get("sample") === seeds.length) draw(); // the trait does not change: redraw by hand
      setTrait(model, "sample", seeds.length);
      setTrait(model, "step", 0);
    } });

  const sentence = h("p", { class: "nlpw-ng-sentence", "data-testid": "ng-sentence", "aria-live": "polite" });
  const context = h("p", { "data-testid": "ng-context" });
  const bars = h("div", { class: "nlpw-ng-bars", "data-testid": "ng-bars", role: "list" });
  const rest = h("p", { "data-testid": "ng-rest" });
  root.append(
    h("div", { class: "nlpw-controls" }, [orderSel.root, seedSel.root, stepSlider.root]),
    h("div", { class: "nlpw-controls" }, [next, fresh]),
    sentence, context, bars, rest,
  );

  function draw() {
    const path = steps();
    const step = clamp(model.get("step"));
    const order = model.get("order");
    stepSlider.input.setAttribute("max", String(path.length - 1));
    stepSlider.set(step); // also refreshes "k of N" after a change of order or sample
    if (Number(orderSel.input.value) !== order) orderSel.input.value = String(order);
    next.disabled = step >= path.length - 1;
    fresh.disabled = !(Array(order - 1).fill(0).join(" ") in model.get("tables")[String(order)]);
    const cur = path[step];
    const pick = cur.w[cur.s];

    const words = path.slice(0, step).map((st) => st.w[st.s]);
    sentence.setAttribute("data-sentence", path.map((st) => st.w[st.s]).join(" "));
    if (Number(seedSel.input.value) !== model.get("sample")) seedSel.input.value = String(model.get("sample"));
    const nCtx = order - 1;
    sentence.replaceChildren(
      ...words.flatMap((w, i) => [h("span", { class: i >= words.length - nCtx ? "ctx" : "", text: w }), " "]),
      h("span", { class: "pick", "data-testid": "ng-pick", "data-word": pick, "data-p": String(cur.p[cur.s]), text: pick }),
    );
    context.textContent = order === 1
      ? "Context: none (a unigram model ignores the previous words)."
      : `Context (the last ${nCtx === 1 ? "word" : `${nCtx} words`}): “${cur.c.join(" ")}” → P(next word | context):`;

    const rows = [];
    cur.w.forEach((w, i) => {
      const p = cur.p[i];
      const isPick = i === cur.s;
      const label = `${w}: ${p.toFixed(3)}${isPick ? " (drawn)" : ""}`;
      rows.push(h("span", { class: `nlpw-ng-word${isPick ? " pick" : ""}`, text: isPick ? `▶ ${w}` : w }));
      rows.push(h("span", { class: "nlpw-ng-track", role: "listitem", "aria-label": label,
        "data-testid": `ng-bar-${i}`, "data-word": w, "data-p": String(p) },
        h("span", { class: `nlpw-ng-fill${isPick ? " pick" : ""}`, style: `width: ${(100 * p).toFixed(1)}%` })));
      rows.push(h("span", { text: p.toFixed(3) }));
    });
    rows.push(h("span", {}), h("span", { class: "nlpw-ng-axis", "aria-hidden": "true" },
      [h("span", { text: "0" }), h("span", { text: "0.5" }), h("span", { text: "1" })]), h("span", {}));
    bars.replaceChildren(...rows);
    const shown = cur.p.reduce((a, b) => a + b, 0);
    rest.textContent = `All other words together: ${Math.max(0, 1 - shown).toFixed(3)}. ` +
      (step === path.length - 1 && pick !== "</s>" ? "The sample stopped at its length limit." : "");
  }

  draw();
  for (const k of ["order", "sample", "step"]) model.on(`change:${k}`, draw);
}

export default { render };
