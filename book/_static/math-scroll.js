// A display equation wider than the column scrolls sideways inside its own box (book.css). Equations
// are not tab stops (MathJax's inTabOrder: false, _config.yml), so a keyboard reader could not scroll
// such a box: the few that overflow get tabindex="0", the rest stay out of the tab order.
// MathJax typesets lazily (an equation when it scrolls into view), so new equations are checked as
// they appear.
(function () {
  "use strict";
  // Lazy typesetting may fill an equation's container after it was added: it is checked again then.
  const check = (mjx) => {
    if (mjx.getAttribute("display") !== "true") return;
    const wide = mjx.scrollWidth > mjx.clientWidth + 1;
    if (wide && mjx.getAttribute("tabindex") !== "0") mjx.setAttribute("tabindex", "0");
    else if (!wide && mjx.getAttribute("tabindex") === "0") mjx.setAttribute("tabindex", "-1");
  };
  const start = () => {
    document.querySelectorAll("mjx-container").forEach(check);
    const article = document.querySelector("article") || document.body;
    new MutationObserver((records) => {
      for (const r of records) {
        const inside = r.target.nodeType === 1 && r.target.closest("mjx-container");
        if (inside) check(inside);
        for (const node of r.addedNodes) if (node.nodeType === 1 && node.tagName === "MJX-CONTAINER") check(node);
      }
    }).observe(article, { childList: true, subtree: true });
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
