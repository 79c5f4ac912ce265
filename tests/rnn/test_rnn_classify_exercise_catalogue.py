"""Catalogue of the exercise of ``book/rnn/classify.ipynb`` (module ``nlp_helpers.rnn.classify_exercises``).

* ``masked_pool(states, lengths, how)``: (B, H), the mean or max over positions 0 .. lengths[b] - 1 of each
  sequence of a padded (B, T, H) batch; padding never counts (not in the mean's divisor, not in the max);
  ValueError naming ``how`` for anything but "mean"/"max" and naming ``lengths`` for a length outside [1, T];
  inputs unchanged.
"""

from __future__ import annotations

import warnings

import numpy as np
import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from nlp_helpers.rnn.classify import SequenceClassifier
from nlp_helpers.rnn.classify_exercises import check_masked_pool, masked_pool_reference
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def _checked(states, lengths, how):
    states = np.asarray(states, dtype=float)
    if how not in ("mean", "max"):
        raise ValueError(f"how must be 'mean' or 'max', got {how!r}")
    if any(not 1 <= n <= states.shape[1] for n in lengths):
        raise ValueError(f"lengths must lie in [1, {states.shape[1]}], got {list(lengths)}")
    return states


def pool_loop(states, lengths, how):
    states = _checked(states, lengths, how)
    out = np.zeros((states.shape[0], states.shape[2]))
    for b, n in enumerate(lengths):
        out[b] = states[b, :n].mean(axis=0) if how == "mean" else states[b, :n].max(axis=0)
    return out


def pool_mask(states, lengths, how):  # one mask for the whole batch
    states = _checked(states, lengths, how)
    mask = np.arange(states.shape[1])[None, :, None] < np.asarray(lengths)[:, None, None]
    if how == "mean":
        return (states * mask).sum(axis=1) / np.asarray(lengths)[:, None]
    return np.where(mask, states, -np.inf).max(axis=1)


def pool_torch(states, lengths, how):
    _checked(states, lengths, how)
    x, n = torch.as_tensor(states), torch.as_tensor(lengths)
    mask = (torch.arange(x.shape[1])[None, :] < n[:, None]).unsqueeze(-1)
    if how == "mean":
        return ((x * mask).sum(1) / n[:, None]).numpy()
    return x.masked_fill(~mask, float("-inf")).amax(1).numpy()


def pool_over_all(states, lengths, how):  # the padding counts
    states = _checked(states, lengths, how)
    return states.mean(axis=1) if how == "mean" else states.max(axis=1)


def pool_max_over_padding(states, lengths, how):  # right mean, but the max sees the padded zeros
    states = _checked(states, lengths, how)
    return pool_loop(states, lengths, how) if how == "mean" else states.max(axis=1)


def pool_mean_divides_by_T(states, lengths, how):  # sums the real states, divides by T
    states = _checked(states, lengths, how)
    if how == "max":
        return pool_loop(states, lengths, how)
    mask = np.arange(states.shape[1])[None, :, None] < np.asarray(lengths)[:, None, None]
    return (states * mask).sum(axis=1) / states.shape[1]


def pool_off_by_one(states, lengths, how):  # stops one position early
    states = _checked(states, lengths, how)
    return np.stack(
        [
            states[b, : max(n - 1, 1)].mean(0) if how == "mean" else states[b, : max(n - 1, 1)].max(0)
            for b, n in enumerate(lengths)
        ]
    )


def pool_one_too_many(states, lengths, how):  # goes one position past the end
    states = _checked(states, lengths, how)
    return np.stack(
        [states[b, : n + 1].mean(0) if how == "mean" else states[b, : n + 1].max(0) for b, n in enumerate(lengths)]
    )


def pool_keepdims(states, lengths, how):
    return pool_loop(states, lengths, how)[:, None, :]


def pool_no_how_check(states, lengths, how):
    return pool_loop(states, lengths, "mean" if how == "mean" else "max")


def pool_no_length_check(states, lengths, how):
    states = np.asarray(states, dtype=float)
    if how not in ("mean", "max"):
        raise ValueError("how must be 'mean' or 'max'")
    with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)  # the mean of an empty slice is nan
        return np.stack(
            [states[b, :n].mean(0) if how == "mean" else states[b, : max(n, 1)].max(0) for b, n in enumerate(lengths)]
        )


def pool_checks_zero_only(states, lengths, how):
    if min(lengths) < 1:
        raise ValueError("lengths must be at least 1")
    return pool_no_length_check(states, lengths, how)


def pool_vague_error(states, lengths, how):
    if how not in ("mean", "max") or min(lengths) < 1 or max(lengths) > np.shape(states)[1]:
        raise ValueError("bad input")
    return pool_loop(states, lengths, how)


def pool_in_place(states, lengths, how):  # writes -inf into the caller's padding
    _checked(states, lengths, how)
    for b, n in enumerate(lengths):
        states[b, n:] = -np.inf if how == "max" else 0.0
    return states.max(axis=1) if how == "max" else states.sum(axis=1) / np.asarray(lengths)[:, None]


CATALOGUE = {
    check_masked_pool: Catalogue(
        correct=[pool_loop, pool_mask, pool_torch],
        wrong=[
            Wrong(pool_over_all, "padding included"),
            Wrong(pool_max_over_padding, ("how='max'", "padding included")),
            Wrong(pool_mean_divides_by_T, "lengths[b]"),
            Wrong(pool_off_by_one, "last real state"),
            Wrong(pool_one_too_many, "one padded position"),
            Wrong(pool_keepdims, "(B, H)"),
            Wrong(pool_no_how_check, "how='sum'"),
            Wrong(pool_no_length_check, ("lengths=[0, 3]", "ValueError")),
            Wrong(pool_checks_zero_only, ("lengths=[2, 4]", "either end")),
            Wrong(pool_vague_error, "does not name"),
            Wrong(pool_in_place, "modified its input"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)


def test_the_reference_is_the_pooling_of_the_package_classifier() -> None:
    torch.manual_seed(7)
    tokens = torch.randint(0, 12, (4, 6))
    lengths = torch.tensor([6, 2, 4, 1])
    for pooling in ("mean", "max"):
        clf = SequenceClassifier(12, cell="gru", pooling=pooling, hidden_size=5, embedding_dim=3, bidirectional=True)
        clf.eval()
        with torch.no_grad():
            packed = pack_padded_sequence(clf.embedding(tokens), lengths, batch_first=True, enforce_sorted=False)
            states, _ = pad_packed_sequence(clf.rnn(packed)[0], batch_first=True, total_length=6)
            want = clf.encode(tokens, lengths).double().numpy()
        got = masked_pool_reference(states.double().numpy(), lengths.tolist(), pooling)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)  # float32 states, pooled in float64


def test_the_reference_names_the_argument_at_fault() -> None:
    states = np.zeros((2, 3, 1))
    for args, name in [
        ((states, [1, 2], "sum"), "how"),
        ((states, [0, 2], "max"), "lengths"),
        ((states, [1], "max"), "lengths"),
        ((np.zeros((2, 3)), [1, 2], "max"), "states"),
    ]:
        try:
            masked_pool_reference(*args)
        except ValueError as err:
            assert name in str(err)
        else:
            raise AssertionError(f"no ValueError for {args[1:]}")
