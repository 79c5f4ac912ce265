"""Bad and edge inputs of the tfidf chapter's helpers, table-driven (the runner is ``tests/bad_inputs.py``).

``BAD`` rows must raise an error naming the argument; ``EDGE`` rows have a documented result.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

from nlp_helpers.tfidf import bag_of_words as BW  # noqa: E402
from nlp_helpers.tfidf import cooccurrence as CO  # noqa: E402
from nlp_helpers.tfidf import similarity as SIM  # noqa: E402
from nlp_helpers.tfidf import weighting as WT  # noqa: E402
from tests.bad_inputs import Bad, Edge, bad, edge, run_bad, run_edge

NAN, INF = math.nan, math.inf


@cache
def tfidf() -> WT.TfIdf:
    return WT.TfIdf().fit(["the cat sat", "the dog ran", "a bird sang"])


def _is_zero(x: Any) -> bool:
    return bool(np.all(np.asarray(x) == 0))


BAD = [
    # --- tfidf
    bad(
        "tfidf.tokenize_corpus-tokenizer-returns-none",
        lambda: BW.tokenize_corpus(["a"], tokenizer=lambda s: None),
        TypeError,
        "the tokenizer must return a list",
    ),
    bad(
        "tfidf.tokenize_corpus-empty-document",
        lambda: BW.tokenize_corpus(["a b", "..."]),
        ValueError,
        r"docs\[1\] has no tokens",
    ),
    bad(
        "tfidf.build_vocabulary-strings",
        lambda: BW.build_vocabulary(["the cat", "a dog"]),
        TypeError,
        r"token_lists\[0\] must be a list of tokens",
    ),
    bad("tfidf.bag_of_words-vocab_size-1", lambda: BW.bag_of_words(["a b"], 1), ValueError, "vocab_size must be >= 2"),
    bad(
        "tfidf.term_frequency-negative",
        lambda: WT.term_frequency(sp.csr_array(np.array([[-1.0, 2.0]])), tf="sublinear"),
        ValueError,
        "counts must contain finite, non-negative",
    ),
    bad(
        "tfidf.term_frequency-nan",
        lambda: WT.term_frequency(np.array([[NAN, 2.0]])),
        ValueError,
        "counts must contain finite",
    ),
    bad(
        "tfidf.term_frequency-1d",
        lambda: WT.term_frequency(np.array([1.0, 2.0])),
        ValueError,
        "counts must have 2 dimensions",
    ),
    bad("tfidf.term_frequency-str", lambda: WT.term_frequency("abc"), TypeError, "counts must be array-like"),
    bad(
        "tfidf.term_frequency-lengths-nan",
        lambda: WT.term_frequency(np.array([[1.0, 2.0]]), [NAN], tf="relative"),
        ValueError,
        "lengths must contain only finite",
    ),
    bad(
        "tfidf.inverse_document_frequency-nan",
        lambda: WT.inverse_document_frequency([NAN, 1], 2),
        ValueError,
        "document_frequency must contain only finite",
    ),
    bad(
        "tfidf.inverse_document_frequency-2d",
        lambda: WT.inverse_document_frequency([[1, 1]], 2, "smooth"),
        ValueError,
        "document_frequency must have 1 dimensions",
    ),
    bad(
        "tfidf.inverse_document_frequency-zero-df",
        lambda: WT.inverse_document_frequency([0, 1], 2, "ln"),
        ValueError,
        "df = 0",
    ),
    bad("tfidf.term_document_matrix-empty", lambda: WT.term_document_matrix([]), ValueError, "docs must not be empty"),
    bad(
        "tfidf.cooccurrence_matrix-no-words", lambda: CO.cooccurrence_matrix([[]]), ValueError, "tokens contain no term"
    ),
    bad(
        "tfidf.cooccurrence_matrix-min_count-too-high",
        lambda: CO.cooccurrence_matrix(["a", "b"], min_count=5),
        ValueError,
        "min_count=5",
    ),
    bad(
        "tfidf.most_similar-unknown-word",
        lambda: CO.most_similar("zebra", np.eye(3), ["a", "b", "c"]),
        ValueError,
        "word 'zebra' is not in the vocabulary",
    ),
    bad(
        "tfidf.TfIdf.search-top_k-above-documents",
        lambda: tfidf().search("cat", top_k=4),
        ValueError,
        "top_k must be <= 3",
    ),
    bad(
        "tfidf.TfIdf.search-unknown-words",
        lambda: tfidf().search("zebra", top_k=1),
        ValueError,
        "query 'zebra' has no term",
    ),
    bad(
        "tfidf.lee_tfidf_correlation-bad-setting",
        lambda: WT.lee_tfidf_correlation(["a"], norm="l3"),
        ValueError,
        "norm must be one of",
    ),
    bad(
        "tfidf.lee_tfidf_correlation-empty-background",
        lambda: WT.lee_tfidf_correlation([]),
        ValueError,
        "docs must not be empty",
    ),
]


EDGE = [
    # --- vectors and counts
    edge(
        "tfidf.cosine_similarity-huge",
        lambda: SIM.cosine_similarity([1e200, 1e200], [1e200, 0.0]),
        lambda c: c == pytest.approx(np.sqrt(0.5)),
    ),
    edge(
        "tfidf.cosine_similarity-tiny",
        lambda: SIM.cosine_similarity([1e-200, 1e-200], [1e-200, 0.0]),
        lambda c: c == pytest.approx(np.sqrt(0.5)),
    ),
    edge(
        "tfidf.pmi-huge-counts",
        lambda: CO.pmi(np.array([[1e308, 1e308], [1e308, 1.0]])),
        lambda x: np.isfinite(x).all() and np.allclose(x, CO.pmi(np.array([[1.0, 1.0], [1.0, 1e-308]]))),
    ),
    edge(
        "tfidf.truncated_svd-sparse-zeros",
        lambda: CO.truncated_svd(sp.csr_array(np.zeros((5, 5))), 2),
        lambda x: x.shape == (5, 2) and _is_zero(x),
    ),
    edge(
        "tfidf.term_frequency-stored-zero",
        lambda: WT.term_frequency(sp.csr_array(([0.0, 2.0], [0, 1], [0, 2]), shape=(1, 2)), tf="sublinear"),
        lambda x: np.allclose(x.toarray(), [[0.0, 1 + np.log(2)]]),
    ),
    edge(
        "tfidf.inverse_document_frequency-smooth-zero-df",
        lambda: WT.inverse_document_frequency([0, 2], 2, "smooth"),
        lambda x: np.allclose(x, [np.log(3) + 1, 1.0]),
    ),
    edge(
        "tfidf.TfIdf.transform-unknown-words-give-zero-vector",
        lambda: tfidf().transform(["zebra okapi"]),
        lambda x: x.nnz == 0,
    ),
    edge(
        "tfidf.bag_of_words-unknown-to-unk",
        lambda: BW.bag_of_words(["a a b c"], 2),
        lambda df: list(df.columns) == ["a", "<unk>"] and df.values.tolist() == [[2, 2]],
    ),
    edge(
        "tfidf.term_document_matrix-shape", lambda: WT.term_document_matrix(["a b", "b"]), lambda df: df.shape == (2, 2)
    ),
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_a_clear_error_naming_the_argument(case: Bad) -> None:
    run_bad(case)


@pytest.mark.parametrize("case", EDGE)
def test_edge_input_gives_the_documented_result(case: Edge) -> None:
    run_edge(case)
