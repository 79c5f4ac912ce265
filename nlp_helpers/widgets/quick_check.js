// QuickCheck: questions answered and judged on the page (no kernel). Each question is a <fieldset
// class="quick-check">. A choice is a group of native radio buttons, each inside its own <label> so the
// whole row is the tap target (keyboard: Tab to the group, arrows to move and pick); a number is an
// <input inputmode="decimal"> with a Check button (or Enter). Both have "Show the answer". Feedback is
// written into a live region (role="status") so screen readers announce it, and the verdict is said in
// words and a sign (✓/✗), never by colour alone.

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

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

// The number a reader typed, or null. Accepts "0.25", ".25", "-3", "1e-3", a decimal comma ("0,25"),
// the minus sign U+2212, spaces, and a fraction of two such numbers ("3/8"). Refuses "25%", "1,000".
export function parseNumber(text) {
  const t = String(text).trim().replace(/\u2212/g, "-").replace(/\s+/g, "");
  const parts = t.split("/");
  if (parts.length > 2) return null;
  const values = parts.map((p) => {
    const s = p.replace(/^([+-]?\d*),(\d+)$/, "$1.$2");
    return NUMBER.test(s) ? Number(s) : null;
  });
  if (values.includes(null)) return null;
  const x = values.length === 2 ? values[0] / values[1] : values[0];
  return Number.isFinite(x) ? x : null;
}

// |value - target| <= tolerance, the edge included despite binary rounding (QuickCheck's _within).
const SLACK = 1e-9;
const within = (value, target, tolerance) => Math.abs(value - target) <= tolerance * (1 + SLACK);

// Said after the sign and the verdict ("✗ Not quite. Try again, or show the answer."), so it does not
// repeat the verdict itself.
export const TRY_AGAIN = "Try again, or show the answer.";

// What the page says to `response` (an option index, or a number): {correct, feedback}. The same rule
// as QuickCheck.judge in Python (tests/widgets/test_widgets_quick_check.py runs both on the same cases).
export function judge(q, response) {
  if (q.kind === "choice") return { correct: response === q.answer, feedback: q.feedback[response] };
  if (within(response, q.answer, q.tolerance)) return { correct: true, feedback: q.explanation };
  for (const [value, feedback] of q.mistakes || []) {
    if (within(response, value, q.tolerance)) return { correct: false, feedback };
  }
  return { correct: false, feedback: TRY_AGAIN };
}

const WORD_NUMBERS = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };
const DECIMALS_ASKED = /\b(\d|one|two|three|four|five|six)\s+decimal(?:s|\s+places?)?\b/i;

// How many decimals the question asks for: what its prompt says ("to 2 decimals", "(Three decimals.)",
// "(1 decimal)"), else what its tolerance allows (± 0.005 is 2 decimals, ± 0.0005 is 3, ± 0.5 is 0).
export function decimalsAsked(q) {
  const m = String(q.prompt || "").match(DECIMALS_ASKED);
  if (m) {
    const word = m[1].toLowerCase();
    return word in WORD_NUMBERS ? WORD_NUMBERS[word] : Number(word);
  }
  return Math.min(12, Math.max(0, Math.ceil(-Math.log10(2 * q.tolerance) - 1e-9)));
}

// The answer as the reader would write it: to the precision the question asks (2.65 for "to 2
// decimals", 0.118 for ± 0.0005), not the float's 17 digits.
export function formatAnswer(q) {
  const text = String(Number(q.answer.toFixed(decimalsAsked(q))));
  return text === "-0" ? "0" : text;
}

// Feedback that opens with its own verdict ("Right: ...", "Not quite. ...") is not given a second one:
// the page writes "✓ Right: ..." rather than "✓ Right. Right: ...".
const SAYS_RIGHT = /^(?:right|correct|yes|exactly|indeed)\s*[.:!,;\u2014\u2013-]\s*/i;
const SAYS_WRONG = /^(?:not quite|no|wrong|incorrect)\s*[.:!,;\u2014\u2013-]\s*/i;

// The lead and the text of a verdict: {lead, text}.
export function verdictText(correct, feedback) {
  const text = String(feedback);
  if ((correct ? SAYS_RIGHT : SAYS_WRONG).test(text)) return { lead: correct ? "\u2713 " : "\u2717 ", text };
  return { lead: correct ? "\u2713 Right. " : "\u2717 Not quite. ", text };
}

// A revealed answer's explanation without the verdict it opens with ("Answer: 2.65. The ..."). The next
// word gets a capital when it is an ordinary word (not a symbol such as `n` or `b`).
export function withoutVerdict(feedback) {
  const text = String(feedback).replace(SAYS_RIGHT, "");
  return /^(?:[a-z]{2,}\b|a\s)/.test(text) ? text[0].toUpperCase() + text.slice(1) : text;
}

function say(box, verdict, lead, feedback) {
  box.replaceChildren(h("strong", { text: lead }), richText("span", feedback));
  box.className = `qc-feedback qc-${verdict}`;
  box.setAttribute("data-verdict", verdict);
}

function verdict(box, correct, feedback) {
  const { lead, text } = verdictText(correct, feedback);
  say(box, correct ? "right" : "wrong", lead, text);
}

function feedbackBox() {
  return h("div", { class: "qc-feedback", role: "status", "aria-live": "polite", "data-testid": "qc-feedback" });
}

function revealButton(onclick) {
  return h("button", { type: "button", class: "qc-reveal", text: "Show the answer", "data-testid": "qc-reveal", onclick });
}

function choiceQuestion(q, name) {
  const box = feedbackBox();
  const rows = [];
  const mark = (k, state) => {
    rows.forEach((row) => row.removeAttribute("data-state"));
    if (k !== null) rows[k].setAttribute("data-state", state);
  };
  q.options.forEach((text, k) => {
    const input = h("input", { type: "radio", name, value: String(k), "data-testid": "qc-option" });
    input.addEventListener("change", () => {
      const { correct, feedback } = judge(q, k);
      mark(k, correct ? "right" : "wrong");
      verdict(box, correct, feedback);
    });
    rows.push(h("label", { class: "qc-option", "data-index": String(k) }, [input, richText("span", text)]));
  });
  const reveal = revealButton(() => {
    mark(q.answer, "answer");
    const option = String(q.options[q.answer]);
    say(box, "shown", `Answer: ${option}${/[.?!]$/.test(option) ? "" : "."} `, withoutVerdict(q.feedback[q.answer]));
  });
  return [h("div", { class: "qc-options" }, rows), h("div", { class: "qc-actions" }, [reveal]), box];
}

function numericQuestion(q) {
  const box = feedbackBox();
  const id = uid("qc");
  const input = h("input", {
    type: "text",
    inputmode: "decimal",
    id,
    autocomplete: "off",
    spellcheck: "false",
    "data-testid": "qc-input",
  });
  const check = () => {
    const x = parseNumber(input.value);
    if (x === null) {
      box.replaceChildren(h("span", { text: "Type a number, such as 0.25, -3 or 3/8." }));
      box.className = "qc-feedback qc-invalid";
      box.setAttribute("data-verdict", "invalid");
      input.setAttribute("aria-invalid", "true");
      return;
    }
    input.removeAttribute("aria-invalid");
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
  const reveal = revealButton(() => say(box, "shown", `Answer: ${formatAnswer(q)}. `, withoutVerdict(q.explanation)));
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
      root.setAttribute("data-check-id", base);
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
