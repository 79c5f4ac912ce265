"""Answers to the TF-IDF chapter's window-count exercise shared by its checker tests and its catalogue.

``window_ok`` is a correct answer; the others are the typical wrong answers both test files reject.
Defined once here, imported by ``test_tfidf_exercises`` and ``test_tfidf_catalogues``.
"""

from __future__ import annotations

from collections import Counter


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
