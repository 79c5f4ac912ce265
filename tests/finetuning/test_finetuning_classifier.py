"""Fine-tuning helpers (nlp_helpers.finetuning.classifier) against the pretrained model itself.

The cached-features shortcut is only valid if running the copied top layer on the
cached penultimate states reproduces the model's own output: checked to 1e-4.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.bert import minilm as bert
from nlp_helpers.finetuning.classifier import (
    SentenceClassifier,
    encoder_features,
    predict,
    run_bert_layer,
    train_classifier,
)
from nlp_helpers.seeds import manual_seed
from nlp_helpers.seeds import rng as seeded_rng

TEXTS = [
    "simplistic, silly and tedious.",
    "a gorgeous, witty, seductive movie.",
    "It is too big.",
    "The trophy does not fit into the suitcase because it is too big, they said.",
]


@pytest.fixture(scope="module")
def feats():
    return encoder_features(TEXTS, max_length=64, batch_size=3)


def test_features_are_in_text_order_and_padded_with_zeros(feats):
    mask = feats["attention_mask"]
    assert feats["last"].shape == feats["penultimate"].shape == (4, int(mask.sum(1).max()), 384)
    for i, (tokens, h) in enumerate(bert.token_states(TEXTS)):
        n = len(tokens)
        assert int(mask[i].sum()) == n and mask[i, :n].all()
        np.testing.assert_allclose(feats["last"][i, :n].numpy(), h, atol=1e-5)
        assert (feats["last"][i, n:] == 0).all()


def test_top_layer_on_cached_states_reproduces_the_model(feats):
    _, model = bert.load_minilm()
    with torch.no_grad():
        redo = run_bert_layer(model.encoder.layer[-1], feats["penultimate"], feats["attention_mask"])
    m = feats["attention_mask"][..., None].float()
    torch.testing.assert_close(redo * m, feats["last"] * m, atol=1e-4, rtol=1e-4)


def test_classifier_pools_like_sentence_bert_and_does_not_touch_the_pretrained_model(feats):
    _, model = bert.load_minilm()
    before = {k: v.clone() for k, v in model.encoder.layer[-1].state_dict().items()}
    manual_seed(0)
    clf = SentenceClassifier(384, 2, top_layer=model.encoder.layer[-1])
    clf.eval()
    with torch.no_grad():
        logits = clf(feats["penultimate"], feats["attention_mask"])
    pooled = bert.sentence_embeddings(TEXTS, normalize=False)
    want = pooled @ clf.head.weight.detach().numpy().T + clf.head.bias.detach().numpy()
    np.testing.assert_allclose(logits.numpy(), want, atol=1e-4)
    train_classifier(
        clf,
        feats["penultimate"],
        feats["attention_mask"],
        np.array([0, 1, 0, 1]),
        epochs=2,
        batch_size=2,
        progress=False,
    )
    after = model.encoder.layer[-1].state_dict()
    assert all(torch.equal(before[k], after[k]) for k in before)  # the copy was trained, not the original
    assert any(not torch.equal(before[k], v) for k, v in clf.top_layer.state_dict().items())


@pytest.mark.trains
def test_training_learns_a_separable_task():
    rng = seeded_rng(0)
    hidden = torch.tensor(rng.normal(size=(80, 6, 8)), dtype=torch.float32)
    mask = torch.ones(80, 6, dtype=torch.long)
    mask[::2, 4:] = 0
    direction = rng.normal(size=8)
    pooled = (hidden * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
    y = (pooled.numpy() @ direction > 0).astype(int)
    manual_seed(0)
    clf = SentenceClassifier(8, 2)
    losses = train_classifier(clf, hidden, mask, y, epochs=40, batch_size=16, lr=5e-2, progress=False)
    assert np.mean(losses[-5:]) < 0.5 * np.mean(losses[:5])
    assert (predict(clf, hidden, mask) == y).mean() > 0.9


def test_bad_input_gives_clear_errors(feats):
    clf = SentenceClassifier(384, 2)
    with pytest.raises(ValueError, match="labels must be class indices"):
        train_classifier(clf, feats["last"], feats["attention_mask"], np.array([0, 1, 2, 1]), progress=False)
    with pytest.raises(ValueError, match="same number of sentences"):
        train_classifier(clf, feats["last"], feats["attention_mask"], np.array([0, 1]), progress=False)
    with pytest.raises(ValueError, match="epochs"):
        train_classifier(clf, feats["last"], feats["attention_mask"], np.array([0, 1, 0, 1]), epochs=0, progress=False)
    with pytest.raises(ValueError, match="n_classes"):
        SentenceClassifier(384, 1)
    with pytest.raises(ValueError, match="hidden must be"):
        clf(feats["last"][0], feats["attention_mask"][0])
    with pytest.raises(ValueError, match="texts must not be empty"):
        encoder_features([])


def test_training_settings_is_shared_and_names_each_bad_argument():
    import pytest
    from torch import nn

    from nlp_helpers.finetuning import classifier, token_labels
    from nlp_helpers.finetuning.classifier import SentenceClassifier, training_settings

    # One checker serves both heads: the token head's module imports it, no copy of its own.
    assert token_labels.training_settings is classifier.training_settings
    top = nn.Linear(4, 4)
    groups, epochs, batch_size, seed = training_settings(
        SentenceClassifier(4, 2, top), epochs=2, batch_size=3, lr=0.1, layer_lr=0.01, seed=1
    )
    assert (epochs, batch_size, seed) == (2, 3, 1) and [g["lr"] for g in groups] == [0.1, 0.01]
    ok = dict(epochs=1, batch_size=1, lr=0.1, layer_lr=0.1, seed=0)
    for name, bad in [("epochs", 0), ("batch_size", 0), ("lr", 0.0), ("layer_lr", -1.0), ("seed", -1)]:
        with pytest.raises(ValueError, match=name):
            training_settings(SentenceClassifier(4, 2, top), **{**ok, name: bad})
    with pytest.raises(TypeError, match="head"):
        training_settings(nn.Linear(2, 2), **ok)
