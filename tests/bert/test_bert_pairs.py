"""Pairwise helpers (nlp_helpers.bert.pairs).

References: ``pack_pair`` equals the Hugging Face tokenizer's own pair encoding ``tokenizer(a, b)``
(exact ids, segment ids and mask), including texts that split into several WordPieces; the unchanged
bi-encoder's score equals the cosine of ``minilm.sentence_embeddings`` (to 1e-5); the cross-encoder's
logit equals the pretrained model's ``[CLS]`` vector through its head (to 1e-5); the training losses
are torch's binary cross-entropy and mean squared error on the first batch (to 1e-5); the split is
checked by its definition (no shared item); the stored study has >= 5 seeds per model.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from nlp_helpers import seeds
from nlp_helpers.bert import minilm as bert
from nlp_helpers.bert.pairs import (
    BiEncoder,
    CrossEncoder,
    disjoint_pair_split,
    encode_pairs,
    pack_pair,
    pair_scores,
    pair_study,
    train_pair_model,
)
from nlp_helpers.data.corpora import simlex999

PAIRS = [
    ("The cat sat on the mat.", "A cat was sitting on a rug."),
    ("Tokenization of unaffable words", "cat"),
    ("old", "new"),
    ("Ein Kätzchen schläft!", "naïve café-goers, 1999"),
]


@pytest.mark.parametrize("a,b", PAIRS)
def test_pack_pair_equals_the_tokenizers_pair_encoding(a, b):
    tokenizer, _ = bert.load_minilm()
    ours, theirs = pack_pair(tokenizer, a, b), tokenizer(a, b)
    for key in ("input_ids", "token_type_ids", "attention_mask"):
        assert ours[key] == list(theirs[key]), key


def test_pack_pair_hand_worked_example():
    tokenizer, _ = bert.load_minilm()
    packed = pack_pair(tokenizer, "old", "new car")
    assert tokenizer.convert_ids_to_tokens(packed["input_ids"]) == ["[CLS]", "old", "[SEP]", "new", "car", "[SEP]"]
    assert packed["token_type_ids"] == [0, 0, 0, 1, 1, 1]


def test_models_match_their_references():
    a, b = ["a cat", "old"], ["a dog on a mat", "new"]
    bi = BiEncoder()
    emb_a, emb_b = bert.sentence_embeddings(a), bert.sentence_embeddings(b)
    np.testing.assert_allclose(pair_scores(bi, a, b), (emb_a * emb_b).sum(1), atol=1e-5)
    cross = CrossEncoder()
    _, model = bert.load_minilm()
    enc = encode_pairs(a, b)
    with torch.no_grad():
        cls = model(**enc).last_hidden_state[:, 0]
        expected = torch.sigmoid(cross.head(cls).squeeze(-1)).numpy()
    np.testing.assert_allclose(pair_scores(cross, a, b), expected, atol=1e-5)
    # the copies are independent of the shared model
    assert cross.encoder is not model and bi.encoder is not model


def test_training_losses_are_torchs_and_leave_the_shared_model_alone():
    _, model = bert.load_minilm()
    before = model.embeddings.word_embeddings.weight.clone()
    a, b, y = ["old", "cup", "car"], ["new", "mug", "auto"], [0.1, 0.9, 0.8]
    for cls, loss_fn in [
        (CrossEncoder, lambda m, idx: torch.nn.functional.binary_cross_entropy_with_logits(
            m(encode_pairs([a[i] for i in idx], [b[i] for i in idx])), torch.tensor([y[i] for i in idx]))),
        (BiEncoder, lambda m, idx: torch.nn.functional.mse_loss(
            m(m.encode([a[i] for i in idx], [b[i] for i in idx], 128)), torch.tensor([y[i] for i in idx]))),
    ]:  # fmt: skip
        m = cls()
        m.train()  # with dropout, drawn as the training loop draws it: same seed, same order
        with torch.no_grad():
            idx = torch.randperm(3, generator=seeds.torch_generator(0)).tolist()
            seeds.manual_seed(0)
            expected = float(loss_fn(m, idx))
        losses = train_pair_model(m, a, b, y, epochs=1, batch_size=3, seed=0, progress=False)
        assert len(losses) == 1 and abs(losses[0] - expected) < 1e-5
    assert torch.equal(before, model.embeddings.word_embeddings.weight)


def test_disjoint_pair_split_shares_no_item():
    df = simlex999()
    train, test = disjoint_pair_split(list(df.word1), list(df.word2), rng=np.random.default_rng(0))
    words = lambda idx: set(df.word1.iloc[idx]) | set(df.word2.iloc[idx])  # noqa: E731
    assert len(train) > 300 and len(test) > 100 and not words(train) & words(test)
    assert not set(train) & set(test)


def test_bad_inputs_name_the_argument():
    tokenizer, _ = bert.load_minilm()
    with pytest.raises(TypeError, match="tokenizer"):
        pack_pair("not a tokenizer", "a", "b")
    with pytest.raises(TypeError, match=r"b\[0\]"):
        pack_pair(tokenizer, "a", 3)
    with pytest.raises(ValueError, match="one b per a"):
        encode_pairs(["a", "b"], ["c"])
    with pytest.raises(ValueError, match="scores"):
        train_pair_model(BiEncoder(), ["a"], ["b"], [7.0])
    with pytest.raises(ValueError, match="scores"):
        train_pair_model(BiEncoder(), ["a"], ["b"], [0.1, 0.2])
    with pytest.raises(TypeError, match="model"):
        pair_scores(torch.nn.Linear(2, 2), ["a"], ["b"])
    with pytest.raises(ValueError, match="pooling"):
        CrossEncoder(pooling="max")
    with pytest.raises(ValueError, match="test_fraction"):
        disjoint_pair_split(["a"], ["b"], test_fraction=0.0, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="left and right"):
        disjoint_pair_split(["a"], [], rng=np.random.default_rng(0))


def test_stored_pair_study_is_complete(tmp_path):
    study = pair_study()
    assert set(study.model) == {"bi-encoder, unchanged", "bi-encoder, fine-tuned", "cross-encoder, fine-tuned"}
    assert (study.groupby("model").seed.nunique() >= 5).all()
    assert study.spearman.between(-1, 1).all() and study.auc.between(0, 1).all()
    # all three models of a seed are scored on the same test pairs
    assert (study.groupby("seed")[["n_train", "n_test"]].nunique() == 1).all().all()
    bad = tmp_path / "study.json"
    bad.write_text(json.dumps({"runs": [{"model": "x", "seed": 0}]}))
    with pytest.raises(ValueError, match="fields"):
        pair_study(bad)
    with pytest.raises(FileNotFoundError, match="bert_pair_study"):
        pair_study(tmp_path / "missing.json")
