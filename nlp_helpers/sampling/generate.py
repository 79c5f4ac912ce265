"""Generating text with a language model and measuring it: the autoregressive loop, distinct-n, repetition.

* :func:`generate` / :func:`generate_many` run the loop "predict the next-token
  distribution, pick a token with :func:`nlp_helpers.sampling.distributions.sample`, append it,
  repeat" on a Hugging Face causal LM (reusing its key/value cache, so each new
  token costs one forward pass of one position) or on any model whose call returns
  logits ``(B, T, V)`` (the book's :class:`nlp_helpers.llm.gpt.TinyGPT`, which is
  re-run on its last ``block_size`` tokens). :func:`generate_many` batches several
  decoding settings and samples through the model together, :func:`generate_batch` several
  prompts too (padded on the left, with an attention mask).
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

__all__ = ["Generation", "generate", "generate_batch", "generate_many", "distinct_n", "repetition_rate"]


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
    """Runs a model one token at a time and returns the next-token logits ``(n, V)`` as float64 numpy.

    ``prompts`` holds the token ids of ``P`` prompts and ``owner`` the prompt of each of the ``n``
    rows. The first call runs every prompt once (batch ``P``, shorter prompts padded on the left
    and masked out) and copies its keys and values (or, for a model without a cache, its logits)
    to the rows it owns. Positions count real tokens only, so a padded prompt sees the same
    positions as it would alone. Padding needs the attention mask of a transformers model: a model
    without one gets a single prompt (see :func:`generate_batch`).
    """

    def __init__(self, model: Any, prompts: list[list[int]], owner: np.ndarray) -> None:
        import torch

        self.torch = torch
        self.model = model
        self.hf = hasattr(model, "get_output_embeddings")  # a transformers model: use its KV cache
        self.block = getattr(model, "block_size", None)
        self.owner = torch.as_tensor(owner, dtype=torch.long)
        width = max(len(p) for p in prompts)
        self.padded = any(len(p) < width for p in prompts)
        self.ids = torch.tensor([[0] * (width - len(p)) + list(p) for p in prompts])  # (P, W), then (n, W + t)
        self.mask = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in prompts])
        self.pos = self.mask.cumsum(-1) - 1  # position of each token among its prompt's real tokens
        self.past = None

    def logits(self, new: Any = None) -> np.ndarray:
        torch = self.torch
        with torch.no_grad():
            if new is None:  # the prompts: one row each, then copied to the rows they own
                last = self._forward(self.ids, self.ids, self.pos.clamp(min=0))[self.owner]
                if self.past is not None:
                    self.past.reorder_cache(self.owner)
                self.ids, self.mask = self.ids[self.owner], self.mask[self.owner]
                self.pos = self.pos[self.owner, -1:]  # (n, 1): the last position so far
                return last.double().numpy()
            self.ids = torch.cat([self.ids, new], dim=1)
            self.mask = torch.cat([self.mask, torch.ones_like(new)], dim=1)
            self.pos = self.pos + 1
            return self._forward(new, self.ids, self.pos).double().numpy()

    def _forward(self, new: Any, ids: Any, pos: Any) -> Any:
        if self.hf:
            extra = {"attention_mask": self.mask, "position_ids": pos} if self.padded else {}
            out, self.past = forward_with_cache(self.model, new, self.past, **extra)
            return out.logits[:, -1]
        ctx = ids if self.block is None else ids[:, -self.block :]  # recompute on the context window
        return self.model(ctx)[:, -1]


def generate_batch(
    model: Any,
    tokenizer: Any,
    prompts: Sequence[str],
    settings: Sequence[Mapping[str, Any]],
    max_new_tokens: int,
    num_samples: int = 1,
    seed: int = 0,
    progress: bool = False,
) -> list[list[Generation]]:
    """:func:`generate_many` for several prompts at once: ``result[i][j]`` is prompt ``i``, setting ``j``.

    On a transformers model every row of every prompt runs through the model together, the
    prompts padded on the left to a common length with an attention mask (and positions that
    skip the padding), so each new token costs one forward pass for all of them. Each prompt
    draws from the same random streams as in its own :func:`generate_many` call, so the texts
    are those of separate runs (up to float rounding in the batched matrix products). Any other
    model runs the prompts one after the other.
    """
    prompts = check_nonempty("prompts", prompts)
    for i, prompt in enumerate(prompts):
        check_text(f"prompts[{i}]", prompt, allow_empty=False)
    settings = [_check_setting(s) for s in check_nonempty("settings", settings)]
    max_new_tokens = check_int("max_new_tokens", max_new_tokens, minimum=1)
    num_samples = check_int("num_samples", num_samples, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    ids = [_encode(tokenizer, p) for p in prompts]
    if not all(ids):
        raise ValueError(f"prompts[{[len(i) for i in ids].index(0)}] encodes to zero tokens")
    if hasattr(model, "get_output_embeddings"):
        return _generate(model, tokenizer, list(prompts), ids, settings, max_new_tokens, num_samples, seed, progress)
    return [  # no attention mask to hide padding: one prompt at a time
        _generate(model, tokenizer, [p], [i], settings, max_new_tokens, num_samples, seed, progress)[0]
        for p, i in zip(prompts, ids)
    ]


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
    Several prompts in one batch: :func:`generate_batch`.
    """
    check_text("prompt", prompt, allow_empty=False)
    return generate_batch(model, tokenizer, [prompt], settings, max_new_tokens, num_samples, seed, progress)[0]


def _generate(
    model: Any,
    tokenizer: Any,
    prompts: list[str],
    prompt_ids: list[list[int]],
    settings: list[dict[str, Any]],
    max_new_tokens: int,
    num_samples: int,
    seed: int,
    progress: bool,
) -> list[list[Generation]]:
    import torch

    # A greedy setting (temperature 0) gives the same text every time: it runs as one row.
    sizes = [1 if s["temperature"] == 0 else num_samples for s in settings]
    per_prompt = int(sum(sizes))
    starts = np.concatenate([[0], np.cumsum(sizes)])  # rows of each setting within one prompt's block
    n = per_prompt * len(prompts)
    # Every prompt uses the same streams, one per setting, as its own generate_many call would.
    streams = np.random.SeedSequence(offset_seed(seed)).spawn(len(settings))
    rngs = [[np.random.default_rng(s) for s in streams] for _ in prompts]
    stepper = _Stepper(model, prompt_ids, np.arange(n) // per_prompt)
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
        for i, ids in enumerate(prompt_ids):
            for j, s in enumerate(settings):
                rows = slice(i * per_prompt + starts[j], i * per_prompt + starts[j + 1])
                x = logits[rows]
                if s.get("repetition_penalty") is not None:
                    seen = np.concatenate([np.tile(ids, (sizes[j], 1)), out_ids[rows, :t]], axis=1)
                    x = apply_repetition_penalty(x, seen, s["repetition_penalty"])
                out_ids[rows, t] = sample(
                    x, s["temperature"], s.get("top_k"), s.get("top_p"), s.get("min_p"), rngs[i][j]
                )
        out_lp[:, t] = log_p[np.arange(n), out_ids[:, t]]
        new = torch.from_numpy(out_ids[:, t : t + 1].copy())
    results = []
    for i, prompt in enumerate(prompts):
        gens = []
        for j, s in enumerate(settings):
            first = i * per_prompt + starts[j]
            rows = np.arange(first, first + sizes[j]).repeat(num_samples // sizes[j])  # greedy: its row, repeated
            texts = [tokenizer.decode([int(k) for k in r]) for r in out_ids[rows]]
            gens.append(Generation(prompt, dict(s), out_ids[rows], out_lp[rows], texts))
        results.append(gens)
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
