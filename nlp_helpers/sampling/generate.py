"""Generating text with a language model and measuring it: the autoregressive loop, distinct-n, repetition.

* :func:`generate` / :func:`generate_many` run the loop "predict the next-token
  distribution, pick a token with :func:`nlp_helpers.sampling.distributions.sample`, append it,
  repeat" on a Hugging Face causal LM (reusing its key/value cache, so each new
  token costs one forward pass of one position) or on any model whose call returns
  logits ``(B, T, V)`` (the book's :class:`nlp_helpers.attention.gpt.TinyGPT`, which is
  re-run on its last ``block_size`` tokens). :func:`generate_many` batches several
  decoding settings and samples through the model together.
* :func:`distinct_n` (Li et al., 2016) and :func:`repetition_rate` (Welleck et al.,
  2019) measure the diversity and repetitiveness of what was generated; the
  :class:`Generation` record also keeps the model's own log-probability of each
  token, a proxy for quality.

Left out: stopping at an end-of-sequence token (every sample has exactly
``max_new_tokens`` tokens, which keeps the measurements comparable) and beam search.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from nlp_helpers._checks import check_float, check_int, check_nonempty, check_text
from nlp_helpers.display import hide_progress
from nlp_helpers.sampling.distributions import apply_repetition_penalty, filtered_probs, sample
from nlp_helpers.sampling.llm import forward_with_cache
from nlp_helpers.seeds import seed as offset_seed

__all__ = ["Generation", "generate", "generate_many", "distinct_n", "repetition_rate"]


@dataclass
class Generation:
    """Output of :func:`generate_many` for one decoding setting.

    ``token_ids``: ``(num_samples, max_new_tokens)`` generated ids; ``log_probs``: the
    same shape, log P(token | prefix) under the *unmodified* model (temperature 1,
    no filter), the model's own judgement of each choice; ``texts``: the decoded
    continuations (without the prompt).
    """

    prompt: str
    setting: dict[str, Any]
    token_ids: np.ndarray
    log_probs: np.ndarray
    texts: list[str] = field(default_factory=list)

    @property
    def mean_log_prob(self) -> float:
        """Average log-probability per generated token (higher = the model finds the text more likely)."""
        return float(self.log_probs.mean())


_STRATEGY_KEYS = {"temperature", "top_k", "top_p", "min_p", "repetition_penalty"}


def _check_setting(setting: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(setting, Mapping):
        raise TypeError(f"each setting must be a dict of strategy arguments, got {type(setting).__name__}")
    unknown = set(setting) - _STRATEGY_KEYS
    if unknown:
        raise ValueError(f"unknown strategy argument(s) {sorted(unknown)}; expected some of {sorted(_STRATEGY_KEYS)}")
    s = {"temperature": 1.0, **setting}
    # Validate every argument now, before the (slow) model runs.
    filtered_probs(np.zeros(2), s["temperature"], s.get("top_k"), s.get("top_p"), s.get("min_p"))
    if s.get("repetition_penalty") is not None:
        check_float("repetition_penalty", s["repetition_penalty"], minimum=0.0, min_inclusive=False)
    return s


def _encode(tokenizer: Any, text: str) -> list[int]:
    try:
        return list(tokenizer.encode(text, add_special_tokens=False))
    except TypeError:  # a tokenizer without the keyword (e.g. a plain character tokenizer)
        return list(tokenizer.encode(text))


class _Stepper:
    """Runs a model one token at a time and returns the next-token logits ``(B, V)`` as float64 numpy.

    Every row starts from the same prompt, so the first call runs the prompt once (batch 1) and
    copies its keys and values (or, for a model without a cache, its logits) to the ``rows`` rows.
    """

    def __init__(self, model: Any, prompt_ids: list[int], rows: int) -> None:
        import torch

        self.torch = torch
        self.model = model
        self.hf = hasattr(model, "get_output_embeddings")  # a transformers model: use its KV cache
        self.block = getattr(model, "block_size", None)
        self.rows = rows
        self.ids = torch.tensor([prompt_ids])  # (1, T), then (rows, T + t)
        self.past = None

    def logits(self, new: Any = None) -> np.ndarray:
        torch = self.torch
        with torch.no_grad():
            if new is None:  # the prompt: one row, then copied to every row
                last = self._forward(self.ids, self.ids)
                if self.past is not None:
                    self.past.reorder_cache(torch.zeros(self.rows, dtype=torch.long))
                self.ids = self.ids.expand(self.rows, -1)
                return last.double().numpy().repeat(self.rows, axis=0)
            self.ids = torch.cat([self.ids, new], dim=1)
            return self._forward(new, self.ids).double().numpy()

    def _forward(self, new: Any, ids: Any) -> Any:
        if self.hf:
            out, self.past = forward_with_cache(self.model, new, self.past)
            return out.logits[:, -1]
        ctx = ids if self.block is None else ids[:, -self.block :]  # recompute on the context window
        return self.model(ctx)[:, -1]


def generate_many(
    model: Any,
    tokenizer: Any,
    prompt: str,
    settings: Sequence[Mapping[str, Any]],
    max_new_tokens: int,
    num_samples: int = 1,
    seed: int = 0,
    progress: bool = False,
) -> list[Generation]:
    """Sample ``num_samples`` continuations of ``prompt`` for each decoding setting, all in one batch.

    Every setting is a dict of :func:`sample` arguments (``temperature``, ``top_k``,
    ``top_p``, ``min_p``) plus optional ``repetition_penalty``; ``{"temperature": 0}``
    is greedy. Rows of all settings run through the model together (one forward
    pass per new token), each setting drawing from its own random stream derived
    from ``seed``, so results are reproducible. The prompt runs once and its cache is
    shared by every row, and a greedy setting runs one row (its samples are all equal).
    """
    import torch

    check_text("prompt", prompt, allow_empty=False)
    settings = [_check_setting(s) for s in check_nonempty("settings", settings)]
    max_new_tokens = check_int("max_new_tokens", max_new_tokens, minimum=1)
    num_samples = check_int("num_samples", num_samples, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    prompt_ids = _encode(tokenizer, prompt)
    if not prompt_ids:
        raise ValueError("prompt encodes to zero tokens")
    rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(offset_seed(seed)).spawn(len(settings))]
    # A greedy setting (temperature 0) gives the same text every time: it runs as one row.
    sizes = [1 if s["temperature"] == 0 else num_samples for s in settings]
    starts = np.concatenate([[0], np.cumsum(sizes)])
    n = int(starts[-1])
    stepper = _Stepper(model, prompt_ids, n)
    out_ids = np.zeros((n, max_new_tokens), dtype=np.int64)
    out_lp = np.zeros((n, max_new_tokens))
    steps = range(max_new_tokens)
    if progress and not hide_progress():  # no frozen bar on the web page
        from tqdm.auto import tqdm

        steps = tqdm(steps, desc="generating", unit="token")
    new = None
    for t in steps:
        logits = stepper.logits(new)  # (n, V)
        log_p = logits - logits.max(-1, keepdims=True)
        log_p -= np.log(np.exp(log_p).sum(-1, keepdims=True))  # log-softmax at T = 1
        for j, s in enumerate(settings):
            rows = slice(starts[j], starts[j + 1])
            x = logits[rows]
            if s.get("repetition_penalty") is not None:
                seen = np.concatenate([np.tile(prompt_ids, (sizes[j], 1)), out_ids[rows, :t]], axis=1)
                x = apply_repetition_penalty(x, seen, s["repetition_penalty"])
            out_ids[rows, t] = sample(x, s["temperature"], s.get("top_k"), s.get("top_p"), s.get("min_p"), rngs[j])
        out_lp[:, t] = log_p[np.arange(n), out_ids[:, t]]
        new = torch.from_numpy(out_ids[:, t : t + 1].copy())
    results = []
    for j, s in enumerate(settings):
        rows = np.arange(starts[j], starts[j + 1]).repeat(num_samples // sizes[j])  # greedy: its row, repeated
        texts = [tokenizer.decode([int(i) for i in r]) for r in out_ids[rows]]
        results.append(Generation(prompt, dict(s), out_ids[rows], out_lp[rows], texts))
    return results


def generate(
    model: Any,
    tokenizer: Any,
    prompt: str,
    max_new_tokens: int,
    *,
    num_samples: int = 1,
    seed: int = 0,
    **strategy: Any,
) -> Generation:
    """Continue ``prompt`` with ``max_new_tokens`` tokens chosen by :func:`sample` (``strategy``: its arguments).

    >>> g = generate(model, tokenizer, "Once upon a time", 20, temperature=0.7, top_p=0.9)  # doctest: +SKIP
    >>> g.texts[0]                                                                          # doctest: +SKIP
    """
    return generate_many(model, tokenizer, prompt, [strategy], max_new_tokens, num_samples, seed)[0]


# ---------------------------------------------------------- quality and diversity
def _ngrams(seq: Sequence[Any], n: int) -> list[tuple[Any, ...]]:
    return [tuple(seq[i : i + n]) for i in range(len(seq) - n + 1)]


def distinct_n(sequences: Iterable[Sequence[Any]], n: int) -> float:
    """Distinct-n (Li et al., 2016): distinct n-grams / all n-grams, pooled over ``sequences``.

    1 means no n-gram ever repeats across the samples (diverse), near 0 means the
    samples keep saying the same thing. Sequences shorter than ``n`` contribute nothing.
    """
    n = check_int("n", n, minimum=1)
    seqs = check_nonempty("sequences", sequences)
    grams = [g for s in seqs for g in _ngrams(list(s), n)]
    if not grams:
        raise ValueError(f"sequences contain no {n}-gram (every sequence is shorter than n={n})")
    return len(set(grams)) / len(grams)


def repetition_rate(sequences: Iterable[Sequence[Any]], n: int = 4) -> float:
    """Fraction of n-grams that repeat an earlier n-gram *of the same sequence*, averaged over sequences.

    Welleck et al.'s (2019) seq-rep-n: ``1 - |distinct n-grams| / |n-grams|`` per
    sequence. A greedy loop ("the cat the cat the cat ...") scores near 1.
    """
    n = check_int("n", n, minimum=1)
    seqs = check_nonempty("sequences", sequences)
    rates = []
    for s in seqs:
        grams = _ngrams(list(s), n)
        if grams:
            rates.append(1.0 - len(set(grams)) / len(grams))
    if not rates:
        raise ValueError(f"sequences contain no {n}-gram (every sequence is shorter than n={n})")
    return float(np.mean(rates))
