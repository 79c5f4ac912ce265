"""Bad and edge inputs of the subword-tokenization chapter's helpers, table-driven (the runner is ``tests/bad_inputs.py``).

``BAD`` rows must raise an error naming the argument; ``EDGE`` rows have a documented result.
"""

from __future__ import annotations

import math
from functools import cache

import pytest

from nlp_helpers.tokenization import bpe as BP
from nlp_helpers.tokenization import unigram_train as UT
from tests.bad_inputs import Bad, Edge, bad, edge, run_bad, run_edge

NAN, INF = math.nan, math.inf


@cache
def bpe() -> BP.BPE:
    return BP.BPE.train(["low lower lowest", "new newer newest"], 20)


BAD = [
    # --- bpe
    bad("bpe.pretokenize-bytes", lambda: BP.pretokenize(b"abc"), TypeError, "text must be a str"),
    bad("bpe.byte_token-256", lambda: BP.byte_token(256), ValueError, "byte must be <= 255"),
    bad("bpe.byte_token-negative", lambda: BP.byte_token(-1), ValueError, "byte must be >= 0"),
    bad("bpe.merge_pair-none", lambda: BP.merge_pair(None, ("a", "b"), "ab"), TypeError, "symbols must be a sequence"),
    bad("bpe.merge_pair-pair-str", lambda: BP.merge_pair(["a", "b"], "a", "ab"), ValueError, "pair must be a"),
    bad("bpe.apply_merges-none", lambda: BP.apply_merges("ab", None), TypeError, "merges must be a sequence"),
    bad("bpe.apply_merges-empty-part", lambda: BP.apply_merges("ab", [("a", "")]), ValueError, r"merges\[0\]"),
    bad("bpe.BPE-merges-none", lambda: BP.BPE(None), TypeError, "merges must be a sequence"),
    bad("bpe.BPE.encode-lone-surrogate", lambda: bpe().encode("a\ud800b"), ValueError, "text contains '\\\\ud800'"),
    bad("bpe.BPE.decode-none", lambda: bpe().decode(None), TypeError, "tokens must be a list"),
    bad("bpe.BPE.decode_ids-none", lambda: bpe().decode_ids(None), TypeError, "ids must be a sequence"),
    bad("bpe.BPE.decode_ids-negative", lambda: bpe().decode_ids([-1]), ValueError, r"ids\[0\] = -1"),
    bad("bpe.BPE.train-bytes", lambda: BP.BPE.train(b"abc", 2), TypeError, "corpus"),
    bad("bpe.train_merges_naive-zero-count", lambda: BP.train_merges_naive({"ab": 0}, 2), ValueError, "word_counts"),
    # --- unigram_train
    bad(
        "unigram_train.expected_counts-list", lambda: UT.expected_counts(["ab"], {"a": -1.0}), TypeError, "word_counts"
    ),
    bad(
        "unigram_train.expected_counts-float-count",
        lambda: UT.expected_counts({"a": 1.5}, {"a": -1.0}),
        ValueError,
        "word_counts",
    ),
    bad(
        "unigram_train.expected_counts-bool-count",
        lambda: UT.expected_counts({"a": True}, {"a": -1.0}),
        ValueError,
        "word_counts",
    ),
    bad("unigram_train.expected_counts-nan", lambda: UT.expected_counts({"a": 1}, {"a": NAN}), ValueError, "log_probs"),
    bad(
        "unigram_train.expected_counts-uncoverable",
        lambda: UT.expected_counts({"ab": 1}, {"a": -1.0}),
        ValueError,
        "cannot be written",
    ),
    bad(
        "unigram_train.seed_vocabulary-max-len-0",
        lambda: UT.seed_vocabulary({"ab": 1}, 5, max_piece_length=0),
        ValueError,
        "max_piece_length",
    ),
    bad(
        "unigram_train.train_unigram-shrink-nan",
        lambda: UT.train_unigram({"ab": 1}, 2, shrink=NAN),
        ValueError,
        "shrink",
    ),
    bad("unigram_train.train_unigram-vocab-float", lambda: UT.train_unigram({"ab": 1}, 2.5), TypeError, "vocab_size"),
]


EDGE = [
    # --- tokenizers: unknown characters, empty text
    edge(
        "bpe.BPE.encode-unknown-characters-fall-back-to-bytes",
        lambda: bpe().encode("日"),
        lambda t: t == ["<0xE6>", "<0x97>", "<0xA5>"],
    ),
    edge("bpe.BPE.encode-empty", lambda: bpe().encode(""), lambda t: t == []),
    edge(
        "unigram_train.train_unigram-fewer-characters-than-the-vocabulary-size-asks",
        lambda: UT.train_unigram({"abc": 2}, 2, seed_size=5).log_probs,
        lambda lp: {"a", "b", "c"} <= set(lp),  # characters are never pruned
    ),
    edge("bpe.merge_pair-str-symbols", lambda: BP.merge_pair("abab", ("a", "b"), "ab"), lambda t: t == ["ab", "ab"]),
    edge("bpe.train_merges_naive-empty", lambda: BP.train_merges_naive({}, 5), lambda m: m == []),
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_a_clear_error_naming_the_argument(case: Bad) -> None:
    run_bad(case)


@pytest.mark.parametrize("case", EDGE)
def test_edge_input_gives_the_documented_result(case: Edge) -> None:
    run_edge(case)
