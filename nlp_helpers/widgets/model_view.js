// AttentionModelView: all attention maps of a model (layers x heads) on one canvas, one enlarged.
// _common.js (h, svg, select, cividis, srOnly, setTrait) is prepended by assets.load_esm.
// The grid is painted once (it never changes); a selection only moves the outline, repaints the
// enlarged map and refills its table, once per animation frame.

const THUMB = 44; // px per thumbnail
const GAP = 6;
const BIG_CELL = 26;
const raf = typeof requestAnimationFrame === "function" ? requestAnimationFrame : (fn) => (fn(), null);

// Which thumbnail (layer, head) is under the canvas point (x, y) in CSS pixels of the drawing.
export function thumbAt(x, y, geometry) {
  const { left, top, L, H } = geometry;
  const c = Math.floor((x - left) / (THUMB + GAP));
  const r = Math.floor((y - top) / (THUMB + GAP));
  if (c < 0 || r < 0 || c >= H || r >= L) return null;
  return [r, c];
}

function render({ model, el }) {
  const get = (k) => model.get(k);
  const root = h("div", { class: "nlpw nlpw-modelview", "data-testid": "mv-root" });
  el.replaceChildren(root);
  const title = h("div", { class: "nlpw-title", text: get("title") });
  title.hidden = !get("title");
  const controls = h("div", { class: "nlpw-controls" });
  const gridCanvas = h("canvas", {
    class: "nlpw-canvas",
    tabindex: "0",
    role: "img",
    "data-testid": "mv-grid",
    style: "touch-action: manipulation",
  });
  const readout = h("div", { class: "nlpw-readout", "aria-live": "polite", "data-testid": "mv-readout" });
  const bigCanvas = h("canvas", { class: "nlpw-canvas", role: "img", "data-testid": "mv-big" });
  const tableBox = h("details", { class: "nlpw-details" }, [h("summary", { text: "The enlarged map as a table" })]);
  const drawing = h("div", { class: "nlpw-drawing" }, [gridCanvas]);
  const bigBox = h("div", { class: "nlpw-drawing" }, [bigCanvas]);
  root.append(title, controls, drawing, readout, bigBox, tableBox);

  const L = get("weights").length;
  const H = get("weights")[0].length;
  const tokens = get("tokens");
  const n = tokens.length;
  const ratio = (typeof window !== "undefined" && window.devicePixelRatio) || 1;
  const ink = () => (typeof getComputedStyle === "function" && getComputedStyle(gridCanvas).color) || "#222";

  // ---- controls: the same choice as a click on the grid, for keyboards and screen readers ----
  const layerSel = select({
    label: "Layer",
    options: get("layer_labels").map((label, i) => ({ value: i, label })),
    value: get("layer"),
    onChange: (v) => choose(Number(v), get("head")),
  });
  layerSel.input.setAttribute("data-testid", "mv-layer");
  const headSel = select({
    label: "Head",
    options: get("head_labels").map((label, i) => ({ value: i, label })),
    value: get("head"),
    onChange: (v) => choose(get("layer"), Number(v)),
  });
  headSel.input.setAttribute("data-testid", "mv-head");
  controls.append(layerSel.root, headSel.root);

  // ---- the grid, painted once ----------------------------------------------------------------
  const left = 64;
  const top = 20;
  const geometry = { left, top, L, H };
  const GW = left + H * (THUMB + GAP);
  const GH = top + L * (THUMB + GAP);
  gridCanvas.width = Math.round(GW * ratio);
  gridCanvas.height = Math.round(GH * ratio);
  gridCanvas.style.width = "100%";
  gridCanvas.style.maxWidth = `${GW}px`;
  legible(gridCanvas, GW);
  gridCanvas.style.aspectRatio = `${GW} / ${GH}`;
  gridCanvas.setAttribute(
    "aria-label",
    `All ${L * H} attention maps, ${L} layers (rows) by ${H} heads (columns). Click or tap a map, ` +
      "or focus here and use the arrow keys, to enlarge it below."
  );
  const gctx = typeof gridCanvas.getContext === "function" ? gridCanvas.getContext("2d") : null;
  let gridImage = null;

  function paintGrid() {
    if (!gctx) return;
    const w = get("weights");
    gctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    gctx.clearRect(0, 0, GW, GH);
    const px = THUMB / n;
    for (let l = 0; l < L; l++) {
      for (let hh = 0; hh < H; hh++) {
        const x0 = left + hh * (THUMB + GAP);
        const y0 = top + l * (THUMB + GAP);
        const m = w[l][hh];
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < n; j++) {
            gctx.fillStyle = cividis(m[i][j]);
            gctx.fillRect(x0 + j * px, y0 + i * px, px + 0.5, px + 0.5);
          }
        }
      }
    }
    gctx.fillStyle = ink();
    gctx.font = "11px sans-serif";
    gctx.textAlign = "right";
    get("layer_labels").forEach((t, l) => gctx.fillText(t, left - 6, top + l * (THUMB + GAP) + THUMB / 2 + 4));
    gctx.textAlign = "center";
    get("head_labels").forEach((t, hh) => {
      const short = t.replace(/^Head\s*/i, "");
      gctx.fillText(short, left + hh * (THUMB + GAP) + THUMB / 2, top - 6);
    });
    gctx.textAlign = "left";
    gctx.fillText("head →", 2, top - 6);
    gridImage = gctx.getImageData ? gctx.getImageData(0, 0, gridCanvas.width, gridCanvas.height) : null;
  }

  function outline(l, hh) {
    if (!gctx) return;
    if (gridImage) gctx.putImageData(gridImage, 0, 0);
    gctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    gctx.lineWidth = 3;
    gctx.strokeStyle = "#d55e00";
    gctx.strokeRect(left + hh * (THUMB + GAP) - 2, top + l * (THUMB + GAP) - 2, THUMB + 4, THUMB + 4);
  }

  // ---- the enlarged map ----------------------------------------------------------------------
  const labelW = Math.min(120, 10 + 7 * Math.max(...tokens.map((t) => t.length)));
  const BW = labelW + n * BIG_CELL + 8;
  const BH = labelW * 0.82 + 14 + n * BIG_CELL + 8;
  bigCanvas.width = Math.round(BW * ratio);
  bigCanvas.height = Math.round(BH * ratio);
  bigCanvas.style.width = "100%";
  bigCanvas.style.maxWidth = `${BW}px`;
  legible(bigCanvas, BW);
  bigCanvas.style.aspectRatio = `${BW} / ${BH}`;
  const bctx = typeof bigCanvas.getContext === "function" ? bigCanvas.getContext("2d") : null;

  function paintBig(m) {
    if (!bctx) return;
    const bt = labelW * 0.82 + 14;
    bctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    bctx.clearRect(0, 0, BW, BH);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        bctx.fillStyle = cividis(m[i][j]);
        bctx.fillRect(labelW + j * BIG_CELL, bt + i * BIG_CELL, BIG_CELL - 1, BIG_CELL - 1);
      }
    }
    bctx.fillStyle = ink();
    bctx.font = "11px sans-serif";
    bctx.textAlign = "right";
    tokens.forEach((t, i) => bctx.fillText(t, labelW - 4, bt + i * BIG_CELL + BIG_CELL / 2 + 4));
    bctx.textAlign = "left";
    tokens.forEach((t, j) => {
      bctx.save();
      bctx.translate(labelW + j * BIG_CELL + BIG_CELL / 2 + 4, bt - 4);
      bctx.rotate(-Math.PI / 2.8);
      bctx.fillText(t, 0, 0);
      bctx.restore();
    });
  }

  // ---- the table (text alternative, and the numbers the tests read) ---------------------------
  const cells = tokens.map((_, i) => tokens.map((_, j) => h("td", { "data-testid": `mv-cell-${i}-${j}` })));
  tableBox.append(
    h("table", { "data-testid": "mv-table" }, [
      h("thead", {}, h("tr", {}, [h("th", { text: "query \\ key" }), ...tokens.map((t) => h("th", { scope: "col", text: t }))])),
      h("tbody", {}, tokens.map((t, i) => h("tr", {}, [h("th", { scope: "row", text: t }), ...cells[i]]))),
    ])
  );

  let frame = null;
  function choose(l, hh) {
    const [ll, hc] = [Math.max(0, Math.min(L - 1, l)), Math.max(0, Math.min(H - 1, hh))];
    setTrait(model, "layer", ll);
    setTrait(model, "head", hc);
  }

  function update() {
    const l = get("layer");
    const hh = get("head");
    const m = get("weights")[l][hh];
    if (layerSel.input.value !== String(l)) layerSel.input.value = String(l);
    if (headSel.input.value !== String(hh)) headSel.input.value = String(hh);
    m.forEach((row, i) =>
      row.forEach((v, j) => {
        cells[i][j].setAttribute("data-weight", String(v));
        cells[i][j].textContent = v.toFixed(3);
      })
    );
    const strongest = m.map((row, i) => {
      const best = row.indexOf(Math.max(...row));
      return `${tokens[i]} → ${tokens[best]}`;
    });
    readout.textContent = `${get("layer_labels")[l]}, ${get("head_labels")[hh]} (enlarged below). Strongest key per query: ${strongest.join("; ")}`;
    bigCanvas.setAttribute("aria-label", `Attention map of ${get("layer_labels")[l]}, ${get("head_labels")[hh]}: rows are queries, columns keys; the table below has the numbers`);
    if (frame === null) {
      frame = raf(() => {
        frame = null;
        outline(get("layer"), get("head"));
        paintBig(get("weights")[get("layer")][get("head")]);
      }) ?? null;
    }
  }

  gridCanvas.addEventListener("click", (ev) => {
    const rect = gridCanvas.getBoundingClientRect();
    const sx = GW / (rect.width || GW);
    const hit = thumbAt((ev.clientX - rect.left) * sx, (ev.clientY - rect.top) * sx, geometry);
    if (hit) choose(...hit);
  });
  gridCanvas.addEventListener("keydown", (ev) => {
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (!(ev.key in moves)) return;
    ev.preventDefault();
    const [dl, dh] = moves[ev.key];
    choose(get("layer") + dl, get("head") + dh);
  });

  paintGrid();
  update();
  model.on("change:layer", update);
  model.on("change:head", update);
}

export default { render };
