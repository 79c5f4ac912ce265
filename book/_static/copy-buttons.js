// Copy buttons with a name. sphinx-copybutton draws each code cell's copy button as an icon with a
// CSS tooltip ("Copy") but no accessible name, so a screen reader announces only "button". Each one
// gets the name "Copy code" (its icon is hidden from assistive technology) as soon as it is added;
// sphinx-copybutton adds them after the page loads, once its clipboard library has arrived.
(function () {
  "use strict";
  // Returns how many buttons it named.
  const name = () => {
    const buttons = document.querySelectorAll("button.copybtn:not([aria-label])");
    buttons.forEach((button) => {
      button.setAttribute("aria-label", "Copy code");
      button.querySelectorAll("svg").forEach((icon) => icon.setAttribute("aria-hidden", "true"));
    });
    return buttons.length;
  };
  // sphinx-copybutton adds every button in one pass: watch until it has, so that later changes of
  // the page (widgets redrawing) are not watched.
  const start = () => {
    if (name()) return;
    const observer = new MutationObserver(() => { if (name()) observer.disconnect(); });
    observer.observe(document.body, { childList: true, subtree: true });
    setTimeout(() => observer.disconnect(), 30000); // a page without code cells
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
