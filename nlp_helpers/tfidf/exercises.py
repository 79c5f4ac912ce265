"""Checkers for the exercises of the chapter *Bag of words and TF-IDF* (``book/tfidf.ipynb``).

Each ``check_*`` calls the student's function on the chapter's examples, compares
it with :mod:`nlp_helpers.tfidf` (or with the hand-worked values of seed 002 and of
Jurafsky & Martin's PPMI example) and tries the edge case students forget.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.tfidf.bag_of_words import one_hot
from nlp_helpers.tfidf.cooccurrence import cooccurrence_matrix, pmi
from nlp_helpers.tfidf.similarity import cosine_similarity

__all__ = ["check_bag_of_words_vector", "check_tf_idf_cell", "check_cosine", "check_window_counts", "check_ppmi"]

# Seed 002's four documents, tokenized with word_tokenize(keep_punct=False) and lower-cased.
SEED_TOKENS = [
    "there are many popular restaurants nearby this church".split(),
    "some restaurants offer breakfasts as early as 6:00 am to provide for prayers".split(),
    (
        "the price and taste are all good said one prayer who has been a frequent visitor to this church since 1998"
    ).split(),
    (
        "however covid-19 has forced some restaurants to shut down for lack of revenue during "
        "the pandemic and many prayers are complained about it"
    ).split(),
]
# Jurafsky & Martin (3rd ed.), Fig. 6.10: word x context counts.
JM_COUNTS = np.array([[2, 8, 9, 442, 25], [0, 0, 1, 60, 19], [1670, 1683, 85, 5, 4], [3325, 3982, 378, 5, 13]], float)


def check_bag_of_words_vector(bag_of_words_vector: Callable) -> CheckResult:
    """``bag_of_words_vector(tokens, vocabulary)``: counts over ``vocabulary``, whose last entry is the UNK slot."""
    with Checker("Bag of words with UNK") as ex:
        vocab = ["restaurants", "church", "many", "<unk>"]
        tokens = SEED_TOKENS[0]
        got = ex.call(bag_of_words_vector, tokens, vocab)
        want = one_hot(tokens, vocab, unk="<unk>").sum(axis=0)
        ex.expect_close(
            got,
            want,
            what="bag_of_words_vector(doc 1 tokens, ['restaurants', 'church', 'many', '<unk>'])",
            hint="Count each known token in its slot and every other token in the last (UNK) slot.",
        )
        ex.expect(
            float(np.sum(got)) == len(tokens),
            "the counts should add up to the number of tokens: every token lands in exactly one slot.",
        )
        got = ex.call(bag_of_words_vector, ["church", "church"], vocab)
        ex.expect_close(
            got,
            [0, 2, 0, 0],
            what="bag_of_words_vector(['church', 'church'], ...)",
            hint="A repeated word is counted twice.",
        )
        got = ex.call(bag_of_words_vector, [], vocab)
        ex.expect_close(
            got,
            [0, 0, 0, 0],
            what="bag_of_words_vector([], ...)",
            hint="An empty document is the zero vector, of the vocabulary's length.",
        )
    return ex.result


def _tf_idf_cell(term: str, doc: int, docs: list[list[str]]) -> float:
    df = sum(term in d for d in docs)
    return docs[doc].count(term) / len(docs[doc]) * math.log10(len(docs) / df)


def check_tf_idf_cell(tf_idf_cell: Callable) -> CheckResult:
    """``tf_idf_cell(term, doc_index, docs)``: relative TF x log10 IDF (seed 002), ValueError if df = 0."""
    with Checker("One TF-IDF cell by hand") as ex:
        for term, doc, seed in [
            ("restaurants", 0, 0.016),
            ("church", 2, 0.014),
            ("offer", 1, 0.046),
            ("many", 3, 0.013),
        ]:
            got = ex.call(tf_idf_cell, term, doc, SEED_TOKENS)
            ex.expect_close(
                got,
                _tf_idf_cell(term, doc, SEED_TOKENS),
                what=f"tf_idf_cell({term!r}, {doc}, seed docs)",
                hint=f"The seed's table shows {seed} (rounded). TF is count / tokens in the document; "
                "IDF is log10(N / df).",
            )
        got = ex.call(tf_idf_cell, "popular", 1, SEED_TOKENS)
        ex.expect_close(
            got, 0.0, what="tf_idf_cell('popular', 1, seed docs)", hint="A term absent from the document has TF 0."
        )
        everywhere = [["a", "b"], ["a"], ["a", "c", "c"]]
        ex.expect_close(
            ex.call(tf_idf_cell, "a", 0, everywhere),
            0.0,
            what="TF-IDF of a term in every document",
            hint="log10(N / N) = 0: a term in every document does not distinguish them.",
        )
        ex.expect_raises(
            ValueError,
            tf_idf_cell,
            "pizza",
            0,
            SEED_TOKENS,
            what="tf_idf_cell('pizza', ...) (df = 0)",
            hint="A term in no document has IDF log10(N/0): raise ValueError instead of dividing by zero.",
        )
    return ex.result


def check_cosine(cosine: Callable) -> CheckResult:
    """``cosine(u, v)``: cosine similarity of two vectors; ValueError for a zero vector."""
    with Checker("Cosine similarity") as ex:
        cherry, digital, information = [442, 8, 2], [5, 1683, 1670], [5, 3982, 3325]  # pie, data, computer
        for a, b, name in [
            (cherry, information, "cherry, information"),
            (digital, information, "digital, information"),
        ]:
            ex.expect_close(
                ex.call(cosine, a, b),
                cosine_similarity(a, b),
                what=f"cosine({name})",
                rtol=1e-9,
                hint="Divide the dot product by the product of the two vector lengths.",
            )
        ex.expect_close(
            ex.call(cosine, [1, 2, 3], [10, 20, 30]),
            1.0,
            what="cosine([1,2,3], [10,20,30])",
            hint="Cosine ignores length: a vector and its multiple point the same way.",
        )
        ex.expect_close(
            ex.call(cosine, [1, 0], [0, 5]), 0.0, what="cosine of orthogonal vectors", hint="No shared dimension: 0."
        )
        ex.expect_raises(
            ValueError,
            cosine,
            [0, 0, 0],
            [1, 2, 3],
            what="cosine([0,0,0], [1,2,3])",
            hint="A zero vector has no direction; raise ValueError rather than return nan.",
        )
    return ex.result


def check_window_counts(window_counts: Callable) -> CheckResult:
    """``window_counts(tokens, window)``: dict (w, c) -> times c is within ``window`` positions of w."""
    with Checker("Co-occurrence counts in a window") as ex:
        for tokens, window in [(SEED_TOKENS[3], 2), (SEED_TOKENS[1], 3), ("a rose is a rose is a rose".split(), 2)]:
            got = ex.call(window_counts, tokens, window)
            ex.expect(isinstance(got, dict), f"window_counts should return a dict, got {type(got).__name__}.")
            matrix, vocab = cooccurrence_matrix(tokens, window)
            coo = matrix.tocoo()
            want = {(vocab[i], vocab[j]): int(v) for i, j, v in zip(coo.row, coo.col, coo.data)}
            got = {k: v for k, v in got.items() if v}
            if got != want:
                missing = sorted(set(want) - set(got))[:3]
                wrong = sorted(k for k in set(want) & set(got) if want[k] != got[k])[:3]
                extra = sorted(set(got) - set(want))[:3]
                ex.fail(
                    f"for {' '.join(tokens[:5])}… with window={window}: "
                    + (f"missing pairs {missing}; " if missing else "")
                    + (f"wrong counts for {[(k, got[k], want[k]) for k in wrong]} (got, want); " if wrong else "")
                    + (f"unexpected pairs {extra}; " if extra else "")
                    + "look at the positions j with 1 <= |i - j| <= window on both sides of i, and count "
                    "(tokens[i], tokens[j]) once per position pair."
                )
        got = ex.call(window_counts, ["to", "be"], 5)
        ex.expect(
            dict(Counter({k: v for k, v in got.items() if v})) == {("to", "be"): 1, ("be", "to"): 1},
            "window_counts(['to', 'be'], 5) should be {('to','be'): 1, ('be','to'): 1}: "
            "a window longer than the text stops at its ends.",
        )
    return ex.result


def check_ppmi(ppmi: Callable) -> CheckResult:
    """``ppmi(counts, alpha)``: positive PMI (log2) with alpha-smoothed context probabilities, 0 for zero counts."""
    with Checker("PPMI with context smoothing") as ex:
        got = ex.call(ppmi, JM_COUNTS.copy(), 1.0)
        ex.expect_close(
            got,
            pmi(JM_COUNTS, alpha=1.0),
            what="ppmi(Jurafsky & Martin counts, alpha=1)",
            rtol=1e-6,
            hint="PMI = log2(P(w,c) / (P(w) P(c))) with probabilities from the counts; then max(PMI, 0).",
        )
        ex.expect(
            bool(np.all(np.isfinite(np.asarray(got, dtype=float)))),
            "a zero count should give PPMI 0, not nan or -inf (log of 0 is -inf, and max(-inf, 0) = 0).",
        )
        small = np.array([[1.0, 3.0], [0.0, 13.0]])
        got = ex.call(ppmi, small, 0.75)
        ex.expect_close(
            got,
            [[math.log2(9 / 4), 0.0], [0.0, math.log2(9 / 8)]],
            what="ppmi([[1, 3], [0, 13]], alpha=0.75)",
            hint="Raise the context (column) totals 1 and 16 to the power alpha (1 and 8), then divide by "
            "their sum: P_alpha(c) = 1/9 and 8/9. P(w) uses the row totals, unsmoothed.",
        )
        got = ex.call(ppmi, JM_COUNTS.copy(), 0.75)
        ex.expect_close(
            got,
            pmi(JM_COUNTS, alpha=0.75),
            what="ppmi(Jurafsky & Martin counts, alpha=0.75)",
            rtol=1e-6,
            hint="Only the context probabilities are smoothed: f(c)**alpha / sum of f(c')**alpha.",
        )
    return ex.result
