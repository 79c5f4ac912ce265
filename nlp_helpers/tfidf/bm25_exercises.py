"""Checker for the BM25+ exercise of the TF-IDF chapter (``book/tfidf/retrieval.ipynb``).

BM25+ (Lv & Zhai, *Lower-bounding term frequency normalization*, CIKM 2011) adds ``delta`` to the
saturated term frequency of every query term present in a document, so that a very long document
containing the term always scores above one without it. The reference below is written
independently of :class:`~nlp_helpers.tfidf.bm25.BM25` and agrees with it for ``delta = 0``
(``tests/tfidf/test_tfidf_exercises.py``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult

__all__ = ["BM25_PLUS_DOCS", "bm25_plus_reference", "check_bm25_plus"]

BM25_PLUS_DOCS = [
    "the yacht race to hobart started in sydney".split(),
    "qantas workers vote on the strike".split(),
    (
        "the airline qantas faces a strike by maintenance workers while the unions and the airline "
        "argue about pay and conditions and the government watches the talks between them closely"
    ).split(),
    "strong winds forced yachts to retire from the race race".split(),
    "firefighters contain fires in the blue mountains".split(),
]


def bm25_plus_reference(
    docs: Sequence[Sequence[str]],
    query: Sequence[str],
    k1: float = 1.2,
    b: float = 0.75,
    delta: float = 1.0,
    *,
    idf: str = "lucene",
    delta_everywhere: bool = False,
    delta_times_idf: bool = True,
    query_once: bool = False,
) -> np.ndarray:
    """BM25+ scores, shape (len(docs),); the keyword switches reproduce typical mistakes for the hints."""
    n = len(docs)
    bags = [Counter(d) for d in docs]
    lengths = np.array([len(d) for d in docs], dtype=float)
    norm = k1 * (1 - b + b * lengths / lengths.mean())
    scores = np.zeros(n)
    for t in dict.fromkeys(query) if query_once else query:
        f = np.array([bag[t] for bag in bags], dtype=float)
        df = int((f > 0).sum())
        if df == 0:
            continue
        w = math.log(1 + (n - df + 0.5) / (df + 0.5)) if idf == "lucene" else math.log(n / df)
        tf = f * (k1 + 1) / (f + norm)
        bonus = delta * (w if delta_times_idf else 1.0)
        present = np.ones(n, dtype=bool) if delta_everywhere else f > 0
        scores += w * tf + np.where(present, bonus, 0.0)
    return scores


MISTAKES = [
    (
        {"delta_everywhere": True},
        "you add delta for query terms the document does not contain: BM25+ adds it only when f(t, d) > 0.",
    ),
    (
        {"delta_times_idf": False},
        "you add delta on its own: it goes inside the bracket, so it is multiplied by "
        "idf(t) like the saturated term frequency.",
    ),
    (
        {"idf": "ln"},
        "your IDF is ln(N / df): use the IDF of the statement, which adds 0.5 to df and to N - df and takes the "
        "natural log of 1 plus their ratio, so that it is always positive.",
    ),
    ({"query_once": True}, "a query term repeated in the query should count once per occurrence; you counted it once."),
]
ARGS = ("docs", "query")


def check_bm25_plus(bm25_plus: Callable) -> CheckResult:
    """``bm25_plus(docs, query, k1=1.2, b=0.75, delta=1.0)``: BM25+ score of every document, shape (N,)."""
    with Checker("BM25+") as ex:
        docs = BM25_PLUS_DOCS
        cases = [
            (["qantas", "strike"], {}),
            (["race", "hobart"], {"delta": 0.0}),
            (["the", "airline", "workers"], {"k1": 2.0, "b": 0.3, "delta": 0.5}),
            (["race", "race", "yacht"], {}),
            (["zebra", "fires"], {"b": 1.0}),
        ]
        for query, kw in cases:
            call = f"bm25_plus(docs, {query}{''.join(f', {k}={v}' for k, v in kw.items())})"
            got = ex.call(bm25_plus, docs, query, **kw)
            try:
                g = np.asarray(got, dtype=float)
            except (TypeError, ValueError):
                ex.fail(f"{call} should return a numpy array of floats, got {type(got).__name__}.")
            ex.expect(
                g.shape == (len(docs),),
                f"{call} should have shape ({len(docs)},), one score per document; got {g.shape}.",
            )
            ex.expect(bool(np.isfinite(g).all()), f"{call} has nan or inf: a query term in no document adds 0.")
            want = bm25_plus_reference(docs, query, **kw)
            if np.allclose(g, want, rtol=1e-6, atol=1e-9):
                continue
            for mistake, hint in MISTAKES:
                if np.allclose(g, bm25_plus_reference(docs, query, **kw, **mistake), rtol=1e-6, atol=1e-9):
                    ex.fail(f"{call}: {hint}")
            if kw and np.allclose(g, bm25_plus_reference(docs, query), rtol=1e-6, atol=1e-9):
                ex.fail(f"{call} returns the scores for the default k1, b, delta: use the arguments you are given.")
            ex.fail(
                f"{call} should be {np.round(want, 4)}, got {np.round(g, 4)}. Per query term: idf × "
                "(saturated tf + delta) for the documents that contain it, with the length correction "
                "1 - b + b |d| / avgdl."
            )
    return ex.result
