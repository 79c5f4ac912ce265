// QuickCheck: questions answered and judged on the page (no kernel). Each question is a <fieldset
// class="quick-check">; a choice is a group of native radio buttons (keyboard: Tab to the group, arrows
// to move, Space to pick), a number is an <input inputmode="decimal"> with a Check button. Feedback is
// written into a live region so screen readers announce it.

// Text with `code` spans: backticked parts become <code>, everything else stays text (never innerHTML).
function richText(tag, text, attrs = {}) {
  const node = h(tag, attrs);
  String(text)
    .split(/(`[^`]+`)/)
    .forEach((part) => {
      if (part.startsWith("`") && part.endsWith("`") && part.length > 2) node.append(h("code", { text: part.slice(1, -1) }));
      else if (part) node.append(document.createTextNode(part));
    });
  return node;
}

export function parseNumber(text) {
  // Accept "0.25", ".25", "1,5" (decimal comma), "-3", "1e-3", "25%" (-> 0.25 is NOT applied: % is refused).
  const t = String(text).trim().replace(/\u2212/g, "-").replace(/^([+-]?\d*),(\d+)$/, "$1.$2");
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return null;
  const x = Number(t);
  return Number.isFinite(x) ? x : null;
}

export function judge(q, response) {
  if (q.kind === "choice") return { correct: response === q.answer, feedback: q.feedback[response] };
  if (Math.abs(response - q.answer) <= q.tolerance) return { correct: true, feedback: q.explanation };
  for (const [value, feedback] of q.mistakes || []) {
    if (Math.abs(response - value) <= q.tolerance) return { correct: false, feedback };
  }
  return { correct: false, feedback: "Not quite. Try again, or show the answer." };
}

function verdict(box, correct, feedback) {
  box.replaceChildren(
    h("strong", { text: correct ? "✓ Right. " : "✗ Not quite. " }),
    richText("span", feedback),
  );
  box.className = `qc-feedback ${correct ? "qc-right" : "qc-wrong"}`;
  box.dataset.verdict = correct ? "right" : "wrong";
}

function choiceQuestion(q, name) {
  const box = h("div", { class: "qc-feedback", role: "status", "aria-live": "polite", "data-testid": "qc-feedback" });
  const options = q.options.map((text, k) => {
    const id = uid("qc");
    const input = h("input", { type: "radio", name, id, value: String(k), "data-testid": "qc-option" });
    input.addEventListener("change", () => {
      const { correct, feedback } = judge(q, k);
      verdict(box, correct, feedback);
    });
    return h("div", { class: "qc-option" }, [input, richText("label", text, { for: id })]);
  });
  return [h("div", { class: "qc-options" }, options), box];
}

function numericQuestion(q) {
  const box = h("div", { class: "qc-feedback", role: "status", "aria-live": "polite", "data-testid": "qc-feedback" });
  const id = uid("qc");
  const input = h("input", { type: "text", inputmode: "decimal", id, autocomplete: "off", "data-testid": "qc-input" });
  const check = () => {
    const x = parseNumber(input.value);
    if (x === null) {
      box.replaceChildren(h("span", { text: "Type a number, such as 0.25 or -3." }));
      box.className = "qc-feedback";
      box.dataset.verdict = "invalid";
      return;
    }
    const { correct, feedback } = judge(q, x);
    verdict(box, correct, feedback);
  };
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      check();
    }
  });
  const button = h("button", { type: "button", text: "Check", "data-testid": "qc-check", onclick: check });
  const reveal = h("button", {
    type: "button",
    class: "qc-reveal",
    text: "Show the answer",
    "data-testid": "qc-reveal",
    onclick: () => {
      box.replaceChildren(h("strong", { text: `Answer: ${q.answer}. ` }), richText("span", q.explanation));
      box.className = "qc-feedback qc-shown";
      box.dataset.verdict = "shown";
    },
  });
  return [
    h("div", { class: "qc-numeric" }, [h("label", { for: id, text: "Your answer" }), input, button, reveal]),
    box,
  ];
}

export default {
  render({ model, el }) {
    const root = h("div", { class: "nlpw nlpw-qc", "data-testid": "quick-checks" });
    const draw = () => {
      const questions = model.get("questions") || [];
      const base = model.get("check_id") || "qc";
      root.replaceChildren(
        ...questions.map((q, i) => {
          const legend = h("legend", {}, [h("span", { class: "qc-number", text: `${i + 1}. ` }), richText("span", q.prompt)]);
          const body = q.kind === "choice" ? choiceQuestion(q, `${base}-${i}-${uid("n")}`) : numericQuestion(q);
          return h("fieldset", { class: "quick-check", "data-kind": q.kind, "data-index": String(i) }, [legend, ...body]);
        }),
      );
    };
    draw();
    model.on("change:questions", draw);
    el.append(root);
  },
};
