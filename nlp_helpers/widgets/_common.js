// Shared helpers, prepended to every widget's ES module by nlp_helpers.widgets.assets.load_esm.
// Rules: user/data text goes in with textContent (never innerHTML); every control
// is a native, labelled, keyboard-operable element; colours come from cividis,
// which reads for all common colour-vision deficiencies.

const SVG_NS = "http://www.w3.org/2000/svg";

// Create an element. `text` is inserted as a text node, so "<img onerror=...>" stays text.
function h(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = String(v);
    else if (k === "class") node.className = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of [].concat(children)) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = String(v);
    else node.setAttribute(k, v);
  }
  return node;
}

// Show `nodes` as the children of `parent`, updating what it shows in place when the new nodes have the
// same shape (tags and number of children, all the way down): only changed text and attributes reach the
// page, so a redraw that changes numbers, not structure, restyles those numbers and nothing else.
// Otherwise the children are replaced. The new nodes must not carry event listeners (they are dropped).
function patchChildren(parent, nodes) {
  const shown = parent.childNodes;
  if (shown.length === nodes.length && nodes.every((n, k) => _sameShape(shown[k], n))) {
    nodes.forEach((n, k) => _copyInto(shown[k], n));
  } else parent.replaceChildren(...nodes);
}

const _kind = (node) => node.tagName || "#text";

function _sameShape(a, b) {
  if (a === b) return true;
  if (_kind(a) !== _kind(b) || a.childNodes.length !== b.childNodes.length) return false;
  for (let k = 0; k < a.childNodes.length; k++) if (!_sameShape(a.childNodes[k], b.childNodes[k])) return false;
  return true;
}

function _copyInto(a, b) {
  if (a === b) return;
  if (_kind(a) === "#text") {
    if (a.textContent !== b.textContent) a.textContent = b.textContent;
    return;
  }
  for (const name of b.getAttributeNames()) if (a.getAttribute(name) !== b.getAttribute(name)) a.setAttribute(name, b.getAttribute(name));
  for (const name of a.getAttributeNames()) {
    if (b.getAttribute(name) === null && name !== "open") a.removeAttribute(name); // a <details> the reader opened stays open
  }
  for (let k = 0; k < a.childNodes.length; k++) _copyInto(a.childNodes[k], b.childNodes[k]);
}

let _uid = 0;
// `draw` wrapped so that all the changes one input makes (the control's own event and the model's echo)
// give one redraw: it runs after the input handler, in a microtask, and still before the next frame.
function batchedDraw(draw) {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      draw();
    });
  };
}

function uid(prefix = "nlpw") {
  _uid += 1;
  return `${prefix}-${Date.now().toString(36)}-${_uid}`;
}

// A labelled range slider. Returns {root, input, set(value)}; onInput(value) gets a Number.
function slider({ label, min, max, step = 1, value, onInput, format = (v) => String(v) }) {
  const id = uid("slider");
  const out = h("output", { for: id, class: "nlpw-value", "aria-live": "polite", text: format(value) });
  const input = h("input", { type: "range", id, min, max, step, value: String(value) });
  input.addEventListener("input", () => {
    const v = Number(input.value);
    out.textContent = format(v);
    onInput(v);
  });
  const root = h("div", { class: "nlpw-control" }, [h("label", { for: id, text: label }), input, out]);
  return {
    root,
    input,
    // Shows v in the slider and its readout (each written only when it changes). Call it whenever the
    // value may have moved: a browser clamps a range input itself when its max shrinks, and the readout
    // must follow.
    set(v) {
      if (input.value !== String(v)) input.value = String(v);
      const text = format(Number(v));
      if (out.textContent !== text) out.textContent = text;
    },
  };
}

// A labelled <select>. options: array of {value, label}.
function select({ label, options, value, onChange }) {
  const id = uid("select");
  const sel = h("select", { id });
  for (const o of options) {
    const opt = h("option", { value: String(o.value), text: o.label });
    if (String(o.value) === String(value)) opt.selected = true;
    sel.append(opt);
  }
  sel.addEventListener("change", () => onChange(sel.value));
  return { root: h("div", { class: "nlpw-control" }, [h("label", { for: id, text: label }), sel]), input: sel };
}

// A labelled checkbox.
function checkbox({ label, checked, onChange }) {
  const id = uid("check");
  const box = h("input", { type: "checkbox", id });
  box.checked = !!checked;
  box.addEventListener("change", () => onChange(box.checked));
  return { root: h("div", { class: "nlpw-control" }, [box, h("label", { for: id, text: label })]), input: box };
}

// Cividis colour map (Nuñez et al. 2018), 9 stops, linear interpolation. t in [0, 1].
const CIVIDIS = [
  [0, 34, 78], [18, 53, 112], [59, 73, 108], [87, 93, 109], [112, 113, 115],
  [138, 134, 120], [165, 156, 116], [195, 179, 105], [254, 232, 56],
];
function cividis(t) {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (CIVIDIS.length - 1);
  const i = Math.min(CIVIDIS.length - 2, Math.floor(x));
  const f = x - i;
  const c = CIVIDIS[i].map((a, k) => Math.round(a + f * (CIVIDIS[i + 1][k] - a)));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}
// Text colour that stays readable on a cividis cell.
function textOn(t) {
  return t > 0.6 ? "#000" : "#fff";
}

// Numerically stable softmax of an array at a temperature (> 0); -Infinity entries get 0.
function softmax(xs, temperature = 1) {
  const scaled = xs.map((x) => x / temperature);
  const m = Math.max(...scaled.filter((x) => Number.isFinite(x)));
  if (!Number.isFinite(m)) return xs.map(() => 0);
  const e = scaled.map((x) => (Number.isFinite(x) ? Math.exp(x - m) : 0));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

function fmt(x, digits = 3) {
  const v = Number(x);
  if (v === -Infinity) return "−∞"; // log 0: never "-Infinity"
  if (v === Infinity) return "∞";
  return v.toFixed(digits);
}

// A drawing that stays legible on a phone (widgets.css, max-width 600 px): it keeps its natural width
// `width`, so its text stays at the size it was drawn (at least 11 px); one wider than the column scrolls
// sideways in its frame (a div.nlpw-drawing or .nlp-scroll around it), which the book's page marks with a
// faded edge and a visible scrollbar. Widgets that can draw narrower do so on a phone (narrowScreen).
function legible(node, width) {
  const cls = node.getAttribute("class") || "";
  if (!cls.split(" ").includes("nlpw-legible")) node.setAttribute("class", `${cls} nlpw-legible`.trim());
  if (node.style && typeof node.style.setProperty === "function") node.style.setProperty("--nlpw-w", `${Math.ceil(width)}px`);
  return node;
}

// True in a phone-sized window (the widths widgets.css lays out for phones): a widget that can be drawn
// narrower (a bar chart's bars, a map, a plot's axis) then draws at a width that fits a phone's column,
// at the same text size. Chosen when the widget is drawn; false where there is no window (Node tests).
function narrowScreen() {
  return typeof matchMedia === "function" && matchMedia("(max-width: 600px)").matches;
}

// A visually hidden element for screen readers (text alternative of a drawing).
function srOnly(text) {
  return h("div", { class: "nlpw-sr-only", text });
}

// Set a trait and tell the kernel, if there is one. On the static page no kernel listens and
// save_changes may throw; the widget then simply keeps working in the browser.
function setTrait(model, name, value) {
  model.set(name, value);
  try {
    model.save_changes();
  } catch (e) {
    /* static page: no kernel to tell */
  }
}
