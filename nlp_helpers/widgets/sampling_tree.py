"""``SamplingTree``: draw a token, append it, repeat, on a real model's precomputed next-token distributions.

Python runs the model once per level of a tree: from the prompt, the ``k`` most likely next tokens, from
each of them the ``k`` most likely next tokens, and so on for ``depth`` levels (one batched forward pass
per level, ``(k**depth - 1) / (k - 1)`` distributions in all). ``sampling_tree.js`` samples on the page
with no kernel: top-``k`` sampling at the reader's temperature, by inverse-CDF on a seeded uniform
``u``, the drawn token appended to the text, and the next distribution shown.

The nodes are stored in breadth-first order of a complete ``k``-ary tree: node 0 is the prompt and the
children of node ``n`` are ``n * k + 1 ... n * k + k``, so no parent pointers are needed. ``tokens[n]`` is
the text of node ``n``'s token, ``logits[n]`` the logits of its ``k`` children and ``top_mass[n]`` the
probability (at temperature 1, over the whole vocabulary) that those ``k`` tokens cover.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import anywidget
import numpy as np
import traitlets

from nlp_helpers._checks import check_array, check_float, check_int, check_text
from nlp_helpers.widgets.assets import load_css, load_esm

__all__ = ["SamplingTree", "next_token_tree"]

MAX_NODES = 1_500  # internal nodes: one model call's worth of logits each


def next_token_tree(
    next_logits: Callable[[np.ndarray], np.ndarray], prompt_ids: Sequence[int], depth: int, k: int
) -> dict[str, Any]:
    """The top-``k`` tree of next tokens below ``prompt_ids``, ``depth`` levels deep.

    ``next_logits(ids)`` takes an int array (batch, length) of token ids and returns the logits of the next
    token after each row, shape (batch, vocabulary). Returns ``{"ids", "logits", "top_mass"}``: the token id
    of every non-root node in breadth-first order (``ids[n - 1]`` for node ``n``), and for every internal
    node the ``k`` children's logits (descending) and their total probability at temperature 1.
    """
    if not callable(next_logits):
        raise TypeError("next_logits must be a callable (batch of token ids) -> (batch, vocabulary) logits")
    prompt = check_array("prompt_ids", prompt_ids, ndim=1, dtype=np.int64)
    if prompt.size == 0:
        raise ValueError("prompt_ids must hold at least one token id")
    depth = check_int("depth", depth, minimum=1, maximum=8)
    k = check_int("k", k, minimum=2, maximum=10)
    if (k**depth - 1) // (k - 1) > MAX_NODES:
        raise ValueError(f"depth {depth} with k = {k} needs more than {MAX_NODES} model calls; lower one of them")
    return _tree(next_logits, prompt, depth, k)


def _tree(next_logits, prompt: np.ndarray, depth: int, k: int) -> dict[str, Any]:
    rows = prompt[None, :]
    ids, logits, mass = [], [], []
    for _ in range(depth):
        full = np.asarray(next_logits(rows), dtype=np.float64)
        if full.shape[0] != rows.shape[0] or full.ndim != 2 or full.shape[1] < k:
            raise ValueError(f"next_logits returned shape {full.shape} for a batch of {rows.shape[0]} rows")
        top = np.argsort(-full, axis=1, kind="stable")[:, :k]
        top_logits = np.take_along_axis(full, top, axis=1)
        shifted = np.exp(full - full.max(axis=1, keepdims=True))
        mass += (np.take_along_axis(shifted, top, axis=1).sum(1) / shifted.sum(1)).tolist()
        logits += top_logits.tolist()
        ids += top.reshape(-1).tolist()
        rows = np.concatenate([np.repeat(rows, k, axis=0), top.reshape(-1, 1)], axis=1)
    return {"ids": ids, "logits": logits, "top_mass": mass}


class SamplingTree(anywidget.AnyWidget):
    """Sample a continuation token by token from precomputed top-``k`` distributions.

    Parameters
    ----------
    prompt:
        The prompt text shown before the sampled tokens.
    tokens:
        The text of every non-root node's token, breadth-first (``k + k**2 + ... + k**depth`` strings).
    logits:
        For every internal node, its ``k`` children's logits, shape ``((k**depth - 1) / (k - 1), k)``.
    top_mass:
        For every internal node, the probability at temperature 1 the ``k`` tokens cover (0 to 1).
    temperature:
        Initial temperature (0 means greedy), 0 to 2.
    seed:
        Initial seed of the page's uniform random numbers.
    """

    _esm = load_esm("sampling_tree.js")
    _css = load_css()

    prompt = traitlets.Unicode().tag(sync=True)
    k = traitlets.Int().tag(sync=True)
    depth = traitlets.Int().tag(sync=True)
    tokens = traitlets.List(traitlets.Unicode()).tag(sync=True)
    logits = traitlets.List().tag(sync=True)
    top_mass = traitlets.List().tag(sync=True)
    temperature = traitlets.Float(1.0).tag(sync=True)
    seed = traitlets.Int(0).tag(sync=True)

    def __init__(
        self, prompt: str, tokens: Sequence[str], logits, top_mass, *, temperature: float = 1.0, seed: int = 0
    ):
        prompt = check_text("prompt", prompt)
        table = check_array("logits", logits, ndim=2)
        n_internal, k = table.shape
        depth = _depth(n_internal, k)
        tokens = [check_text(f"tokens[{i}]", t) for i, t in enumerate(tokens)]
        if len(tokens) != n_internal * k:
            raise ValueError(f"tokens must hold {n_internal * k} strings (one per non-root node), got {len(tokens)}")
        mass = check_array("top_mass", top_mass, shape=(n_internal,))
        if ((mass < 0) | (mass > 1 + 1e-9)).any():
            raise ValueError("top_mass must hold probabilities between 0 and 1")
        super().__init__(
            prompt=prompt,
            k=k,
            depth=depth,
            tokens=tokens,
            logits=np.round(table, 3).tolist(),
            top_mass=np.round(mass, 3).tolist(),
            temperature=check_float("temperature", temperature, minimum=0.0, maximum=2.0),
            seed=check_int("seed", seed, minimum=0, maximum=2**31 - 1),
        )

    @classmethod
    def from_model(
        cls, model: Any, tokenizer: Any, prompt: str, *, depth: int = 4, k: int = 4, **kwargs
    ) -> SamplingTree:
        """Build the tree with a Hugging Face causal LM.

        The prompt runs once; each level then runs only its new tokens, on the key/value cache of the
        level above repeated ``k`` times (the same numbers as :func:`next_token_tree` on whole rows).
        """
        prompt = check_text("prompt", prompt, allow_empty=False)
        depth = check_int("depth", depth, minimum=1, maximum=8)
        k = check_int("k", k, minimum=2, maximum=10)
        if (k**depth - 1) // (k - 1) > MAX_NODES:
            raise ValueError(f"depth {depth} with k = {k} needs more than {MAX_NODES} model calls; lower one of them")
        tree = _cached_tree(model, tokenizer(prompt)["input_ids"], depth, k)
        tokens = [tokenizer.decode([i]) for i in tree["ids"]]
        return cls(prompt, tokens, tree["logits"], tree["top_mass"], **kwargs)


def _cached_tree(model: Any, prompt_ids: Sequence[int], depth: int, k: int) -> dict[str, Any]:
    import torch

    from nlp_helpers.sampling.llm import forward_with_cache

    ids, logits, mass = [], [], []
    with torch.no_grad():
        out, cache = forward_with_cache(model, torch.tensor([list(prompt_ids)]))
        for level in range(depth):
            full = out.logits[:, -1].double()
            top = torch.topk(full, k, dim=1, sorted=True).indices
            logits += torch.gather(full, 1, top).tolist()
            mass += torch.gather(torch.softmax(full, dim=1), 1, top).sum(1).tolist()
            ids += top.reshape(-1).tolist()
            if level + 1 < depth:
                cache.batch_repeat_interleave(k)
                out, cache = forward_with_cache(model, top.reshape(-1, 1), cache)
    return {"ids": ids, "logits": logits, "top_mass": mass}


def _depth(n_internal: int, k: int) -> int:
    if k < 2:
        raise ValueError(f"logits must have at least 2 columns (k >= 2 children per node), got {k}")
    total, level, depth = 0, 1, 0
    while total < n_internal:
        total, level, depth = total + level, level * k, depth + 1
    if total != n_internal:
        raise ValueError(
            f"logits must have (k**depth - 1) / (k - 1) rows for a complete tree with k = {k}, got {n_internal}"
        )
    return depth
