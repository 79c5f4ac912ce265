"""Catalogue of the exercises of ``book/word2vec/evaluation.ipynb`` (checkers in
``nlp_helpers/word2vec/evaluation_exercises.py``).

* ``keep_probs(counts, t=1e-3)``: f = count / total; (√(f/t) + 1) · t/f capped at 1 (word2vec.c's formula,
  not the paper's √(t/f)); the ``t`` argument is used; a count that is not positive (0 or negative) raises
  ``ValueError``.
* ``analogy_accuracy(questions, words, vectors, method)``: returns (accuracy, covered); a question counts
  only when its four words have vectors; unit vectors; the question words a, b, c are never the answer;
  accuracy over the covered questions; ``method`` "3cosadd" (b - a + c) or "only_c" (c alone), anything
  else and no covered question raise ``ValueError``.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.word2vec import evaluation_exercises as ex
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


# ------------------------------------------------------------------------------------------ keep_probs
def keep_probs(counts, t=1e-3):
    counts = np.asarray(counts, dtype=float)
    if (counts <= 0).any():
        raise ValueError("counts must be positive")
    f = counts / counts.sum()
    return np.minimum(1.0, (np.sqrt(f / t) + 1) * t / f)


def keep_probs_loop(counts, t=1e-3):
    total = sum(int(c) for c in counts)
    out = []
    for c in counts:
        if c <= 0:
            raise ValueError(f"count {c} is not positive")
        f = c / total
        out.append(min(1.0, (f / t) ** 0.5 * t / f + t / f))
    return np.array(out)


def keep_uncapped(counts, t=1e-3):
    f = np.asarray(counts, dtype=float) / np.sum(counts)
    return (np.sqrt(f / t) + 1) * t / f


def keep_paper(counts, t=1e-3):
    f = np.asarray(counts, dtype=float) / np.sum(counts)
    return np.minimum(1, np.sqrt(t / f))


def keep_counts_as_f(counts, t=1e-3):
    c = np.asarray(counts, dtype=float)
    return np.minimum(1, (np.sqrt(c / t) + 1) * t / c)


def keep_fixed_t(counts, t=1e-3):
    return keep_probs(counts)


def keep_no_check(counts, t=1e-3):
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.asarray(counts, dtype=float) / np.sum(counts)
        return np.minimum(1.0, (np.sqrt(f / t) + 1) * t / f)


# ------------------------------------------------------------------------------------ analogy_accuracy
def analogy_accuracy(questions, words, vectors, method="3cosadd"):
    if method not in ("3cosadd", "only_c"):
        raise ValueError(f"unknown method {method!r}")
    index = {w: i for i, w in enumerate(words)}
    unit = np.asarray(vectors, dtype=float)
    unit = unit / np.linalg.norm(unit, axis=1, keepdims=True)
    right = covered = 0
    for a, b, c, d in questions:
        if not all(w in index for w in (a, b, c, d)):
            continue
        covered += 1
        query = unit[index[c]] if method == "only_c" else unit[index[b]] - unit[index[a]] + unit[index[c]]
        scores = unit @ query
        scores[[index[a], index[b], index[c]]] = -np.inf
        right += words[int(np.argmax(scores))] == d
    if covered == 0:
        raise ValueError("no question has all four words in the vocabulary")
    return right / covered, covered


def analogy_sorted(questions, words, vectors, method="3cosadd"):
    """Another style: cosines by hand, a ranking, the first word not in the question."""
    if method not in {"3cosadd", "only_c"}:
        raise ValueError(method)
    vecs = {w: np.asarray(v, dtype=float) / np.linalg.norm(v) for w, v in zip(words, vectors)}
    results = []
    for q in questions:
        if any(w not in vecs for w in q):
            continue
        a, b, c, d = q
        target = vecs[c] if method == "only_c" else vecs[b] - vecs[a] + vecs[c]
        ranked = sorted(words, key=lambda w: -(vecs[w] @ target))
        results.append(next(w for w in ranked if w not in (a, b, c)) == d)
    if not results:
        raise ValueError("nothing covered")
    return sum(results) / len(results), len(results)


def analogy_keeps_question_words(questions, words, vectors, method="3cosadd"):
    if method not in ("3cosadd", "only_c"):
        raise ValueError(method)
    index = {w: i for i, w in enumerate(words)}
    unit = np.asarray(vectors, dtype=float) / np.linalg.norm(vectors, axis=1, keepdims=True)
    got = [
        words[
            int(
                np.argmax(
                    unit @ (unit[index[c]] if method == "only_c" else unit[index[b]] - unit[index[a]] + unit[index[c]])
                )
            )
        ]
        == d
        for a, b, c, d in questions
        if all(w in index for w in (a, b, c, d))
    ]
    if not got:
        raise ValueError("nothing covered")
    return float(np.mean(got)), len(got)


def analogy_raw_vectors(questions, words, vectors, method="3cosadd"):
    if method not in ("3cosadd", "only_c"):
        raise ValueError(method)
    index = {w: i for i, w in enumerate(words)}
    raw = np.asarray(vectors, dtype=float)
    got = []
    for a, b, c, d in questions:
        if all(w in index for w in (a, b, c, d)):
            scores = raw @ (raw[index[c]] if method == "only_c" else raw[index[b]] - raw[index[a]] + raw[index[c]])
            scores[[index[a], index[b], index[c]]] = -np.inf
            got.append(words[int(np.argmax(scores))] == d)
    if not got:
        raise ValueError("nothing covered")
    return float(np.mean(got)), len(got)


def analogy_all_questions(questions, words, vectors, method="3cosadd"):
    acc, covered = analogy_accuracy(questions, words, vectors, method)
    return acc * covered / len(questions), covered


def analogy_ignores_method(questions, words, vectors, method="3cosadd"):
    if method not in ("3cosadd", "only_c"):
        raise ValueError(method)
    return analogy_accuracy(questions, words, vectors, "3cosadd")


def analogy_counts_every_question(questions, words, vectors, method="3cosadd"):
    acc, _ = analogy_accuracy(questions, words, vectors, method)
    return acc, len(questions)


def analogy_no_error(questions, words, vectors, method="3cosadd"):
    try:
        return analogy_accuracy(questions, words, vectors, method)
    except ValueError:
        return 0.0, 0


def analogy_unknown_method_as_3cosadd(questions, words, vectors, method="3cosadd"):
    # "Raise ValueError if ... method is neither of the two": any other method falls back to 3CosAdd here
    return analogy_accuracy(questions, words, vectors, "only_c" if method == "only_c" else "3cosadd")


def keep_zero_only(counts, t=1e-3):  # "Raise ValueError if any count is 0 or negative": checks 0 only
    counts = np.asarray(counts, dtype=float)
    if (counts == 0).any():
        raise ValueError("a count is 0")
    f = counts / counts.sum()
    with np.errstate(invalid="ignore"):
        return np.minimum(1.0, (np.sqrt(f / t) + 1) * t / f)


def analogy_accuracy_only(questions, words, vectors, method="3cosadd"):
    return analogy_accuracy(questions, words, vectors, method)[0]


CATALOGUE = {
    ex.check_keep_probs: Catalogue(
        correct=[keep_probs, keep_probs_loop],
        wrong=[
            Wrong(keep_uncapped, "cap the result at 1"),
            Wrong(keep_paper, "formula of the paper"),
            Wrong(keep_counts_as_f, "count / total"),
            Wrong(keep_fixed_t, "ignores its argument t"),
            Wrong(keep_no_check, "ValueError"),
            Wrong(keep_zero_only, ("ValueError", "negative count")),
        ],
    ),
    ex.check_analogy_accuracy: Catalogue(
        correct=[analogy_accuracy, analogy_sorted],
        wrong=[
            Wrong(analogy_keeps_question_words, "exclude the three question words"),
            Wrong(analogy_raw_vectors, "unit length"),
            Wrong(analogy_all_questions, "not by all questions"),
            Wrong(analogy_ignores_method, "use the method argument"),
            Wrong(analogy_counts_every_question, "covered questions is wrong"),
            Wrong(analogy_no_error, "ValueError"),
            Wrong(analogy_accuracy_only, "tuple (accuracy"),
            Wrong(analogy_unknown_method_as_3cosadd, ("'3cosmul'", "raise ValueError for any other method")),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
