"""Catalogue of the exercises of "Fine-tuning for classification": requirements, correct answers in several
styles (accepted) and typical wrong answers (rejected with a hint naming the mistake).

* ``warmup_cosine(step, total_steps, warmup_steps)``: a float; ``step / warmup_steps`` while
  ``step < warmup_steps`` (0 at step 0); then ``(1 + cos(pi p)) / 2`` with
  ``p = (step - warmup_steps) / (total_steps - warmup_steps)`` (half a period, from the end of the warm-up);
  0 at and after ``total_steps``; no warm-up when ``warmup_steps = 0`` and no decay when it equals
  ``total_steps`` (no division by zero); ValueError naming the argument for ``step < 0``,
  ``total_steps < 1`` and ``warmup_steps`` outside ``[0, total_steps]``.
* ``lora_counts`` (a value, worked by hand): a dict with exactly the keys lora, full, break_even, numbers
  compared exactly; LoRA of rank 8 on the query and value projections of all six layers (not the top one
  only, not one projection), A and B both counted and added (not multiplied), biases frozen and the head left
  out; full fine-tuning trains each projection's weight and bias (not the whole layer); the break-even rank
  is a whole number, counts the bias, and is well below d.

The counts are checked against torch: the page's ``LoRALinear`` put on a MiniLM of the shipped configuration.
"""

from __future__ import annotations

import json
import math

import numpy as np
import torch
from transformers import BertConfig, BertModel
from transformers.models.bert.modeling_bert import BertLayer

from nlp_helpers.bert.minilm import minilm_path
from nlp_helpers.finetuning.classification_exercises import (
    LORA_LAYERS,
    LORA_RANK,
    LORA_WIDTH,
    check_lora_by_hand,
    check_warmup_cosine,
)
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


def _validate(step, total_steps, warmup_steps):
    if step < 0:
        raise ValueError(f"step must be >= 0, got {step}")
    if total_steps < 1:
        raise ValueError(f"total_steps must be >= 1, got {total_steps}")
    if not 0 <= warmup_steps <= total_steps:
        raise ValueError(f"warmup_steps must be in [0, total_steps], got {warmup_steps}")


def cosine_branches(step, total_steps, warmup_steps):
    _validate(step, total_steps, warmup_steps)
    if step < warmup_steps:
        return step / warmup_steps
    if step >= total_steps:
        return 0.0
    p = (step - warmup_steps) / (total_steps - warmup_steps)
    return 0.5 * (1.0 + math.cos(math.pi * p))


def cosine_numpy(step, total_steps, warmup_steps):
    _validate(step, total_steps, warmup_steps)
    warm = step / max(warmup_steps, 1)
    p = np.clip((step - warmup_steps) / max(total_steps - warmup_steps, 1), 0.0, 1.0)
    decay = (1 + np.cos(np.pi * p)) / 2 if step < total_steps else 0.0
    return float(warm if step < warmup_steps else decay)


def _variant(mistake="", *, zero_division=False, checks=True):
    def warmup_cosine(step, total_steps, warmup_steps):
        if checks:
            _validate(step, total_steps, warmup_steps)
        if step < warmup_steps or (zero_division and step == 0):
            return (step + 1) / warmup_steps if mistake == "warmup_plus_one" else step / warmup_steps
        if step >= total_steps and mistake != "no_end":
            return 0.0
        if mistake == "whole_run":
            p = step / total_steps
        else:
            p = (step - warmup_steps) / max(1, total_steps - warmup_steps)
        if mistake == "no_half":
            return math.cos(math.pi * p)
        if mistake == "full_period":
            return (1 + math.cos(2 * math.pi * p)) / 2
        return (1 + math.cos(math.pi * p)) / 2

    return warmup_cosine


class Answer(dict):
    """A by-hand answer (a value, not a function) with a name for the test ids."""

    def __init__(self, name, value):
        super().__init__(value)
        self.__name__ = name


# d = 384, r = 8, 6 layers x 2 projections: A and B hold 8 * (384 + 384) per projection; a projection's
# weight and bias 384 * 384 + 384; break-even r * 768 >= 147,840.
LORA_INTS = Answer("lora_ints", {"lora": 73_728, "full": 1_774_080, "break_even": 193})
LORA_EXPRESSIONS = Answer(
    "lora_expressions",
    {"lora": 6 * 2 * (8 * 384 + 384 * 8), "full": 6 * 2 * (384**2 + 384.0), "break_even": math.ceil(147_840 / 768)},
)
LORA_NUMPY = Answer(
    "lora_numpy", {"lora": np.int64(73_728), "full": np.float64(1_774_080), "break_even": np.int64(193)}
)


def _lora(name, **changed):
    return Answer(name, {"lora": 73_728, "full": 1_774_080, "break_even": 193, **changed})


def lora_as_a_function():  # "write the dict lora_counts": a value worked out by hand
    return dict(LORA_INTS)


def _config() -> BertConfig:
    return BertConfig(**json.loads((minilm_path() / "config.json").read_text()))


LAYER_PARAMS = sum(p.numel() for p in BertLayer(_config()).parameters())  # the page's table: one whole layer


CATALOGUE = {
    check_warmup_cosine: Catalogue(
        correct=[cosine_branches, cosine_numpy, _variant()],
        wrong=[
            Wrong(_variant("whole_run"), "end of the warm-up"),
            Wrong(_variant("no_half"), "negative"),
            Wrong(_variant("full_period"), "half a period"),
            Wrong(_variant("warmup_plus_one"), "0 at step 0"),
            Wrong(_variant("no_end"), "after total_steps"),
            Wrong(_variant(zero_division=True), "no warm-up"),
            Wrong(_variant(checks=False), "raise ValueError"),
        ],
    ),
    check_lora_by_hand: Catalogue(
        correct=[LORA_INTS, LORA_EXPRESSIONS, LORA_NUMPY],
        wrong=[
            Wrong(_lora("lora_top_layer_only", lora=2 * 8 * 768), "all six layers"),
            Wrong(_lora("lora_a_only", lora=12 * 8 * 384), ("half", "both train")),
            Wrong(_lora("lora_page_rank", lora=12 * 4 * 768), ("half", "rank 8")),
            Wrong(_lora("lora_one_projection", lora=6 * 8 * 768), ("half", "query and the value")),
            Wrong(_lora("lora_product", lora=12 * 8 * 384 * 384), "add up"),
            Wrong(_lora("lora_with_biases", lora=73_728 + 12 * 384), "biases frozen"),
            Wrong(_lora("lora_with_head", lora=73_728 + 770), "head"),
            Wrong(_lora("lora_other", lora=70_000), ("lora", "not right yet")),
            Wrong(_lora("full_no_bias", full=12 * 384 * 384), "bias"),
            Wrong(_lora("full_top_layer_only", full=2 * 147_840), "all six layers"),
            Wrong(_lora("full_one_projection", full=6 * 147_840), "two adapted projections"),
            Wrong(_lora("full_whole_layer", full=LAYER_PARAMS), "whole top layer"),
            Wrong(_lora("full_whole_layer_and_head", full=LAYER_PARAMS + 770), "whole top layer"),
            Wrong(_lora("full_other", full=1_700_000), ("full", "not right yet")),
            Wrong(_lora("break_even_no_bias", break_even=192), "count the bias"),
            Wrong(_lora("break_even_not_whole", break_even=192.5), "whole number"),
            Wrong(_lora("break_even_full_rank", break_even=384), "long before r = d"),
            Wrong(_lora("break_even_a_only", break_even=385), "both train"),
            Wrong(_lora("break_even_other", break_even=100), ("break_even", "not right yet")),
            Wrong(Answer("lora_keys", {"lora": 73_728, "full": 1_774_080}), "keys should be exactly"),
            Wrong(_lora("lora_text", lora="73728"), "should be a number"),
            Wrong(_lora("lora_bool", break_even=True), "should be a number"),
            Wrong(lora_as_a_function, "not a function"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)


class LoRA(torch.nn.Module):
    """The page's LoRALinear: a frozen linear layer plus B A of rank r (A r x d_in, B d_out x r)."""

    def __init__(self, linear: torch.nn.Linear, r: int) -> None:
        super().__init__()
        self.linear = linear.requires_grad_(False)
        self.A = torch.nn.Parameter(torch.zeros(r, linear.in_features))
        self.B = torch.nn.Parameter(torch.zeros(linear.out_features, r))


def test_the_by_hand_counts_are_what_torch_counts_on_the_pages_encoder() -> None:
    config = _config()
    assert (config.num_hidden_layers, config.hidden_size) == (LORA_LAYERS, LORA_WIDTH)
    encoder = BertModel(config, add_pooling_layer=False).encoder.requires_grad_(False)
    projections = [(layer.attention.self, name) for layer in encoder.layer for name in ("query", "value")]
    full = sum(p.numel() for attn, name in projections for p in getattr(attn, name).parameters())
    for attn, name in projections:
        setattr(attn, name, LoRA(getattr(attn, name), LORA_RANK))
    lora = sum(p.numel() for p in encoder.parameters() if p.requires_grad)
    d = config.hidden_size
    break_even = next(r for r in range(1, d + 1) if r * (d + d) >= d * d + d)  # LoRA on one projection
    counted = Answer("counted", {"lora": lora, "full": full, "break_even": break_even})
    assert check_lora_by_hand(counted).status == "correct"
    assert check_lora_by_hand(_lora("one_more", lora=lora + 1)).status == "wrong"
