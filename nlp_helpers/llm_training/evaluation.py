"""Evaluating a language model on a multiple-choice benchmark, and how sure an accuracy is.

Multiple-choice benchmarks such as MMLU (Hendrycks et al., 2021) and HellaSwag (Zellers et al., 2019) are
scored without generating text: each option is appended to the question as a *continuation*, the model's
log-likelihood of the continuation's tokens is summed, and the option with the highest score is the
model's answer. Longer options collect more negative log-probabilities, so a raw sum favours short
options; dividing by the option's length in tokens (or in characters, as the ``acc_norm`` of the
evaluation harness does) removes that pull.

* :func:`option_log_likelihoods`: the summed log-likelihood and the length of every option after a context,
  in one batched forward pass.
* :func:`score_continuations`: the same scores for many (context, continuation) pairs, in large batches.
* :func:`pick_option`: the chosen option under no, per-token or per-character normalisation.
* :func:`wilson_interval`: a confidence interval for an accuracy (Wilson's score interval).
* :func:`bootstrap_interval`: a percentile bootstrap interval for any statistic of per-item scores.

Left out: calibration (Brier score, expected calibration error) and the benchmarks' own data, which is
not shipped offline; the page writes small sets of items of its own (:mod:`nlp_helpers.llm_training.evaluation_items`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from nlp_helpers._checks import check_array, check_choice, check_float, check_int, check_nonempty, check_text
from nlp_helpers.sampling.llm import forward_with_cache

if TYPE_CHECKING:  # imported lazily: pandas takes a second to import
    import pandas as pd

__all__ = [
    "NORMALISATIONS",
    "bootstrap_interval",
    "option_log_likelihoods",
    "pick_option",
    "score_continuations",
    "wilson_interval",
]

NORMALISATIONS = ("none", "tokens", "chars")


def option_log_likelihoods(model: Any, tokenizer: Any, context: str, options: Sequence[str]) -> pd.DataFrame:
    """Score every option of ``options`` as a continuation of ``context`` under a causal LM.

    The context and each option are tokenised separately and concatenated (so every option is scored on
    the same context tokens; an option usually starts with a space, ``" Paris"``). Returns a DataFrame
    with one row per option: ``option``, ``tokens`` (its length in tokens), ``chars`` (in characters),
    ``log-likelihood`` (the sum over its tokens of log P(token | context, earlier option tokens), float64)
    and ``per token`` (the sum divided by ``tokens``). The context runs once and its key/value cache is
    shared by all options, which run in one right-padded batch (the causal mask keeps the padding from
    changing any score).
    """
    import pandas as pd

    context = check_text("context", context, allow_empty=False)
    options = [
        check_text(f"options[{i}]", o, allow_empty=False) for i, o in enumerate(check_nonempty("options", options))
    ]
    ctx = _encode(tokenizer, context)
    conts = [_encode(tokenizer, o) for o in options]
    if not ctx:
        raise ValueError("context must encode to at least one token")
    for i, c in enumerate(conts):
        if not c:
            raise ValueError(f"options[{i}] must encode to at least one token, got {options[i]!r}")
    sums = _option_sums(model, ctx, conts)
    lengths = np.array([len(c) for c in conts])
    return pd.DataFrame(
        {
            "option": options,
            "tokens": lengths,
            "chars": [len(o) for o in options],
            "log-likelihood": sums,
            "per token": sums / lengths,
        }
    )


def _encode(tokenizer: Any, text: str) -> list[int]:
    return list(tokenizer(text, add_special_tokens=False)["input_ids"])


def _option_sums(model: Any, ctx: list[int], conts: list[list[int]]) -> np.ndarray:
    import torch

    with torch.no_grad():
        # The context runs once; its key/value cache is repeated for the batch of options.
        out, cache = forward_with_cache(model, torch.tensor([ctx]))  # (1, Tc)
        first = torch.log_softmax(out.logits[0, -1].double(), dim=-1)  # predicts every option's first token
        batch = torch.nn.utils.rnn.pad_sequence([torch.tensor(c) for c in conts], batch_first=True)  # (B, To)
        cache.batch_repeat_interleave(len(conts))
        out, _ = forward_with_cache(model, batch, cache)
        log_probs = torch.log_softmax(out.logits.double(), dim=-1)  # (B, To, V); position t predicts t + 1
    sums = []
    for b, c in enumerate(conts):
        rest = log_probs[b, torch.arange(len(c) - 1), torch.tensor(c[1:], dtype=torch.long)].sum()
        sums.append(float(first[c[0]] + rest))  # right padding comes after the option: the causal mask hides it
    return np.array(sums)


def score_continuations(
    model: Any, tokenizer: Any, pairs: Sequence[tuple[str, str]], batch_size: int = 32
) -> tuple[np.ndarray, np.ndarray]:
    """log P(continuation | context) for many ``(context, continuation)`` pairs at once.

    Returns ``(log_likelihoods, n_tokens)``, two arrays of shape ``(len(pairs),)``: the summed log-probability
    of each continuation's tokens (float64) and its length in tokens. Context and continuation are tokenised
    separately and concatenated, as in :func:`option_log_likelihoods`, whose scores these equal (to float32
    rounding). The pairs run in right-padded batches of ``batch_size`` rows: a large batch uses a CPU core
    several times better per token than many small forward passes.
    """
    pairs = check_nonempty("pairs", pairs)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    rows = []
    for i, pair in enumerate(pairs):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise TypeError(f"pairs[{i}] must be a (context, continuation) pair of strings, got {pair!r}")
        ctx = _encode(tokenizer, check_text(f"pairs[{i}][0]", pair[0], allow_empty=False))
        cont = _encode(tokenizer, check_text(f"pairs[{i}][1]", pair[1], allow_empty=False))
        if not ctx or not cont:
            raise ValueError(f"pairs[{i}] must encode to at least one token on each side, got {pair!r}")
        rows.append((ctx, cont))
    sums = np.concatenate([_batch_sums(model, rows[k : k + batch_size]) for k in range(0, len(rows), batch_size)])
    return sums, np.array([len(c) for _, c in rows])


def _batch_sums(model: Any, rows: list[tuple[list[int], list[int]]]) -> np.ndarray:
    import torch

    seqs = [torch.tensor(ctx + cont) for ctx, cont in rows]
    batch = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True)  # (B, T), padded on the right
    with torch.no_grad():
        logits = model(batch).logits  # (B, T, V)
    sums = []
    for b, (ctx, cont) in enumerate(rows):
        positions = torch.arange(len(ctx) - 1, len(ctx) + len(cont) - 1)  # each predicts the next token
        picked = torch.log_softmax(logits[b, positions].double(), dim=-1)[torch.arange(len(cont)), torch.tensor(cont)]
        sums.append(float(picked.sum()))
    return np.array(sums)


def pick_option(
    log_likelihoods: Sequence[float], lengths: Sequence[float] | None = None, normalise: str = "none"
) -> int:
    """The index of the best option: the highest log-likelihood, optionally divided by its length.

    ``normalise`` is ``"none"`` (the raw sum; ``lengths`` is ignored), ``"tokens"`` or ``"chars"`` (the sum
    divided by ``lengths``, the options' lengths in tokens or in characters, all > 0). Ties go to the
    first option.
    """
    normalise = check_choice("normalise", normalise, NORMALISATIONS)
    scores = check_array("log_likelihoods", log_likelihoods, ndim=1)
    if scores.size == 0:
        raise ValueError("log_likelihoods must not be empty")
    if normalise != "none":
        if lengths is None:
            raise ValueError(f"lengths is needed when normalise={normalise!r}")
        lengths = check_array("lengths", lengths, shape=(scores.size,))
        if (lengths <= 0).any():
            raise ValueError("lengths must all be > 0")
        scores = scores / lengths
    return int(np.argmax(scores))


def wilson_interval(successes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (e.g. an accuracy): ``(low, high)``.

    The set of proportions p whose normal test, with the standard error sqrt(p(1-p)/n) at p itself, does
    not reject the observed share k/n at the two-sided ``level``. Unlike k/n ± z·se it stays inside [0, 1]
    and is not empty when k = 0 or k = n (Wilson, 1927).
    """
    n = check_int("n", n, minimum=1)
    successes = check_int("successes", successes, minimum=0, maximum=n)
    level = check_float("level", level, minimum=0.0, maximum=1.0, min_inclusive=False, max_inclusive=False)
    from scipy.stats import norm

    z = float(norm.ppf(0.5 + level / 2))
    p = successes / n
    centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z / (1 + z**2 / n) * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    return max(0.0, centre - half), min(1.0, centre + half)


def bootstrap_interval(
    values: Sequence[float],
    rng: np.random.Generator,
    statistic: Callable[[np.ndarray], float] = np.mean,
    n_resamples: int = 2000,
    level: float = 0.95,
) -> tuple[float, float]:
    """A percentile bootstrap interval for ``statistic(values)`` (Efron, 1979): ``(low, high)``.

    ``values`` holds one number per test item (1/0 for right/wrong, or a difference of two systems' scores
    on the same item). Draw ``n_resamples`` samples of ``len(values)`` items with replacement, compute
    the statistic of each, and return the ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles of
    those. The spread covers the luck of which items the test set happens to hold.
    """
    values = check_array("values", values, ndim=1)
    if values.size == 0:
        raise ValueError("values must not be empty")
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator (nlp_helpers.seeds.rng), got {type(rng).__name__}")
    if not callable(statistic):
        raise TypeError(f"statistic must be a function of a 1-D array, got {type(statistic).__name__}")
    n_resamples = check_int("n_resamples", n_resamples, minimum=1)
    level = check_float("level", level, minimum=0.0, maximum=1.0, min_inclusive=False, max_inclusive=False)
    idx = rng.integers(0, values.size, size=(n_resamples, values.size))  # (R, n)
    stats = np.array([statistic(values[row]) for row in idx])
    low, high = np.quantile(stats, [(1 - level) / 2, (1 + level) / 2])
    return float(low), float(high)
