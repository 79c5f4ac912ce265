"""Checkers for the exercises of the chapter *Bag of words and TF-IDF* (``book/tfidf.ipynb``).

Each ``check_*`` calls the student's function on the chapter's examples, compares
it with :mod:`nlp_helpers.tfidf` (or with the hand-worked values of the lecture notes and of
Jurafsky & Martin's example) and tries the edge case students forget.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.tfidf.bag_of_words import one_hot
from nlp_helpers.tfidf.cooccurrence import cooccurrence_matrix
from nlp_helpers.tfidf.evaluation import mean_precision_at_k
from nlp_helpers.tfidf.similarity import cosine_similarity
from nlp_helpers.tfidf.weighting import TfIdf

__all__ = ["check_bag_of_words_vector", "check_cosine", "check_search_precision_at_k", "check_window_counts"]

# The lecture notes' four documents, tokenized with word_tokenize(keep_punct=False) and lower-cased.
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
# A small judged collection for the search exercise: documents, queries and the documents relevant
# to each query. Chosen so that each typical mistake (no IDF, log10 IDF, no length normalisation,
# a wrong denominator of P@k) changes the mean P@1 or P@3 (tests/tfidf/test_tfidf_exercises.py checks it).
SEARCH_DOCS = [
    "the yacht race to hobart started in sydney".split(),
    "strong winds forced yachts to retire from the race".split(),
    "the airline qantas faces a strike by maintenance workers".split(),
    "qantas workers vote on the strike".split(),
    "bushfires burn near sydney as firefighters battle the fires".split(),
    "firefighters contain fires in the blue mountains".split(),
    "the the the the race the the the the".split(),
    "qantas qantas qantas qantas flights to hobart".split(),
]
SEARCH_QUERIES = ["the strike".split(), ["race"], "the race to hobart".split(), "the qantas strike".split()]
SEARCH_RELEVANT = [{2, 3}, {0, 1}, {0, 1}, {2, 3}]


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


def _search_precision(
    docs: list[list[str]],
    queries: list[list[str]],
    relevant: list[set[int]],
    k: int,
    *,
    idf: str | None = "smooth",
    cosine: bool = True,
    denominator: str = "k",
) -> float:
    """Mean P@k of TF-IDF search with :class:`TfIdf` (the reference), or one of the typical mistakes."""
    model = TfIdf(idf=idf, norm="l2" if cosine else None, tokenizer=str.split, lowercase=False)
    d = model.fit_transform([" ".join(doc) for doc in docs])  # (D, V)
    q = model.transform([" ".join(query) if query else "" for query in queries])  # (Q, V)
    scores = (q @ d.T).toarray()  # (Q, D): cosines if the rows have unit length
    rankings = [np.lexsort((np.arange(len(row)), -row)) for row in scores]
    if denominator == "k":
        return mean_precision_at_k(rankings, relevant, k)
    size = (lambda rel: len(rel)) if denominator == "relevant" else (lambda rel: min(k, len(rel)))
    return float(np.mean([sum(i in rel for i in r[:k]) / size(rel) for r, rel in zip(rankings, relevant)]))


SEARCH_MISTAKES = {
    "no IDF": (
        {"idf": None},
        "your numbers match TF-IDF without the IDF factor: multiply each count by "
        "idf(t) = ln((1 + N) / (1 + df(t))) + 1, with N and df from the documents.",
    ),
    "log10 IDF": (
        {"idf": "log10"},
        "your numbers match idf = log10(N / df): this exercise uses scikit-learn's smooth IDF, "
        "ln((1 + N) / (1 + df)) + 1.",
    ),
    "dot product": (
        {"cosine": False},
        "your numbers match ranking by the dot product of unnormalised vectors: divide every "
        "document and query vector by its length (L2 norm), so that a long or repetitive document "
        "does not win just by being long.",
    ),
    "P@k over |relevant|": (
        {"denominator": "relevant"},
        "your numbers match hits / len(relevant) (that is recall at k): precision at k always divides by k, "
        "also when a query has fewer than k relevant documents.",
    ),
}


def check_search_precision_at_k(search_precision_at_k: Callable) -> CheckResult:
    """``search_precision_at_k(docs, queries, relevant, k)``: mean P@k of TF-IDF cosine search."""
    with Checker("TF-IDF search and precision at k") as ex:
        docs, queries, relevant = SEARCH_DOCS, SEARCH_QUERIES, SEARCH_RELEVANT
        for k in (1, 3):
            got = ex.call(search_precision_at_k, docs, queries, relevant, k)
            want = _search_precision(docs, queries, relevant, k)
            try:
                value = float(got)
            except (TypeError, ValueError):
                ex.fail(f"search_precision_at_k should return one number (the mean P@k), got {type(got).__name__}.")
                return ex.result
            if not math.isclose(value, want, rel_tol=1e-9, abs_tol=1e-12):
                hints = [
                    hint
                    for kwargs, hint in SEARCH_MISTAKES.values()
                    if math.isclose(value, _search_precision(docs, queries, relevant, k, **kwargs), abs_tol=1e-12)
                ]
                if hints:
                    ex.fail(f"with k={k} you return {value:.4f} instead of {want:.4f}; " + " Or: ".join(hints))
                    return ex.result
                ex.fail(
                    f"with k={k} on the small judged collection you return {value:.4f} instead of {want:.4f}. "
                    "Check the steps one at a time: counts, IDF from the documents, unit-length vectors, "
                    "cosine ranking (ties: lower index first), then the share of relevant documents in the top k."
                )
                return ex.result
        ties = [["a", "b"], ["c"], ["c"]]
        ex.expect_close(
            ex.call(search_precision_at_k, ties, [["c"]], [{1}], 1),
            1.0,
            what="search_precision_at_k([['a','b'], ['c'], ['c']], [['c']], [{1}], k=1)",
            hint="Documents 1 and 2 tie; a tie is broken by the lower index, so document 1 comes first "
            "(np.argsort(-scores, kind='stable') does this).",
        )
        got = ex.call(search_precision_at_k, docs, [["zebra"]], [{2}], 1)
        ex.expect(
            got is not None and np.isfinite(float(got)) and math.isclose(float(got), 0.0, abs_tol=1e-12),
            f"a query with no known word should give P@1 = 0 (its vector is zero, so every cosine is 0 and the "
            f"order is by index), got {got}. Do not divide by the query's zero length: treat its cosines as 0.",
        )
    return ex.result
