"""Checkers for the exercises of ``book/word2vec/evaluation.ipynb``: subsampling by hand, and analogy
accuracy with 3CosAdd against the nearest-neighbour-of-c baseline of Linzen (2016).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import rng as seeded_rng
from nlp_helpers.word2vec.corpus import keep_probabilities

__all__ = ["check_keep_probs", "check_analogy_accuracy"]


def check_keep_probs(keep_probs: Callable) -> CheckResult:
    """``keep_probs(counts, t=1e-3)`` -> the probability that word2vec keeps each occurrence of each word."""
    counts = np.array([34_024, 12_000, 900, 60, 5])
    small_t = np.array([50, 30, 20])  # frequencies 0.5, 0.3, 0.2: every word is frequent for t = 0.1
    with Checker("Keeping frequent words") as ex:
        got = ex.call(keep_probs, counts)
        want = keep_probabilities(counts, 1e-3)
        f = counts / counts.sum()
        if np.allclose(np.asarray(got, dtype=float), (np.sqrt(f / 1e-3) + 1) * 1e-3 / f):
            ex.fail("keep_probs(counts) gives rare words a probability above 1: cap the result at 1.")
        if np.allclose(np.asarray(got, dtype=float), np.minimum(1, np.sqrt(1e-3 / f))):
            ex.fail(
                "keep_probs(counts) follows the formula of the paper (keep with probability √(t/f)), not the "
                "one word2vec.c and gensim use, which the exercise gives."
            )
        raw = np.minimum(1, (np.sqrt(counts / 1e-3) + 1) * 1e-3 / counts)
        if np.allclose(np.asarray(got, dtype=float), raw):
            ex.fail("keep_probs(counts) used the counts as f: f is a word's share of all tokens, count / total.")
        ex.expect(
            np.shape(got) == counts.shape and np.allclose(np.asarray(got, dtype=float), want, rtol=1e-9),
            "keep_probs(counts) is not (√(f/t) + 1) · t/f capped at 1, with f = count / total, word by word "
            "(check the order of the operations, and return one probability per word).",
        )
        got = ex.call(keep_probs, small_t, t=0.1)
        ex.expect(
            np.allclose(np.asarray(got, dtype=float), keep_probabilities(small_t, 0.1), rtol=1e-9),
            "keep_probs(counts, t=0.1) ignores its argument t: use t instead of a fixed 0.001.",
        )
        ex.expect_raises(
            ValueError,
            keep_probs,
            np.array([3, 0, 2]),
            what="keep_probs(np.array([3, 0, 2]))",
            hint="A count of 0 gives f = 0 and a division by zero: raise ValueError for a count that is not positive.",
        )
        ex.expect_raises(
            ValueError,
            keep_probs,
            np.array([3, -1, 2]),
            what="keep_probs(np.array([3, -1, 2]))",
            hint="A negative count is no count at all: raise ValueError for every count that is not positive "
            "(0 or below), not only for 0.",
        )
    return ex.result


# ---------------------------------------------------------------------------------------------- analogies
def _unit(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def _analogy_reference(
    questions: Sequence[tuple[str, str, str, str]],
    words: Sequence[str],
    vectors: np.ndarray,
    method: str = "3cosadd",
    *,
    exclude: bool = True,
    normalise: bool = True,
    count_uncovered: bool = False,
) -> tuple[float, int]:
    """Accuracy and coverage; the keyword arguments reproduce typical mistakes, to name them in hints."""
    index = {w: i for i, w in enumerate(words)}
    unit = _unit(vectors) if normalise else np.asarray(vectors, dtype=float)
    right = covered = 0
    for a, b, c, d in questions:
        if not all(w in index for w in (a, b, c, d)):
            continue
        covered += 1
        query = unit[index[c]] if method == "only_c" else unit[index[b]] - unit[index[a]] + unit[index[c]]
        scores = unit @ query
        if exclude:
            scores[[index[a], index[b], index[c]]] = -np.inf
        right += words[int(np.argmax(scores))] == d
    return right / (len(questions) if count_uncovered else covered), covered


def _analogy_case(seed: int) -> tuple[list[str], np.ndarray, list[tuple[str, str, str, str]]]:
    """Words with vectors of very different lengths and questions that tell the mistakes apart."""
    rng = seeded_rng(seed)
    words = [f"w{i}" for i in range(40)]
    vectors = rng.normal(size=(40, 6)) * rng.uniform(0.2, 5.0, size=(40, 1))
    questions = [tuple(words[j] for j in rng.choice(40, size=4, replace=False)) for _ in range(60)]
    # answers that 3CosAdd gets right, so that accuracies differ between methods and mistakes
    unit = _unit(vectors)
    for q in range(0, 60, 3):
        a, b, c = (words.index(w) for w in questions[q][:3])
        scores = unit @ (unit[b] - unit[a] + unit[c])
        scores[[a, b, c]] = -np.inf
        questions[q] = (*questions[q][:3], words[int(np.argmax(scores))])
    questions += [("w1", "w2", "unknown", "w3"), ("w4", "w5", "w6", "nowhere")]  # not covered
    return words, vectors, questions


def check_analogy_accuracy(analogy_accuracy: Callable) -> CheckResult:
    """``analogy_accuracy(questions, words, vectors, method="3cosadd")`` -> ``(accuracy, n_covered)``."""
    with Checker("Analogies and a baseline") as ex:
        for seed in (0, 1):
            words, vectors, questions = _analogy_case(seed)
            for method in ("3cosadd", "only_c"):
                got = ex.call(analogy_accuracy, questions, words, vectors, method)
                call = f"analogy_accuracy(questions, words, vectors, {method!r})"
                ex.expect(
                    isinstance(got, tuple) and len(got) == 2,
                    f"{call} should return a tuple (accuracy, number of covered questions), got {type(got).__name__}.",
                )
                acc, covered = got
                want_acc, want_cov = _analogy_reference(questions, words, vectors, method)
                ex.expect(
                    int(covered) == want_cov,
                    f"{call}: the number of covered questions is wrong. A question is covered when all four of its "
                    "words have a vector; the others are skipped, not answered.",
                )
                if np.isclose(acc, want_acc):
                    continue
                mistakes = [
                    (dict(exclude=False), "the answer may be one of a, b, c: exclude the three question words"),
                    (dict(normalise=False), "normalise every vector to unit length before adding and comparing"),
                    (dict(count_uncovered=True), "divide by the covered questions, not by all questions"),
                ]
                for kwargs, hint in mistakes:
                    if np.isclose(acc, _analogy_reference(questions, words, vectors, method, **kwargs)[0]):
                        ex.fail(f"{call} gives the wrong accuracy: {hint}.")
                other = "only_c" if method == "3cosadd" else "3cosadd"
                if np.isclose(acc, _analogy_reference(questions, words, vectors, other)[0]):
                    ex.fail(f"{call} answers as if the method were {other!r}: use the method argument.")
                ex.fail(
                    f"{call} gives the wrong accuracy. 3CosAdd answers with the word (not a, b or c) whose unit vector "
                    "has the largest cosine with unit(b) - unit(a) + unit(c); 'only_c' compares with unit(c) alone."
                )
        ex.expect_raises(
            ValueError,
            analogy_accuracy,
            [("a", "b", "c", "d")],
            ["x", "y"],
            np.eye(2),
            "3cosadd",
            what="analogy_accuracy with no covered question",
            hint="0 of 0 questions has no accuracy: raise ValueError.",
        )
        ex.expect_raises(
            ValueError,
            analogy_accuracy,
            _analogy_case(0)[2],
            *_analogy_case(0)[:2],
            "3cosmul",
            what="analogy_accuracy(..., '3cosmul')",
            hint="Only '3cosadd' and 'only_c' are asked for: raise ValueError for any other method.",
        )
    return ex.result
