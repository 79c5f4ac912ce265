"""The shared AdamW mini-batch loop (``nlp_helpers.finetuning.classifier.fit_minibatches``).

With one batch holding every example, the shuffling cannot matter, so the loop must equal
``torch.optim.AdamW`` stepped by hand on the same full-batch loss (checked to 1e-12 in float64).
With smaller batches, every example must be seen exactly once per epoch.
"""

from __future__ import annotations

import pytest
import torch
from torch import nn

from nlp_helpers.finetuning.classifier import fit_minibatches


def _data():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(10, 3, generator=g, dtype=torch.float64)
    y = x @ torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64) + 0.1 * torch.randn(
        10, generator=g, dtype=torch.float64
    )
    return x, y


def _model():
    torch.manual_seed(1)
    return nn.Linear(3, 1).double()


def test_one_full_batch_equals_adamw_stepped_by_hand() -> None:
    x, y = _data()
    ours, ref = _model(), _model()

    def loss_of(model, idx):
        return ((model(x[idx]).squeeze(-1) - y[idx]) ** 2).mean()

    losses = fit_minibatches(
        ours,
        len(y),
        lambda idx: loss_of(ours, idx),
        groups=[{"params": ours.parameters(), "lr": 0.05}],
        epochs=7,
        batch_size=len(y),
        seed=3,
        progress=False,
        weight_decay=0.01,
    )
    opt = torch.optim.AdamW(ref.parameters(), lr=0.05, weight_decay=0.01)
    expected = []
    for _ in range(7):
        loss = loss_of(ref, torch.arange(len(y)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        expected.append(loss.item())
    assert losses == pytest.approx(expected, abs=1e-12)
    for p, q in zip(ours.parameters(), ref.parameters(), strict=True):
        torch.testing.assert_close(p, q, rtol=0, atol=1e-12)
    assert not ours.training  # left in eval mode
    assert losses[-1] < losses[0]


def test_every_example_is_seen_once_per_epoch_in_batches_of_the_size_asked() -> None:
    x, y = _data()
    model = _model()
    seen = []

    def batch_loss(idx):
        seen.append(idx.tolist())
        return ((model(x[idx]).squeeze(-1) - y[idx]) ** 2).mean()

    losses = fit_minibatches(
        model,
        10,
        batch_loss,
        groups=[{"params": model.parameters(), "lr": 0.01}],
        epochs=2,
        batch_size=4,
        seed=0,
        progress=False,
    )
    assert len(losses) == len(seen) == 2 * 3  # ceil(10 / 4) batches per epoch
    assert [len(b) for b in seen] == [4, 4, 2, 4, 4, 2]
    for epoch in (seen[:3], seen[3:]):
        assert sorted(i for b in epoch for i in b) == list(range(10))
    assert seen[:3] != seen[3:]  # reshuffled between epochs


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"n": 0}, "n"),
        ({"batch_loss": "loss"}, "batch_loss"),
        ({"epochs": 0}, "epochs"),
        ({"batch_size": 0}, "batch_size"),
        ({"model": "a model"}, "model"),
    ],
)
def test_bad_arguments_are_named(kwargs, name) -> None:
    model = _model()
    args = {"model": model, "n": 10, "batch_loss": lambda idx: model.weight.sum()}
    args.update(kwargs)
    with pytest.raises((TypeError, ValueError), match=name):
        fit_minibatches(
            args["model"],
            args["n"],
            args["batch_loss"],
            groups=[{"params": model.parameters(), "lr": 0.01}],
            epochs=kwargs.get("epochs", 1),
            batch_size=kwargs.get("batch_size", 5),
            seed=0,
            progress=False,
        )
