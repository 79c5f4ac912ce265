"""Span F1 against seqeval's default (conlleval-style) f1_score, and hand-worked conlleval cases."""

from __future__ import annotations

import os
import random
import warnings

import pytest

from nlp_helpers.tagging.spans import SpanScores, span_f1, tag_spans

try:  # `make install` builds seqeval (see the Makefile); CI must have it, a reader's machine may not
    import seqeval.metrics as seqeval_metrics
except ImportError:
    if os.environ.get("CI"):
        raise
    seqeval_metrics = None
needs_seqeval = pytest.mark.skipif(seqeval_metrics is None, reason="seqeval is not installed (make install builds it)")

TAGS_IOB2 = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
TAGS_BIOES = TAGS_IOB2 + ["E-PER", "S-LOC", "E-ORG", "S-PER"]


@needs_seqeval
@pytest.mark.parametrize("tagset", [TAGS_IOB2, TAGS_BIOES], ids=["iob2", "bioes"])
def test_span_f1_equals_seqeval_on_random_tag_sequences(tagset):
    rng = random.Random(len(tagset))
    for _ in range(3000):
        gold = [[rng.choice(tagset) for _ in range(rng.randint(1, 7))] for _ in range(rng.randint(1, 4))]
        pred = [[rng.choice(tagset) for _ in sent] for sent in gold]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # seqeval warns when a score is 0/0
            want = (
                seqeval_metrics.f1_score(gold, pred),
                seqeval_metrics.precision_score(gold, pred),
                seqeval_metrics.recall_score(gold, pred),
            )
        got = span_f1(gold, pred)
        assert (got.f1, got.precision, got.recall) == pytest.approx(want, abs=1e-12), (gold, pred)


def test_hand_worked_conlleval_cases():
    # An I- after O opens an entity; a type change inside a chunk starts a new entity.
    assert tag_spans(["O", "I-PER", "I-PER", "O"]) == [("PER", 1, 3)]
    assert tag_spans(["B-PER", "I-LOC", "O"]) == [("PER", 0, 1), ("LOC", 1, 2)]
    assert tag_spans(["B-PER", "B-PER"]) == [("PER", 0, 1), ("PER", 1, 2)]
    assert tag_spans(["O", "B-LOC", "I-LOC"]) == [("LOC", 1, 3)]  # runs to the end
    assert tag_spans([]) == []
    # gold: [New York]LOC [Jim]PER; pred finds New York, and York alone as a second LOC
    gold = [["B-LOC", "I-LOC", "O", "B-PER"]]
    pred = [
        ["B-LOC", "I-LOC", "O", "O"],
    ]
    s = span_f1(gold, pred)
    assert s == SpanScores(precision=1.0, recall=0.5, f1=2 / 3, n_gold=2, n_pred=1, n_correct=1)
    partial = span_f1([["B-LOC", "I-LOC"]], [["B-LOC", "O"]])  # a boundary error earns nothing
    assert (partial.precision, partial.recall, partial.f1) == (0.0, 0.0, 0.0)
    assert span_f1([["O"]], [["O"]]).f1 == 0.0  # no entities at all: 0, not a ZeroDivisionError


def test_span_f1_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="sentences"):
        span_f1([["O"]], [["O"], ["O"]])
    with pytest.raises(ValueError, match="sentence 0"):
        span_f1([["O", "O"]], [["O"]])
    with pytest.raises(TypeError, match="gold_tags"):
        span_f1("B-PER", [["O"]])
    with pytest.raises(TypeError, match="pred_tags"):
        span_f1([["O"]], [[None]])
    with pytest.raises(TypeError, match="tags"):
        tag_spans("B-PER I-PER")
