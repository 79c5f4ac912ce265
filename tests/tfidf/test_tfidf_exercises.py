"""The checkers of the TF-IDF chapter accept correct answers and reject the typical wrong ones."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from nlp_helpers.exercises.checker import STRICT_ENV
from nlp_helpers.tfidf.bag_of_words import FOUR_SENTENCES, tokenize_corpus
from nlp_helpers.tfidf.exercises import (
    check_bag_of_words_vector,
    check_cosine,
    check_search_precision_at_k,
    check_window_counts,
)
from tests.exercise_helpers import stub
from tests.tfidf.wrong_answers import (
    window_off_by_one,
    window_ok,
    window_right_only,
    window_unique_pairs,
)


def test_seed_tokens_of_the_checkers_are_the_chapters_tokenization():
    from nlp_helpers.tfidf.exercises import SEED_TOKENS

    assert SEED_TOKENS == tokenize_corpus(FOUR_SENTENCES)


# --------------------------------------------------------------------------- bag of words
def bow_ok(tokens, vocabulary):
    counts = np.zeros(len(vocabulary))
    index = {t: j for j, t in enumerate(vocabulary)}
    for t in tokens:
        counts[index.get(t, len(vocabulary) - 1)] += 1
    return counts


def bow_drops_unknown(tokens, vocabulary):
    return np.array([tokens.count(t) for t in vocabulary], dtype=float)


def bow_set(tokens, vocabulary):
    return np.minimum(bow_ok(tokens, vocabulary), 1)


def test_bag_of_words_checker():
    assert check_bag_of_words_vector(bow_ok).passed
    assert check_bag_of_words_vector(stub).status == "not yet"
    assert "UNK" in check_bag_of_words_vector(bow_drops_unknown).message
    assert "should be [1. 1. 1. 5.]" in check_bag_of_words_vector(bow_set).message


# --------------------------------------------------------------------------- cosine
def cos_ok(u, v):
    u, v = np.asarray(u, float), np.asarray(v, float)
    nu, nv = np.linalg.norm(u), np.linalg.norm(v)
    if nu == 0 or nv == 0:
        raise ValueError("zero vector")
    return float(u @ v / (nu * nv))


def cos_dot(u, v):
    return float(np.dot(u, v))


def cos_nan(u, v):
    u, v = np.asarray(u, float), np.asarray(v, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))


def test_cosine_checker():
    assert check_cosine(cos_ok).passed
    assert check_cosine(stub).status == "not yet"
    assert "length" in check_cosine(cos_dot).message
    assert "ValueError" in check_cosine(cos_nan).message


# --------------------------------------------------------------------------- window counts
def test_window_counts_checker():
    assert check_window_counts(window_ok).passed
    assert check_window_counts(stub).status == "not yet"
    for wrong in (window_right_only, window_off_by_one, window_unique_pairs):
        assert check_window_counts(wrong).status == "wrong", wrong.__name__
    assert "missing pairs" in check_window_counts(window_right_only).message
    assert "wrong counts" in check_window_counts(window_unique_pairs).message


# --------------------------------------------------------------------------- search + precision at k
def search_ok(docs, queries, relevant, k, *, idf="smooth", unit=True, ties="index", denominator="k"):
    """An independent solution in plain Python (dicts, math), with switches for the typical mistakes."""
    vocab = sorted({t for d in docs for t in d})
    n = len(docs)
    df = {t: sum(t in d for d in docs) for t in vocab}
    if idf == "smooth":
        weight = {t: math.log((1 + n) / (1 + df[t])) + 1 for t in vocab}
    elif idf == "log10":
        weight = {t: math.log10(n / df[t]) for t in vocab}
    else:
        weight = dict.fromkeys(vocab, 1.0)

    def vec(tokens):
        c = Counter(t for t in tokens if t in weight)
        v = {t: c[t] * weight[t] for t in c}
        size = math.sqrt(sum(x * x for x in v.values()))
        return {t: x / size for t, x in v.items()} if (unit and size > 0) else v

    dvecs = [vec(d) for d in docs]
    total = 0.0
    for q, rel in zip(queries, relevant):
        qv = vec(q)
        scores = [sum(x * dv.get(t, 0.0) for t, x in qv.items()) for dv in dvecs]
        order = sorted(range(n), key=lambda i: (-scores[i], i if ties == "index" else -i))
        hits = sum(i in rel for i in order[:k])
        total += hits / (k if denominator == "k" else len(rel))
    return total / len(queries)


def test_search_checker_accepts_an_independent_solution_and_the_reference_agrees():
    from nlp_helpers.tfidf.exercises import SEARCH_DOCS, SEARCH_QUERIES, SEARCH_RELEVANT, _search_precision

    assert check_search_precision_at_k(search_ok).passed
    assert check_search_precision_at_k(stub).status == "not yet"
    for k in (1, 2, 3, 5):  # the checker's reference (TfIdf + mean_precision_at_k) equals the plain-Python one
        assert _search_precision(SEARCH_DOCS, SEARCH_QUERIES, SEARCH_RELEVANT, k) == pytest.approx(
            search_ok(SEARCH_DOCS, SEARCH_QUERIES, SEARCH_RELEVANT, k), rel=1e-12
        )
    # hand-worked: with IDF, "the strike" finds the two strike stories first; at k=1 all four queries hit
    assert search_ok(SEARCH_DOCS, SEARCH_QUERIES, SEARCH_RELEVANT, 1) == 1.0


@pytest.mark.parametrize(
    ("mistake", "hint"),
    [
        ({"idf": None}, "without the IDF"),
        ({"idf": "log10"}, "log(N / df) without smoothing"),
        ({"unit": False}, "dot product"),
        ({"denominator": "relevant"}, "recall at k"),
        ({"ties": "reverse"}, "lower index"),
    ],
)
def test_search_checker_names_the_typical_mistake(mistake, hint):
    result = check_search_precision_at_k(lambda d, q, r, k: search_ok(d, q, r, k, **mistake))
    assert result.status == "wrong" and hint in result.message, result.message


def test_search_checker_rejects_nan_for_an_unknown_query():
    def divides_by_zero(docs, queries, relevant, k):
        if any(all(t not in {w for d in docs for w in d} for t in q) for q in queries):
            return float("nan")
        return search_ok(docs, queries, relevant, k)

    result = check_search_precision_at_k(divides_by_zero)
    assert result.status == "wrong" and "zero" in result.message


def test_strict_mode_raises_on_a_wrong_answer(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(AssertionError, match="Cosine"):
        check_cosine(cos_dot)
    assert check_cosine(cos_ok).passed
