"""Sequence classifier: pooling against per-sequence reference runs of the same nn.RNN, task data, training."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.rnn.classify import (
    PAD,
    UNK,
    SequenceClassifier,
    accuracy,
    pad_sequences,
    presence_task,
    token_ids,
    train_classifier,
)
from nlp_helpers.seeds import manual_seed


def test_token_ids_and_padding():
    ids = token_ids([["a", "b", "zzz"], ["b"]], ["a", "b"])
    assert ids == [[2, 3, UNK], [3]]
    tokens, lengths = pad_sequences(ids)
    assert tokens.tolist() == [[2, 3, UNK], [3, PAD, PAD]] and lengths.tolist() == [3, 1]
    with pytest.raises(ValueError, match=r"sequences\[1\] is empty"):
        pad_sequences([[2], []])
    with pytest.raises(ValueError, match="ids >= 1"):
        pad_sequences([[0, 2]])
    with pytest.raises(ValueError, match="vocabulary must not be empty"):
        token_ids([["a"]], [])


def test_presence_task_labels_say_whether_token_1_occurs():
    tokens, labels, positions = presence_task(300, 12, vocab_size=6, seed=4)
    assert tokens.shape == (300, 12) and labels.sum() == 150
    has_signal = (tokens == 1).any(1)
    assert torch.equal(has_signal.long(), labels)
    assert ((tokens == 1).sum(1) <= 1).all() and tokens.min() >= 1 and tokens.max() <= 5
    for i in torch.nonzero(labels).flatten()[:20]:
        assert tokens[i, positions[i]] == 1
    assert (positions[labels == 0] == -1).all()
    with pytest.raises(ValueError, match="vocab_size must be >= 4"):
        presence_task(10, 5, vocab_size=3)


def _reference_summary(model: SequenceClassifier, seq: torch.Tensor) -> torch.Tensor:
    """Run the classifier's own nn.RNN on ONE unpadded sequence and pool by hand."""
    with torch.no_grad():
        out, final = model.rnn(model.embedding(seq[None]))  # (1, T, D·H)
    h_n = final[0] if isinstance(final, tuple) else final
    if model.pooling == "mean":
        return out[0].mean(0)
    if model.pooling == "max":
        return out[0].max(0).values
    H = model.rnn.hidden_size
    if model.directions == 1:
        torch.testing.assert_close(out[0, -1], h_n[-1, 0])
        return out[0, -1]
    return torch.cat([out[0, -1, :H], out[0, 0, H:]])  # forward at the end, backward at the start


@pytest.mark.parametrize("cell", ["rnn", "gru", "lstm"])
@pytest.mark.parametrize("pooling", ["last", "mean", "max"])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_pooling_of_padded_batches_equals_unpadded_reference(cell, pooling, bidirectional):
    manual_seed(0)
    model = SequenceClassifier(
        10, cell=cell, pooling=pooling, bidirectional=bidirectional, hidden_size=5, embedding_dim=4, num_layers=2
    ).eval()
    seqs = [[3, 4, 5, 6, 7], [2, 9], [8, 1, 1]]
    tokens, lengths = pad_sequences(seqs)
    with torch.no_grad():
        got = model.encode(tokens, lengths)
    assert got.shape == (3, 5 * (2 if bidirectional else 1))
    for i, s in enumerate(seqs):
        torch.testing.assert_close(got[i], _reference_summary(model, torch.tensor(s)), rtol=1e-5, atol=1e-6)


def test_clipping_bounds_every_sgd_step():
    """With SGD, one clipped step moves the parameters by exactly lr * min(‖g‖, clip)."""
    tokens, labels, _ = presence_task(64, 10, seed=0)
    manual_seed(0)
    model = SequenceClassifier(20, cell="rnn", hidden_size=8, embedding_dim=4)
    before = torch.cat([p.detach().flatten().clone() for p in model.parameters()])
    history = train_classifier(
        model, tokens, labels, steps=1, batch_size=16, lr=0.7, optimizer="sgd", clip=1e-3, progress=False
    )
    after = torch.cat([p.detach().flatten() for p in model.parameters()])
    moved = (after - before).norm().item()
    assert moved == pytest.approx(0.7 * min(history.grad_norm.iloc[0], 1e-3), rel=1e-4)


@pytest.mark.trains
def test_training_learns_the_task_and_divergence_is_reported():
    tokens, labels, _ = presence_task(1000, 12, seed=0)
    test_tokens, test_labels, _ = presence_task(300, 12, seed=1)
    manual_seed(0)
    model = SequenceClassifier(20, cell="lstm", pooling="max", hidden_size=16, embedding_dim=8)
    history = train_classifier(model, tokens, labels, steps=80, lr=1e-2, progress=False)
    assert not history.attrs["diverged"] and len(history) == 80
    assert accuracy(model, test_tokens, test_labels) > 0.95
    manual_seed(0)
    wild = SequenceClassifier(20, cell="rnn", nonlinearity="relu", hidden_size=16, embedding_dim=8)
    history = train_classifier(wild, tokens, labels, steps=50, lr=1e6, optimizer="sgd", progress=False)
    assert history.attrs["diverged"] and len(history) < 50
    assert not np.isfinite(history.loss.iloc[-1]) or not np.isfinite(history.grad_norm.iloc[-1])


def test_bad_input():
    model = SequenceClassifier(10, hidden_size=4, embedding_dim=3)
    with pytest.raises(ValueError, match=r"tokens must be ids in \[0, 9\]"):
        model(torch.tensor([[1, 12]]))
    with pytest.raises(ValueError, match=r"T = 0"):
        model(torch.zeros(2, 0, dtype=torch.long))
    with pytest.raises(ValueError, match=r"\(B, T\) tensor of token ids"):
        model(torch.tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"lengths must be 1 integers in \[1, 2\]"):
        model(torch.tensor([[1, 2]]), torch.tensor([3]))
    with pytest.raises(ValueError, match="pooling must be one of"):
        SequenceClassifier(10, pooling="attention")
    with pytest.raises(ValueError, match="labels must have shape"):
        train_classifier(model, torch.ones(4, 3, dtype=torch.long), torch.zeros(3, dtype=torch.long), progress=False)
    with pytest.raises(ValueError, match="optimizer must be one of"):
        train_classifier(
            model,
            torch.ones(4, 3, dtype=torch.long),
            torch.zeros(4, dtype=torch.long),
            optimizer="rmsprop",
            progress=False,
        )
