"""Checkers for the exercises of the page "A small GPT, written out and trained" (``book/llm/gpt.ipynb``).

* :func:`check_gpt_parameters`: the parameter count of a small GPT worked out by hand, compared exactly with
  ``TinyGPT(...).num_parameters()``; the counts of typical slips (an untied output layer, no position
  embeddings, no biases, no layer norms, an MLP of width d_model, one full-size attention per head, one
  block) are recognised and named.
* :func:`check_label_smoothing`: cross-entropy with label smoothing, compared with
  ``torch.nn.functional.cross_entropy(..., label_smoothing=eps, ignore_index=-100)`` on fixed logits, with
  ignored targets and with logits around 1000.

The checker also computes the answers of typical mistakes, so that a wrong answer gets a hint naming its mistake.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["check_gpt_parameters", "check_label_smoothing", "gpt_count"]

# The by-hand exercise's model: the page's GPT with these settings, output tied to the token embedding.
COUNT_SETTINGS = {"vocab_size": 65, "block_size": 16, "n_layers": 3, "n_heads": 4, "d_model": 32}


def gpt_count(
    vocab_size: int,
    block_size: int,
    n_layers: int,
    n_heads: int,
    d_model: int,
    *,
    tied: bool = True,
    positions: bool = True,
    biases: bool = True,
    norm_vectors: int = 2,
    norms_per_block: int = 2,
    final_norm: bool = True,
    mlp_width: int = 4,
    full_heads: bool = False,
    with_w_o: bool = True,
    blocks: int | None = None,
    embeddings: bool = True,
) -> int:
    """The page's GPT parameter count from its layer sizes; the keywords give the counts of typical slips.

    Defaults give the true count (``TinyGPT(TinyGPTConfig(...)).num_parameters()``); e.g. ``tied=False`` adds
    an output matrix, ``full_heads=True`` gives every head its own d_model x 3 d_model projection.
    """
    for name, value in [("vocab_size", vocab_size), ("block_size", block_size), ("n_layers", n_layers)]:
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive int, got {value!r}")
    if not isinstance(d_model, int) or not isinstance(n_heads, int) or n_heads < 1 or d_model % n_heads:
        raise ValueError(f"d_model ({d_model!r}) must be a positive int divisible by n_heads ({n_heads!r})")
    d, b = d_model, int(biases)

    def linear(n_in: int, n_out: int) -> int:
        return n_in * n_out + b * n_out

    heads = n_heads if full_heads else 1
    attention = heads * linear(d, 3 * d) + (linear(d, d) if with_w_o else 0)
    mlp = linear(d, mlp_width * d) + linear(mlp_width * d, d)
    block = attention + mlp + norms_per_block * norm_vectors * d
    tables = vocab_size * d + (block_size * d if positions else 0) + (0 if tied else vocab_size * d)
    return (
        int(embeddings) * tables + (n_layers if blocks is None else blocks) * block + int(final_norm) * norm_vectors * d
    )


_COUNT_MISTAKES = [
    (
        {"tied": False},
        "you counted a separate output matrix: the output layer is tied to the token embedding, so its "
        "weights are E itself and count once.",
    ),
    ({"positions": False}, "you left out the position embeddings: one learned row of d_model per position."),
    (
        {"biases": False, "norm_vectors": 0},
        "you counted the weight matrices only: the linear layers have biases and the layer norms a scale and a shift.",
    ),
    (
        {"biases": False},
        "you left out the biases: every linear layer except the tied output has one bias per output unit.",
    ),
    (
        {"norm_vectors": 0},
        "you left out the layer norms: each has a scale and a shift of d_model numbers, two per block and a final one.",
    ),
    (
        {"norm_vectors": 1},
        "you gave each layer norm one vector: it has a scale and a shift, d_model numbers each.",
    ),
    ({"final_norm": False}, "you left out the final layer norm, after the last block."),
    ({"norms_per_block": 1}, "a pre-norm block has two layer norms, one before attention and one before the MLP."),
    (
        {"mlp_width": 1},
        "the MLP's hidden layer is 4 d_model wide, not d_model: it goes d_model -> 4 d_model -> d_model.",
    ),
    (
        {"full_heads": True},
        "the number of heads does not change the count: the heads split d_model between them, so Q, K and V of "
        "all heads together come from one d_model x 3 d_model layer.",
    ),
    ({"with_w_o": False}, "you left out W_O, the layer that mixes the heads' outputs (with its bias)."),
    ({"blocks": 1}, "you counted one block: the model stacks n_layers = 3 of them."),
    (
        {"embeddings": False, "final_norm": False},
        "you counted the blocks only: add the token and position embedding tables and the final layer norm.",
    ),
    ({"embeddings": False}, "you left out the embedding tables: the token table E and the position table."),
]


def check_gpt_parameters(gpt_parameters: Callable) -> CheckResult:
    """``gpt_parameters()`` -> the number of parameters (exactly, within 0.5) of the page's GPT with
    ``COUNT_SETTINGS``, output tied; checked against ``TinyGPT(...).num_parameters()``."""
    from nlp_helpers.llm.gpt import TinyGPT, TinyGPTConfig

    with Checker("Counting a small GPT's parameters") as ex:
        want = ex.reference(lambda: TinyGPT(TinyGPTConfig(**COUNT_SETTINGS)).num_parameters())
        got = ex.call(gpt_parameters)
        ex.expect(
            isinstance(got, (int, float, np.integer, np.floating)) and not isinstance(got, bool),
            f"gpt_parameters() should return one number, got {type(got).__name__}.",
        )
        value = float(got)
        ex.expect(np.isfinite(value), f"gpt_parameters() should return a finite number, got {value}.")
        if abs(value - want) > 0.5:
            for kwargs, hint in _COUNT_MISTAKES:
                if abs(value - gpt_count(**COUNT_SETTINGS, **kwargs)) <= 0.5:
                    ex.fail(f"gpt_parameters() returned {value:g}: {hint}")
            ex.fail(
                f"gpt_parameters() returned {value:g}, not the count. Go through the model layer by layer: the "
                "token and position tables, then in each block two layer norms, the Q/K/V layer, W_O and the "
                "two MLP layers (weights and biases), then the final layer norm; the tied output adds nothing."
            )
    return ex.result


def _torch_smoothed_ce(logits: np.ndarray, targets: np.ndarray, eps: float) -> float:
    """The reference: PyTorch's cross-entropy with label smoothing, in float64, ignoring targets of -100."""
    import torch
    import torch.nn.functional as F

    return F.cross_entropy(
        torch.from_numpy(logits), torch.from_numpy(targets), label_smoothing=eps, ignore_index=-100
    ).item()


def check_label_smoothing(fn) -> CheckResult:
    """``fn(logits, targets, eps)`` -> float: mean cross-entropy against ``(1 - eps) one-hot + eps / V``.

    ``logits (N, V)``, ``targets (N,)`` ints in ``[0, V)`` or -100 (ignored: left out of the sum and the
    count); stable for logits around 1000.
    """
    rng = seeded_rng(3)
    N, V = 6, 5
    logits, targets = rng.normal(size=(N, V)) * 2, np.array([0, 4, 2, 2, 1, 3])
    logp = logits - logits.max(1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(1, keepdims=True))
    nll, true = -logp[np.arange(N), targets], np.eye(V, dtype=bool)[targets]
    with Checker("Label smoothing") as ex:
        got = ex.call(fn, logits, targets, 0.0)
        ex.expect(np.ndim(got) == 0, f"return one number (the mean loss), got shape {np.shape(got)}.")
        if np.isclose(float(got), nll.sum()):
            ex.fail("with eps = 0 you returned the sum of the losses. Hint: return their mean over the positions.")
        ex.expect_close(
            got,
            nll.mean(),
            what="with eps = 0 (plain cross-entropy) the loss",
            hint="mean over positions of -log softmax(logits)[target]: with eps = 0 nothing is smoothed.",
        )
        got = float(np.asarray(ex.call(fn, logits, targets, 0.1)))
        others = np.mean(0.9 * nll - 0.1 / (V - 1) * np.where(true, 0, logp).sum(1))
        if np.isclose(got, others):
            ex.fail(
                "you spread eps over the V - 1 wrong classes only. Hint: as in the statement (and PyTorch), "
                "spread eps over all V classes: the true class gets 1 - eps + eps / V."
            )
        if np.isclose(got, 0.9 * nll.mean()):
            ex.fail("you scaled the loss by 1 - eps but left out the uniform part: add eps * mean(-log p) over V.")
        ex.expect_close(
            got,
            _torch_smoothed_ce(logits, targets, 0.1),
            what="with eps = 0.1 the loss",
            hint="the loss of one position is (1 - eps) * (-log p[target]) + eps * mean_c(-log p[c]).",
        )
        padded = np.array([0, -100, 2, -100, 1, 3])
        got, error = ex.try_call(fn, logits, padded, 0.1)
        if error is not None:
            ex.fail(
                f"with targets containing -100 your function raised {type(error).__name__}: {error}. Hint: -100 "
                "marks a position to ignore: keep only the rows whose target is not -100 before indexing."
            )
        kept = padded != -100
        want = _torch_smoothed_ce(logits, padded, 0.1)
        if np.isclose(float(np.asarray(got)), want * kept.sum() / N):
            ex.fail(
                "with ignored positions you divided by all N positions. Hint: the mean is over the positions "
                "whose target is not -100 (here 4 of 6)."
            )
        ex.expect_close(
            got,
            want,
            what="with targets [0, -100, 2, -100, 1, 3] and eps = 0.1 the loss",
            hint="leave the positions whose target is -100 out of the sum and out of the count.",
        )
        big = logits * 500  # logits of about 1000: exp overflows unless each row's maximum is subtracted
        got = ex.call(fn, big, targets, 0.1)
        ex.expect(
            np.isfinite(float(np.asarray(got))),
            "with logits around 1000 your loss is NaN or inf: exp(1000) overflows. Hint: log-softmax as "
            "(x - max) - log(sum(exp(x - max))) row by row.",
        )
        ex.expect_close(
            got,
            _torch_smoothed_ce(big, targets, 0.1),
            what="with logits around 1000 the loss",
            hint="compute log-softmax stably: subtract each row's maximum before exponentiating.",
        )
    return ex.result
