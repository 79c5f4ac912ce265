"""Bad and edge inputs of the word2vec chapter's helpers, table-driven (the runner is ``tests/bad_inputs.py``).

``BAD`` rows must raise an error naming the argument; ``EDGE`` rows have a documented result.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest
import torch

from nlp_helpers.word2vec import corpus as W2C  # noqa: E402
from nlp_helpers.word2vec import evaluation as WE  # noqa: E402
from nlp_helpers.word2vec import fasttext as FT  # noqa: E402
from nlp_helpers.word2vec import sgns as W2  # noqa: E402
from nlp_helpers.word2vec import softmax as WS  # noqa: E402
from tests.bad_inputs import Bad, Edge, bad, edge, run_bad, run_edge

NAN, INF = math.nan, math.inf


@cache
def word_vectors() -> WE.WordVectors:
    return WE.WordVectors(["a", "b", "c"], np.eye(3))


def rng() -> np.random.Generator:
    return np.random.default_rng(0)


BAD = [
    # --- word2vec
    bad(
        "word2vec.Vocabulary-negative-count",
        lambda: W2C.Vocabulary(["a"], [-1]),
        ValueError,
        "counts must be non-negative",
    ),
    bad(
        "word2vec.Vocabulary-duplicate-words",
        lambda: W2C.Vocabulary(["a", "a"], [1, 1]),
        ValueError,
        "words must not contain duplicates",
    ),
    bad(
        "word2vec.build_vocab-sentence-str",
        lambda: W2C.build_vocab(["the cat"]),
        TypeError,
        r"sentences\[0\] must be a list of tokens",
    ),
    bad("word2vec.build_vocab-min_count-0", lambda: W2C.build_vocab([["a"]], 0), ValueError, "min_count must be >= 1"),
    bad(
        "word2vec.keep_probabilities-all-zero",
        lambda: W2C.keep_probabilities([0, 0]),
        ValueError,
        "counts must be a non-empty 1-D array",
    ),
    bad(
        "word2vec.keep_probabilities-negative",
        lambda: W2C.keep_probabilities([-1, 5]),
        ValueError,
        "non-negative word counts",
    ),
    bad(
        "word2vec.keep_probabilities-nan",
        lambda: W2C.keep_probabilities([NAN, 1]),
        ValueError,
        "counts must contain only finite",
    ),
    bad(
        "word2vec.noise_distribution-inf",
        lambda: W2C.noise_distribution([INF, 1]),
        ValueError,
        "counts must contain only finite",
    ),
    bad(
        "word2vec.noise_distribution-zero-count", lambda: W2C.noise_distribution([0, 1]), ValueError, "positive counts"
    ),
    bad("word2vec.noise_table-size-0", lambda: W2C.noise_table([1, 2], size=0), ValueError, "size must be >= 1"),
    bad(
        "word2vec.encode_corpus-empty",
        lambda: W2C.encode_corpus([], W2C.Vocabulary(["a"], [1])),
        ValueError,
        "sentences must not be empty",
    ),
    bad(
        "word2vec.encode_corpus-vocab-dict",
        lambda: W2C.encode_corpus([["a"]], {"a": 0}),
        TypeError,
        "vocab must be Vocabulary",
    ),
    bad(
        "word2vec.encode_corpus-sentence-str",
        lambda: W2C.encode_corpus(["ab"], W2C.Vocabulary(["a"], [1])),
        TypeError,
        r"sentences\[0\]",
    ),
    bad(
        "word2vec.skipgram_pairs-length-mismatch",
        lambda: W2C.skipgram_pairs(np.array([0, 1, 2]), np.array([0, 0]), 2, rng()),
        ValueError,
        "ids and sent_ids must have the same length",
    ),
    bad(
        "word2vec.skipgram_pairs-no-rng",
        lambda: W2C.skipgram_pairs(np.array([0, 1]), np.array([0, 0]), 2, None),
        TypeError,
        "rng must be Generator",
    ),
    bad(
        "word2vec.cbow_examples-2d-ids",
        lambda: W2C.cbow_examples(np.zeros((2, 2), int), np.zeros(2, int), 2, rng()),
        ValueError,
        "ids must have 1 dimensions",
    ),
    bad(
        "word2vec.sgns_loss-numpy",
        lambda: W2.sgns_loss(np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 1, 3))),
        TypeError,
        "v must be Tensor",
    ),
    bad(
        "word2vec.sgns_gradients-mask-shape",
        lambda: W2.sgns_gradients(
            torch.zeros(2, 3), torch.zeros(2, 3), torch.zeros(2, 1, 3), neg_mask=torch.zeros(3, 3)
        ),
        ValueError,
        "neg_mask must have shape",
    ),
    bad(
        "word2vec.sgns_shared_loss-empty-noise",
        lambda: W2.sgns_shared_loss(torch.zeros(2, 3), torch.zeros(2, 3), torch.zeros(0, 3), 5),
        ValueError,
        "u_noise must have shape",
    ),
    bad(
        "word2vec.sgns_shared_loss-k-0",
        lambda: W2.sgns_shared_loss(torch.zeros(2, 3), torch.zeros(2, 3), torch.zeros(4, 3), 0),
        ValueError,
        "k must be >= 1",
    ),
    bad(
        "word2vec.sgns_shared_gradients-mask-shape",
        lambda: W2.sgns_shared_gradients(torch.zeros(2, 3), torch.zeros(2, 3), torch.zeros(4, 3), 5, torch.zeros(2, 3)),
        ValueError,
        "noise_mask must have shape",
    ),
    bad(
        "word2vec.Word2Vec.fit-no-context-pairs",
        lambda: W2.Word2Vec(min_count=1, epochs=1, dim=4).fit([["a"], ["b"]], progress=False),
        ValueError,
        "no \\(word, context\\) pair",
    ),
    # --- word2vec_eval
    bad(
        "word2vec_eval.WordVectors-nan",
        lambda: WE.WordVectors(["a"], [[NAN]]),
        ValueError,
        "vectors must contain only finite",
    ),
    bad(
        "word2vec_eval.WordVectors.vector-unknown",
        lambda: word_vectors().vector("zebra"),
        KeyError,
        "word 'zebra' is not in the vocabulary",
    ),
    bad(
        "word2vec_eval.WordVectors.analogy-unknown",
        lambda: word_vectors().analogy("a", "b", "zebra"),
        KeyError,
        "c 'zebra'",
    ),
    bad(
        "word2vec_eval.WordVectors.nearest-k-0",
        lambda: word_vectors().nearest([1, 0, 0], 0),
        ValueError,
        "topn must be >= 1",
    ),
    bad(
        "word2vec_eval.WordVectors.evaluate_similarity-constant-scores",
        lambda: word_vectors().evaluate_similarity([("a", "b", 1.0), ("a", "c", 1.0), ("b", "c", 1.0)]),
        ValueError,
        "correlation needs varying values",
    ),
    bad(
        "word2vec_eval.WordVectors.evaluate_similarity-nan-score",
        lambda: word_vectors().evaluate_similarity([("a", "b", NAN), ("a", "c", 1.0), ("b", "c", 2.0)]),
        ValueError,
        "pairs score must contain only finite",
    ),
    bad(
        "word2vec_eval.WordVectors.evaluate_similarity-pairs-of-two",
        lambda: word_vectors().evaluate_similarity([("a", "b")]),
        ValueError,
        "pairs must be \\(word1, word2, score\\)",
    ),
    bad(
        "word2vec_eval.read_analogies-missing",
        lambda: WE.read_analogies("/nonexistent/questions.txt"),
        FileNotFoundError,
        "not a file of analogy questions",
    ),
    # --- word2vec_softmax
    bad("word2vec_softmax.one_hot-float-ids", lambda: WS.one_hot([1.5], 3), TypeError, "ids must be integer word ids"),
    bad("word2vec_softmax.softmax-empty", lambda: WS.softmax([]), ValueError, "scores must have at least one entry"),
    bad(
        "word2vec_softmax.softmax-minus-inf",
        lambda: WS.softmax([1.0, -INF]),
        ValueError,
        "scores must contain only finite",
    ),
    bad(
        "word2vec_softmax.context_windows-negative-id",
        lambda: WS.context_windows([-3, 1], 1),
        ValueError,
        "ids must be non-negative",
    ),
    bad(
        "word2vec_softmax.context_windows-2d",
        lambda: WS.context_windows([[1, 2]], 1),
        ValueError,
        "ids must have 1 dimensions",
    ),
    bad(
        "word2vec_softmax.cbow_forward-bad-id",
        lambda: WS.cbow_forward([5], np.eye(3), np.eye(3)),
        ValueError,
        "ids must lie in",
    ),
    bad(
        "word2vec_softmax.skipgram_forward-bad-id",
        lambda: WS.skipgram_forward(-1, np.eye(3), np.eye(3)),
        ValueError,
        "centre_id must be >= 0",
    ),
    bad(
        "word2vec_softmax.SoftmaxWord2Vec-float-input",
        lambda: WS.SoftmaxWord2Vec(3, 2)(torch.zeros(2, 2)),
        TypeError,
        "given must hold integer word ids",
    ),
    bad(
        "word2vec_softmax.train_softmax_word2vec-negative-id",
        lambda: WS.train_softmax_word2vec([[0, -5, 1]], 3, epochs=1, progress=False),
        ValueError,
        r"sentences\[0\] must hold word ids",
    ),
    bad(
        "word2vec_softmax.train_softmax_word2vec-id-above-vocab",
        lambda: WS.train_softmax_word2vec([[0, 7]], 3, epochs=1, progress=False),
        ValueError,
        r"sentences\[0\]",
    ),
    bad(
        "word2vec_softmax.train_softmax_word2vec-single-words",
        lambda: WS.train_softmax_word2vec([[0], [1]], 3, cbow=False, epochs=1, progress=False),
        ValueError,
        "no training example",
    ),
    bad(
        "word2vec_softmax.train_softmax_word2vec-single-words-cbow",
        lambda: WS.train_softmax_word2vec([[0], []], 3, epochs=1, progress=False),
        ValueError,
        "no training example",
    ),
    # --- fasttext
    bad(
        "fasttext.subword_vector-no-ngrams",
        lambda: FT.subword_vector("a", np.ones((10, 3)), minn=5, maxn=6),
        ValueError,
        "word 'a' has no character n-grams",
    ),
    bad(
        "fasttext.subword_vector-empty-table",
        lambda: FT.subword_vector("abc", np.ones((0, 3))),
        ValueError,
        "buckets must be >= 1",
    ),
    bad("fasttext.ngram_buckets-empty-word", lambda: FT.ngram_buckets(""), ValueError, "word must be a non-empty"),
    bad("fasttext.fnv1a_32-str", lambda: FT.fnv1a_32("abc"), TypeError, "data must be bytes"),
]


EDGE = [
    edge(
        "word2vec.keep_probabilities-zero-count",
        lambda: W2C.keep_probabilities([0, 10]),
        lambda p: p[0] == 1.0 and 0 < p[1] <= 1,
    ),
    edge(
        "word2vec.noise_distribution-huge-power",
        lambda: W2C.noise_distribution([1e6, 1.0], 1000),
        lambda p: np.array_equal(p, [1.0, 0.0]),
    ),
    edge(
        "word2vec.skipgram_pairs-empty",
        lambda: W2C.skipgram_pairs(np.array([], int), np.array([], int), 2, rng()),
        lambda r: r[0].size == 0 and r[1].size == 0,
    ),
    edge(
        "word2vec_eval.WordVectors.nearest-topn-above-vocabulary",
        lambda: word_vectors().nearest([1.0, 0, 0], 10),
        lambda r: len(r) == 3 and r[0] == ("a", 1.0),
    ),
    edge(
        "word2vec_eval.WordVectors.similarity-zero-vector",
        lambda: WE.WordVectors(["a", "b"], [[0.0], [1.0]]).similarity("a", "b"),
        lambda s: s == 0.0,
    ),
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_a_clear_error_naming_the_argument(case: Bad) -> None:
    run_bad(case)


@pytest.mark.parametrize("case", EDGE)
def test_edge_input_gives_the_documented_result(case: Edge) -> None:
    run_edge(case)
