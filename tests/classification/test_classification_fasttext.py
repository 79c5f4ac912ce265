"""The fastText-style classifier: hashing, averaging (against torch's own embedding lookup), training."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
import torch

from nlp_helpers.classification.fasttext import FastTextClassifier, hashed_ngrams

TOY = [
    ("pos", "a good film , really good"),
    ("pos", "good acting and a good plot"),
    ("pos", "simply good"),
    ("neg", "a bad film , really bad"),
    ("neg", "bad acting and a bad plot"),
    ("neg", "simply bad"),
] * 5


def _toy():
    return [t.split() for _, t in TOY], [c for c, _ in TOY]


def test_hashed_ngrams_are_crc32_of_the_joined_words_modulo_the_buckets():
    tokens = ["not", "a", "bad", "film"]
    want = [zlib.crc32(f"{a} {b}".encode()) % 1000 for a, b in zip(tokens, tokens[1:])]
    assert hashed_ngrams(tokens, 1000) == want
    trigrams = [zlib.crc32(" ".join(tokens[i : i + 3]).encode()) % 1000 for i in range(2)]
    assert hashed_ngrams(tokens, 1000, ngrams=3) == want + trigrams
    assert hashed_ngrams(tokens, 1000, ngrams=1) == []
    assert hashed_ngrams(["été", "chaud"], 7) == [zlib.crc32("été chaud".encode()) % 7]
    assert hashed_ngrams([], 10) == []


def test_bad_inputs_name_the_argument():
    with pytest.raises(ValueError, match="n_buckets"):
        hashed_ngrams(["a", "b"], 0)
    with pytest.raises(TypeError, match="tokens"):
        hashed_ngrams("not a list", 10)
    with pytest.raises(ValueError, match="dim"):
        FastTextClassifier(dim=0)
    with pytest.raises(ValueError, match="lr"):
        FastTextClassifier(lr=0.0)
    with pytest.raises(RuntimeError, match="fit"):
        FastTextClassifier().predict([["a"]])
    docs, labels = _toy()
    with pytest.raises(ValueError, match="labels"):
        FastTextClassifier().fit(docs, labels[:-1])
    with pytest.raises(TypeError, match="docs"):
        FastTextClassifier().fit([" ".join(d) for d in docs], labels)


def test_document_vector_is_the_mean_of_its_rows_as_torch_embedding_computes_it():
    docs, labels = _toy()
    model = FastTextClassifier(dim=6, n_buckets=50, epochs=1).fit(docs, labels)
    doc = ["a", "good", "unknownword", "film"]
    rows = model.rows(doc)
    v = len(model.vocabulary_)
    # unknown words are dropped, but the bigrams that contain them are hashed
    assert rows[:3] == [model.vocabulary_[w] for w in ("a", "good", "film")]
    assert rows[3:] == [v + b for b in hashed_ngrams(doc, 50)]
    weight = model.model_["bag"].weight.detach()
    want = torch.nn.functional.embedding(torch.tensor(rows), weight).mean(dim=0).numpy()
    np.testing.assert_allclose(model.document_vectors([doc])[0], want, rtol=1e-6)
    np.testing.assert_allclose(model.document_vectors([[]]), 0.0)  # an empty document averages nothing


@pytest.mark.trains
def test_learns_a_separable_toy_task_and_is_reproducible():
    docs, labels = _toy()
    a = FastTextClassifier(dim=8, n_buckets=100, epochs=20, batch_size=4, seed=1).fit(docs, labels)
    b = FastTextClassifier(dim=8, n_buckets=100, epochs=20, batch_size=4, seed=1).fit(docs, labels)
    test = [["really", "good", "plot"], ["really", "bad", "plot"], ["good"], ["bad", "film"]]
    assert list(a.predict(test)) == ["pos", "neg", "pos", "neg"]
    np.testing.assert_allclose(a.predict_proba(test), b.predict_proba(test))
    np.testing.assert_allclose(a.predict_proba(test).sum(axis=1), 1.0, rtol=1e-6)
    assert list(a.classes_) == ["neg", "pos"]
