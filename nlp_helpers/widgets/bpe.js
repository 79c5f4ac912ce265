// BPEStepper: replay the first k BPE merges on a text and show its tokens.
// Python ships the text already split into chunks (merges never cross a chunk) and the
// ordered merge list; everything below is recomputed here, so it works on a static page.
// _common.js (h, slider, cividis, textOn, srOnly) is prepended by nlp_helpers.widgets.assets.load_esm.

// Merge every occurrence of (left, right) in one chunk, scanning left to right (as Python does).
export function mergeChunk(symbols, left, right) {
  const out = [];
  let i = 0;
  while (i < symbols.length) {
    if (i + 1 < symbols.length && symbols[i] === left && symbols[i + 1] === right) {
      out.push(left + right);
      i += 2;
    } else {
      out.push(symbols[i]);
      i += 1;
    }
  }
  return out;
}

// states[k] = chunks after k merges; fired[k] = how often merge k (1-based) fired in the text.
export function replay(chunks, merges) {
  let cur = chunks.map((c) => Array.from(c)); // code points, like Python's list(str)
  const states = [cur];
  const fired = [0];
  for (const [left, right] of merges) {
    const before = cur.reduce((a, c) => a + c.length, 0);
    cur = cur.map((c) => (c.length > 1 ? mergeChunk(c, left, right) : c));
    states.push(cur);
    fired.push(before - cur.reduce((a, c) => a + c.length, 0));
  }
  return { states, fired };
}

// A chip's text is the exact token; its spaces are shown by a "␣" drawn over them (widgets.css), so a
// token's leading space is seen, not lost in the chip's padding.
function chipText(token) {
  return token.split(/( +)/).filter(Boolean).map((part) =>
    part.startsWith(" ") ? h("span", { class: "nlpw-space", text: part }) : document.createTextNode(part));
}

// Show whitespace in labels (never in the chips, whose text is the exact token).
function visible(token) {
  return token.replace(/ /g, "␣").replace(/\n/g, "↵").replace(/\t/g, "⇥");
}

function render({ model, el }) {
  const chunks = model.get("chunks");
  const merges = model.get("merges");
  const nChars = chunks.reduce((a, c) => a + Array.from(c).length, 0);
  const { states, fired } = replay(chunks, merges);
  const clamp = (k) => Math.max(0, Math.min(merges.length, Math.round(Number(k) || 0)));

  const root = h("div", { class: "nlpw nlpw-bpe", "data-testid": "bpe-root" });
  el.replaceChildren(root);

  const control = slider({
    label: "Merges applied",
    min: 0,
    max: merges.length,
    step: 1,
    value: clamp(model.get("step")),
    format: (v) => `${v} of ${merges.length}`,
    onInput: (v) => setStep(v),
  });
  control.input.setAttribute("data-testid", "bpe-step");
  const prev = h("button", { type: "button", "data-testid": "bpe-prev", text: "◀ Previous merge", onclick: () => setStep(clamp(model.get("step")) - 1) });
  const next = h("button", { type: "button", "data-testid": "bpe-next", text: "Next merge ▶", onclick: () => setStep(clamp(model.get("step")) + 1) });
  const mergeInfo = h("p", { class: "nlpw-bpe-merge", "data-testid": "bpe-merge", "aria-live": "polite" });
  const count = h("p", { class: "nlpw-bpe-count", "data-testid": "bpe-count" });
  const tokens = h("div", { class: "nlpw-bpe-tokens", "data-testid": "bpe-tokens", role: "list", "aria-label": "Tokens of the text" });
  const summary = srOnly("");
  const rows = merges.map(([l, r], k) =>
    h("tr", {}, [
      h("th", { scope: "row", text: String(k + 1) }),
      h("td", { text: visible(l) }),
      h("td", { text: visible(r) }),
      h("td", { text: visible(l + r) }),
      h("td", { text: String(fired[k + 1]) }),
    ])
  );
  const table = h("table", { "data-testid": "bpe-merge-table" }, [
    h("caption", { text: "The merges in the order they were learned (␣ is a space)" }),
    h("thead", {}, h("tr", {}, ["step", "left", "right", "new token", "fires in this text"].map((t) => h("th", { scope: "col", text: t })))),
    h("tbody", {}, rows),
  ]);
  const details = h("details", {}, [h("summary", { text: `All ${merges.length} merges` }), table]);
  const legend = h("p", { class: "nlpw-note", "data-testid": "bpe-legend",
    text: "Shading: token length, from one character (darkest) to the longest token (lightest). " +
      "Outlined: the tokens the current merge just created." });
  // The slider has a line of its own, as wide as the widget (1,000 merges need more than 129 px), and its
  // readout a fixed width, so the buttons below never move as the count grows.
  control.root.className = `${control.root.className} nlpw-bpe-slider`;
  root.append(h("div", { class: "nlpw-controls nlpw-bpe-controls" }, [control.root, h("div", { class: "nlpw-bpe-buttons" }, [prev, next])]), mergeInfo, count, tokens, legend, summary, details);

  // Everything a step shows is computed once per step, on first view, and kept: moving back to a step
  // costs nothing but the update of the page.
  const views = new Map();
  function view(k) {
    if (!views.has(k)) {
      const toks = states[k].flat();
      const longest = Math.max(...toks.map((t) => Array.from(t).length), 2);
      const made = k > 0 ? merges[k - 1][0] + merges[k - 1][1] : null; // the current merge's new token
      const chips = toks.map((t) => {
        const shade = (Array.from(t).length - 1) / (longest - 1); // longer tokens are lighter
        const isNew = t === made;
        const outline = isNew ? "; outline: 3px solid #D55E00; outline-offset: 1px" : "";
        return { t, title: visible(t) + (isNew ? " (just merged)" : ""), style: `background: ${cividis(shade)}; color: ${textOn(shade)}${outline}` };
      });
      views.set(k, {
        toks, chips,
        highlighted: chips.filter((c) => c.t === made).length,
        count: `${toks.length} tokens for ${nChars} characters (${(nChars / toks.length).toFixed(2)} characters per token)`,
        summary: `After ${k} merges the text has ${toks.length} tokens: ${toks.map(visible).join(" | ")}`,
      });
    }
    return views.get(k);
  }

  // The chips are kept from one step to the next: a chip whose token is unchanged keeps its nodes, and only
  // a changed token, colour or title is written (rebuilding every chip made the browser restyle them all).
  const chipNodes = [];
  function showChips(chips) {
    chips.forEach((c, i) => {
      let node = chipNodes[i];
      if (!node) {
        node = h("span", { class: "nlpw-token", role: "listitem" });
        chipNodes.push(node);
        tokens.append(node);
      }
      if (node.__token !== c.t) {
        node.replaceChildren(...chipText(c.t));
        node.__token = c.t;
      }
      if (node.getAttribute("title") !== c.title) node.setAttribute("title", c.title);
      if (node.getAttribute("style") !== c.style) node.setAttribute("style", c.style);
    });
    while (chipNodes.length > chips.length) chipNodes.pop().remove();
  }

  let shown = -1;
  let currentRow = null;
  function draw() {
    const k = clamp(model.get("step"));
    if (Number(control.input.value) !== k) control.set(k);
    if (k === shown) return;
    prev.disabled = k === 0;
    next.disabled = k === merges.length;
    const v = view(k);
    if (k === 0) {
      mergeInfo.textContent = "Step 0: no merges yet, every character is a token.";
      mergeInfo.removeAttribute("data-left");
      mergeInfo.removeAttribute("data-right");
    } else {
      const [l, r] = merges[k - 1];
      mergeInfo.textContent = `Step ${k}: merge "${visible(l)}" + "${visible(r)}" → "${visible(l + r)}" ` +
        (fired[k] ? `(fires ${fired[k]}× in this text)` : "(does not occur in this text)");
      mergeInfo.setAttribute("data-left", l);
      mergeInfo.setAttribute("data-right", r);
    }
    count.setAttribute("data-count", String(v.toks.length));
    count.textContent = v.count;
    showChips(v.chips);
    mergeInfo.setAttribute("data-highlighted", String(v.highlighted));
    // only the row that stops being current and the one that becomes it are touched (not all 1,000)
    const row = k > 0 ? rows[k - 1] : null;
    if (currentRow !== row) {
      if (currentRow) currentRow.removeAttribute("aria-current");
      if (row) row.setAttribute("aria-current", "step");
      currentRow = row;
    }
    summary.textContent = v.summary;
    shown = k;
  }

  const requestDraw = batchedDraw(draw); // one redraw per input (_common.js)

  function setStep(v) {
    const k = clamp(v);
    if (k === clamp(model.get("step")) && (k === shown || pending)) return;
    setTrait(model, "step", k); // the model's change listener asks for the redraw
    requestDraw(); // a model that fires no change event for an unchanged value
  }

  model.on("change:step", requestDraw);
  draw();
}

export default { render };
