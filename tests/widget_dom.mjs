// A tiny DOM for running the book's widget modules under Node, without a browser.
// Usage: node widget_dom.mjs <widget.mjs> <state.json> <actions.json>
// It renders the widget with a fake anywidget model, applies the actions (set a control's value and
// fire its event, click, or press a key: {testid, key}), and prints JSON {testid: {text, value, attrs}} of every element with a data-testid.
// Only what the widgets use is implemented; it is a smoke test, the real check is the browser test.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

class Node_ {
  constructor() { this.childNodes = []; this.parentNode = null; this._listeners = {}; }
  append(...kids) { for (const k of kids) { const n = typeof k === "string" ? new Text_(k) : k; if (n.parentNode) n.remove(); n.parentNode = this; this.childNodes.push(n); } }
  appendChild(k) { this.append(k); return k; }
  replaceChildren(...kids) { for (const c of this.childNodes) c.parentNode = null; this.childNodes = []; this.append(...kids); }
  remove() { if (this.parentNode) { const p = this.parentNode; p.childNodes = p.childNodes.filter((c) => c !== this); this.parentNode = null; } }
  get textContent() { return this.childNodes.map((c) => c.textContent).join(""); }
  set textContent(v) { this.replaceChildren(new Text_(String(v))); }
  addEventListener(type, fn) { (this._listeners[type] ||= []).push(fn); }
  dispatch(type, ev = {}) { for (const fn of this._listeners[type] || []) fn({ type, target: this, preventDefault() {}, ...ev }); }
  get children() { return this.childNodes.filter((c) => c instanceof Element_); }
  *walk() { for (const c of this.children) { yield c; yield* c.walk(); } }
  querySelector(sel) { for (const n of this.walk()) if (n.matches(sel)) return n; return null; }
  querySelectorAll(sel) { return [...this.walk()].filter((n) => n.matches(sel)); }
}
class Text_ extends Node_ {
  constructor(t) { super(); this.data = t; }
  get textContent() { return this.data; }
  set textContent(v) { this.data = String(v); }
}
class Element_ extends Node_ {
  constructor(tag) { super(); this.tagName = tag.toUpperCase(); this.attributes = {}; this.style = {}; this._value = ""; this.checked = false; this.disabled = false; this.hidden = false; this.title = ""; this.selected = false; }
  setAttribute(k, v) {
    this.attributes[k] = String(v); if (k === "value") this._value = String(v); if (k === "id") this.id = String(v);
    // as a browser does, a range input's value stays inside its (new) min and max
    if (this.tagName === "INPUT" && this.attributes.type === "range" && (k === "min" || k === "max") && this._value !== "") {
      const lo = Number(this.attributes.min ?? 0), hi = Number(this.attributes.max ?? 100);
      this._value = String(Math.min(Math.max(Number(this._value), lo), Math.max(lo, hi)));
    }
  }
  getAttribute(k) { return k in this.attributes ? this.attributes[k] : null; }
  getAttributeNames() { return Object.keys(this.attributes); }
  removeAttribute(k) { delete this.attributes[k]; }
  set className(v) { this.attributes.class = v; }
  get className() { return this.attributes.class || ""; }
  get value() {
    if (this.tagName === "SELECT") { const opts = this.querySelectorAll("option"); const s = opts.find((o) => o.selected) || opts[0]; return s ? s.getAttribute("value") : ""; }
    return this._value;
  }
  set value(v) {
    if (this.tagName === "SELECT") { for (const o of this.querySelectorAll("option")) o.selected = o.getAttribute("value") === String(v); return; }
    this._value = String(v);
  }
  matches(sel) {
    if (sel.startsWith("[data-testid=")) return this.attributes["data-testid"] === sel.slice(14, -2);
    return this.tagName === sel.toUpperCase();
  }
}
globalThis.document = {
  createElement: (t) => new Element_(t),
  createElementNS: (_ns, t) => new Element_(t),
  createTextNode: (t) => new Text_(t),
};
globalThis.Node = Node_;

const [modPath, statePath, actionsPath] = process.argv.slice(2);
const mod = await import(pathToFileURL(modPath).href);
const state = JSON.parse(readFileSync(statePath, "utf-8"));
const handlers = {};
const model = {
  get: (k) => state[k],
  set: (k, v) => { state[k] = v; for (const fn of handlers[`change:${k}`] || []) fn(); },
  on: (ev, fn) => { (handlers[ev] ||= []).push(fn); },
  save_changes() {},
};
const el = new Element_("div");
mod.default.render({ model, el });
for (const a of JSON.parse(readFileSync(actionsPath, "utf-8"))) {
  const node = el.querySelector(`[data-testid="${a.testid}"]`);
  if (!node) throw new Error(`no element with data-testid ${a.testid}`);
  if ("checked" in a) { node.checked = a.checked; node.dispatch("change"); }
  else if (a.click) node.dispatch("click");
  else if (a.key) node.dispatch("keydown", { key: a.key });
  else { node.value = a.value; node.dispatch(node.tagName === "SELECT" ? "change" : "input"); }
  await Promise.resolve(); // a redraw a widget queued as a microtask runs, as in a browser before the next frame
}
const out = {};
for (const n of el.walk()) {
  const id = n.attributes["data-testid"];
  if (id) {
    // hidden_in: the element or one of its ancestors is hidden (not shown to the reader)
    let hiddenIn = false;
    for (let p = n; p; p = p.parentNode) if (p.hidden) hiddenIn = true;
    out[id] = { text: n.textContent, value: n.value, checked: n.checked, disabled: n.disabled, hidden_in: hiddenIn, attrs: n.attributes, tag: n.tagName };
  }
}
out.__state = state;
console.log(JSON.stringify(out));
