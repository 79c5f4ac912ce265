"""Masked language modelling (nlp_helpers.bert.mlm): BERT's corruption statistics, the loss, the small model.

References: the 15 % / 80-10-10 recipe of Devlin et al. (2019) checked with binomial
tolerances (4 standard deviations) over many draws; the loss against a cross-entropy
computed by hand in numpy; the model's bidirectionality and padding mask by probing it.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.bert.mlm import (
    IGNORE_INDEX,
    TinyMaskedLM,
    corrupt,
    evaluate_masked_lm,
    mask_tokens,
    masked_lm_loss,
    select_positions,
    train_masked_lm,
    unigram_baseline,
)
from nlp_helpers.seeds import manual_seed
from nlp_helpers.seeds import rng as seeded_rng

V, MASK, PAD, CLS, SEP = 1000, 3, 0, 1, 2
SPECIAL = [PAD, CLS, SEP, MASK]


def padded_batch(rng: np.random.Generator, B: int = 64, T: int = 40) -> np.ndarray:
    """[CLS] tokens [SEP] [PAD]...: sentences of random lengths."""
    batch = np.full((B, T), PAD)
    for b, n in enumerate(rng.integers(5, T - 1, B)):
        batch[b, 0], batch[b, 1 : n + 1], batch[b, n + 1] = CLS, rng.integers(10, V, n), SEP
    return batch


def within(count: int, total: int, p: float, k: float = 4.0) -> bool:
    return abs(count / total - p) <= k * np.sqrt(p * (1 - p) / total)


# --------------------------------------------------------------------------- statistics
def test_mask_tokens_statistics_within_binomial_tolerance():
    rng = seeded_rng(0)
    ids = padded_batch(rng)
    ordinary = ~np.isin(ids, SPECIAL)
    sel = mask = rand = kept = n_ord = 0
    for _ in range(200):
        inputs, labels = mask_tokens(ids, V, MASK, SPECIAL, rng)
        chosen = labels != IGNORE_INDEX
        n_ord += ordinary.sum()
        sel += chosen.sum()
        mask += (inputs[chosen] == MASK).sum()
        kept += (inputs[chosen] == ids[chosen]).sum()
        rand += ((inputs[chosen] != ids[chosen]) & (inputs[chosen] != MASK)).sum()
        # untouched outside the selection; labels are the original ids inside it
        assert np.array_equal(inputs[~chosen], ids[~chosen])
        assert np.array_equal(labels[chosen], ids[chosen])
        assert not chosen[~ordinary].any()
    assert sel > 10_000
    assert within(sel, n_ord, 0.15)
    assert within(mask, sel, 0.8)
    assert within(rand, sel, 0.1 * (1 - 1 / (V - len(SPECIAL))))  # a random draw may equal the original
    assert within(kept, sel, 0.1 + 0.1 / (V - len(SPECIAL)))
    assert mask + rand + kept == sel


def test_random_replacements_are_uniform_over_ordinary_ids():
    rng = seeded_rng(1)
    ids = rng.integers(4, 20, (200, 50))  # ids 0-3 are special, 4-19 ordinary
    swapped = []
    for _ in range(50):
        inputs, labels = mask_tokens(ids, 20, MASK, SPECIAL, rng)
        chosen = labels != IGNORE_INDEX
        swapped.extend(inputs[chosen & (inputs != MASK) & (inputs != ids)].tolist())
    values, counts = np.unique(swapped, return_counts=True)
    assert values.tolist() == list(range(4, 20))  # every ordinary id, never a special one
    mean = len(swapped) / 16
    assert np.all(np.abs(counts - mean) < 5 * np.sqrt(mean))


def test_select_positions_rate_and_specials():
    rng = seeded_rng(2)
    ids = rng.integers(0, 50, (300, 100))
    for p in (0.0, 0.15, 0.5, 1.0):
        chosen = select_positions(ids, [0, 1, 2], rng, p)
        assert not chosen[np.isin(ids, [0, 1, 2])].any()
        n = (~np.isin(ids, [0, 1, 2])).sum()
        if p in (0.0, 1.0):
            assert chosen.sum() == p * n
        else:
            assert within(chosen.sum(), n, p)


def test_mask_tokens_is_deterministic_given_the_seed():
    ids = padded_batch(seeded_rng(3))
    a = mask_tokens(ids, V, MASK, SPECIAL, seeded_rng(7))
    b = mask_tokens(ids, V, MASK, SPECIAL, seeded_rng(7))
    assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_corrupt_by_hand():
    ids = np.array([[5, 6, 7, 8, 9, 10]])
    selected = np.array([[True, True, True, True, False, False]])
    u = np.array([[0.0, 0.79999, 0.8, 0.9, 0.1, 0.85]])
    random_ids = np.array([[40, 41, 42, 43, 44, 45]])
    assert corrupt(ids, selected, u, random_ids, MASK).tolist() == [[MASK, MASK, 42, 8, 9, 10]]
    assert ids.tolist() == [[5, 6, 7, 8, 9, 10]]  # input not modified


# --------------------------------------------------------------------------- loss
def test_masked_lm_loss_equals_cross_entropy_on_selected_positions_only():
    rng = seeded_rng(4)
    logits = rng.normal(size=(2, 5, 7))
    labels = np.array(
        [[IGNORE_INDEX, 3, IGNORE_INDEX, 6, IGNORE_INDEX], [0, IGNORE_INDEX, IGNORE_INDEX, IGNORE_INDEX, 2]]
    )
    log_probs = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    by_hand = -np.mean(
        [log_probs[b, t, labels[b, t]] for b in range(2) for t in range(5) if labels[b, t] != IGNORE_INDEX]
    )
    got = masked_lm_loss(torch.tensor(logits), torch.tensor(labels))
    assert got.item() == pytest.approx(by_hand, rel=1e-12)
    with pytest.raises(ValueError, match="selects no position"):
        masked_lm_loss(torch.tensor(logits), torch.full((2, 5), IGNORE_INDEX))


def test_unigram_baseline_by_hand():
    train = np.array([4, 4, 4, 5, 6])
    labels = np.array([IGNORE_INDEX, 4, 5, IGNORE_INDEX])
    got = unigram_baseline(train, labels, vocab_size=7)
    probs = (np.bincount(train, minlength=7) + 1) / (5 + 7)
    assert got["accuracy"] == 0.5
    assert got["cross_entropy"] == pytest.approx(-(np.log(probs[4]) + np.log(probs[5])) / 2)


# --------------------------------------------------------------------------- the model
def test_tiny_masked_lm_is_bidirectional():
    manual_seed(0)
    model = TinyMaskedLM(12, 8, d_model=16, n_heads=2, n_layers=2).eval()
    x = torch.tensor([[3, 4, 5, 6, 7, 0, 0, 0]])
    later = x.clone()
    later[0, 4] = 9  # change a *later* token
    with torch.no_grad():
        base, changed = model(x), model(later)
    assert base.shape == (1, 8, 12)
    assert not torch.allclose(base[0, 0], changed[0, 0])  # position 0 sees position 4: no causal mask


def test_padding_keys_get_no_attention():
    manual_seed(0)
    model = TinyMaskedLM(12, 8, d_model=16, n_heads=2, n_layers=1).eval()
    short = torch.tensor([[3, 4, 5, 0, 0, 0, 0, 0]])
    with torch.no_grad():
        a = model(short)[0, :3]
        # the same real tokens with a different amount of padding behind them
        b = model(torch.tensor([[3, 4, 5, 0]]))[0, :3]
    torch.testing.assert_close(a, b, atol=1e-5, rtol=1e-5)


@pytest.mark.trains
def test_training_beats_the_unigram_baseline_on_a_learnable_pattern():
    # Sequences a b a b ... : a masked token is fully determined by its neighbours, not by frequency.
    rng = seeded_rng(0)
    starts = rng.integers(2, 12, 400)
    blocks = np.stack([np.where(np.arange(12) % 2 == 0, s, (s + 5) % 10 + 2) for s in starts])
    manual_seed(0)
    model = TinyMaskedLM(12, 12, d_model=32, n_heads=2, n_layers=1)
    losses = train_masked_lm(
        model, blocks, mask_id=1, special_ids=[0], steps=150, batch_size=64, lr=1e-2, progress=False
    )
    assert np.mean(losses[-10:]) < 0.5 * np.mean(losses[:10])
    inputs, labels = mask_tokens(blocks, 12, 1, [0], seeded_rng(9))
    ours = evaluate_masked_lm(model, inputs, labels)
    base = unigram_baseline(blocks, labels, 12)
    assert ours["accuracy"] > base["accuracy"] + 0.4
    assert ours["cross_entropy"] < base["cross_entropy"] - 1.0


# --------------------------------------------------------------------------- bad input
def test_bad_input_gives_clear_errors():
    rng = seeded_rng(0)
    ids = np.array([[1, 5, 6, 2]])
    with pytest.raises(TypeError, match="ids"):
        mask_tokens(np.array([[1.5, 2.0]]), V, MASK, SPECIAL, rng)
    with pytest.raises(ValueError, match="ids"):
        mask_tokens(np.zeros((2, 2, 2), dtype=int), V, MASK, SPECIAL, rng)
    with pytest.raises(ValueError, match="vocab_size"):
        mask_tokens(np.array([[1, 5000]]), V, MASK, SPECIAL, rng)
    with pytest.raises(ValueError, match="mask_id"):
        mask_tokens(ids, V, V, SPECIAL, rng)
    with pytest.raises(ValueError, match="p must be <= 1"):
        mask_tokens(ids, V, MASK, SPECIAL, rng, p=1.5)
    with pytest.raises(TypeError, match="rng"):
        mask_tokens(ids, V, MASK, SPECIAL, 0)
    with pytest.raises(ValueError, match="every id is special"):
        mask_tokens(np.array([[0, 1]]), 2, 1, [0], rng)
    with pytest.raises(ValueError, match="selected"):
        corrupt(ids, np.ones((1, 3), dtype=bool), np.zeros((1, 4)), ids, MASK)
    with pytest.raises(ValueError, match=r"u must contain uniform draws in \[0, 1\)"):
        corrupt(ids, np.ones((1, 4), dtype=bool), np.ones((1, 4)), ids, MASK)
    with pytest.raises(ValueError, match="divisible"):
        TinyMaskedLM(10, 8, d_model=10, n_heads=4)
    with pytest.raises(ValueError, match="block_size"):
        TinyMaskedLM(10, 4, d_model=8, n_heads=2)(torch.zeros((1, 5), dtype=torch.long))
    with pytest.raises(ValueError, match="labels"):
        evaluate_masked_lm(TinyMaskedLM(10, 4, d_model=8, n_heads=2), np.zeros((1, 4), dtype=int), np.zeros((1, 3)))
    with pytest.raises(ValueError, match="blocks"):
        train_masked_lm(TinyMaskedLM(10, 4, d_model=8, n_heads=2), np.zeros(4, dtype=int), mask_id=1, special_ids=[0])
