"""Remedies for overfitting: variational dropout against its definition, dropout in the classifier,
weight decay against torch.optim.AdamW step by step, early stopping, and the stored remedy study."""

from __future__ import annotations

import copy

import pytest
import torch
from torch import nn

from nlp_helpers.rnn import regularize
from nlp_helpers.rnn.classify import SequenceClassifier, accuracy, presence_task, train_classifier
from nlp_helpers.rnn.regularize import remedy_study, variational_dropout
from nlp_helpers.seeds import torch_generator


def test_variational_dropout_reuses_one_mask_per_sequence():
    x = torch.rand(64, 7, 50) + 0.5  # no zeros, so a zero is a dropped feature
    p = 0.3
    out = variational_dropout(x, p, generator=torch.Generator().manual_seed(0))
    kept = out != 0
    assert torch.equal(kept, kept[:, :1].expand_as(kept))  # the same features at every step
    torch.testing.assert_close(out[kept], x[kept] / (1 - p))  # kept values scaled by 1 / (1 - p)
    # hand-made definition: one uniform draw per (sequence, feature), kept if >= p
    mask = torch.rand(64, 1, 50, generator=torch.Generator().manual_seed(0)) >= p
    torch.testing.assert_close(out, x * mask / (1 - p))
    # masks differ between sequences, and the drop rate is p (binomial sd over 64 x 50 draws: 0.008)
    assert not torch.equal(kept[0, 0], kept[1, 0])
    assert abs((~kept[:, 0]).float().mean().item() - p) < 0.05


def test_variational_dropout_keeps_the_expected_value_and_is_off_outside_training():
    x = torch.ones(4000, 3, 25)
    out = variational_dropout(x, 0.5, generator=torch.Generator().manual_seed(1))
    assert abs(out.mean().item() - 1.0) < 0.03  # sd of the mean over 100,000 features ~ 0.003
    assert variational_dropout(x, 0.5, training=False) is x
    assert variational_dropout(x, 0.0) is x


def test_ordinary_dropout_differs_along_time_where_variational_does_not():
    torch.manual_seed(0)
    ordinary = nn.functional.dropout(torch.ones(8, 6, 40), 0.5)
    assert not torch.equal(ordinary[:, 0] != 0, ordinary[:, 1] != 0)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"x": torch.ones(3, 4), "p": 0.1}, ValueError, r"x must be a \(B, T, D\) float tensor"),
        ({"x": torch.ones(2, 3, 4, dtype=torch.long), "p": 0.1}, ValueError, "float tensor"),
        ({"x": [[[1.0]]], "p": 0.1}, TypeError, "x must be"),
        ({"x": torch.ones(2, 3, 4), "p": 1.0}, ValueError, "p must be < 1"),
        ({"x": torch.ones(2, 3, 4), "p": -0.1}, ValueError, "p must be >= 0"),
        ({"x": torch.ones(2, 3, 4), "p": 0.1, "training": 1}, TypeError, "training must be"),
        ({"x": torch.ones(2, 3, 4), "p": 0.1, "generator": 3}, TypeError, "generator must be"),
    ],
)
def test_variational_dropout_rejects_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        variational_dropout(**kwargs)


def _task():
    tokens, labels, _ = presence_task(200, 10, vocab_size=8, seed=0)
    return tokens, labels


def test_classifier_dropout_is_active_only_in_training_and_zero_dropout_changes_nothing():
    tokens, _ = _task()
    torch.manual_seed(0)
    plain = SequenceClassifier(8, cell="lstm", pooling="max")
    for variational in (False, True):
        dropped = SequenceClassifier(8, cell="lstm", pooling="max", dropout=0.5, variational=variational)
        dropped.load_state_dict(plain.state_dict())
        dropped.eval()
        with torch.no_grad():
            torch.testing.assert_close(dropped(tokens), plain(tokens), rtol=0, atol=0)
            dropped.train()
            assert not torch.allclose(dropped(tokens), plain(tokens))
    with pytest.raises(ValueError, match="dropout must be < 1"):
        SequenceClassifier(8, dropout=1.0)
    with pytest.raises(TypeError, match="variational must be"):
        SequenceClassifier(8, variational="yes")


def test_weight_decay_equals_torch_adamw_step_by_step():
    tokens, labels = _task()
    torch.manual_seed(0)
    model = SequenceClassifier(8, cell="gru", pooling="mean")
    twin = copy.deepcopy(model)
    train_classifier(model, tokens, labels, steps=4, batch_size=16, lr=1e-2, weight_decay=0.5, seed=3, progress=False)
    gen = torch_generator(3)
    opt = torch.optim.AdamW(twin.parameters(), lr=1e-2, weight_decay=0.5)
    twin.train()
    for _ in range(4):
        idx = torch.randint(0, len(tokens), (16,), generator=gen)
        loss = nn.functional.cross_entropy(twin(tokens[idx]), labels[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    for a, b in zip(model.parameters(), twin.parameters()):
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6)


def test_early_stopping_keeps_the_best_checkpoint_and_honours_patience():
    tokens, labels = _task()
    valid = (tokens[150:], labels[150:], None)
    torch.manual_seed(0)
    model = SequenceClassifier(8, cell="lstm", pooling="max")
    history = train_classifier(
        model, tokens[:150], labels[:150], steps=40, eval_every=5, valid=valid, seed=0, progress=False
    )
    log = history.dropna(subset=["valid_acc"])
    assert log.step.tolist() == list(range(0, 45, 5))  # before step 0, every 5 steps, and after the last
    best = log.valid_acc.max()
    assert history.attrs["best_step"] == log.step[log.valid_acc == best].min()  # the earliest best
    assert accuracy(model, *valid) == pytest.approx(best)  # the weights are the best checkpoint's
    # the dev loss of each check is the mean cross-entropy (reference: torch on the restored weights)
    with torch.no_grad():
        reference = nn.functional.cross_entropy(model(valid[0]), valid[1]).item()
    at_best = log.valid_loss[log.step == history.attrs["best_step"]].item()
    assert at_best == pytest.approx(reference, rel=1e-6) and (log.valid_loss > 0).all()
    # a validation set on which nothing improves stops after `patience` checks
    torch.manual_seed(0)
    stuck = SequenceClassifier(8, cell="lstm", pooling="max")
    constant = (tokens[150:], torch.zeros(50, dtype=torch.long), None)
    with torch.no_grad():
        stuck.out.bias.copy_(torch.tensor([100.0, -100.0]))  # predicts class 0 whatever it reads
    short = train_classifier(stuck, tokens[:150], labels[:150], steps=40, lr=1e-4, valid=constant, patience=2)
    assert short.attrs["best_step"] == 0 and short.step.max() == 10  # checks at 0, 5, 10: two without gain


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"weight_decay": -1.0}, ValueError, "weight_decay must be >= 0"),
        ({"eval_every": 0}, ValueError, "eval_every must be >= 1"),
        ({"patience": 0}, ValueError, "patience must be >= 1"),
        ({"valid": [1, 2, 3]}, TypeError, "valid must be"),
        ({"valid": (torch.ones(3, 2, dtype=torch.long), torch.ones(2, dtype=torch.long), None)}, ValueError, "valid"),
    ],
)
def test_train_classifier_rejects_bad_regularisation_arguments(kwargs, error, match):
    tokens, labels = _task()
    with pytest.raises(error, match=match):
        train_classifier(SequenceClassifier(8), tokens, labels, steps=2, progress=False, **kwargs)


def test_remedy_study_is_complete(monkeypatch, tmp_path):
    study = remedy_study()
    assert {"remedy", "seed", "train_acc", "test_acc", "steps"} <= set(study.columns)
    counts = study.groupby("remedy").seed.nunique()
    assert len(counts) >= 6 and (counts >= 5).all() and counts.nunique() == 1
    assert study[["train_acc", "test_acc"]].stack().between(0, 1).all()
    for needed in ("none, 40 steps", "dropout 0.5", "variational dropout 0.5", "early stopping"):
        assert needed in counts.index
    assert (study.steps >= 0).all() and (study.steps <= 100).all()
    monkeypatch.setattr(regularize, "REMEDY_STUDY_FILE", tmp_path / "missing.json")
    with pytest.raises(FileNotFoundError, match="seed_study_rnn_overfit"):
        remedy_study()


def test_pooling_study_is_complete(monkeypatch, tmp_path):
    study = regularize.pooling_study()
    bands = [f"{a}–{a + 4}" for a in range(0, 30, 5)]
    assert {"summary", "seed", "no signal", *bands} <= set(study.columns)
    counts = study.groupby("summary").seed.nunique()
    assert set(counts.index) == {"last", "mean", "max"} and (counts >= 5).all() and counts.nunique() == 1
    assert study[["no signal", *bands]].stack().between(0, 1).all()
    monkeypatch.setattr(regularize, "POOLING_STUDY_FILE", tmp_path / "missing.json")
    with pytest.raises(FileNotFoundError, match="seed_study_rnn_pooling"):
        regularize.pooling_study()
