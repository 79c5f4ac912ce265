"""The torch taggers (feature CRF, BiLSTM with softmax or CRF): they learn a small corpus, decode
consistently in batches, follow the seed, and check their arguments."""

from __future__ import annotations

import pytest
import torch

from nlp_helpers.tagging.bilstm import BiLSTMTagger
from nlp_helpers.tagging.crf_tagger import FeatureCRFTagger
from nlp_helpers.tagging.training import TorchTagger

NER = [
    [("John", "B-PER"), ("Smith", "I-PER"), ("lives", "O"), ("in", "O"), ("Paris", "B-LOC")],
    [("Mary", "B-PER"), ("visited", "O"), ("New", "B-LOC"), ("York", "I-LOC")],
    [("the", "O"), ("cat", "O"), ("sat", "O")],
    [("Acme", "B-ORG"), ("Corp", "I-ORG"), ("hired", "O"), ("John", "B-PER")],
] * 4


@pytest.mark.parametrize(
    "make",
    [
        lambda: FeatureCRFTagger(epochs=15, lr=0.1, batch_size=4, seed=0),
        lambda: FeatureCRFTagger(crf=False, epochs=15, lr=0.1, batch_size=4, seed=0),
        lambda: BiLSTMTagger(word_dim=16, hidden=16, min_count=1, epochs=25, lr=0.05, batch_size=4, seed=0),
        lambda: BiLSTMTagger(word_dim=16, hidden=16, min_count=1, crf=False, epochs=25, lr=0.05, batch_size=4, seed=0),
    ],
    ids=["feature-crf", "feature-softmax", "bilstm-crf", "bilstm-softmax"],
)
@pytest.mark.trains
def test_taggers_learn_a_small_corpus(make):
    torch.set_num_threads(1)
    tagger = make().fit(NER)
    assert tagger.losses[-1] < 0.5 * tagger.losses[0]
    words = [[w for w, _ in s] for s in NER[:4]]
    assert tagger.tag_many(words) == [[t for _, t in s] for s in NER[:4]]
    assert tagger.tag(words[1]) == tagger.tag_many(words)[1]
    assert tagger.tag_many([[], words[0]])[0] == []


def test_same_seed_same_model_other_seed_other_model():
    a = BiLSTMTagger(word_dim=8, hidden=8, epochs=2, seed=3).fit(NER)
    b = BiLSTMTagger(word_dim=8, hidden=8, epochs=2, seed=3).fit(NER)
    c = BiLSTMTagger(word_dim=8, hidden=8, epochs=2, seed=4).fit(NER)
    assert a.losses == b.losses and a.losses != c.losses


def test_base_class_needs_a_subclass_and_arguments_are_checked():
    with pytest.raises(NotImplementedError):
        TorchTagger().fit(NER)
    with pytest.raises(ValueError, match="epochs"):
        FeatureCRFTagger(epochs=0)
    with pytest.raises(TypeError, match="crf"):
        BiLSTMTagger(crf="yes")
    with pytest.raises(ValueError, match="lr"):
        BiLSTMTagger(lr=0.0)
    with pytest.raises(ValueError, match="min_count"):
        FeatureCRFTagger(min_count=0)
    with pytest.raises(ValueError, match="hidden"):
        BiLSTMTagger(hidden=0)
    with pytest.raises(RuntimeError, match="fit"):
        BiLSTMTagger().tag(["a"])
    with pytest.raises(ValueError, match="sentences"):
        FeatureCRFTagger().fit([[]])
    tagger = FeatureCRFTagger(epochs=1).fit(NER)
    with pytest.raises(TypeError, match="sentences"):
        tagger.tag_many("John Smith")
    with pytest.raises(TypeError, match=r"sentences\[0\]"):
        tagger.tag_many([[1, 2]])
