"""Checkers for the exercises of the page "Decoding beyond sampling" (``book/sampling/decoding.ipynb``).

* :func:`check_best_draft_length`: the draft length with the largest expected speed-up of
  speculative decoding (compared with :func:`nlp_helpers.sampling.speculative.speculative_speedup`).
* :func:`check_choose_option`: greedy decoding constrained to a list of allowed token sequences.
* :func:`check_contrastive_search`: contrastive search (Su et al., 2022) on a small deterministic toy model.

Each checker computes the right answer with a reference of its own, and the answers of typical mistakes,
so that a wrong answer gets a hint naming the mistake it matches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.sampling.speculative import speculative_speedup

__all__ = ["check_best_draft_length", "check_choose_option", "check_contrastive_search"]


# --------------------------------------------------------------------------- the best draft length
def _best_gamma(alpha: float, c: float, max_gamma: int) -> tuple[int, float]:
    speedups = [speculative_speedup(alpha, g, c) for g in range(1, max_gamma + 1)]
    best = int(np.argmax(speedups))  # the first maximum: the smallest gamma on a tie
    return best + 1, speedups[best]


def check_best_draft_length(fn: Callable) -> CheckResult:
    """``fn(alpha, c, max_gamma)`` -> ``(gamma, speedup)``: the draft length of largest expected speed-up."""
    with Checker("The best draft length") as ex:
        cases = [(0.6, 0.1, 10), (0.9, 0.05, 20), (0.8, 0.3, 6), (0.95, 0.01, 8), (0.5, 0.0, 5), (0.1, 0.5, 4)]
        for alpha, c, max_gamma in cases:
            got = ex.call(fn, alpha, c, max_gamma)
            what = f"best_draft_length({alpha}, {c}, {max_gamma})"
            ex.expect(
                isinstance(got, tuple) and len(got) == 2,
                f"{what} should return a tuple (gamma, speedup), got {type(got).__name__} {got!r:.60}.",
            )
            want_g, want_s = _best_gamma(alpha, c, max_gamma)
            gamma, speedup = got
            ex.expect(
                isinstance(gamma, (int, np.integer)) and not isinstance(gamma, bool),
                f"{what}: gamma should be an int, got {type(gamma).__name__} {gamma!r}.",
            )
            if gamma != want_g or not np.isclose(float(speedup), want_s, rtol=1e-9):
                ex.fail(
                    f"{what} should be ({want_g}, {want_s:.6f}), got {got!r}. {_gamma_hint(alpha, c, max_gamma, got)}"
                )
        # the limit alpha = 1 (no division by zero), then a tie
        got, err = ex.try_call(fn, 1.0, 0.1, 6)
        if err is not None:
            ex.fail(
                f"best_draft_length(1.0, 0.1, 6) raised {type(err).__name__}: {err}. At alpha = 1 every drafted "
                "token is accepted: use the limit E = gamma + 1 instead of dividing by 1 - alpha = 0."
            )
        ex.expect_close(
            np.asarray(got, dtype=float),
            np.asarray(_best_gamma(1.0, 0.1, 6), dtype=float),
            what="best_draft_length(1.0, 0.1, 6)",
            hint="At alpha = 1, E = gamma + 1 (the limit of the formula), so the speed-up is (gamma + 1) / (gamma c + 1).",
        )
        got = ex.call(fn, 0.0, 0.0, 5)
        ex.expect_close(
            np.asarray(got, dtype=float),
            np.array([1.0, 1.0]),
            what="best_draft_length(0.0, 0.0, 5)",
            hint="With alpha = 0 and c = 0 every gamma gives a speed-up of exactly 1: on a tie return the smallest gamma.",
        )
        for args, hint in [
            ((1.2, 0.1, 5), "alpha is a probability: raise ValueError outside [0, 1]."),
            ((-0.1, 0.1, 5), "alpha is a probability: raise ValueError outside [0, 1]."),
            ((0.5, -0.1, 5), "a cost ratio c < 0 makes no sense: raise ValueError."),
            ((0.5, 0.1, 0), "max_gamma must be at least 1: raise ValueError for 0."),
        ]:
            ex.expect_raises(ValueError, fn, *args, what=f"best_draft_length{args}", hint=hint)
    return ex.result


def _gamma_hint(alpha: float, c: float, max_gamma: int, got: object) -> str:
    def variant(e: Callable[[int], float], cost: Callable[[int], float], gammas: range) -> tuple[int, float]:
        s = [e(g) / cost(g) for g in gammas]
        return gammas[int(np.argmax(s))], s[int(np.argmax(s))]

    def e_right(g: int) -> float:
        return sum(alpha**i for i in range(g + 1))

    def e_short(g: int) -> float:
        return sum(alpha**i for i in range(g))

    full = range(1, max_gamma + 1)
    guesses = [
        (
            variant(e_short, lambda g: g * c + 1, full),
            "A round of gamma drafted tokens yields up to gamma + 1 "
            "tokens (the accepted drafts plus the target's own token): the exponent is gamma + 1.",
        ),
        (
            variant(e_right, lambda g: 1.0, full),
            "Divide the expected tokens per target pass by the cost of a round, gamma * c + 1 target passes.",
        ),
        (
            variant(e_right, lambda g: g * c, full),
            "A round costs gamma draft passes AND one target pass: gamma * c + 1, not gamma * c.",
        ),
        (
            variant(e_right, lambda g: g * c + 1, range(1, max_gamma)),
            "gamma runs from 1 to max_gamma inclusive: you left out max_gamma.",
        ),
        (
            variant(e_right, lambda g: g * c + 1, range(0, max_gamma + 1)),
            "gamma runs from 1 to max_gamma: gamma = 0 (no draft) is not a candidate.",
        ),
    ]
    try:
        g_got, s_got = int(got[0]), float(got[1])  # type: ignore[index]
    except (TypeError, ValueError, IndexError):
        return ""
    for (g_w, s_w), hint in guesses:
        if g_got == g_w and np.isclose(s_got, s_w, rtol=1e-9):
            return hint
    return (
        "S(alpha, gamma, c) = (1 - alpha^(gamma+1)) / ((1 - alpha)(gamma c + 1)); try every gamma from 1 to max_gamma."
    )


# --------------------------------------------------------------------------- choosing among fixed options
class _Bigram:
    """A toy model ids -> logits (T, V): row t is the table's row of token ids[t]. Counts its calls."""

    def __init__(self, table: np.ndarray) -> None:
        self.table, self.calls = table, 0

    def __call__(self, ids: Sequence[int]) -> np.ndarray:
        self.calls += 1
        return self.table[np.asarray(list(ids), dtype=int)].copy()


def _choose(logits_fn: Callable, prompt: list[int], options: list[list[int]]) -> int:
    out: list[int] = []
    while True:
        live = [o for o in options if o[: len(out)] == out]
        for i, o in enumerate(options):
            if o == out:
                return i
        allowed = sorted({o[len(out)] for o in live})
        row = np.asarray(logits_fn(prompt + out))[-1]
        out.append(max(allowed, key=lambda t: (row[t], -t)))


def _choice_table() -> np.ndarray:
    t = np.zeros((8, 8))
    t[0] = [0, 2.0, 0, 1.9, 0, 3.0, 0, 0]  # after the prompt: 5 best overall, 1 slightly above 3
    t[1] = [0, 0, -4.0, 0, 3.0, 0, 0, 0]  # after 1: the model dislikes 2 (only 2 continues [1, 2])
    t[3] = [0, 0, 0, 0, 2.0, 0, 0, 0]
    t[4] = [0, 0, 0, 0, 0, 0, 1.0, 1.0]  # a tie between 6 and 7
    t[6] = [0, 0, 0, 0, 0, 0, 0, 0]
    return t


def check_choose_option(fn: Callable) -> CheckResult:
    """``fn(logits_fn, prompt_ids, options)`` -> index of the option greedy decoding restricted to them produces."""
    with Checker("Choosing among fixed answers") as ex:
        table = _choice_table()
        cases = [
            (
                [0],
                [[1, 2], [3, 4]],
                "Greedy decides token by token: the first token 1 (logit 2.0) beats 3 (1.9), and "
                "after [1] only 2 continues an option, however unlikely. Allow only the tokens that continue an option "
                "matching what you generated so far, and do not score whole options.",
            ),
            (
                [0],
                [[3, 4, 7], [3, 4, 6]],
                "6 and 7 have equal logits after [3, 4]: on a tie take the smallest token id.",
            ),
            ([0, 3], [[4, 7], [4, 6], [2]], "Use the LAST row of the logits, the one that predicts the next token."),
            (
                [5, 0],
                [[3, 4], [1, 4, 6], [1, 2]],
                "Use the LAST row of the logits, and allow only the tokens that "
                "continue an option matching what you generated so far.",
            ),
            (
                [0],
                [[1], [3, 4]],
                "Stop as soon as the generated tokens equal a whole option (options may have different lengths).",
            ),
        ]
        for prompt, options, hint in cases:
            want = _choose(_Bigram(table), list(prompt), [list(o) for o in options])
            model = _Bigram(table)
            what = f"choose_option(model, {prompt}, {options})"
            got, err = ex.try_call(fn, model, list(prompt), [list(o) for o in options])
            if err is not None:
                ex.fail(f"{what} raised {type(err).__name__}: {err}. {hint}")
            ex.expect(
                isinstance(got, (int, np.integer)) and not isinstance(got, bool),
                f"{what} should return the index of the option (an int), got {type(got).__name__} {got!r:.60}.",
            )
            ex.expect_equal(int(got), want, what=what, hint=hint)
            length = len(options[want])
            ex.expect(
                model.calls <= length,
                f"{what} called logits_fn {model.calls} times for an answer of {length} tokens: call it once per "
                "generated token (greedy decoding, not scoring every option in full).",
            )
        for options, hint in [
            ([[1, 2], [1]], "[1] is a prefix of [1, 2]: raise ValueError."),
            ([[3], [4], [3, 4]], "[3] is a prefix of [3, 4]: test every pair of options, in both orders."),
            ([[1, 2], [1, 2]], "the options must all be different: raise ValueError for a duplicate."),
            ([[1, 2], []], "an empty option cannot be generated: raise ValueError."),
            ([[1, 2]], "with fewer than two options there is nothing to choose: raise ValueError."),
        ]:
            ex.expect_raises(
                ValueError, fn, _Bigram(table), [0], options, what=f"choose_option(model, [0], {options})", hint=hint
            )
    return ex.result


# --------------------------------------------------------------------------- contrastive search
class _ToyLM:
    """A small deterministic model ids -> (logits (T, V), hidden (T, d)); a linear recurrence. Counts its calls.

    With ``tie`` the logits of tokens 2 and 4 are always equal and the largest (for tie-breaking cases).
    """

    def __init__(self, seed: int, vocab: int = 7, dim: int = 4, tie: bool = False) -> None:
        g = np.random.default_rng(seed)
        self.emb = g.normal(size=(vocab, dim)) * g.uniform(0.2, 3.0, size=(vocab, 1))  # hidden norms differ
        self.w = g.normal(size=(dim, vocab)) * 0.7
        self.b = np.zeros(vocab)
        if tie:
            self.w[:, 4] = self.w[:, 2]
            self.b[[2, 4]] = 6.0
        self.calls = 0

    def __call__(self, ids: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        self.calls += 1
        h, rows = np.zeros(self.emb.shape[1]), []
        for t in ids:
            h = self.emb[int(t)] + 0.5 * h
            rows.append(h)
        hidden = np.array(rows)
        return hidden @ self.w + self.b, hidden


def _contrastive(
    model: Callable,
    prompt: list[int],
    k: int,
    alpha: float,
    n: int,
    *,
    weight_p: bool = True,
    sim: str = "cos",
    agg: str = "max",
    context: str = "all",
    on: str = "p",
    last_wins: bool = False,
) -> list[int]:
    """Contrastive search; the keyword flags give the typical mistakes (defaults: the right algorithm)."""
    ids = list(prompt)
    for _ in range(n):
        logits, hidden = model(ids)
        z = np.asarray(logits[-1], dtype=float)
        p = np.exp(z - z.max())
        p /= p.sum()
        cands = sorted(range(p.size), key=lambda v: (-p[v], v))[:k]
        ctx = np.asarray(hidden, dtype=float)
        if context == "generated":
            ctx = ctx[len(prompt) :]
        if sim == "cos":
            ctx = ctx / np.linalg.norm(ctx, axis=1, keepdims=True)
        best, best_score = cands[0], -np.inf
        for v in cands:
            h = np.asarray(model(ids + [v])[1][-1], dtype=float)
            if sim == "cos":
                h = h / np.linalg.norm(h)
            sims = ctx @ h if len(ctx) else np.zeros(1)
            pen = {"max": np.max, "min": np.min, "mean": np.mean}[agg](sims)
            conf = p[v] if on == "p" else z[v]
            score = ((1 - alpha) if weight_p else 1.0) * conf - alpha * pen
            if score > best_score or (last_wins and score == best_score):
                best, best_score = v, score
        ids.append(best)
    return ids


_CS_MISTAKES = [
    (
        {"weight_p": False},
        "Weight the model's confidence too, not only the penalty: both terms of the score have a weight.",
    ),
    ({"sim": "dot"}, "The penalty uses the cosine similarity (normalise both hidden states), not the dot product."),
    (
        {"agg": "min"},
        "The degeneration penalty is the LARGEST cosine similarity to the context (not the smallest, not the mean).",
    ),
    (
        {"agg": "mean"},
        "The degeneration penalty is the LARGEST cosine similarity to the context (not the smallest, not the mean).",
    ),
    (
        {"context": "generated"},
        "Compare with the hidden states of every position of ids, the prompt included, not only the generated tokens.",
    ),
    ({"on": "logits"}, "Score with the probability p(v) = softmax(logits)[v], not the raw logit."),
    (
        {"last_wins": True},
        "On a tie of scores keep the earlier candidate (the one of larger probability, then smaller id).",
    ),
]


def check_contrastive_search(fn: Callable) -> CheckResult:
    """``fn(model, prompt_ids, k, alpha, max_new_tokens)`` -> ids: contrastive search."""
    with Checker("Contrastive search", time_limit=10) as ex:
        cases = [
            (0, [1, 3], 3, 0.6, 5, False),
            (1, [0], 4, 0.5, 5, False),
            (2, [2, 5, 1], 2, 0.8, 4, False),
            (3, [6], 3, 0.0, 4, True),
            (4, [3], 1, 0.7, 3, False),
            (19, [3, 5], 3, 0.3, 4, False),
            (5, [4, 0], 3, 0.3, 0, False),
        ]
        results = []  # (case, the student's ids, model calls): all cases first, to name the mistake they share
        for seed, prompt, k, alpha, n, tie in cases:
            model = _ToyLM(seed, tie=tie)
            what = f"contrastive_search(model, {prompt}, k={k}, alpha={alpha}, max_new_tokens={n})"
            got = ex.call(fn, model, list(prompt), k, alpha, n)
            try:
                got_list = [int(t) for t in got]
            except (TypeError, ValueError):
                ex.fail(f"{what} should return a list of ints, got {type(got).__name__} {got!r:.60}.")
            results.append(((seed, prompt, k, alpha, n, tie), what, got_list, model.calls))

        def run(case: tuple, **flags: object) -> list[int]:
            seed, prompt, k, alpha, n, tie = case
            return _contrastive(_ToyLM(seed, tie=tie), prompt, k, alpha, n, **flags)  # type: ignore[arg-type]

        wrong = [(case, what, got) for case, what, got, _ in results if got != run(case)]
        if wrong:
            case, what, got = wrong[0]
            hint = "Check each step: top-k by probability, each candidate's own hidden state, then the score."
            if all(got == run(c)[len(c[1]) :] for c, _, got, _ in results):
                hint = "Return the prompt followed by the new tokens."
            for flags, text in _CS_MISTAKES:
                if all(got == run(c, **flags) for c, _, got, _ in results):
                    hint = text
                    break
            ex.fail(f"{what} should be {run(case)}, got {got}. {hint}")
        for (_, _, k, _, n, _), what, _, calls in results:
            ex.expect(
                calls <= n * (1 + k),
                f"{what} called model {calls} times for {n} new tokens: at most 1 + k calls per token "
                "(one for the context, one per candidate).",
            )
        for args, hint in [
            ((0, 0.5, 3), "k must be at least 1: raise ValueError."),
            ((2, 1.5, 3), "alpha must be in [0, 1]: raise ValueError."),
        ]:
            ex.expect_raises(
                ValueError, fn, _ToyLM(0), [1], *args, what=f"contrastive_search(model, [1], {args})", hint=hint
            )
    return ex.result
