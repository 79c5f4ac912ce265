"""Checkers for the exercises of the page "Words in: a pooling classifier" (``book/feedforward/classifier``).

* ``pooling_by_hand()``: mean and max pooling of one padded text, worked out on paper (checked as values,
  with the typical slips recognised: pooling the padding, averaging word types instead of tokens).
* ``max_pool(E, ids)``: max pooling of a padded batch that skips ``<PAD>``, against a float64 reference
  on random inputs with padding, mostly negative values and a large ``<PAD>`` row.
* ``freeze_then_unfreeze(...)``: a two-phase training schedule, checked by watching the model train
  (a forward pre-hook records every training batch and the weights before it): every epoch is one pass
  over all training texts in a new order, the first step is Adam's at ``lr`` on the cross-entropy, the
  embeddings stay fixed in phase 1 and move in phase 2 with their own learning rate, and the model ends
  with the best dev epoch's parameters.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable

import torch

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.exercises.numbers import NumberAnswer, check_number_answer
from nlp_helpers.feedforward.pooling_classifier import PoolingClassifier, accuracy, train_classifier

__all__ = ["check_freeze_then_unfreeze", "check_max_pool", "check_pooling_by_hand"]

# ----- mean and max pooling by hand ----------------------------------------------------------------
# The exercise's table (2-d embeddings) and the text "not bad bad" padded to 5 ids: [4, 3, 3, 0, 0].
_TABLE = {0: (0.0, 0.0), 1: (0.5, 0.5), 2: (3.0, 1.0), 3: (-2.0, -3.0), 4: (-1.0, -1.0)}
_TEXT = (4, 3, 3, 0, 0)


def _pooled(ids: tuple[int, ...]) -> dict[str, float]:
    rows = [_TABLE[i] for i in ids]
    mean = [sum(r[j] for r in rows) / len(rows) for j in range(2)]
    top = [max(r[j] for r in rows) for j in range(2)]
    return {"mean1": mean[0], "mean2": mean[1], "max1": top[0], "max2": top[1]}


def _mixed(mean_ids: tuple[int, ...], max_ids: tuple[int, ...]) -> dict[str, float]:
    means, tops = _pooled(mean_ids), _pooled(max_ids)
    return {"mean1": means["mean1"], "mean2": means["mean2"], "max1": tops["max1"], "max2": tops["max2"]}


_REAL = tuple(i for i in _TEXT if i != 0)
_BY_HAND_MISTAKES = [
    (
        _pooled(_TEXT),
        "both poolings count the two PAD positions: skip them, they are not words of the text.",
    ),
    (
        _mixed(_TEXT, _REAL),
        "the mean counts the two PAD positions: divide by the number of real tokens, not the row's length.",
    ),
    (
        _mixed(_REAL, _TEXT),
        "the max looks at the PAD rows too: a PAD row of zeros wins wherever every word's value is negative.",
    ),
    (
        _pooled(tuple(dict.fromkeys(_REAL))),
        "each word type is counted once: pooling runs over tokens, so a word that occurs twice counts twice.",
    ),
]


def check_pooling_by_hand(pooling_by_hand: Callable) -> CheckResult:
    """``pooling_by_hand()``: dict ``mean1, mean2, max1, max2``, the mean and max pooling of the padded text."""
    want = _pooled(_REAL)
    answer = NumberAnswer(
        want=want,
        returns="pooling_by_hand() should return a dict with keys 'mean1', 'mean2', 'max1', 'max2'",
        keys=f"the keys should be exactly {sorted(want)}",
        number="every pooled value should be a number (a float or an int).",
        mistakes=_BY_HAND_MISTAKES,
        wrong=lambda key, got, _: (
            f"{key} should not be {got:g}: write down the rows of the real tokens first (one row per token), "
            "then take their mean and their element-wise max, one dimension at a time."
        ),
    )
    with Checker("Mean and max pooling by hand") as ex:
        check_number_answer(ex, ex.call(pooling_by_hand), answer)
    return ex.result


# ----- max pooling ---------------------------------------------------------------------------------
def _max_pool_reference(E: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    rows = E[ids].masked_fill((ids == 0)[..., None], -math.inf)  # a PAD position can never be the max
    return rows.max(dim=1).values


def _max_pool_inputs(seed: int, V: int, d: int, B: int, L: int) -> tuple[torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    E = torch.randn(V, d, generator=gen, dtype=torch.float64) - 1.0  # mostly negative: a 0 would win
    E[0] = 3.0  # the PAD row is large: pooled by mistake, it wins everywhere
    ids = torch.randint(1, V, (B, L), generator=gen)
    lengths = torch.randint(1, L + 1, (B,), generator=gen)
    lengths[0] = L  # one full row, one single-token row
    lengths[-1] = 1
    ids[torch.arange(L)[None, :] >= lengths[:, None]] = 0
    return E, ids


def check_max_pool(max_pool: Callable) -> CheckResult:
    """``max_pool(E, ids)``: ``(B, d)``, each row the element-wise max of its non-PAD tokens' embeddings."""
    with Checker(
        "Max pooling",
        reference=_max_pool_reference,
        forbidden={"F.embedding_bag": torch.nn.functional.embedding_bag},
        forbidden_hint="Build it from E[ids] and a mask of the PAD positions.",
    ) as ex:
        E, ids = _max_pool_inputs(0, V=9, d=4, B=5, L=6)
        got = ex.call(max_pool, E, ids)
        ex.expect(
            isinstance(got, torch.Tensor) and tuple(got.shape) == (len(ids), E.shape[1]),
            f"max_pool should return one tensor of shape (B, d) = {(len(ids), E.shape[1])}, the pooled vector "
            f"of every text; got {type(got).__name__} {tuple(getattr(got, 'shape', ()))}. (torch.max along a "
            "dimension returns values and indices.)",
        )
        got = got.detach().double()
        if not torch.allclose(got, _max_pool_reference(E, ids)):
            real = (ids != 0)[..., None]
            slips = [
                (E[ids].max(dim=1).values, "your max also looks at the PAD positions (id 0): skip them."),
                (
                    (E[ids] * real).max(dim=1).values,
                    "setting the PAD rows to 0 does not skip them: where every word's value is negative, the 0 of "
                    "a PAD position is the max. A PAD position must never win.",
                ),
                (
                    (E[ids] * real).sum(1) / real.sum(1),
                    "this is mean pooling: take the element-wise maximum over the text's tokens instead.",
                ),
            ]
            for slip, hint in slips:
                if torch.allclose(got, slip):
                    ex.fail(hint)
            ex.fail(
                "max_pool(E, ids) differs from the element-wise max over each row's non-PAD tokens: each of the d "
                "dimensions takes its own maximum, possibly from a different token. Check one row by hand."
            )
        E2, ids2 = _max_pool_inputs(1, V=40, d=7, B=6, L=11)
        ex.expect_close(
            ex.call(max_pool, E2, ids2),
            _max_pool_reference(E2, ids2),
            what="max_pool on a batch of 6 texts of up to 11 tokens, d = 7",
            hint="Work with whole tensors of any shape (B, L) and (V, d), not with the sizes of the first example.",
        )
    return ex.result


# ----- freeze, then unfreeze -------------------------------------------------------------------------
_N_TRAIN, _N_DEV, _BATCH, _V, _D = 100, 48, 32, 24, 8  # 3 full batches and one of 4 texts


def _schedule_task(seed: int) -> tuple[tuple, tuple, torch.Tensor]:
    """A small polarity task: train and dev ``(ids, labels)`` and 'pretrained' embeddings ``(V, d)``.

    The dev labels are the opposite of the rule the training labels follow, so the dev accuracy falls as
    the model learns: the best dev epoch is an early one, and an answer that does not go back to it shows.
    """
    gen = torch.Generator().manual_seed(seed)
    polarity = torch.randint(-1, 2, (_V,), generator=gen)
    polarity[:2] = 0

    def texts(n: int) -> torch.Tensor:
        ids = torch.randint(2, _V, (n, 6), generator=gen)
        lengths = torch.randint(2, 7, (n,), generator=gen)
        ids[torch.arange(6)[None, :] >= lengths[:, None]] = 0
        return ids

    train_ids, dev_ids = texts(_N_TRAIN), texts(_N_DEV)
    rule = lambda ids: (polarity[ids].sum(1) + 0.5 * (ids[:, 0] % 2) > 0).long()  # noqa: E731
    E = 0.3 * torch.randn(_V, _D, generator=gen)
    E[:, 0] += polarity  # the 'pretrained' vectors know the words' polarity: phase 1 can learn the rule
    return (train_ids, rule(train_ids)), (dev_ids, 1 - rule(dev_ids)), E.numpy()


class _Watch:
    """Records, before every training forward pass, the batch, the embeddings and the hidden layer's weights,
    and all the parameters before the first three passes."""

    def __init__(self) -> None:
        self.ids: list[torch.Tensor] = []
        self.E: list[torch.Tensor] = []
        self.W: list[torch.Tensor] = []
        self.states: list[dict] = []

    def __call__(self, module: torch.nn.Module, args: tuple) -> None:
        ids = args[0] if args else None
        if torch.is_grad_enabled() and isinstance(ids, torch.Tensor) and len(ids) <= _BATCH:
            if len(self.states) < 3:
                self.states.append(copy.deepcopy(module.state_dict()))
            self.ids.append(ids.detach().clone())
            self.E.append(module.embed.weight.detach().clone())
            self.W.append(module.hid.weight.detach().clone())

    def __deepcopy__(self, memo: dict) -> _Watch:  # a copy of the model (the answer's or ours) reports here too
        return self


def _adam_replayed(watch: _Watch, train: tuple, E, lr: float) -> bool:
    """Whether the first two recorded steps are those of Adam at ``lr`` on the mean cross-entropy of the batch,
    with the embeddings fixed (replayed from the recorded parameters and batches)."""
    label = {tuple(row): int(y) for row, y in zip(train[0].tolist(), train[1].tolist())}
    model = PoolingClassifier(_V, dim=_D, hidden=8, embeddings=E, seed=0)
    model.load_state_dict(watch.states[0])
    opt = torch.optim.Adam([*model.hid.parameters(), *model.out.parameters()], lr=lr)
    for k in (0, 1):
        batch = watch.ids[k]
        labels = torch.tensor([label.get(tuple(row), 0) for row in batch.tolist()])
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(batch), labels).backward()
        opt.step()
        after = watch.states[k + 1]
        if not all(torch.allclose(q, after[name], atol=1e-6) for name, q in model.state_dict().items()):
            return False
    return True


def _epoch_rows(watch: _Watch, epoch: int, per_epoch: int) -> list[tuple]:
    return [tuple(r) for b in watch.ids[epoch * per_epoch : (epoch + 1) * per_epoch] for r in b.tolist()]


def _watched_model(E, freeze: bool) -> tuple[PoolingClassifier, _Watch]:
    model = PoolingClassifier(_V, dim=_D, hidden=8, embeddings=E, freeze=freeze, seed=0)
    watch = _Watch()
    model.register_forward_pre_hook(watch)
    return model, watch


def _largest_step(before: torch.Tensor, after: torch.Tensor) -> float:
    return float((after - before).abs().max())


def _schedule_reference(model, train, dev, frozen_epochs, unfrozen_epochs, lr, embed_lr, batch_size, seed=0):
    """The worked solution (as on the page): the checker times it on its own model, for the time limit."""
    ids, labels = train
    gen = torch.Generator().manual_seed(seed)
    history, best = [], (-1.0, None)
    E = model.embed.weight
    rest = [p for name, p in model.named_parameters() if not name.startswith("embed.")]
    phase_2 = [{"params": rest, "lr": lr}, {"params": [E], "lr": embed_lr}]
    for phase, (epochs, groups) in enumerate(
        [(frozen_epochs, [{"params": rest, "lr": lr}]), (unfrozen_epochs, phase_2)]
    ):
        E.requires_grad_(phase == 1)
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
            history.append(accuracy(model, dev))
            if history[-1] > best[0]:
                best = (history[-1], copy.deepcopy(model.state_dict()))
    model.load_state_dict(best[1])
    return history


def _check_run(ex: Checker, freeze_then_unfreeze: Callable, freeze: bool, epochs: tuple[int, int]) -> None:
    train, dev, E = _schedule_task(3)
    model, watch = _watched_model(E, freeze)
    lr, embed_lr = 0.05, 0.01
    f, u = epochs
    call = f"freeze_then_unfreeze(model, train, dev, {f}, {u}, lr={lr}, embed_lr={embed_lr}, batch_size={_BATCH})"
    own = _watched_model(E, freeze)[0]  # the reference trains a model of its own: the answer's stays untouched
    ex.reference(_schedule_reference, own, train, dev, f, u, lr, embed_lr, _BATCH)
    history = ex.call(freeze_then_unfreeze, model, train, dev, f, u, lr=lr, embed_lr=embed_lr, batch_size=_BATCH)
    ex.expect(
        isinstance(history, (list, tuple)) and len(history) == f + u,
        f"{call} should return a list of {f + u} dev accuracies, one per epoch of both phases; got "
        f"{type(history).__name__} of length {len(history) if hasattr(history, '__len__') else '-'}.",
    )
    per_epoch = math.ceil(_N_TRAIN / _BATCH)
    ex.expect(
        len(watch.E) == (f + u) * per_epoch,
        f"{call} ran {len(watch.E)} training mini-batches; {f} + {u} epochs of {_N_TRAIN} texts in batches of "
        f"{_BATCH} make {(f + u) * per_epoch}. One epoch is one pass over every training text.",
    )
    n1 = f * per_epoch
    ex.expect(
        all(torch.equal(e, watch.E[0]) for e in watch.E[: n1 + 1]),
        f"in {call} the embeddings changed during phase 1: they must stay frozen for the first {f} epoch(s) "
        "(no gradient for them, and not in the optimiser of phase 1).",
    )
    ex.expect(
        not torch.equal(watch.W[n1], watch.W[0]),
        f"in {call} the hidden layer did not learn during phase 1: phase 1 trains every other parameter.",
    )
    train_rows = sorted(tuple(r) for r in train[0].tolist())
    ex.expect(
        all(sorted(_epoch_rows(watch, e, per_epoch)) == train_rows for e in range(f + u)),
        f"in {call} an epoch's mini-batches do not hold every training text exactly once: one epoch is one "
        "pass over the training texts, each in one batch.",
    )
    ex.expect(
        _epoch_rows(watch, 0, per_epoch) != _epoch_rows(watch, 1, per_epoch),
        f"in {call} the first two epochs see the texts in the same order: shuffle them anew every epoch.",
    )
    ex.expect(
        _adam_replayed(watch, train, E, lr),
        f"in {call} the first steps of phase 1 are not those of Adam with the learning rate lr on the mean "
        "cross-entropy of each batch: train phase 1 with torch.optim.Adam at lr and the cross-entropy loss.",
    )
    e_step = _largest_step(watch.E[n1], watch.E[n1 + 1])
    ex.expect(
        e_step > 0,
        f"in {call} the embeddings never changed in phase 2: unfreeze them (they need a gradient again, "
        "requires_grad) and give them to the optimiser of phase 2.",
    )
    ex.expect(
        abs(e_step - embed_lr) < 0.02 * embed_lr,
        f"in {call} the first step of phase 2 moved the embeddings by at most {e_step:.3g}, but Adam "
        f"with the embeddings' own learning rate embed_lr = {embed_lr} moves them by about embed_lr. Give the "
        "embeddings their own parameter group, with the learning rate embed_lr, in the optimiser of phase 2.",
    )
    final = accuracy(model, dev)
    ex.expect(
        all(0 <= float(a) <= 1 for a in history) and abs(final - max(float(a) for a in history)) < 1e-9,
        f"after {call} the model's dev accuracy is {final:.3f}, but the best epoch you report is "
        f"{max(float(a) for a in history):.3f}: keep the parameters of the epoch with the best dev accuracy, over both phases, and "
        "load them at the end (early stopping).",
    )


def _check_seed(ex: Checker, freeze_then_unfreeze: Callable) -> None:
    """The order of the texts is drawn from ``seed``: the same seed twice gives the same batches, another seed others."""
    train, dev, E = _schedule_task(3)
    batches = []
    for seed in (5, 5, 6):
        model, watch = _watched_model(E, False)
        ex.call(freeze_then_unfreeze, model, train, dev, 1, 1, lr=0.05, embed_lr=0.01, batch_size=_BATCH, seed=seed)
        batches.append([b.tolist() for b in watch.ids])
    ex.expect(
        batches[0] == batches[1] and batches[0] != batches[2],
        "freeze_then_unfreeze(..., seed=5) twice should train on the same mini-batches, and seed=6 on others: draw "
        "the order of the texts with one generator made from `seed` (torch_generator(seed)), not with torch's "
        "global random state or a fixed seed.",
    )


def check_freeze_then_unfreeze(freeze_then_unfreeze: Callable) -> CheckResult:
    """``freeze_then_unfreeze(model, train, dev, frozen_epochs, unfrozen_epochs, lr, embed_lr, batch_size, seed)``:
    Adam with the embeddings frozen, then Adam on everything, the embeddings at ``embed_lr``; dev accuracies per epoch."""
    with Checker(
        "Freeze, then unfreeze",
        forbidden={"train_classifier": train_classifier},
        forbidden_hint="Write the two phases' training loop yourself: the helper has one optimiser and one rate.",
    ) as ex:
        _check_run(ex, freeze_then_unfreeze, False, (2, 2))
        _check_run(ex, freeze_then_unfreeze, True, (1, 3))
        _check_seed(ex, freeze_then_unfreeze)
    return ex.result
