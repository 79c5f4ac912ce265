"""The embedding-pooling classifier: pooling by hand, torch parity, pretrained vectors, training."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.feedforward.pooling_classifier import (
    PAD,
    POOLINGS,
    UNK,
    PoolingClassifier,
    accuracy,
    encode_texts,
    pretrained_matrix,
    train_classifier,
)

VOCAB = [PAD, UNK, "good", "great", "fun", "bad", "dull", "awful", "film", "the"]
POS = [["good", "film"], ["great", "fun"], ["the", "good", "fun"], ["great"], ["fun", "film", "great"]]
NEG = [["bad", "film"], ["dull", "awful"], ["the", "bad", "dull"], ["awful"], ["dull", "film", "bad"]]


def _data(texts_pos, texts_neg):
    ids = encode_texts(texts_pos + texts_neg, VOCAB)
    return ids, torch.tensor([1] * len(texts_pos) + [0] * len(texts_neg))


def test_encode_texts_pads_and_maps_unknown_words():
    ids = encode_texts([["good", "zebra"], ["fun"], []], VOCAB)
    assert ids.tolist() == [[2, 1], [4, 0], [1, 0]]


@pytest.mark.parametrize("pooling", POOLINGS)
def test_pooling_equals_hand_computation_and_torch_layers(pooling):
    model = PoolingClassifier(len(VOCAB), dim=4, hidden=3, pooling=pooling, seed=0)
    ids = encode_texts([["good", "film", "the"], ["dull"]], VOCAB)
    E = model.embed.weight.detach()
    reduce = {"mean": lambda m: m.mean(0), "sum": lambda m: m.sum(0), "max": lambda m: m.max(0).values}[pooling]
    x = torch.stack([reduce(E[[2, 8, 9]]), reduce(E[[6]])])
    torch.testing.assert_close(model.embed(ids), x, rtol=1e-4, atol=1e-6)
    h = torch.relu(x @ model.hid.weight.T + model.hid.bias)
    torch.testing.assert_close(model(ids), h @ model.out.weight.T + model.out.bias, rtol=1e-4, atol=1e-6)


def test_pretrained_matrix_copies_known_vectors():
    vectors = np.arange(12.0).reshape(3, 4)
    E, coverage = pretrained_matrix(VOCAB, ["good", "film", "notinvocab"], vectors, seed=0)
    assert E.shape == (len(VOCAB), 4) and coverage == pytest.approx(2 / len(VOCAB))
    np.testing.assert_array_equal(E[2], vectors[0])
    np.testing.assert_array_equal(E[8], vectors[1])


def test_static_embeddings_stay_fixed_and_fine_tuned_ones_move():
    E = np.random.default_rng(0).normal(size=(len(VOCAB), 6)).astype(np.float32)
    train, dev = _data(POS, NEG), _data(POS[:2], NEG[:2])
    static = PoolingClassifier(len(VOCAB), 6, 8, embeddings=E, freeze=True, seed=0)
    tuned = PoolingClassifier(len(VOCAB), 6, 8, embeddings=E, seed=0)
    train_classifier(static, train, dev, epochs=3, batch_size=4, seed=0)
    history = train_classifier(tuned, train, dev, epochs=3, batch_size=4, seed=0)
    np.testing.assert_array_equal(static.embed.weight.detach().numpy(), E)
    assert not np.allclose(tuned.embed.weight.detach().numpy(), E)
    assert [h["epoch"] for h in history] == [1, 2, 3]


@pytest.mark.trains
def test_training_separates_a_toy_sentiment_task_over_seeds():
    train, dev = _data(POS, NEG), _data(POS, NEG)
    for seed in range(3):
        model = PoolingClassifier(len(VOCAB), 8, 8, seed=seed)
        train_classifier(model, train, dev, epochs=60, lr=0.05, batch_size=10, seed=seed)
        assert accuracy(model, dev) == 1.0  # 10 separable texts; early stopping keeps the best epoch


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="vocabulary"):
        encode_texts([["a"]], ["a", "b"])
    with pytest.raises(TypeError, match="texts"):
        encode_texts(["good film"], VOCAB)
    with pytest.raises(ValueError, match="pooling"):
        PoolingClassifier(10, pooling="median")
    with pytest.raises(ValueError, match="embeddings"):
        PoolingClassifier(10, dim=4, embeddings=np.zeros((9, 4)))
    with pytest.raises(ValueError, match="freeze"):
        PoolingClassifier(10, freeze=True)
    with pytest.raises(ValueError, match="vectors"):
        pretrained_matrix(VOCAB, ["a", "b"], np.zeros((3, 2)))
    model = PoolingClassifier(len(VOCAB), 4, 4)
    with pytest.raises(ValueError, match="train"):
        train_classifier(model, (encode_texts(POS, VOCAB), torch.tensor([1, 0])), _data(POS, NEG))
    with pytest.raises(TypeError, match="data"):
        accuracy(model, [1, 2])
    with pytest.raises(ValueError, match="epochs"):
        train_classifier(model, _data(POS, NEG), _data(POS, NEG), epochs=0)


def test_forward_rejects_bad_ids():
    model = PoolingClassifier(len(VOCAB), 4, 4)
    with pytest.raises(ValueError, match="ids"):
        model(torch.tensor([1, 2, 3]))
    with pytest.raises(TypeError, match="ids"):
        model([[1, 2]])
