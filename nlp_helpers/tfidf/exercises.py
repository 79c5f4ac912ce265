"""Checkers for the exercises of the chapter *Bag of words and TF-IDF* (``book/tfidf/``).

Each ``check_*`` calls the student's function on the chapter's examples, compares
it with :mod:`nlp_helpers.tfidf` (or with hand-worked values and Jurafsky & Martin's example) and
tries the edge cases students forget. The student's function always gets copies of the inputs
(the shared `Checker.call` guards every call). The BM25+ checker is in ``bm25_exercises``, the checkers of
the by-hand exercises (TF-IDF weights, precision and average precision, PPMI) in ``by_hand_exercises``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.tfidf.bag_of_words import one_hot
from nlp_helpers.tfidf.cooccurrence import cooccurrence_matrix, pmi
from nlp_helpers.tfidf.evaluation import mean_precision_at_k
from nlp_helpers.tfidf.similarity import cosine_similarity
from nlp_helpers.tfidf.weighting import TfIdf

__all__ = [
    "check_bag_of_words_vector",
    "check_cosine",
    "check_search_precision_at_k",
    "check_shifted_ppmi",
    "check_window_counts",
]

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


BOW_ARGS = ("tokens", "vocabulary")
SEARCH_ARGS = ("docs", "queries", "relevant", "k")


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
        got = ex.call(bag_of_words_vector, ["<unk>", "zebra", "many"], vocab)
        ex.expect_close(
            got,
            [0, 0, 1, 2],
            what="bag_of_words_vector(['<unk>', 'zebra', 'many'], ...)",
            hint="Every token that is not one of the first len(vocabulary) - 1 entries goes to the last slot.",
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
            got, error = ex.try_call(cosine, a, b)
            if isinstance(error, TypeError):
                ex.fail(
                    f"cosine({name}) with two lists raised TypeError: {error}. The vectors may be lists or numpy "
                    "arrays: convert them (np.asarray) before using array operations."
                )
            if error is not None:
                ex.call(cosine, a, b)  # reports the error as usual
            ex.expect_close(
                got,
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
            ex.call(cosine, [1, 0], [0, 5]),
            0.0,
            what="cosine of orthogonal vectors",
            hint="No shared dimension: 0.",
        )
        ex.expect_raises(
            ValueError,
            cosine,
            [0, 0, 0],
            [1, 2, 3],
            what="cosine([0,0,0], [1,2,3])",
            hint="A zero vector has no direction; raise ValueError rather than return nan.",
        )
        ex.expect_raises(
            ValueError,
            cosine,
            [1, 2, 3],
            [0, 0, 0],
            what="cosine([1,2,3], [0,0,0])",
            hint="Either vector may be the zero vector: check both.",
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
                same = sorted(k for k in set(want) - set(got) if k[0] == k[1])
                if same and all(got.get(k) == v for k, v in want.items() if k[0] != k[1]):
                    ex.fail(
                        f"for {' '.join(tokens[:5])}… with window={window}: missing pairs {same[:3]}. A word that "
                        "occurs again within the window of itself counts as a pair (w, w), like any other word."
                    )
                missing = sorted(set(want) - set(got))[:3]
                wrong = sorted(k for k in set(want) & set(got) if want[k] != got[k])[:3]
                extra = sorted(set(got) - set(want))[:3]
                ex.fail(
                    f"for {' '.join(tokens[:5])}… with window={window}: "
                    + (f"missing pairs {missing}; " if missing else "")
                    + (f"wrong counts for {[(k, got[k], want[k]) for k in wrong]} (got, want); " if wrong else "")
                    + (f"unexpected pairs {extra}; " if extra else "")
                    + "look at the positions j with 1 <= |i - j| <= window on both sides of i, and count "
                    "the pair of the two tokens once per pair of positions."
                )
        got = ex.call(window_counts, ["very", "very", "good"], 1)
        ex.expect(
            isinstance(got, dict) and got.get(("very", "very"), 0) == 2,
            f"window_counts(['very', 'very', 'good'], 1) gave {got!r}: a repeated word next to itself counts as a "
            "pair (w, w), like any other word, once from each of the two positions.",
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
    "log(N / df) IDF": (
        {"idf": "log10"},
        "your numbers match idf = log(N / df) without smoothing (in any base: the base only rescales every "
        "weight, which the unit length undoes): this exercise uses scikit-learn's smooth IDF, "
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
        values = {}
        for k in (1, 2, 3):
            got = ex.call(search_precision_at_k, docs, queries, relevant, k)
            try:
                values[k] = float(got)
            except (TypeError, ValueError):
                ex.fail(f"search_precision_at_k should return one number (the mean P@k), got {type(got).__name__}.")
        wrong = [
            k
            for k in values
            if not math.isclose(values[k], _search_precision(docs, queries, relevant, k), rel_tol=1e-9, abs_tol=1e-12)
        ]
        if wrong:
            k = wrong[0]
            want = _search_precision(docs, queries, relevant, k)
            # a mistake is diagnosed only if it explains every k: one clear hint, never a list of guesses
            hints = [
                hint
                for kwargs, hint in SEARCH_MISTAKES.values()
                if all(
                    math.isclose(v, _search_precision(docs, queries, relevant, kk, **kwargs), abs_tol=1e-12)
                    for kk, v in values.items()
                )
            ]
            if len(hints) == 1:
                ex.fail(f"with k={k} you return {values[k]:.4f} instead of {want:.4f}; " + hints[0])
            ex.fail(
                f"with k={k} on the small judged collection you return {values[k]:.4f} instead of {want:.4f}. "
                "Check the steps one at a time: counts, IDF from the documents, unit-length vectors, "
                "cosine ranking (ties: lower index first), then the share of relevant documents in the top k."
            )
        ties = [["a", "b"], ["c"], ["c"]]
        ex.expect_close(
            ex.call(search_precision_at_k, ties, [["c"]], [{1}], 1),
            1.0,
            what="search_precision_at_k([['a','b'], ['c'], ['c']], [['c']], [{1}], k=1)",
            hint="Documents 1 and 2 tie; a tie is broken by the lower index, so document 1 comes first "
            "(np.argsort(-scores, kind='stable') does this).",
        )
        got, error = ex.try_call(search_precision_at_k, docs, [["zebra"]], [{2}], 1)
        if isinstance(error, KeyError):
            ex.fail(
                f"a query with no known word raised KeyError {error}: the query's words outside the vocabulary "
                "are ignored (they get no dimension), so its vector is zero."
            )
        if error is not None:
            ex.call(search_precision_at_k, docs, [["zebra"]], [{2}], 1)  # reports the error as usual
        ex.expect(
            got is not None and np.isfinite(float(got)) and math.isclose(float(got), 0.0, abs_tol=1e-12),
            f"a query with no known word should give P@1 = 0 (its vector is zero, so every cosine is 0 and the "
            f"order is by index), got {got}. Do not divide by the query's zero length: treat its cosines as 0.",
        )
    return ex.result


def _shifted(counts: np.ndarray, k: float, base: float = 2.0, clip_first: bool = False) -> np.ndarray:
    raw = pmi(np.asarray(counts, dtype=float), positive=False, base=base)
    shift = math.log(k, base)
    if clip_first:
        return np.maximum(raw, 0.0) - shift
    with np.errstate(invalid="ignore"):
        return np.where(np.isneginf(raw), 0.0, np.maximum(raw - shift, 0.0))


# Jurafsky & Martin's counts (cherry, strawberry, digital, information x computer, data, result, pie, sugar).
JM_COUNTS = [[2, 8, 9, 442, 25], [0, 0, 1, 60, 19], [1670, 1683, 85, 5, 4], [3325, 3982, 378, 5, 13]]
SHIFT_MISTAKES = [
    ({"base": math.e}, "your values match natural logarithms: PMI and the shift are in bits here, log2."),
    (
        {"clip_first": True},
        "you clipped at 0 before subtracting log2 k, so some values are negative: subtract first, then take max(·, 0).",
    ),
]


def check_shifted_ppmi(shifted_ppmi: Callable) -> CheckResult:
    """``shifted_ppmi(counts, k)``: max(PMI - log2 k, 0) of a dense count matrix, in bits, alpha = 1."""
    with Checker("Shifted PPMI") as ex:
        for counts, k, as_list in [(JM_COUNTS, 1, False), (JM_COUNTS, 5, False), ([[3, 0, 1], [0, 2, 2]], 2, True)]:
            arg = np.array(counts, dtype=float)
            got, error = ex.try_call(shifted_ppmi, counts if as_list else arg, k)
            if error is not None and as_list:
                ex.fail(
                    f"shifted_ppmi({counts}, {k}) with counts as a nested list raised {type(error).__name__}: "
                    f"{error}. counts may be a nested list: convert it to a numpy array first."
                )
            if error is not None:
                ex.call(shifted_ppmi, arg, k)  # reports the error as usual
            try:
                g = np.asarray(got, dtype=float)
            except (TypeError, ValueError):
                ex.fail(f"shifted_ppmi should return a numpy array of floats, got {type(got).__name__}.")
            want = _shifted(arg, k)
            ex.expect(
                g.shape == want.shape, f"the result should have the shape of counts, {want.shape}; got {g.shape}."
            )
            ex.expect(
                bool(np.isfinite(g).all()),
                f"with k={k} your result has nan or inf: a pair never seen together has PMI -inf, which must become 0.",
            )
            if not np.allclose(g, want, rtol=1e-6, atol=1e-9):
                for kwargs, hint in SHIFT_MISTAKES:
                    if np.allclose(g, _shifted(arg, k, **kwargs), rtol=1e-6, atol=1e-9):
                        ex.fail(f"with k={k}: {hint}")
                if k > 1 and np.allclose(g, _shifted(arg, 1), rtol=1e-6, atol=1e-9):
                    ex.fail(f"with k={k} your values equal plain PPMI: subtract log2 k before clipping.")
                ex.fail(
                    f"with k={k} on counts {np.asarray(counts).tolist()} you return {_fmt(g)} instead of "
                    f"{_fmt(want)}. PMI = log2(P(w, c) / (P(w) P(c))) with the row and column sums of the counts; "
                    "then max(PMI - log2 k, 0)."
                )
    return ex.result


def _fmt(a: np.ndarray) -> str:
    return np.array2string(np.asarray(a), precision=3, threshold=20)
