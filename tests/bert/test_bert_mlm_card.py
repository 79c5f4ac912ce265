"""Provenance of the stored fill-mask model (nlp_helpers/data/files/bert_mlm/): its card and its weights.

(a) The card is consistent with itself: the passes it ran, the best one, early stopping by the rule it states.
(b) Evaluating the stored weights reproduces the card's held-out top-k numbers (within 2 positions of n).
(c) Retraining the first steps with the card's seed, seed offset and data reproduces the card's per-step
    training losses within ``LOSS_TOLERANCE`` (set from native against ``ATEN_CPU_CAPABILITY=default``
    runs, see below), and its validation loss before training: the file came from this code.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from nlp_helpers.bert import fill_mask
from nlp_helpers.bert.fill_mask_training import train_fill_mask

# Measured (seed 0, all the data): the first 6 steps' training losses of an AVX2 run and an
# ATEN_CPU_CAPABILITY=default run differ by at most 1e-6 nats, the validation loss before training by 5e-8;
# the card rounds the per-step losses to 5 decimals. 1e-3 leaves room for other CPUs and torch builds,
# and is far below what another seed, mask or batch order changes (the steps' losses differ by 0.2-0.8).
LOSS_TOLERANCE = 1e-3
STEPS = 4


@pytest.fixture(scope="module")
def card():
    return fill_mask.training_card()


def test_the_card_is_consistent(card):
    valid = card["valid_loss_per_pass"]
    assert card["passes_run"] == len(valid) - 1 >= 1
    assert card["passes_run"] <= card["max_passes"]
    best = int(np.argmin(valid))
    assert card["best_pass"] == best, "the stored parameters are those of the pass with the lowest validation loss"
    stopped_early = card["passes_run"] < card["max_passes"]
    assert stopped_early == (card["passes_run"] - best >= card["patience"]), "early stopping as the card states"
    assert len(card["train_loss_per_step"]) == card["steps"]
    assert len(card["train_loss_per_pass"]) == card["passes_run"]
    assert card["train_sentences"] > 5 * card["valid_sentences"] > 0
    assert card["test"]["top-1"] > card["test"]["unigram top-1"] + 0.1, "the model beats the unigram guess"
    assert card["test"]["top-5"] > card["test"]["unigram top-5"] + 0.1
    assert card["cpu_seconds"] > 0 and card["command"].startswith("python -m tools.train_mlm")


def test_the_stored_weights_reproduce_the_cards_test_numbers(card):
    result = fill_mask.topk_accuracy(fill_mask.wikipedia_sentences("test")[:500], seed=0)
    assert result["n"] == card["test"]["n"]
    for key in ("top-1", "top-5", "unigram top-1", "unigram top-5"):
        assert abs(result[key] - card["test"][key]) <= 2 / result["n"], key


@pytest.mark.trains
@pytest.mark.replays  # the card's seed offset, whatever NLP_SEED_OFFSET says: configuration B would repeat A's draws
def test_retraining_the_first_steps_reproduces_the_card(card, monkeypatch):
    monkeypatch.setenv("NLP_SEED_OFFSET", str(card["seed_offset"]))
    sentences = fill_mask.wikipedia_sentences("train")[: card["train_sentences"]]
    valid = fill_mask.wikipedia_sentences("valid")[: card["valid_sentences"]]
    run = train_fill_mask(
        sentences, epochs=card["max_passes"], patience=card["patience"], seed=card["seed"],
        valid_sentences=valid, max_steps=STEPS, progress=False,
    )  # fmt: skip
    assert len(run.losses) == STEPS
    np.testing.assert_allclose(run.losses, card["train_loss_per_step"][:STEPS], atol=LOSS_TOLERANCE, rtol=0)
    assert math.isclose(run.valid_losses[0], card["valid_loss_per_pass"][0], abs_tol=LOSS_TOLERANCE)


@pytest.mark.trains
def test_max_steps_stops_a_run_where_it_says():
    sentences = fill_mask.wikipedia_sentences("train")[:200]
    short = train_fill_mask(sentences, epochs=2, max_steps=3, batch_size=16, progress=False)
    assert len(short.losses) == 3
    longer = train_fill_mask(sentences, epochs=2, max_steps=5, batch_size=16, progress=False)
    np.testing.assert_allclose(longer.losses[:3], short.losses, rtol=1e-5)


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match="max_steps"):
        train_fill_mask(["a sentence of words"], max_steps=0)
    with pytest.raises(TypeError, match="path"):
        fill_mask.training_card(3)
    with pytest.raises(FileNotFoundError, match="train_mlm"):
        fill_mask.training_card("no/such/card.json")
