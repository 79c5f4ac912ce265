// The book's page behaviour (loaded deferred by every page, after the theme's scripts).

// 1. Boxes that scroll sideways. A display equation, a line of code, a wide figure or a wide part of a
// widget that does not fit the column scrolls inside its own box (book.css), never the page. Such a box
// must say so and be usable without a mouse:
//   - it gets the class "nlp-overflows" (book.css gives it a visible scrollbar) and data-more="right",
//     "both" or "left" while there is more to see on that side (book.css fades that edge);
//   - it is a tab stop (tabindex="0"), so a keyboard reader can scroll it with the arrow keys. A box that
//     fits is no tab stop: equations are not (MathJax's inTabOrder: false, _config.yml), code blocks neither.
// Equations are typeset lazily (MathJax, when one scrolls into view), and widgets draw after this script
// may have run: new or changed boxes are checked again when they change or a <details> holding them opens,
// and all of them when the window's width changes. A widget that redraws a box in place (patchChildren in
// the widgets' _common.js) drops the marks set here with the rest of the old attributes: the change of its
// class has it checked again.
(function () {
  "use strict";
  const BOXES = [
    'mjx-container[display="true"]',
    "div.highlight > pre",
    ".nlp-scroll",
    ".nlpw .nlpw-drawing",
    ".nlpw table",
    "a.image-reference:has(> img.nlp-wide-figure)",
    ".nlp-figure-frame",
    ".cell_output .output.text_html",
  ].join(", ");
  const edges = (box) => {
    const more = box.scrollWidth - box.clientWidth;
    if (more <= 1) return "";
    const left = box.scrollLeft > 1;
    const right = box.scrollLeft < more - 1;
    return left && right ? "both" : left ? "left" : right ? "right" : "";
  };
  // Where the scrollbar's thumb is, for the one book.css draws on touch screens (whose own scrollbars
  // show only while a finger moves them): its width and position, as shares of the box.
  // Returns the two custom properties to set (read only: no style is written here), or null.
  const thumb = (box) => {
    const range = box.scrollWidth - box.clientWidth;
    if (range <= 1) return null;
    return [`${((100 * box.clientWidth) / box.scrollWidth).toFixed(1)}%`, `${((100 * box.scrollLeft) / range).toFixed(1)}%`];
  };
  // Written only when it changes: a write, even of the same value, would make the next read lay the page out.
  const setThumb = (box, values) => {
    if (!values || box.nlpThumb === `${values}`) return;
    box.nlpThumb = `${values}`;
    box.style.setProperty("--nlp-thumb-w", values[0]);
    box.style.setProperty("--nlp-thumb-x", values[1]);
  };
  const onScroll = (event) => {
    const box = event.currentTarget;
    const more = edges(box);
    const values = thumb(box);
    if (box.dataset.more !== more) box.dataset.more = more;
    setThumb(box, values);
  };
  // Reads every box's size first, then writes (and only what changed): one layout for the whole page, not
  // one per box. A widget redraws some of its boxes at every step of a slider, so this runs at every step.
  const check = (boxes) => {
    const seen = boxes.map((box) => {
      const wide = box.scrollWidth > box.clientWidth + 1;
      return [box, wide, edges(box), wide ? thumb(box) : null];
    });
    for (const [box, wide, more, values] of seen) {
      if (box.classList.contains("nlp-overflows") !== wide) box.classList.toggle("nlp-overflows", wide);
      if (box.dataset.more !== more) box.dataset.more = more;
      setThumb(box, values);
      if (box.tagName === "MJX-CONTAINER") {
        // MathJax's own tabindex is -1 (out of the tab order): keep it so when the equation fits.
        const want = wide ? "0" : "-1";
        if (box.getAttribute("tabindex") !== want) box.setAttribute("tabindex", want);
      } else if (wide && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.dataset.nlpTab = "1";
      } else if (!wide && box.dataset.nlpTab) {
        box.removeAttribute("tabindex");
        delete box.dataset.nlpTab;
      }
      if (wide && !box.nlpScrollWatched) {
        box.addEventListener("scroll", onScroll, { passive: true });
        box.nlpScrollWatched = true;
      }
    }
  };
  const all = () => [...document.querySelectorAll(BOXES)];
  let pending = null;
  const later = (boxes) => {
    if (!pending) {
      pending = new Set();
      requestAnimationFrame(() => {
        const todo = [...pending].filter((b) => b.isConnected);
        pending = null;
        check(todo);
      });
    }
    boxes.forEach((b) => pending.add(b));
  };
  const start = () => {
    check(all());
    const article = document.querySelector("article") || document.body;
    new MutationObserver((records) => {
      const boxes = new Set();
      for (const r of records) {
        const target = r.target.nodeType === 1 ? r.target : r.target.parentElement;
        const inside = target && target.closest(BOXES);
        if (inside) boxes.add(inside);
        // A <details> opened: what it shows is laid out only now (a widget's folded table, say).
        if (r.attributeName === "open" && target.open) target.querySelectorAll(BOXES).forEach((b) => boxes.add(b));
        for (const node of r.addedNodes) {
          if (node.nodeType !== 1) continue;
          if (node.matches(BOXES)) boxes.add(node);
          if (node.firstElementChild) node.querySelectorAll(BOXES).forEach((b) => boxes.add(b));
        }
      }
      if (boxes.size) later([...boxes]);
    }).observe(article, { childList: true, subtree: true, attributes: true, attributeFilter: ["class", "open"] });
    let width = window.innerWidth;
    window.addEventListener("resize", () => {
      if (window.innerWidth === width) return;
      width = window.innerWidth;
      later(all());
    });
    // Images and web fonts change sizes after the first check; MathJax's fonts arrive after "load", when it
    // typesets an equation (checked when inserted, in a fallback font: too wide until its font is there).
    window.addEventListener("load", () => later(all()));
    if (document.fonts) document.fonts.addEventListener("loadingdone", () => later(all()));
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

// 2. The page's contents ("On this page") highlight the section being read. The theme's own highlight
// (an IntersectionObserver on a band at the top 30 % of the window) misses a section whose heading never
// crosses that band (the last short sections, "Quick checks" and "Exercises", at the end of the page),
// and keeps the old section when the reader scrolls back up. Here the section being read is the last
// one whose heading is above the reading line: 30 % down the window, moving to the window's bottom over
// the last screen of the page, so that scrolled to the end the last section is the one highlighted.
// The theme's handlers keep their (detached) copy of the list; the page shows this one.
(function () {
  "use strict";
  const start = () => {
    const old = document.querySelector("#pst-page-toc-nav");
    if (!old) return;
    const nav = old.cloneNode(true);
    old.replaceWith(nav);
    const links = [...nav.querySelectorAll("a.nav-link[href^='#']")];
    const entries = [...nav.querySelectorAll(".toc-entry")];
    const targets = links
      .map((link) => {
        const section = document.getElementById(decodeURIComponent(link.hash.slice(1)));
        if (!section) return null;
        const heading = section.matches("h1, h2, h3, h4, h5, h6") ? section : section.querySelector("h1, h2, h3, h4, h5, h6") || section;
        return { link, heading };
      })
      .filter(Boolean);
    if (!targets.length) return;
    const header = document.querySelector("#pst-header, .bd-header");
    let current = null;
    const show = (link) => {
      if (link === current) return;
      current = link;
      links.forEach((a) => {
        const on = a === link;
        a.classList.toggle("active", on);
        if (on) a.setAttribute("aria-current", "true");
        else a.removeAttribute("aria-current");
      });
      entries.forEach((e) => e.classList.toggle("active", !!link && e.contains(link)));
      // A long list scrolls inside the sidebar: keep the highlighted entry in view there.
      const box = link && nav.closest(".bd-sidebar-secondary");
      if (box && box.scrollHeight > box.clientHeight) {
        const r = link.getBoundingClientRect();
        const b = box.getBoundingClientRect();
        if (r.top < b.top || r.bottom > b.bottom) box.scrollTop += r.top - b.top - b.height / 3;
      }
    };
    const update = () => {
      const top = header ? Math.max(0, header.getBoundingClientRect().bottom) : 0;
      const view = window.innerHeight;
      const doc = document.documentElement;
      const left = doc.scrollHeight - (window.scrollY + view); // px still below the window
      const share = left >= view ? 0 : 1 - Math.max(0, left) / view; // 0 .. 1 over the last screen
      const line = top + (view - top) * (0.3 + 0.68 * share);
      let found = null;
      for (const t of targets) {
        if (t.heading.getBoundingClientRect().top <= line) found = t.link;
        else break;
      }
      show(found);
    };
    let queued = false;
    const onScroll = () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        update();
      });
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("resize", onScroll, { passive: true });
    window.addEventListener("hashchange", onScroll);
    window.addEventListener("load", onScroll);
    update();
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
