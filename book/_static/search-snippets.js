// Search result snippets without TeX source. Sphinx's search shows a few lines of each matching page's
// text, read from the page's HTML, where an equation is still its TeX source ("\(\mathbf{z}\)"): the
// snippet would show it raw. Equations become "[…]" in snippets; everything else is as Sphinx does it.
(function () {
  "use strict";
  if (typeof Search === "undefined" || typeof Search.htmlToText !== "function") return; // not the search page
  const original = Search.htmlToText;
  Search.htmlToText = (htmlString, anchor) => {
    const doc = new DOMParser().parseFromString(htmlString, "text/html");
    doc.querySelectorAll("span.math, div.math, mjx-container").forEach((el) => el.replaceWith(doc.createTextNode("[…]")));
    return original(doc.documentElement.outerHTML, anchor);
  };
})();
