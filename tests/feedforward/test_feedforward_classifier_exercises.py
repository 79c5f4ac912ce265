"""The exercises of the classifier page: worked solutions pass, unusable answers get a verdict,
and the catalogue of typical wrong answers is rejected with a hint naming the mistake.

* ``pooling_by_hand()``: a dict mean1, mean2, max1, max2 over the real tokens of "not bad bad" + 2 PAD (not the
  PAD rows in the mean or the max, each token counted as often as it occurs).
* ``max_pool(E, ids)``: (B, d), each dimension's max over the non-PAD tokens (a PAD position never wins, not even
  as a 0); any (B, L) and (V, d); one tensor, not values and indices; without ``F.embedding_bag``; inputs unchanged.
* ``freeze_then_unfreeze(model, train, dev, frozen_epochs, unfrozen_epochs, lr, embed_lr, batch_size, seed)``:
  Adam at lr on the mean cross-entropy with the embeddings fixed, then Adam on all parameters, the embeddings at
  embed_lr; one pass per epoch over every text in mini-batches, in a new order every epoch; dev accuracy per
  epoch returned; best dev epoch's parameters loaded; the order drawn from ``seed`` (same seed, same batches;
  another seed, others); not ``train_classifier``.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
import torch
from torch import nn

from nlp_helpers.exercises.checker import STRICT_ENV
from nlp_helpers.feedforward import classifier_exercises as cex
from nlp_helpers.feedforward import pooling_classifier as pc
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test, stub


@pytest.fixture(autouse=True)
def lenient(monkeypatch):
    monkeypatch.delenv(STRICT_ENV, raising=False)


# ----- mean and max pooling by hand: E[not] = (-1, -1), E[bad] = (-2, -3), PAD = (0, 0); "not bad bad" + 2 PAD
def pooling_by_hand():
    return {"mean1": -5 / 3, "mean2": -7 / 3, "max1": -1.0, "max2": -1.0}


def pooling_computed():
    rows = np.array([[-1.0, -1.0], [-2.0, -3.0], [-2.0, -3.0]])
    mean, top = rows.mean(0), rows.max(0)
    return {"mean1": mean[0], "mean2": mean[1], "max1": top[0], "max2": top[1]}


def pooling_pads_both():
    return {"mean1": -1.0, "mean2": -1.4, "max1": 0.0, "max2": 0.0}


def pooling_pads_the_mean():
    return {"mean1": -1.0, "mean2": -1.4, "max1": -1.0, "max2": -1.0}


def pooling_pads_the_max():
    return {"mean1": -5 / 3, "mean2": -7 / 3, "max1": 0.0, "max2": 0.0}


def pooling_word_types():
    return {"mean1": -1.5, "mean2": -2.0, "max1": -1.0, "max2": -1.0}


def pooling_list():
    return [-5 / 3, -7 / 3, -1.0, -1.0]


def pooling_guess():
    return {"mean1": -1.0, "mean2": -2.0, "max1": -1.0, "max2": -1.0}


# ----- max pooling
def max_pool(E, ids):
    rows = E[ids].masked_fill((ids == 0)[..., None], float("-inf"))
    return rows.max(dim=1).values


def max_pool_loops(E, ids):
    out = []
    for row in ids.tolist():
        real = [E[i] for i in row if i != 0]
        out.append(torch.stack(real).amax(0))
    return torch.stack(out)


def max_pool_embedding_bag(E, ids):  # the reference the checker's own formula is tested against, below
    return torch.nn.functional.embedding_bag(ids, E, mode="max", padding_idx=0)


def max_pool_with_pad(E, ids):
    return E[ids].max(dim=1).values


def max_pool_zeroed_pad(E, ids):
    return (E[ids] * (ids != 0)[..., None]).amax(1)


def max_pool_mean(E, ids):
    real = (ids != 0)[..., None]
    return (E[ids] * real).sum(1) / real.sum(1)


def max_pool_tuple(E, ids):
    return E[ids].masked_fill((ids == 0)[..., None], float("-inf")).max(dim=1)


def max_pool_first_shape(E, ids):  # written for the first example only: five texts
    return max_pool(E, ids) if len(ids) == 5 else torch.zeros(5, E.shape[1])


def max_pool_whole_text_max(E, ids):  # the token with the largest value in dimension 0 gives all d values
    rows = E[ids].masked_fill((ids == 0)[..., None], float("-inf"))
    best = rows[..., 0].argmax(1)
    return rows[torch.arange(len(ids)), best]


def max_pool_in_place(E, ids):
    E[0] = float("-inf")  # "switch PAD off" in the caller's table
    return E[ids].max(dim=1).values


# ----- freeze, then unfreeze
def _epochs(model, ids, labels, opt, batch_size, gen, shuffle=True, loss_fn=torch.nn.functional.cross_entropy):
    model.train()
    order = torch.randperm(len(labels), generator=gen) if shuffle else torch.arange(len(labels))
    for lo in range(0, len(order), batch_size):
        rows = order[lo : lo + batch_size]
        loss = loss_fn(model(ids[rows]), labels[rows])
        opt.zero_grad()
        loss.backward()
        opt.step()


def _schedule(model, train, dev, phases, batch_size, seed, restore="best", shuffle=True, loss=None):
    """phases: (epochs, optimiser factory, embeddings trainable) per phase."""
    gen = torch.Generator().manual_seed(seed)
    history, best = [], (-1.0, None)
    for epochs, make_opt, trainable in phases:
        model.embed.weight.requires_grad_(trainable)
        opt = make_opt()
        phase_best = (-1.0, None)
        for _ in range(epochs):
            _epochs(model, *train, opt, batch_size, gen, shuffle, loss or torch.nn.functional.cross_entropy)
            history.append(pc.accuracy(model, dev))
            if history[-1] > best[0]:
                best = (history[-1], copy.deepcopy(model.state_dict()))
            if history[-1] > phase_best[0]:
                phase_best = (history[-1], copy.deepcopy(model.state_dict()))
    if restore == "best":
        model.load_state_dict(best[1])
    elif restore == "phase":
        model.load_state_dict(phase_best[1])
    return history


def _rest(model):
    return [p for n, p in model.named_parameters() if not n.startswith("embed.")]


def freeze_then_unfreeze(model, train, dev, frozen_epochs, unfrozen_epochs, lr, embed_lr, batch_size=512, seed=0):
    ids, labels = train
    gen = torch.Generator().manual_seed(seed)
    E = model.embed.weight
    rest = [p for name, p in model.named_parameters() if name != "embed.weight"]
    history, best = [], (-1.0, None)
    for phase, epochs in enumerate([frozen_epochs, unfrozen_epochs]):
        E.requires_grad_(phase == 1)
        groups = [{"params": rest, "lr": lr}] + [{"params": [E], "lr": embed_lr}] * phase
        opt = torch.optim.Adam(groups)
        for _ in range(epochs):
            model.train()
            order = torch.randperm(len(labels), generator=gen)
            for lo in range(0, len(order), batch_size):
                rows = order[lo : lo + batch_size]
                loss = torch.nn.functional.cross_entropy(model(ids[rows]), labels[rows])
                opt.zero_grad()
                loss.backward()
                opt.step()
            history.append(pc.accuracy(model, dev))
            if history[-1] > best[0]:
                best = (history[-1], copy.deepcopy(model.state_dict()))
    model.load_state_dict(best[1])
    return history


def ftu_by_layers(model, train, dev, frozen_epochs, unfrozen_epochs, lr, embed_lr, batch_size=512, seed=0):
    top = [*model.hid.parameters(), *model.out.parameters()]  # no requires_grad: the optimiser decides
    phases = [
        (frozen_epochs, lambda: torch.optim.Adam(top, lr=lr), True),
        (
            unfrozen_epochs,
            lambda: torch.optim.Adam([{"params": top}, {"params": model.embed.parameters(), "lr": embed_lr}], lr=lr),
            True,
        ),
    ]
    return _schedule(model, train, dev, phases, batch_size, seed)


def _two_phase(model, frozen, unfrozen, lr, embed_lr, **kw):
    return [
        (frozen, lambda: torch.optim.Adam(_rest(model), lr=lr), kw.get("freeze", False)),
        (unfrozen, kw.get("phase_2", lambda: torch.optim.Adam(_groups(model, lr, embed_lr))), kw.get("thaw", True)),
    ]


def _groups(model, lr, embed_lr):
    return [{"params": _rest(model), "lr": lr}, {"params": [model.embed.weight], "lr": embed_lr}]


def ftu_never_freezes(model, train, dev, f, u, lr, embed_lr, batch_size=512, seed=0):
    phases = [
        (f, lambda: torch.optim.Adam(model.parameters(), lr=lr), True),
        (u, lambda: torch.optim.Adam(_groups(model, lr, embed_lr)), True),
    ]
    return _schedule(model, train, dev, phases, batch_size, seed)


def ftu_never_unfreezes(model, train, dev, f, u, lr, embed_lr, batch_size=512, seed=0):
    return _schedule(model, train, dev, _two_phase(model, f, u, lr, embed_lr, thaw=False), batch_size, seed)


def ftu_one_rate(model, train, dev, f, u, lr, embed_lr, batch_size=512, seed=0):
    phase_2 = lambda: torch.optim.Adam(model.parameters(), lr=lr)
    return _schedule(model, train, dev, _two_phase(model, f, u, lr, embed_lr, phase_2=phase_2), batch_size, seed)


def ftu_keeps_the_optimiser(model, train, dev, f, u, lr, embed_lr, batch_size=512, seed=0):
    # Adam's state of the other parameters carries on into phase 2: allowed
    opt = torch.optim.Adam(_rest(model), lr=lr)

    def extended():
        opt.add_param_group({"params": [model.embed.weight], "lr": embed_lr})
        return opt

    phases = [(f, lambda: opt, False), (u, extended, True)]
    return _schedule(model, train, dev, phases, batch_size, seed)


def ftu_no_restore(model, train, dev, f, u, lr, embed_lr, batch_size=512, seed=0):
    return _schedule(model, train, dev, _two_phase(model, f, u, lr, embed_lr), batch_size, seed, restore="last")


def ftu_best_of_phase_2(model, train, dev, f, u, lr, embed_lr, batch_size=512, seed=0):
    return _schedule(model, train, dev, _two_phase(model, f, u, lr, embed_lr), batch_size, seed, restore="phase")


def ftu_sgd(model, train, dev, f, u, lr, embed_lr, batch_size=512, seed=0):
    phases = [
        (f, lambda: torch.optim.SGD(_rest(model), lr=lr), False),
        (u, lambda: torch.optim.SGD(_groups(model, lr, embed_lr)), True),
    ]
    return _schedule(model, train, dev, phases, batch_size, seed)


def ftu_full_batch(model, train, dev, f, u, lr, embed_lr, batch_size=512, seed=0):
    return _schedule(model, train, dev, _two_phase(model, f, u, lr, embed_lr), len(train[1]), seed)


def ftu_same_order(model, train, dev, f, u, lr, embed_lr, batch_size=512, seed=0):
    ids, labels = train
    perm = torch.randperm(len(labels), generator=torch.Generator().manual_seed(seed))  # drawn once only
    return _schedule(
        model, (ids[perm], labels[perm]), dev, _two_phase(model, f, u, lr, embed_lr), batch_size, seed, shuffle=False
    )


def ftu_drops_the_last_batch(model, train, dev, f, u, lr, embed_lr, batch_size=512, seed=0):
    ids, labels = train
    n = len(labels) // batch_size * batch_size  # the last, smaller batch never trains
    return _schedule(model, (ids[:n], labels[:n]), dev, _two_phase(model, f, u, lr, embed_lr), batch_size, seed)


def ftu_squared_error(model, train, dev, f, u, lr, embed_lr, batch_size=512, seed=0):
    loss = lambda logits, y: ((logits.softmax(-1) - torch.nn.functional.one_hot(y, 2)) ** 2).sum(-1).mean()
    return _schedule(model, train, dev, _two_phase(model, f, u, lr, embed_lr), batch_size, seed, loss=loss)


def ftu_by_the_helper(model, train, dev, f, u, lr, embed_lr, batch_size=512, seed=0):
    model.embed.weight.requires_grad_(False)
    history = pc.train_classifier(model, train, dev, epochs=f, lr=lr, batch_size=batch_size, seed=seed)
    model.embed.weight.requires_grad_(True)
    history += pc.train_classifier(model, train, dev, epochs=u, lr=lr, batch_size=batch_size, seed=seed)
    return [h["dev_accuracy"] for h in history]


def ftu_global_random_order(model, train, dev, f, u, lr, embed_lr, batch_size=512, seed=0):
    # "draw it with torch_generator(seed)": the order comes from torch's global random state instead
    ids, labels = train
    gen = torch.Generator().manual_seed(int(torch.randint(0, 2**31, (1,))))
    phases = _two_phase(model, f, u, lr, embed_lr)
    history, best = [], (-1.0, None)
    for epochs, make_opt, trainable in phases:
        model.embed.weight.requires_grad_(trainable)
        opt = make_opt()
        for _ in range(epochs):
            _epochs(model, ids, labels, opt, batch_size, gen)
            history.append(pc.accuracy(model, dev))
            if history[-1] > best[0]:
                best = (history[-1], copy.deepcopy(model.state_dict()))
    model.load_state_dict(best[1])
    return history


def ftu_summed_loss(model, train, dev, f, u, lr, embed_lr, batch_size=512, seed=0):  # "the MEAN cross-entropy"
    def loss(logits, y):
        return torch.nn.functional.cross_entropy(logits, y, reduction="sum")

    return _schedule(model, train, dev, _two_phase(model, f, u, lr, embed_lr), batch_size, seed, loss=loss)


def ftu_fixed_seed(model, train, dev, f, u, lr, embed_lr, batch_size=512, seed=0):  # the seed argument ignored
    return freeze_then_unfreeze(model, train, dev, f, u, lr, embed_lr, batch_size, seed=0)


def ftu_changes_the_data(model, train, dev, f, u, lr, embed_lr, batch_size=512, seed=0):
    history = freeze_then_unfreeze(model, train, dev, f, u, lr, embed_lr, batch_size, seed)
    train[1][:] = 0  # "cleans" the caller's labels
    return history


CATALOGUE = {
    cex.check_pooling_by_hand: Catalogue(
        correct=[pooling_by_hand, pooling_computed],
        wrong=[
            Wrong(pooling_pads_both, ("both poolings", "PAD")),
            Wrong(pooling_pads_the_mean, ("mean counts", "PAD")),
            Wrong(pooling_pads_the_max, ("max looks at the PAD",)),
            Wrong(pooling_word_types, "counts twice"),
            Wrong(pooling_list, "should return a dict"),
            Wrong(pooling_guess, "rows of the real tokens"),
        ],
    ),
    cex.check_max_pool: Catalogue(
        correct=[max_pool, max_pool_loops],
        wrong=[
            Wrong(max_pool_with_pad, "looks at the PAD positions"),
            Wrong(max_pool_zeroed_pad, ("to 0", "never win")),
            Wrong(max_pool_mean, "mean pooling"),
            Wrong(max_pool_tuple, "one tensor"),
            Wrong(max_pool_first_shape, "any shape"),
            Wrong(max_pool_whole_text_max, "own maximum"),
            Wrong(max_pool_embedding_bag, ("F.embedding_bag", "build it yourself")),
            Wrong(max_pool_in_place, ("modified its input", "`E`")),
        ],
    ),
    cex.check_freeze_then_unfreeze: Catalogue(
        correct=[freeze_then_unfreeze, ftu_by_layers, ftu_keeps_the_optimiser],
        wrong=[
            Wrong(ftu_never_freezes, "changed during phase 1"),
            Wrong(ftu_never_unfreezes, "never changed in phase 2"),
            Wrong(ftu_one_rate, "own parameter group"),
            Wrong(ftu_no_restore, "best dev accuracy"),
            Wrong(ftu_best_of_phase_2, ("best dev accuracy", "both phases")),
            Wrong(ftu_sgd, ("not those of adam", "torch.optim.Adam")),
            Wrong(ftu_squared_error, "cross-entropy"),
            Wrong(ftu_same_order, "same order"),
            Wrong(ftu_drops_the_last_batch, "every training text"),
            Wrong(ftu_full_batch, "mini-batches"),
            Wrong(ftu_by_the_helper, ("train_classifier", "yourself")),
            Wrong(ftu_changes_the_data, ("modified its input", "`train`")),
            Wrong(ftu_global_random_order, ("seed", "same mini-batches")),
            Wrong(ftu_fixed_seed, ("seed=6", "torch_generator(seed)")),
            Wrong(ftu_summed_loss, "mean cross-entropy of each batch"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
CASES = [(checker, cat.correct[0]) for checker, cat in CATALOGUE.items()]


@pytest.mark.parametrize(("checker", "solution"), CASES)
def test_stub_is_not_yet(checker, solution):
    assert checker(stub).status == "not yet"


@pytest.mark.parametrize("checker", [c for c, _ in CASES])
@pytest.mark.parametrize("answer", [None, float("nan"), "text", [], 42])
def test_unusable_answers_are_wrong_without_crashing(checker, answer):
    result = checker(lambda *args, **kwargs: answer)
    assert result.status == "wrong" and result.message


def test_the_checkers_max_pooling_equals_embedding_bag():
    for seed, (V, d, B, L) in enumerate([(9, 4, 5, 6), (40, 7, 6, 11), (3, 2, 4, 2)]):
        E, ids = cex._max_pool_inputs(seed, V, d, B, L)
        assert torch.equal(cex._max_pool_reference(E, ids), max_pool_embedding_bag(E, ids))
        assert (ids[:, 0] != 0).all() and (ids == 0).any()


def test_the_hand_worked_pooling_equals_embedding_bag():
    table = torch.tensor([cex._TABLE[i] for i in range(5)])
    ids = torch.tensor([cex._TEXT])
    for mode, keys in (("mean", ("mean1", "mean2")), ("max", ("max1", "max2"))):
        bag = nn.EmbeddingBag.from_pretrained(table, mode=mode, padding_idx=0)
        assert torch.allclose(bag(ids)[0], torch.tensor([pooling_by_hand()[k] for k in keys]))


def test_the_checkers_dev_set_makes_a_late_epoch_worse():
    """The no-restore answer is caught only if the last epoch is not the best: the dev labels see to it."""
    train, dev, E = cex._schedule_task(3)
    for freeze, (f, u) in ((False, (2, 2)), (True, (1, 3))):
        model = pc.PoolingClassifier(len(E), dim=E.shape[1], hidden=8, embeddings=E, freeze=freeze, seed=0)
        history = freeze_then_unfreeze(model, train, dev, f, u, lr=0.05, embed_lr=0.01, batch_size=32)
        assert max(history) > history[-1] + 0.05, history
