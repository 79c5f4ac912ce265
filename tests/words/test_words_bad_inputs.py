"""Bad and edge inputs of the words chapter's helpers, table-driven (the runner is ``tests/bad_inputs.py``).

``BAD`` rows must raise an error naming the argument; ``EDGE`` rows have a documented result.
"""

from __future__ import annotations

import math

import pytest

from nlp_helpers.words import edit_distance as ED
from nlp_helpers.words import segmentation as SEG
from nlp_helpers.words import words as TK
from tests.bad_inputs import Bad, Edge, bad, edge, run_bad, run_edge

INF = math.inf


BAD = [
    # --- words
    bad("words.word_spans-none", lambda: TK.word_spans(None), TypeError, "text must be a str"),
    bad("words.is_punctuation-int", lambda: TK.is_punctuation(3), TypeError, "token must be a str"),
    bad(
        "words.vocabulary_growth-str",
        lambda: TK.vocabulary_growth("abc"),
        TypeError,
        "tokens must be a sequence",
    ),
    bad("words.vocabulary_growth-empty", lambda: TK.vocabulary_growth([]), ValueError, "tokens must not be empty"),
    bad(
        "words.merged_forms-normalizer-returns-none",
        lambda: TK.merged_forms(["a"], lambda t: None),
        TypeError,
        "normalizer must return a list",
    ),
    bad("words.stem-str", lambda: TK.stem("running"), TypeError, "tokens must be a list of str"),
    bad("words.lemmatize-ints", lambda: TK.lemmatize([1]), TypeError, "tokens must contain only str"),
    bad("words.heaps_law_fit-str", lambda: TK.heaps_law_fit("abc" * 100), TypeError, "tokens"),
    # --- edit_distance and segmentation
    bad(
        "edit_distance.edit_distance-inf-cost",
        lambda: ED.edit_distance("a", "b", del_cost=INF),
        ValueError,
        "del_cost must be a finite",
    ),
    bad(
        "edit_distance.edit_distance-set",
        lambda: ED.edit_distance({"a"}, "a"),
        TypeError,
        "source must be a str or a list",
    ),
    bad(
        "edit_distance.edit_distance-unhashable",
        lambda: ED.edit_distance(["a"], [["b"]]),
        TypeError,
        r"target\[0\] must be hashable",
    ),
    bad(
        "segmentation.token_spans-empty-token",
        lambda: SEG.token_spans(["a", ""]),
        ValueError,
        r"tokens\[1\] is an empty token",
    ),
    bad("segmentation.token_spans-str", lambda: SEG.token_spans("abc"), TypeError, "tokens must be a list"),
    bad(
        "segmentation.max_match-vocabulary-str",
        lambda: SEG.max_match("abc", "abc"),
        TypeError,
        "vocabulary must be a collection",
    ),
    bad(
        "segmentation.segmentation_scores-different-text",
        lambda: SEG.segmentation_scores(["ab"], ["a", "c"]),
        ValueError,
        "predicted and gold",
    ),
    bad(
        "segmentation.dictionary_words-unknown",
        lambda: SEG.dictionary_words("klingon"),
        ValueError,
        "which must be one of",
    ),
    bad(
        "segmentation.jieba_tokenizer-unknown",
        lambda: SEG.jieba_tokenizer("klingon"),
        ValueError,
        "which must be one of",
    ),
]


EDGE = [
    edge(
        "words.word_tokenize-unicode",
        lambda: TK.word_tokenize("Café 中文 🙂!"),
        lambda t: t == ["Café", "中文", "🙂", "!"],
    ),
    edge("words.word_spans-empty", lambda: TK.word_spans(""), lambda s: s == []),
    edge(
        "words.heaps_law_fit-constant-vocabulary",
        lambda: TK.heaps_law_fit(["a", "b"] * 300),
        lambda f: isinstance(f, TK.HeapsFit) and f.b == pytest.approx(0, abs=1e-12) and f.r2 == 1.0,
    ),
    edge("segmentation.max_match-empty-vocabulary", lambda: SEG.max_match("中文", set()), lambda t: t == ["中", "文"]),
    edge(
        "segmentation.SegmentationScores-no-match",
        lambda: SEG.segmentation_scores(["ab"], ["a", "b"]),
        lambda r: isinstance(r, SEG.SegmentationScores) and r.f1 == 0.0,
    ),
    edge(
        "edit_distance.edit_distance-both-empty",
        lambda: ED.edit_distance("", ""),
        lambda r: isinstance(r, ED.EditDistance) and r.distance == 0 and r.alignment == (),
    ),
    edge(
        "edit_distance.AlignmentStep-insert-has-gap",
        lambda: ED.edit_distance("", "a").alignment[0],
        lambda s: s == ED.AlignmentStep("insert", None, "a", 1),
    ),
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_a_clear_error_naming_the_argument(case: Bad) -> None:
    run_bad(case)


@pytest.mark.parametrize("case", EDGE)
def test_edge_input_gives_the_documented_result(case: Edge) -> None:
    run_edge(case)


def test_segmentation_dictionaries_are_cached_word_sets() -> None:
    words = SEG.dictionary_words("traditional")
    assert isinstance(words, frozenset) and "貿易" in words and SEG.dictionary_words("traditional") is words
