"""The checkers of the TF-IDF chapter accept correct answers and reject the typical wrong ones."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from nlp_helpers.exercises.checker import STRICT_ENV
from nlp_helpers.tfidf.bag_of_words import NOTES_DOCUMENTS, tokenize_corpus
from nlp_helpers.tfidf.exercises import (
    check_bag_of_words_vector,
    check_cosine,
    check_ppmi,
    check_tf_idf_cell,
    check_window_counts,
)
from tests.exercise_helpers import stub


def test_seed_tokens_of_the_checkers_are_the_chapters_tokenization():
    from nlp_helpers.tfidf.exercises import SEED_TOKENS

    assert SEED_TOKENS == tokenize_corpus(NOTES_DOCUMENTS)


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


# --------------------------------------------------------------------------- TF-IDF cell
def cell_ok(term, doc, docs):
    df = sum(term in d for d in docs)
    if df == 0:
        raise ValueError(f"{term!r} is in no document")
    return docs[doc].count(term) / len(docs[doc]) * math.log10(len(docs) / df)


def cell_ln(term, doc, docs):
    return cell_ok(term, doc, docs) * math.log(10)


def cell_raw_count(term, doc, docs):
    return cell_ok(term, doc, docs) * len(docs[doc])


def cell_zero_division(term, doc, docs):
    df = sum(term in d for d in docs)
    return docs[doc].count(term) / len(docs[doc]) * math.log10(len(docs) / df)


def cell_returns_nan(term, doc, docs):
    df = sum(term in d for d in docs)
    return float("nan") if df == 0 else cell_ok(term, doc, docs)


def test_tf_idf_cell_checker():
    assert check_tf_idf_cell(cell_ok).passed
    assert check_tf_idf_cell(stub).status == "not yet"
    assert "log10" in check_tf_idf_cell(cell_ln).message
    assert check_tf_idf_cell(cell_raw_count).status == "wrong"
    # ZeroDivisionError is not the ValueError the exercise asks for
    assert "ValueError" in check_tf_idf_cell(cell_zero_division).message
    assert "ValueError" in check_tf_idf_cell(cell_returns_nan).message


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
def window_ok(tokens, window):
    counts = Counter()
    for i, w in enumerate(tokens):
        for j in range(max(0, i - window), min(len(tokens), i + window + 1)):
            if j != i:
                counts[(w, tokens[j])] += 1
    return dict(counts)


def window_right_only(tokens, window):
    counts = Counter()
    for i, w in enumerate(tokens):
        for j in range(i + 1, min(len(tokens), i + window + 1)):
            counts[(w, tokens[j])] += 1
    return dict(counts)


def window_off_by_one(tokens, window):
    return window_ok(tokens, window - 1)


def window_unique_pairs(tokens, window):
    return {k: 1 for k in window_ok(tokens, window)}


def test_window_counts_checker():
    assert check_window_counts(window_ok).passed
    assert check_window_counts(stub).status == "not yet"
    for wrong in (window_right_only, window_off_by_one, window_unique_pairs):
        assert check_window_counts(wrong).status == "wrong", wrong.__name__
    assert "missing pairs" in check_window_counts(window_right_only).message
    assert "wrong counts" in check_window_counts(window_unique_pairs).message


# --------------------------------------------------------------------------- PPMI
def ppmi_ok(counts, alpha=0.75):
    f = np.asarray(counts, float)
    total = f.sum()
    p_w = f.sum(axis=1) / total
    fc = f.sum(axis=0) ** alpha
    p_c = fc / fc.sum()
    with np.errstate(divide="ignore"):
        values = np.log2((f / total) / np.outer(p_w, p_c))
    return np.maximum(values, 0)


def ppmi_smooths_rows(counts, alpha=0.75):
    return ppmi_ok(np.asarray(counts, float).T, alpha).T


def ppmi_no_renormalisation(counts, alpha=0.75):
    f = np.asarray(counts, float)
    total = f.sum()
    p_w = f.sum(axis=1) / total
    p_c = (f.sum(axis=0) / total) ** alpha
    with np.errstate(divide="ignore"):
        return np.maximum(np.log2((f / total) / np.outer(p_w, p_c)), 0)


def ppmi_nan_for_zero(counts, alpha=0.75):
    out = ppmi_ok(counts, alpha)
    out[np.asarray(counts) == 0] = np.nan
    return out


def ppmi_natural_log(counts, alpha=0.75):
    return ppmi_ok(counts, alpha) * math.log(2)


def test_ppmi_checker():
    assert check_ppmi(ppmi_ok).passed
    assert check_ppmi(stub).status == "not yet"
    for wrong in (ppmi_smooths_rows, ppmi_no_renormalisation, ppmi_nan_for_zero, ppmi_natural_log):
        assert check_ppmi(wrong).status == "wrong", wrong.__name__
    assert "nan" in check_ppmi(ppmi_nan_for_zero).message


def test_strict_mode_raises_on_a_wrong_answer(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(AssertionError, match="Cosine"):
        check_cosine(cos_dot)
    assert check_cosine(cos_ok).passed
