"""Checkers for the exercises of the chapter *Sequence labelling* (``book/tagging/``).

Each ``check_*`` calls the student's function on small inputs, compares it with the chapter's
helpers (themselves tested against brute-force enumeration and seqeval) and tries the edge case
students forget, with a hint in every message.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.tagging.features import word_shape
from nlp_helpers.tagging.viterbi import viterbi

__all__ = ["check_bio_viterbi", "check_hand_viterbi", "check_viterbi", "check_word_shape"]


def check_word_shape(shape: Callable) -> CheckResult:
    """``shape(word)``: X for upper case, x for lower case, d for digits, other characters kept (long shape)."""
    with Checker("Word shapes") as ex:
        for word in ["DC10-30", "I.M.F", "Jane", "iPhone", "état", "2024", ""]:
            got = ex.call(shape, word)
            want = word_shape(word)
            if isinstance(got, str) and got == word_shape(word, short=True) and got != want:
                ex.fail(
                    f"shape({word!r}) should be {want!r}, got {got!r}: that is the *short* shape. "
                    "Map every character; do not collapse repeated symbols."
                )
            ex.expect_equal(
                got,
                want,
                what=f"shape({word!r})",
                hint="Upper-case letters become X, lower-case x, digits d; keep '.', '-' and "
                "other characters as they are (str.isupper/islower/isdigit work for é too).",
            )
    return ex.result


def _problems():
    rng = np.random.default_rng(19)
    out = []
    for T, K in [(1, 3), (2, 2), (4, 3), (6, 4), (5, 2)]:
        out.append((rng.normal(size=K), rng.normal(size=(K, K)), rng.normal(size=(T, K))))
    return out


def check_viterbi(viterbi_fn: Callable) -> CheckResult:
    """``viterbi_fn(log_start, log_trans, log_emissions)`` -> ``(best_path, best_log_score)``."""
    with Checker("Viterbi from scratch") as ex:
        for log_start, log_trans, log_em in _problems():
            T, K = log_em.shape
            want_path, want_score = viterbi(log_start, log_trans, log_em)
            got = ex.call(viterbi_fn, log_start.copy(), log_trans.copy(), log_em.copy())
            path, score = got
            ex.expect(
                isinstance(path, list) and all(isinstance(k, (int, np.integer)) for k in path),
                f"the best path should be a list of ints (state indices), got {type(path).__name__}.",
            )
            path = [int(k) for k in path]
            ex.expect(
                len(path) == T,
                f"with T={T} words the path should have {T} tags, got {len(path)}. "
                "One state per time step, including the first.",
            )
            ex.expect_close(
                score,
                want_score,
                what=f"the best log score (T={T}, K={K})",
                hint="Add log scores (never multiply them), and check your recurrence by hand on T = 2: each "
                "cell keeps the best way to reach it; the answer is the best cell of the last step.",
            )
            ex.expect_equal(
                path,
                want_path,
                what=f"the best path (T={T}, K={K})",
                hint="Store the argmax i for every (t, j) and follow these back-pointers from "
                "the best final state; remember to reverse the path.",
            )
    return ex.result


# The four-sentence corpus of the page on HMMs (book/tagging/pos.ipynb).
TINY_CORPUS = [
    [("I", "PRON"), ("saw", "VERB"), ("a", "DET"), ("mouse", "NOUN")],
    [("Let", "VERB"), ("me", "PRON"), ("fetch", "VERB"), ("my", "PRON"), ("saw", "NOUN")],
    [("I", "PRON"), ("fetch", "VERB"), ("my", "PRON"), ("mouse", "NOUN")],
    [("a", "DET"), ("mouse", "NOUN"), ("saw", "VERB"), ("me", "PRON")],
]


def _tiny_hmm() -> tuple[dict, dict, dict]:
    """Maximum-likelihood pi, a and b of :data:`TINY_CORPUS` as dicts of probabilities."""
    start, trans, emit, out, tag_n = Counter(), Counter(), Counter(), Counter(), Counter()
    for sent in TINY_CORPUS:
        tags = [t for _, t in sent]
        start[tags[0]] += 1
        for a, b in itertools.pairwise(tags):
            trans[a, b] += 1
            out[a] += 1
        for w, t in sent:
            emit[t, w] += 1
            tag_n[t] += 1
    pi = {t: c / len(TINY_CORPUS) for t, c in start.items()}
    a = {k: c / out[k[0]] for k, c in trans.items()}
    b = {k: c / tag_n[k[0]] for k, c in emit.items()}
    return pi, a, b


def _hand_values(emission: str = "P(w|t)", orientation: str = "row=previous", first_emission: bool = True):
    pi, a, b = _tiny_hmm()
    word_n = Counter(w for s in TINY_CORPUS for w, _ in s)
    if emission == "P(t|w)":
        b = {(t, w): b[t, w] * sum(1 for s in TINY_CORPUS for x, y in s if y == t) / word_n[w] for (t, w) in b}

    def tr(x, y):
        return a.get((x, y), 0.0) if orientation == "row=previous" else a.get((y, x), 0.0)

    v1 = pi["PRON"] * (b[("PRON", "me")] if first_emission else 1.0)
    return {
        "v1_PRON": v1,
        "v2_VERB": v1 * tr("PRON", "VERB") * b[("VERB", "saw")],
        "v2_NOUN": v1 * tr("PRON", "NOUN") * b[("NOUN", "saw")],
    }


def _not_yet() -> None:
    raise NotImplementedError


HAND_KEYS = ("v1_PRON", "v2_VERB", "v2_NOUN")


def check_hand_viterbi(hand_viterbi: object) -> CheckResult:
    """``hand_viterbi``: dict of v1(PRON), v2(VERB), v2(NOUN) (probabilities) and the best tags of *me saw*."""
    want = _hand_values()
    with Checker("Viterbi by hand") as ex:
        if hand_viterbi is ...:
            ex.call(_not_yet)  # the stub: "not yet"
        ex.expect(
            isinstance(hand_viterbi, dict),
            f"hand_viterbi should be a dict with the keys {list(HAND_KEYS) + ['best']}, "
            f"got {type(hand_viterbi).__name__}.",
        )
        missing = [k for k in (*HAND_KEYS, "best") if k not in hand_viterbi]
        ex.expect(not missing, f"hand_viterbi is missing the keys {missing}.")
        ex.expect(
            all(isinstance(hand_viterbi[k], (int, float)) and not isinstance(hand_viterbi[k], bool) for k in HAND_KEYS),
            "v1_PRON, v2_VERB and v2_NOUN should be numbers (floats or fractions such as 1 / 6).",
        )
        got = {k: float(hand_viterbi[k]) for k in HAND_KEYS}
        ex.expect(
            all(v >= 0 for v in got.values()),
            "Your values are negative: write the cells as probabilities, not log probabilities.",
        )
        mistakes = [
            (
                _hand_values(first_emission=False),
                "v1(PRON) is pi(PRON) times the emission b(me | PRON): you left out the emission of the first word.",
            ),
            (
                _hand_values(emission="P(t|w)"),
                "The emission is b_j(w) = P(w | j) = C(w, j) / C(j), the share "
                "of the tag's words that are this word, not P(j | w).",
            ),
            (
                _hand_values(orientation="reversed"),
                "The transition is a(PRON, VERB) = C(PRON -> VERB) / "
                "C(PRON ->): from the previous tag PRON to VERB, not the other way round.",
            ),
        ]
        for values, hint in mistakes:
            if all(np.isclose(got[k], values[k], rtol=1e-3) for k in HAND_KEYS) and not all(
                np.isclose(got[k], want[k], rtol=1e-3) for k in HAND_KEYS
            ):
                ex.fail(hint)
        ex.expect_close(
            got["v1_PRON"],
            want["v1_PRON"],
            what="v1_PRON",
            reveal=False,
            hint="v1(PRON) = pi(PRON) * b(me | PRON): the share of sentences that start with PRON "
            "times the share of PRON tokens that are 'me'.",
        )
        for tag in ("VERB", "NOUN"):
            key = f"v2_{tag}"
            if np.isclose(got[key], want[key] / want["v1_PRON"], rtol=1e-3):
                ex.fail(f"{key} should include v1(PRON): v2(j) = v1(PRON) * a(PRON, j) * b(saw | j).")
            ex.expect_close(
                got[key],
                want[key],
                what=key,
                reveal=False,
                hint=f"v2({tag}) = v1(PRON) * a(PRON, {tag}) * b(saw | {tag}); only PRON can emit 'me', "
                "so it is the only previous tag with a nonzero cell.",
            )
        best = hand_viterbi["best"]
        ex.expect_equal(
            list(best) if isinstance(best, (list, tuple)) else best,
            ["PRON", "VERB"],
            what="best",
            hint="The best path ends in the larger of v2(VERB) and v2(NOUN); write it as a list of two tag names.",
            reveal=False,
        )
    return ex.result


BIO_TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]


def _valid(tags: list[str]) -> bool:
    prev = None
    for tag in tags:
        if tag.startswith("I-") and (prev is None or prev == "O" or prev[2:] != tag[2:]):
            return False
        prev = tag
    return True


def _invalid_kind(tags: list[str]) -> str:
    prev = None
    for tag in tags:
        if tag.startswith("I-"):
            if prev is None:
                return f"it starts with {tag}: a sentence cannot open inside an entity"
            if prev == "O":
                return f"it has O -> {tag}: an I- tag must continue an entity"
            if prev[2:] != tag[2:]:
                return f"it has {prev} -> {tag}: an I- tag must continue an entity of the same type"
        prev = tag
    return ""


def _brute_bio(emissions: np.ndarray, transitions: np.ndarray, tags: list[str]) -> list[str]:
    best, best_score = None, -np.inf
    T, K = emissions.shape
    for path in itertools.product(range(K), repeat=T):
        names = [tags[j] for j in path]
        if not _valid(names):
            continue
        score = emissions[np.arange(T), path].sum() + sum(transitions[a, b] for a, b in itertools.pairwise(path))
        if score > best_score:
            best, best_score = names, score
    return best


def _bio_problems() -> list[tuple[np.ndarray, np.ndarray, list[str]]]:
    rng = np.random.default_rng(29)
    out = []
    i_per, i_loc, b_per = BIO_TAGS.index("I-PER"), BIO_TAGS.index("I-LOC"), BIO_TAGS.index("B-PER")
    for T in (1, 2, 3, 4, 5, 4, 3, 5):
        em, tr = rng.normal(scale=1.5, size=(T, 5)), rng.normal(size=(5, 5))
        out.append((em, tr, list(BIO_TAGS)))
    # an I- tag is the best first tag; then O -> I-PER and B-PER -> I-LOC are tempting
    em = np.zeros((3, 5))
    em[0, i_per] = 5
    out.append((em, np.zeros((5, 5)), list(BIO_TAGS)))
    em = np.zeros((3, 5))
    em[:, 0], em[1, i_per] = 1, 5
    out.append((em, np.zeros((5, 5)), list(BIO_TAGS)))
    em = np.zeros((3, 5))
    em[0, b_per], em[1, i_loc], em[2, 0] = 3, 5, 3
    out.append((em, np.zeros((5, 5)), list(BIO_TAGS)))
    # the tags in another order: "O" is not column 0
    order = [3, 2, 0, 4, 1]
    em, tr = rng.normal(scale=1.5, size=(4, 5)), rng.normal(size=(5, 5))
    out.append((em, tr, [BIO_TAGS[k] for k in order]))
    return out


def _bio_dp(emissions: np.ndarray, transitions: np.ndarray, tags: list[str]) -> list[str]:
    """The best valid IOB2 sequence by Viterbi with the invalid steps at -inf (equals ``_brute_bio``, tested)."""
    T, K = emissions.shape
    ok = np.array([[not b.startswith("I-") or (a != "O" and a[2:] == b[2:]) for b in tags] for a in tags])
    trans = np.where(ok, transitions, -np.inf)
    v = np.where([not t.startswith("I-") for t in tags], emissions[0], -np.inf)
    backs = []
    for t in range(1, T):
        cand = v[:, None] + trans
        backs.append(cand.argmax(0))
        v = cand.max(0) + emissions[t]
    path = [int(v.argmax())]
    for back in reversed(backs):
        path.append(int(back[path[-1]]))
    return [tags[j] for j in reversed(path)]


def check_bio_viterbi(bio_viterbi: Callable) -> CheckResult:
    """``bio_viterbi(emissions, transitions, tags)`` -> the best valid IOB2 tag sequence (tag names)."""
    with Checker("Decoding that respects BIO") as ex:
        for em, tr, tags in _bio_problems():
            T = len(em)
            want = _brute_bio(em, tr, tags)
            got = ex.call(bio_viterbi, em, tr, list(tags))
            ex.expect(
                isinstance(got, (list, tuple)) and len(got) == T,
                f"for T={T} words return a list of {T} tags, got {got!r}.",
            )
            got = list(got)
            if all(isinstance(g, (int, np.integer)) for g in got):
                ex.fail("Return the tag names (e.g. 'B-PER'), not their column indices: map them through tags.")
            kind = _invalid_kind(got) if all(isinstance(g, str) for g in got) else ""
            if kind:
                ex.fail(
                    f"Your sequence {got} is not valid IOB2: {kind}. Forbid those steps (score -inf) "
                    "inside the recursion, including for the first word."
                )
            if got != want and tags != BIO_TAGS:
                ex.fail(
                    f"With the tags in the order {tags} you returned {got}, expected {want}: "
                    "do not assume that 'O' or any tag sits in a fixed column; read the names in tags."
                )
            ex.expect_equal(
                got,
                want,
                what=f"bio_viterbi on a {T}-word problem with tags {tags}",
                hint="Your sequence is valid but not the best valid one. Set forbidden transitions to -inf "
                "before taking the max (repairing an unconstrained path afterwards is not optimal), and "
                "forbid I- tags at the first word.",
            )
        em, tr = np.random.default_rng(31).normal(scale=1.5, size=(40, 5)), np.zeros((5, 5))
        got = ex.call(bio_viterbi, em, tr, list(BIO_TAGS))
        ex.expect_equal(
            list(got) if isinstance(got, (list, tuple)) else got,
            _bio_dp(em, tr, list(BIO_TAGS)),
            what="bio_viterbi on a 40-word problem",
            hint="Keep, for every word and tag, the best valid path into it (O(T K^2)); do not enumerate sequences.",
        )
    return ex.result
