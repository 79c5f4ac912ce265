"""Catalogue of the tagging chapter's exercises: requirements, correct answers in several styles (accepted)
and typical wrong answers (rejected with a hint naming the mistake).

* ``shape(word)``: X / x / d per character for any alphabet (é), other characters kept, no collapsing.
* ``fast_viterbi``: a path of T states and the max log score (sums of logs); back-pointers reversed.
* ``hand_viterbi`` (a value): probabilities, not logs; v1 includes the first emission; emissions are
  P(w | t), not P(t | w); transitions go from the previous tag; v2 includes v1; the best path as names.
* ``bio_viterbi(emissions, transitions, tags)``: valid IOB2 only (no I- at the start, no O -> I-X, no
  B-X -> I-Y); the best valid sequence (constraints inside the recursion, not a repair afterwards); tag
  names, not indices; tags in any column order; O(T K^2), not an enumeration of the K^T sequences (a 40-word
  sentence).
"""

from __future__ import annotations

import re

import numpy as np

from nlp_helpers.tagging import exercises as ex
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


# ---------------------------------------------------------------- word shapes
def shape_loop(word):
    out = []
    for c in word:
        out.append("X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c)
    return "".join(out)


def shape_translate(word):
    table = {c: "X" if c.isupper() else "x" if c.islower() else "d" for c in set(word) if c.isalnum()}
    return word.translate(str.maketrans(table))


def shape_regex_ascii(word):  # [A-Z] / [a-z] miss é
    return re.sub(r"[0-9]", "d", re.sub(r"[a-z]", "x", re.sub(r"[A-Z]", "X", word)))


def shape_short(word):  # collapses repeated symbols: the short shape
    out = ""
    for ch in shape_loop(word):
        if not out or out[-1] != ch:
            out += ch
    return out


def shape_drops_punctuation(word):
    return "".join("X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else "" for c in word)


# ---------------------------------------------------------------- Viterbi
def viterbi_vectorised(log_start, log_trans, log_em):
    T, _ = log_em.shape
    v, backs = log_start + log_em[0], []
    for t in range(1, T):
        cand = v[:, None] + log_trans
        backs.append(cand.argmax(0))
        v = cand.max(0) + log_em[t]
    path = [int(v.argmax())]
    for b in reversed(backs):
        path.append(int(b[path[-1]]))
    return path[::-1], float(v.max())


def viterbi_table(log_start, log_trans, log_em):
    T, K = log_em.shape
    V, B = np.empty((T, K)), np.zeros((T, K), dtype=int)
    V[0] = log_start + log_em[0]
    for t in range(1, T):
        scores = V[t - 1][:, None] + log_trans
        B[t], V[t] = scores.argmax(0), scores.max(0) + log_em[t]
    path = [int(V[-1].argmax())]
    for t in range(T - 1, 0, -1):
        path.insert(0, int(B[t, path[0]]))
    return path, float(V[-1].max())


def viterbi_not_reversed(log_start, log_trans, log_em):
    path, score = viterbi_vectorised(log_start, log_trans, log_em)
    return path[::-1], score


def viterbi_multiplies(log_start, log_trans, log_em):
    T, _ = log_em.shape
    v = log_start * log_em[0]
    for t in range(1, T):
        v = (v[:, None] * log_trans).max(0) * log_em[t]
    return viterbi_vectorised(log_start, log_trans, log_em)[0], float(v.max())


def viterbi_greedy(log_start, log_trans, log_em):  # best state per step, no back-pointers
    path, prev = [], None
    score = 0.0
    for t in range(len(log_em)):
        s = (log_start if prev is None else log_trans[prev]) + log_em[t]
        prev = int(s.argmax())
        score += float(s.max())
        path.append(prev)
    return path, score


# ---------------------------------------------------------------- Viterbi by hand
class Answer(dict):
    """A by-hand answer (a value, not a function) with a name for the test ids."""

    def __init__(self, name, value):
        super().__init__(value)
        self.__name__ = name


class ListAnswer(list):
    def __init__(self, name, value):
        super().__init__(value)
        self.__name__ = name


V1 = 2 / 4 * 2 / 6
HAND_RIGHT = {"v1_PRON": V1, "v2_VERB": V1 * 3 / 5 * 2 / 5, "v2_NOUN": V1 * 2 / 5 * 1 / 4, "best": ["PRON", "VERB"]}
HAND_FRACTIONS = {"v1_PRON": 1 / 6, "v2_VERB": 0.04, "v2_NOUN": 1 / 60, "best": ("PRON", "VERB")}
HAND_LOGS = {k: float(np.log(v)) for k, v in HAND_RIGHT.items() if k != "best"} | {"best": ["PRON", "VERB"]}
HAND_NO_FIRST_EMISSION = {
    "v1_PRON": 0.5,
    "v2_VERB": 0.5 * 3 / 5 * 2 / 5,
    "v2_NOUN": 0.5 * 2 / 5 / 4,
    "best": ["PRON", "VERB"],
}
HAND_P_TAG_GIVEN_WORD = {
    "v1_PRON": 0.5,
    "v2_VERB": 0.5 * 3 / 5 * 2 / 3,
    "v2_NOUN": 0.5 * 2 / 5 * 1 / 3,
    "best": ["PRON", "VERB"],
}
HAND_REVERSED = {"v1_PRON": V1, "v2_VERB": V1 * 4 / 5 * 2 / 5, "v2_NOUN": 0.0, "best": ["PRON", "VERB"]}
HAND_NO_V1 = {"v1_PRON": V1, "v2_VERB": 3 / 5 * 2 / 5, "v2_NOUN": 2 / 5 * 1 / 4, "best": ["PRON", "VERB"]}
HAND_WRONG_BEST = HAND_RIGHT | {"best": ["PRON", "NOUN"]}
HAND_MISSING = {"v1_PRON": V1, "v2_VERB": 0.04}


# ---------------------------------------------------------------- BIO-constrained Viterbi
def _allowed(prev, tag):
    return not tag.startswith("I-") or (prev is not None and prev != "O" and prev[2:] == tag[2:])


def bio_masked(emissions, transitions, tags):
    K = len(tags)
    trans = np.array(
        [[transitions[i, j] if _allowed(tags[i], tags[j]) else -np.inf for j in range(K)] for i in range(K)]
    )
    v = np.array([emissions[0, j] if _allowed(None, tags[j]) else -np.inf for j in range(K)])
    backs = []
    for t in range(1, len(emissions)):
        cand = v[:, None] + trans
        backs.append(cand.argmax(0))
        v = cand.max(0) + emissions[t]
    path = [int(v.argmax())]
    for b in reversed(backs):
        path.append(int(b[path[-1]]))
    return [tags[j] for j in path[::-1]]


def bio_loops(emissions, transitions, tags):  # plain loops, a table of scores and back-pointers
    T, K = len(emissions), len(tags)
    score = [[float("-inf")] * K for _ in range(T)]
    back = [[0] * K for _ in range(T)]
    for j in range(K):
        if _allowed(None, tags[j]):
            score[0][j] = emissions[0][j]
    for t in range(1, T):
        for j in range(K):
            for i in range(K):
                if _allowed(tags[i], tags[j]) and score[t - 1][i] + transitions[i][j] > score[t][j]:
                    score[t][j] = score[t - 1][i] + transitions[i][j]
                    back[t][j] = i
            score[t][j] += emissions[t][j]
    j = max(range(K), key=lambda k: score[T - 1][k])
    out = [j]
    for t in range(T - 1, 0, -1):
        j = back[t][j]
        out.append(j)
    return [tags[k] for k in reversed(out)]


def _variant(emissions, transitions, tags, start_ok, step_ok):
    K = len(tags)
    trans = np.array(
        [[transitions[i, j] if step_ok(tags[i], tags[j]) else -np.inf for j in range(K)] for i in range(K)]
    )
    v = np.array([emissions[0, j] if start_ok(tags[j]) else -np.inf for j in range(K)])
    backs = []
    for t in range(1, len(emissions)):
        cand = v[:, None] + trans
        backs.append(cand.argmax(0))
        v = cand.max(0) + emissions[t]
    path = [int(v.argmax())]
    for b in reversed(backs):
        path.append(int(b[path[-1]]))
    return path[::-1]


def bio_unconstrained(emissions, transitions, tags):
    return [tags[j] for j in _variant(emissions, transitions, tags, lambda t: True, lambda a, b: True)]


def bio_allows_start(emissions, transitions, tags):  # forgets the first word
    return [tags[j] for j in _variant(emissions, transitions, tags, lambda t: True, lambda a, b: _allowed(a, b))]


def bio_allows_type_change(emissions, transitions, tags):  # only O -> I- forbidden
    return [
        tags[j]
        for j in _variant(
            emissions,
            transitions,
            tags,
            lambda t: not t.startswith("I-"),
            lambda a, b: not (a == "O" and b.startswith("I-")),
        )
    ]


def bio_repairs(emissions, transitions, tags):  # unconstrained path, then I-X -> B-X where invalid
    out, prev = [], None
    for tag in bio_unconstrained(emissions, transitions, tags):
        if not _allowed(prev, tag):
            tag = "B-" + tag[2:]
        out.append(tag)
        prev = tag
    return out


def bio_indices(emissions, transitions, tags):
    names = bio_masked(emissions, transitions, tags)
    return [tags.index(n) for n in names]


def bio_o_first(emissions, transitions, tags):  # assumes the column order O, B-PER, I-PER, B-LOC, I-LOC
    fixed = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    return bio_masked(emissions, transitions, fixed)


def viterbi_tuple_path(log_start, log_trans, log_em):  # the statement asks for a list of T state indices
    path, score = viterbi_table(log_start, log_trans, log_em)
    return tuple(path), score


def bio_enumerates(emissions, transitions, tags):  # "do not enumerate the K^T sequences": K^T of them, valid or not
    import itertools

    T, K = emissions.shape
    best, best_score = None, -np.inf
    for path in itertools.product(range(K), repeat=T):
        names = [tags[j] for j in path]
        if any(_allowed(a, b) is False for a, b in zip([None, *names], names)):
            continue
        score = sum(emissions[t, j] for t, j in enumerate(path)) + sum(
            transitions[a, b] for a, b in zip(path, path[1:])
        )
        if score > best_score:
            best, best_score = names, score
    return best


CATALOGUE = {
    ex.check_word_shape: Catalogue(
        correct=[shape_loop, shape_translate],
        wrong=[
            Wrong(shape_regex_ascii, "é"),
            Wrong(shape_short, "short"),
            Wrong(shape_drops_punctuation, "keep '.', '-'"),
        ],
    ),
    ex.check_viterbi: Catalogue(
        correct=[viterbi_vectorised, viterbi_table],
        wrong=[
            Wrong(viterbi_not_reversed, "reverse"),
            Wrong(viterbi_multiplies, "never multiply"),
            Wrong(viterbi_tuple_path, ("list of ints", "tuple")),
            Wrong(viterbi_greedy, "best way to reach it"),
        ],
    ),
    ex.check_hand_viterbi: Catalogue(
        correct=[Answer("hand_right", HAND_RIGHT), Answer("hand_fractions", HAND_FRACTIONS)],
        wrong=[
            Wrong(Answer("hand_logs", HAND_LOGS), "not log probabilities"),
            Wrong(Answer("hand_no_first_emission", HAND_NO_FIRST_EMISSION), "emission of the first word"),
            Wrong(Answer("hand_p_tag_given_word", HAND_P_TAG_GIVEN_WORD), "not P(j | w)"),
            Wrong(Answer("hand_reversed", HAND_REVERSED), "not the other way round"),
            Wrong(Answer("hand_no_v1", HAND_NO_V1), "should include v1(PRON)"),
            Wrong(Answer("hand_wrong_best", HAND_WRONG_BEST), "larger of v2(VERB) and v2(NOUN)"),
            Wrong(Answer("hand_missing", HAND_MISSING), "missing the keys"),
            Wrong(ListAnswer("hand_list", [0.1, 0.2]), "should be a dict"),
        ],
    ),
    ex.check_bio_viterbi: Catalogue(
        correct=[bio_masked, bio_loops],
        wrong=[
            Wrong(bio_unconstrained, "not valid IOB2"),
            Wrong(bio_allows_start, "starts with I-"),
            Wrong(bio_allows_type_change, "same type"),
            Wrong(bio_repairs, "repairing an unconstrained path"),
            Wrong(bio_indices, "not their column indices"),
            Wrong(bio_o_first, "fixed column"),
            Wrong(bio_enumerates, ("did not return within", "CPU time")),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)


def test_the_checkers_dynamic_programme_equals_the_enumeration() -> None:
    """The 40-word case is judged by ``_bio_dp``: on every short problem it gives the enumeration's answer."""
    from nlp_helpers.tagging.exercises import _bio_dp, _bio_problems, _brute_bio

    for em, tr, tags in _bio_problems():
        assert _bio_dp(em, tr, tags) == _brute_bio(em, tr, tags)
