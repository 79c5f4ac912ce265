// NaiveBayesExplorer: each word's log-likelihood ratio log P(w|c1)/P(w|c0), summed with the prior log-odds.
// _common.js (h, fmt, srOnly, setTrait) is prepended by nlp_helpers.widgets.assets.load_esm.

export function logOdds(tokens, index, ratios, prior) {
  let total = prior;
  for (const t of tokens) if (index.has(t)) total += ratios[index.get(t)];
  return total;
}

function colour(r) {
  // blue for the second class, orange for the first (Okabe-Ito), stronger with |ratio| (capped at 3)
  const a = Math.min(Math.abs(r), 3) / 3;
  return r >= 0 ? `rgba(0, 114, 178, ${0.15 + 0.6 * a})` : `rgba(230, 159, 0, ${0.15 + 0.6 * a})`;
}

function render({ model, el }) {
  const root = h("div", { class: "nlpw nlpw-nb", "data-testid": "nb-root" });
  el.replaceChildren(root);
  // {"-693": "word word ...", ...}: each ratio in thousandths with the words that share it.
  const words = [];
  const ratios = [];
  for (const [milli, group] of Object.entries(model.get("ratio_groups"))) {
    for (const w of group.split(" ")) { words.push(w); ratios.push(Number(milli) / 1000); }
  }
  const index = new Map(words.map((w, i) => [w, i]));
  const [c0, c1] = model.get("class_names");
  const re = new RegExp(model.get("pattern"), "gu");
  const id = `nb-${Math.random().toString(36).slice(2)}`;
  const input = h("input", { type: "text", id, value: model.get("text"), "data-testid": "nb-text", maxlength: "500" });
  const chips = h("div", { class: "nlpw-nb-tokens", "data-testid": "nb-tokens" });
  const result = h("p", { "data-testid": "nb-logodds", "aria-live": "polite" });
  const details = h("details", { class: "nlpw-details" });
  root.append(
    h("div", { class: "nlpw-controls" }, [h("label", { for: id, text: "Sentence" }), input]),
    chips, result, details,
  );

  function draw() {
    const text = model.get("text");
    if (input.value !== text) input.value = text;
    const tokens = text.toLowerCase().match(re) || [];
    const prior = model.get("prior_log_odds");
    const total = logOdds(tokens, index, ratios, prior);
    chips.replaceChildren(...tokens.map((t) => {
      const known = index.has(t);
      const r = known ? ratios[index.get(t)] : 0;
      return h("span", {
        class: known ? "nlpw-token" : "nlpw-token unknown", "data-ratio": known ? String(r) : "",
        style: known ? `background: ${colour(r)}` : "",
        title: known ? `log P(${t}|${c1}) / P(${t}|${c0}) = ${fmt(r, 3)}` : `${t}: never seen in training, ignored`,
        text: t,
      });
    }));
    const p1 = 1 / (1 + Math.exp(-total));
    result.setAttribute("data-value", String(total));
    const known = tokens.filter((t) => index.has(t));
    // Without a single known word there is nothing to classify: the prior alone is not a verdict on the text.
    result.textContent = known.length === 0
      ? `No word of this sentence was seen in training, so there is nothing to weigh: only the prior log-odds ${fmt(prior, 3)} ` +
        `(P(${c1}) = ${fmt(p1, 3)}) remain. Type a sentence to classify.`
      : `log-odds of ${c1} = prior ${fmt(prior, 3)} + words ${fmt(total - prior, 3)} = ${fmt(total, 3)}` +
        ` → P(${c1}) = ${fmt(p1, 3)}: the model says ${total >= 0 ? c1 : c0}.`;
    details.replaceChildren(h("summary", { text: "Each word's contribution as a table" }), h("table", {}, [
      h("thead", {}, h("tr", {}, [h("th", { scope: "col", text: "word" }), h("th", { scope: "col", text: `log P(w|${c1}) / P(w|${c0})` })])),
      h("tbody", {}, known.map((t) => h("tr", {}, [h("th", { scope: "row", text: t }), h("td", { text: fmt(ratios[index.get(t)], 3) })]))),
    ]));
  }

  input.addEventListener("input", () => setTrait(model, "text", input.value));
  draw();
  model.on("change:text", draw);
}

export default { render };
