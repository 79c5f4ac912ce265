// Point require.js at the copies of the widget libraries that the book serves itself,
// so static pages render widgets without reaching a CDN. Paths are resolved against
// this script's own URL, which works for pages at any depth and over file://.
(function () {
  var here = document.currentScript && document.currentScript.src;
  var base = here ? here.slice(0, here.lastIndexOf("/") + 1) : "_static/";
  window.require.config({
    paths: {
      "@jupyter-widgets/html-manager/dist": base + "html-manager",
      anywidget: base + "anywidget/index",
    },
  });
})();
