// Search result snippets that quote the sentence that matches. Sphinx's search shows 240 characters of
// each matching page's text around the first place a query word occurs in it, read from the page's
// HTML: that place is often the page's list of sections, a code cell, or the toggle "Show code cell
// source", and an equation there is still its TeX source ("\(\mathbf{z}\)"). Here the snippet is the
// first sentence of the page's prose (paragraphs, list items, definitions, captions: no code, outputs,
// contents lists or toggles) that holds the most query words, with its equations shown as "[…]".
// A page whose prose never names the words shows the line of code that does, or else its first sentence.
(function () {
  "use strict";
  if (typeof Search === "undefined" || typeof Search.makeSearchSummary !== "function") return; // not the search page
  const NOT_PROSE = [
    ".headerlink", "script", "style", "nav", ".toctree-wrapper", "summary", ".cell_input", ".cell_output",
    ".nlp-exercise-stub", ".admonition-title", ".bd-toc", ".prev-next-area", "pre", ".highlight",
    ".bd-header-article", ".dropdown-menu", ".btn",
  ].join(", ");
  const PROSE = "p, li, dd, figcaption, td, blockquote";
  const MAX = 240;

  const prose = (htmlString, anchor) => {
    const doc = new DOMParser().parseFromString(htmlString, "text/html");
    const main = (anchor && doc.querySelector(`[role="main"] ${anchor}`)) || doc.querySelector('[role="main"]');
    if (!main) return [];
    main.querySelectorAll("span.math, div.math, mjx-container").forEach((el) => el.replaceWith(doc.createTextNode("[…]")));
    main.querySelectorAll(NOT_PROSE).forEach((el) => el.remove());
    // innermost blocks only (a list item's own paragraph, not the whole list)
    return [...main.querySelectorAll(PROSE)]
      .filter((el) => !el.querySelector(PROSE))
      .map((el) => el.textContent.replace(/\s+/g, " ").trim())
      .filter(Boolean);
  };

  const sentences = (text) => text.split(/(?<=[.!?:;])\s+(?=[A-Z0-9“"(])/);

  // The snippet: the sentence with the most query words (the earliest of equals), cut to MAX characters
  // around its first match.
  const summary = (blocks, keywords) => {
    const words = [...keywords].map((k) => k.toLowerCase()).filter(Boolean);
    let best = null;
    for (const block of blocks) {
      for (const sentence of sentences(block)) {
        const lower = sentence.toLowerCase();
        const hits = words.filter((w) => lower.includes(w)).length;
        if (hits && (!best || hits > best.hits)) best = { sentence, hits, at: Math.min(...words.map((w) => lower.indexOf(w)).filter((i) => i >= 0)) };
      }
      if (best && best.hits === words.length) break;
    }
    if (!best) return null;
    let { sentence } = best;
    if (sentence.length > MAX) {
      const start = Math.max(0, Math.min(best.at - 80, sentence.length - MAX));
      sentence = (start ? "…" : "") + sentence.slice(start, start + MAX).trim() + (start + MAX < sentence.length ? "…" : "");
    }
    const p = document.createElement("p");
    p.classList.add("context");
    p.textContent = sentence;
    return p;
  };

  // The first line of the page's code that names a query word.
  const codeLine = (htmlString, keywords) => {
    const doc = new DOMParser().parseFromString(htmlString, "text/html");
    const words = [...keywords].map((k) => k.toLowerCase()).filter(Boolean);
    for (const pre of doc.querySelectorAll('[role="main"] .cell_input pre')) {
      const line = pre.textContent.split("\n").find((l) => words.some((w) => l.toLowerCase().includes(w)));
      if (line) return line.trim().slice(0, MAX);
    }
    return null;
  };

  const original = Search.makeSearchSummary;
  Search.makeSearchSummary = (htmlText, keywords, anchor) => {
    try {
      const blocks = prose(htmlText, anchor);
      const found = summary(blocks, keywords);
      if (found) return found;
      const line = codeLine(htmlText, keywords);
      const p = document.createElement("p");
      p.classList.add("context");
      if (line) {
        p.append("In its code: ", Object.assign(document.createElement("code"), { textContent: line }));
        return p;
      }
      if (blocks.length) {
        p.textContent = sentences(blocks[0])[0].slice(0, MAX);
        return p;
      }
    } catch (err) {
      console.warn("search snippet:", err);
    }
    return original(htmlText, keywords, anchor);
  };
})();
