// TfidfSearch: rank documents for a typed query by TF-IDF cosine, entirely in the browser.
// The page carries the vocabulary, the IDF of each term and every document's L2-normalised
// TF-IDF vector (sparse: term indices + weights). Here we tokenize the query with the same
// simple regex as Python (lower-case, runs of [a-z0-9]), weight it (raw count x IDF, L2 norm)
// and score each document by the dot product of unit vectors, i.e. the cosine.
// Each result shows its cosine split into one piece per query term (q_t x d_t).
// _common.js (h, svg, fmt, select, srOnly, patchChildren) is prepended by nlp_helpers.widgets.assets.load_esm.

export function tokenize(text, pattern) {
  return String(text).toLowerCase().match(new RegExp(pattern, "g")) || [];
}

// {terms: [{term, index, count, idf, weight}], unknown: [tokens]} for a query; weights L2-normalised.
export function queryVector(tokens, vocabIndex, idf) {
  const counts = new Map();
  const unknown = [];
  for (const t of tokens) {
    if (vocabIndex.has(t)) counts.set(t, (counts.get(t) || 0) + 1);
    else if (!unknown.includes(t)) unknown.push(t);
  }
  const terms = [...counts].map(([term, count]) => {
    const index = vocabIndex.get(term);
    return { term, index, count, idf: idf[index], weight: count * idf[index] };
  });
  const norm = Math.sqrt(terms.reduce((a, t) => a + t.weight * t.weight, 0));
  for (const t of terms) t.weight = norm > 0 ? t.weight / norm : 0;
  terms.sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1));
  return { terms, unknown: unknown.sort() };
}

// Top-k documents by cosine (document vectors are unit length): [{document, score}], ties by index;
// documents with score 0 are dropped.
export function rank(terms, docTerms, docWeights, k) {
  const q = new Map(terms.map((t) => [t.index, t.weight]));
  const scores = docTerms.map((idx, d) => idx.reduce((a, j, n) => a + (q.get(j) || 0) * docWeights[d][n], 0));
  return scores
    .map((score, document) => ({ document, score }))
    .sort((a, b) => b.score - a.score || a.document - b.document)
    .slice(0, k)
    .filter((r) => r.score > 0); // no term in common: not a match (as TfIdf.search in Python)
}

// Each query term's share of a document's cosine: q_t * d_t (they add up to the score).
export function contributions(terms, docTerms, docWeights) {
  const d = new Map(docTerms.map((j, n) => [j, docWeights[n]]));
  return terms.map((t) => ({ term: t.term, value: t.weight * (d.get(t.index) || 0) })).filter((c) => c.value > 0);
}

const TERM_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#8C6D1F", "#999999"];

function render({ model, el }) {
  const get = (k) => model.get(k);
  const root = h("div", { class: "nlpw nlpw-tfidf", "data-testid": "tfidf-root" });
  el.replaceChildren(root);

  let vocabIndex = new Map();
  const indexVocabulary = () => { vocabIndex = new Map(get("vocabulary").map((t, i) => [t, i])); };
  indexVocabulary();

  const inputId = uid("tfidf-query");
  const input = h("input", { type: "search", id: inputId, "data-testid": "tfidf-query", size: 40, autocomplete: "off",
    placeholder: "e.g. asylum seekers" });
  input.value = get("query");
  let drawn = 0; // redraws so far: a model that echoes the change has drawn already (one input, one redraw)
  function setQuery(value) {
    const before = drawn;
    setTrait(model, "query", value);
    if (drawn === before) draw(); // a model that does not echo the change
  }
  input.addEventListener("input", () => setQuery(input.value));
  const controls = h("div", { class: "nlpw-controls" }, [
    h("div", { class: "nlpw-control" }, [h("label", { for: inputId, text: "Query" }), input]),
  ]);
  // The example menu shows the example that is the current query, or "(choose one)" once the reader has
  // typed something else (never a stale choice beside another query).
  let showExample = () => {};
  if (get("examples").length) {
    const pick = select({
      label: "Example queries",
      options: [{ value: "", label: "(choose one)" }, ...get("examples").map((e) => ({ value: e, label: e }))],
      value: get("examples").includes(get("query")) ? get("query") : "",
      onChange: (v) => {
        if (!v) return;
        input.value = v;
        setQuery(v);
      },
    });
    pick.input.setAttribute("data-testid", "tfidf-examples");
    controls.append(pick.root);
    showExample = () => {
      const want = get("examples").includes(get("query")) ? get("query") : "";
      if (pick.input.value !== want) pick.input.value = want;
    };
  }

  const status = h("p", { class: "nlpw-status", "data-testid": "tfidf-status", "aria-live": "polite" });
  const results = h("ol", { class: "nlpw-results", "data-testid": "tfidf-results", "aria-label": "Documents ranked by TF-IDF cosine" });
  const termsBox = h("details", { open: "" }, [h("summary", { text: "Query terms and their TF-IDF weights" })]);
  const termsTable = h("div");
  termsBox.append(termsTable);
  root.append(controls, status, results, termsBox,
    srOnly(`Searches ${get("titles").length} documents; tokens are lower-cased runs of letters and digits.`));

  const explain = "A document's cosine is the sum over the query's terms of the term's weight here × its weight in the document: the coloured pieces of each result's bar.";
  // A redraw builds the new results and terms table off the page and copies only what changed into the
  // nodes already shown (patchChildren): typing one more letter usually changes a few numbers and the
  // bars' widths, so the browser restyles those, not three results, their bars and a table rebuilt.
  function show(items, rows) {
    patchChildren(results, items);
    patchChildren(termsTable, rows);
  }
  let shownKey = null;
  function draw() {
    drawn += 1;
    const tokens = tokenize(get("query"), get("token_pattern"));
    const key = tokens.join(" ");
    if (key === shownKey) return; // a letter that does not change the tokens (a space, a trailing dash)
    shownKey = key;
    const { terms, unknown } = queryVector(tokens, vocabIndex, get("idf"));
    if (!tokens.length) {
      status.textContent = "Type a query to rank the documents.";
      show([], []);
      return;
    }
    const unknownNote = unknown.length ? ` Not in the vocabulary (ignored): ${unknown.join(", ")}.` : "";
    if (!terms.length) {
      status.textContent = `None of the query's words is in the vocabulary, so no document matches.${unknownNote}`;
      show([], []);
      return;
    }
    const top = rank(terms, get("doc_terms"), get("doc_weights"), get("top_k"));
    status.textContent = `${top.length} best of ${get("titles").length} documents by cosine similarity.${unknownNote}`;
    const colour = new Map(terms.map((t, i) => [t.term, TERM_COLOURS[i % TERM_COLOURS.length]]));
    const items = top.map(({ document, score }, r) => {
      const parts = contributions(terms, get("doc_terms")[document], get("doc_weights")[document]);
      const bar = svg("svg", { viewBox: "0 0 300 12", width: "300", height: "12", class: "nlpw-drawing", "aria-hidden": "true" });
      bar.append(svg("rect", { x: 0, y: 0, width: 300, height: 12, fill: "none", stroke: "currentColor", "stroke-opacity": 0.3 }));
      let x = 0;
      for (const c of parts) {
        bar.append(svg("rect", { x, y: 0, width: 300 * c.value, height: 12, fill: colour.get(c.term) }));
        x += 300 * c.value;
      }
      const sum = parts.map((c) => `${c.term} ${fmt(c.value, 3)}`).join(" + ");
      return h("li", { "data-testid": `tfidf-result-${r}`, "data-document": document, "data-score": score }, [
        h("strong", { text: get("titles")[document] }),
        h("span", { class: "nlpw-value", text: ` cosine ${fmt(score, 3)}` }),
        h("div", { class: "nlpw-readout", "data-testid": `tfidf-contrib-${r}`, "data-values": parts.map((c) => `${c.term}:${c.value}`).join(";") },
          [bar, ` = ${sum}`]),
        h("div", { class: "nlpw-snippet", text: get("snippets")[document] }),
      ]);
    });
    const head = h("tr", {}, ["term", "count", "IDF", "weight"].map((c) => h("th", { scope: "col", text: c })));
    const body = terms.map((t) => h("tr", { "data-testid": `tfidf-term-${t.term}` }, [
      h("th", { scope: "row" }, [h("span", { class: "nlpw-swatch", style: `border-top: 0.7em solid ${colour.get(t.term)}; width: 0.7em` }), ` ${t.term}`]),
      h("td", { text: String(t.count) }),
      h("td", { text: fmt(t.idf, 3) }),
      h("td", { text: fmt(t.weight, 3) }),
    ]));
    show(items, [h("table", { "data-testid": "tfidf-terms" }, [
      h("caption", { text: "count × IDF, scaled to unit length" }), h("thead", {}, head), h("tbody", {}, body),
    ]), h("p", { class: "nlpw-readout", text: explain })]);
  }

  // A data trait changed: the same query may rank differently.
  const redrawAll = () => { shownKey = null; draw(); };
  draw();
  model.on("change:query", () => {
    if (input.value !== get("query")) input.value = get("query");
    showExample();
    draw();
  });
  model.on("change:top_k", redrawAll);
  model.on("change:vocabulary", () => { indexVocabulary(); redrawAll(); });
  for (const k of ["idf", "doc_terms", "doc_weights", "titles", "snippets"]) model.on(`change:${k}`, redrawAll);
}

export default { render };
