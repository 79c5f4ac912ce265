// The book's widgets on the static page: a small renderer for the anywidget views a built chapter
// embeds, in place of the 3.6 MB ipywidgets HTML manager (which also carries every ipywidgets control
// the book never uses).
//
// A built page holds one <script type="application/vnd.jupyter.widget-state+json"> with every model's
// state, and a <script type="application/vnd.jupyter.widget-view+json"> where each view goes. Every
// widget of the book is an anywidget: its state carries its ES module (_esm) and stylesheet (_css), and
// the module's render({ model, el }) draws it. Here a model is the state plus the part of the Backbone
// model API those modules use: get, set (which fires "change:<name>" at once, as Backbone does), on,
// off, save_changes and send (no kernel listens on a static page, so they do nothing).
(function () {
  "use strict";

  const STATE = 'script[type="application/vnd.jupyter.widget-state+json"]';
  const VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]';

  function same(a, b) {
    if (a === b) return true;
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
    return JSON.stringify(a) === JSON.stringify(b);
  }

  function createModel(entry) {
    const state = Object.assign({}, entry.state);
    const listeners = new Map();
    const fire = (event, payload) => (listeners.get(event) || []).slice().forEach((cb) => cb(payload));
    const model = {
      get: (name) => state[name],
      set(name, value) {
        const old = state[name];
        state[name] = value;
        if (!same(old, value)) {
          fire(`change:${name}`, { name, old, new: value });
          fire("change", { name, old, new: value });
        }
      },
      on(events, callback) {
        for (const e of String(events).split(/\s+/)) {
          if (!listeners.has(e)) listeners.set(e, []);
          listeners.get(e).push(callback);
        }
      },
      off(events, callback) {
        for (const e of String(events || "").split(/\s+/)) {
          if (!e) listeners.clear();
          else if (!callback) listeners.delete(e);
          else listeners.set(e, (listeners.get(e) || []).filter((cb) => cb !== callback));
        }
      },
      save_changes() {},
      send() {},
    };
    return model;
  }

  // A widget module is evaluated at once when it is plain code whose only module syntax is
  // `export` in front of declarations and one `export default`: that is every module of the book, and
  // it lets the widgets draw while the page's other deferred scripts (MathJax, the theme) still wait
  // their turn. Anything else (an import, `export { ... }`, import.meta) goes through a real dynamic
  // import() of the source, which the browser runs only after those scripts.
  const EXPORT_DECLARATION = /^export\s+(?=(?:async\s+)?function\b|class\b|const\b|let\b|var\b)/gm;
  const OTHER_MODULE_SYNTAX = /^\s*import[\s{*"'(]|\bimport\.meta\b|^\s*export\s*[{*]|\bawait\b/m;
  function evaluateNow(source) {
    const defaults = source.match(/^export default\s/gm) || [];
    if (defaults.length !== 1 || OTHER_MODULE_SYNTAX.test(source)) return null;
    const body = source.replace(EXPORT_DECLARATION, "").replace(/^export default\s/m, "__module.default = ");
    const __module = {};
    new Function("__module", `"use strict";\n${body}`)(__module);
    return __module;
  }

  const modules = new Map(); // the same widget class on a page is evaluated once
  function loadModule(source) {
    if (!modules.has(source)) {
      let loaded = null;
      try {
        loaded = evaluateNow(source);
      } catch (err) {
        console.warn("widget module evaluated as a real module instead:", err);
      }
      if (loaded) modules.set(source, loaded);
      else {
        const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
        modules.set(source, import(url).finally(() => URL.revokeObjectURL(url)));
      }
    }
    return modules.get(source);
  }

  const styles = new Set();
  function addStyle(css) {
    if (!css || styles.has(css)) return;
    styles.add(css);
    const style = document.createElement("style");
    style.textContent = css;
    document.head.append(style);
  }

  const live = new Map(); // one model per id: two views of one widget stay in step
  async function renderView(script, models) {
    const { model_id: id } = JSON.parse(script.textContent);
    const entry = models[id];
    const host = document.createElement("div");
    host.className = "widget-subarea";
    const el = document.createElement("div");
    el.className = "jupyter-widgets nlpw-host";
    host.append(el);
    script.after(host);
    if (!entry || entry.model_module !== "anywidget") {
      el.textContent = "This widget needs a running Python kernel: open the chapter in JupyterLab, Binder or Colab.";
      return;
    }
    addStyle(entry.state._css);
    const widget = (await loadModule(entry.state._esm)).default;
    if (!live.has(id)) live.set(id, createModel(entry));
    const model = live.get(id);
    const definition = typeof widget === "function" ? await widget() : widget;
    if (definition.initialize) await definition.initialize({ model });
    await definition.render({ model, el });
  }

  // Each view is drawn once. The page loads this script right after its first widget view, as a plain
  // (parser-blocking) script, so the first widget is drawn while the rest of the page is still parsed and
  // the browser can paint it before the deferred scripts (MathJax, the theme) run. The views parsed later
  // are drawn as soon as the whole document is parsed: the document becomes "interactive" before the
  // deferred scripts run. Loaded any other way (deferred, or after parsing), it draws every view at once.
  const drawn = new WeakSet();
  let models = null;
  function renderAll() {
    if (!models) {
      const stateScript = document.querySelector(STATE);
      if (!stateScript) return Promise.resolve();
      models = JSON.parse(stateScript.textContent).state;
    }
    const views = [...document.querySelectorAll(VIEW)].filter((script) => !drawn.has(script));
    views.forEach((script) => drawn.add(script));
    return Promise.all(
      views.map((script) => renderView(script, models).catch((err) => console.error("widget failed to render:", err)))
    );
  }

  renderAll();
  if (document.readyState === "loading") {
    document.addEventListener("readystatechange", function parsed() {
      if (document.readyState === "loading") return;
      document.removeEventListener("readystatechange", parsed);
      renderAll();
    });
  }
})();
