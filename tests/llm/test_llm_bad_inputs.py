"""Bad and edge inputs of the LLM chapter's helpers, table-driven (the runner is ``tests/bad_inputs.py``).

``BAD`` rows must raise an error naming the argument; ``EDGE`` rows have a documented result.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
import torch

from nlp_helpers.llm import gpt as TG
from tests.bad_inputs import Bad, Edge, bad, edge, run_bad, run_edge


@cache
def gpt() -> TG.TinyGPT:
    torch.manual_seed(0)
    return TG.TinyGPT(TG.TinyGPTConfig(5, block_size=4, n_layers=1, n_heads=2, d_model=8))


BAD = [
    # --- tinygpt
    bad(
        "tinygpt.CharTokenizer.decode-negative",
        lambda: TG.CharTokenizer(list("abc")).decode([-1]),
        ValueError,
        r"ids must be in \[0, 3\)",
    ),
    bad(
        "tinygpt.CharTokenizer.decode-float",
        lambda: TG.CharTokenizer(list("abc")).decode([1.7]),
        TypeError,
        "ids must be integer token ids",
    ),
    bad(
        "tinygpt.CharTokenizer.decode-str",
        lambda: TG.CharTokenizer(list("abc")).decode("01"),
        TypeError,
        "ids must be a sequence of int",
    ),
    bad(
        "tinygpt.CharTokenizer.encode-unknown-character",
        lambda: TG.CharTokenizer(list("abc")).encode("abz"),
        ValueError,
        "outside the tokenizer's alphabet",
    ),
    bad(
        "tinygpt.CharTokenizer.encode-lone-surrogate",
        lambda: TG.CharTokenizer(list("abc")).encode("a\ud800"),
        ValueError,
        "text contains",
    ),
    bad(
        "tinygpt.TinyGPT-float-ids",
        lambda: gpt()(torch.zeros(1, 2)),
        TypeError,
        "ids must be a torch tensor of integer token ids",
    ),
    bad(
        "tinygpt.TinyGPT-unknown-id",
        lambda: gpt()(torch.tensor([[7, 0]])),
        ValueError,
        r"ids must be token ids in \[0, 5\)",
    ),
    bad(
        "tinygpt.TinyGPT-targets-shape",
        lambda: gpt()(torch.zeros(1, 2, dtype=torch.long), torch.zeros(1, 3, dtype=torch.long)),
        ValueError,
        "targets must have the shape of ids",
    ),
    bad(
        "tinygpt.TinyGPT-targets-unknown-id",
        lambda: gpt()(torch.zeros(1, 2, dtype=torch.long), torch.tensor([[9, 0]])),
        ValueError,
        "targets must be token ids",
    ),
    bad("tinygpt.CausalSelfAttention-heads", lambda: TG.CausalSelfAttention(8, 3), ValueError, "divisible by n_heads"),
    bad(
        "tinygpt.CausalSelfAttention-2d-input",
        lambda: TG.CausalSelfAttention(8, 2)(torch.zeros(2, 8)),
        ValueError,
        "x must have shape",
    ),
    bad("tinygpt.Block-heads", lambda: TG.Block(8, 3), ValueError, "divisible by n_heads"),
    bad(
        "tinygpt.estimate_loss-no-batches",
        lambda: TG.estimate_loss(gpt(), torch.arange(20) % 5, 2, 0),
        ValueError,
        "n_batches must be >= 1",
    ),
    bad(
        "tinygpt.train-model-none",
        lambda: TG.train(None, torch.arange(20) % 5, torch.arange(20) % 5, 1, progress=False),
        TypeError,
        "model must be TinyGPT",
    ),
    bad(
        "tinygpt.get_batch-numpy",
        lambda: TG.get_batch(np.arange(10), 2, 2),
        TypeError,
        "data must be a 1-D torch tensor",
    ),
]


EDGE = [
    edge("tinygpt.CharTokenizer.decode-empty", lambda: TG.CharTokenizer(list("ab")).decode([]), lambda t: t == ""),
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_a_clear_error_naming_the_argument(case: Bad) -> None:
    run_bad(case)


@pytest.mark.parametrize("case", EDGE)
def test_edge_input_gives_the_documented_result(case: Edge) -> None:
    run_edge(case)
