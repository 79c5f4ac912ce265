// NGramGenerator: a sentence drawn from an n-gram model, one word at a time. Python ships the paths
// (context, top candidates and their probabilities, the drawn word) for each order and sample; this
// module only draws them, so it works on the static page with no kernel.
// _common.js (h, slider, select, setTrait, srOnly) is prepended by nlp_helpers.widgets.assets.load_esm.

function render({ model, el }) {
  const root = h("div", { class: "nlpw nlpw-ngram", "data-testid": "ng-root" });
  el.replaceChildren(root);
  const orders = model.get("orders");
  const seeds = model.get("seeds");
  const steps = () => model.get("paths")[String(model.get("order"))][model.get("sample")];
  const clamp = (s) => Math.min(Math.max(Number(s) || 0, 0), steps().length - 1);

  const orderSel = select({
    label: "order n", value: model.get("order"),
    options: orders.map((o) => ({ value: o, label: `${o}-gram` })),
    onChange: (v) => { setTrait(model, "order", Number(v)); setTrait(model, "step", 0); },
  });
  orderSel.input.setAttribute("data-testid", "ng-order");
  const seedSel = select({
    label: "sample (seed)", value: 0,
    options: seeds.map((s, i) => ({ value: i, label: String(s) })),
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
      const i = (model.get("sample") + 1) % seeds.length;
      seedSel.input.value = String(i);
      setTrait(model, "sample", i);
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
    const cur = path[step];
    const pick = cur.w[cur.s];

    const words = path.slice(0, step).map((st) => st.w[st.s]);
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
