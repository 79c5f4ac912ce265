"""Speculative decoding: a cheap draft model proposes tokens, the target model checks them in one pass.

Follows Leviathan et al. (2023) and Chen et al. (2023):

* :func:`speculative_greedy` is the greedy version: the draft proposes ``num_draft``
  tokens greedily, one target pass scores them all, the longest prefix on which
  the target's own argmax agrees is kept, plus the target's token at the first
  disagreement (or one bonus token if all agree). The output is token for token
  the target's greedy decoding; only the number of target passes changes.
* :func:`accept_or_resample` is the sampling version's rule for one drafted token
  ``x ~ q``: keep it with probability ``min(1, p(x)/q(x))``, otherwise draw from the
  residual ``max(0, p - q)`` renormalised. :func:`speculative_output_distribution`
  gives the exact distribution of the result, which equals ``p``.
* :func:`early_exit_draft` builds a draft from a Hugging Face Llama-style model by
  keeping its first layers (then its final norm and LM head): the self-speculative
  draft of LayerSkip (Elhoushi et al., 2024), with no second model to store.

* :func:`expected_tokens_per_pass` and :func:`speculative_speedup` are the expected-cost
  analysis of Leviathan et al. (2023, section 3): with each drafted token accepted with
  probability ``alpha`` (independently), ``gamma`` drafted tokens per round and a draft
  pass costing ``c`` target passes.

Models are callables ``ids (T,) -> logits (T, V)`` (every position), recomputed
from scratch on each call: no KV cache, to keep the loop readable. Left out:
speculative sampling over several drafted tokens in a loop, tree drafts (Medusa, EAGLE).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from nlp_helpers._checks import check_array, check_int
from nlp_helpers.sampling.llm import forward_with_cache
from nlp_helpers.seeds import rng as seeded_rng

__all__ = [
    "SpeculativeResult",
    "accept_or_resample",
    "early_exit_draft",
    "expected_tokens_per_pass",
    "greedy_decode",
    "model_logits_fn",
    "speculative_greedy",
    "speculative_output_distribution",
    "speculative_speedup",
]

LogitsFn = Callable[[Sequence[int]], Any]  # ids (T,) -> logits (T, V)


@dataclass
class SpeculativeResult:
    """Output of :func:`speculative_greedy`: the token ids (prompt included) and the bookkeeping."""

    ids: list[int]
    target_calls: int
    draft_calls: int
    proposed: int
    accepted: int

    @property
    def acceptance_rate(self) -> float:
        """Fraction of drafted tokens the target accepted."""
        return self.accepted / self.proposed if self.proposed else float("nan")


def _check_ids(name: str, ids: Any) -> list[int]:
    arr = np.asarray(ids)
    if arr.ndim != 1 or arr.size == 0 or arr.dtype.kind not in "iu" or (arr < 0).any():
        raise ValueError(f"{name} must be a non-empty 1-D sequence of non-negative integer token ids, got {ids!r:.60}")
    return [int(i) for i in arr]


def _last_argmax(fn: LogitsFn, ids: list[int]) -> np.ndarray:
    """Argmax of every position's logits, as integers (T,)."""
    logits = np.asarray(_to_numpy(fn(ids)))
    return logits.argmax(axis=-1)


def _to_numpy(x: Any) -> Any:
    return x.detach().cpu().numpy() if hasattr(x, "detach") else x


def greedy_decode(model: LogitsFn, input_ids: Sequence[int], max_new_tokens: int, eos_token_id: int | None = None):
    """Plain greedy decoding with ``model`` (one call per new token); returns ``(ids, calls)``."""
    ids = _check_ids("input_ids", input_ids)
    n = check_int("max_new_tokens", max_new_tokens, minimum=0)
    calls = 0
    for _ in range(n):
        nxt = int(_last_argmax(model, ids)[-1])
        calls += 1
        ids.append(nxt)
        if nxt == eos_token_id:
            break
    return ids, calls


def speculative_greedy(
    target: LogitsFn,
    draft: LogitsFn,
    input_ids: Sequence[int],
    num_draft: int,
    max_new_tokens: int,
    eos_token_id: int | None = None,
) -> SpeculativeResult:
    """Greedy speculative decoding: the same tokens as greedy decoding with ``target``, in fewer target calls.

    ``target``/``draft``: callables ``ids (T,) -> logits (T, V)``. ``num_draft`` (>= 1)
    tokens are drafted per round; ``max_new_tokens`` bounds the output length.
    """
    if not callable(target):
        raise TypeError(f"target must be a callable ids -> logits, got {type(target).__name__}")
    if not callable(draft):
        raise TypeError(f"draft must be a callable ids -> logits, got {type(draft).__name__}")
    ids = _check_ids("input_ids", input_ids)
    k = check_int("num_draft", num_draft, minimum=1)
    n = check_int("max_new_tokens", max_new_tokens, minimum=0)
    return _speculative_greedy(target, draft, ids, k, n, eos_token_id)


def _speculative_greedy(target, draft, ids: list[int], k: int, n: int, eos) -> SpeculativeResult:
    res = SpeculativeResult(ids=list(ids), target_calls=0, draft_calls=0, proposed=0, accepted=0)
    goal = len(ids) + n
    while len(res.ids) < goal:
        start = len(res.ids)
        guess = list(res.ids)
        for _ in range(min(k, goal - start)):  # 1. draft greedily
            guess.append(int(_last_argmax(draft, guess)[-1]))
            res.draft_calls += 1
            if guess[-1] == eos:
                break
        best = _last_argmax(target, guess)  # 2. one target pass scores every drafted position
        res.target_calls += 1
        drafted = guess[start:]
        res.proposed += len(drafted)
        keep = 0
        while keep < len(drafted) and drafted[keep] == best[start - 1 + keep]:
            keep += 1
        res.accepted += keep
        # 3. keep the agreed prefix, then the target's own token (a correction, or a bonus if all agreed)
        new = drafted[:keep] + [int(best[start - 1 + keep])]
        for tok in new[: goal - start]:
            res.ids.append(tok)
            if tok == eos:
                return res
    return res


def _check_dist(name: str, p: Any) -> np.ndarray:
    arr = check_array(name, p, ndim=1)
    if arr.size == 0 or (arr < 0).any() or not np.isclose(arr.sum(), 1.0, rtol=0, atol=1e-9):
        raise ValueError(f"{name} must be a probability vector (non-negative, summing to 1), got {arr!r:.60}")
    return arr


def speculative_output_distribution(p: Any, q: Any) -> np.ndarray:
    """Exact distribution of the token :func:`accept_or_resample` returns when the draft token is ``x ~ q``.

    ``P(y) = q(y) min(1, p(y)/q(y)) + (1 - sum_x q(x) min(1, p(x)/q(x))) * residual(y)``
    with ``residual = max(0, p - q) / sum(max(0, p - q))``. Algebraically this is ``p``.
    """
    p, q = _check_dist("p", p), _check_dist("q", q)
    if p.shape != q.shape:
        raise ValueError(f"p and q must have the same shape, got {p.shape} and {q.shape}")
    accept = np.minimum(q, p)  # q(y) * min(1, p(y)/q(y)), also where q(y) = 0
    rest = np.maximum(p - q, 0.0)
    reject = 1.0 - accept.sum()
    return accept + (reject * rest / rest.sum() if rest.sum() > 0 else 0.0)


def accept_or_resample(p: Any, q: Any, x: int, generator: np.random.Generator | int | None = None) -> int:
    """One step of speculative sampling: keep the draft token ``x ~ q`` with probability min(1, p(x)/q(x)), else resample.

    On rejection the token is drawn from ``max(0, p - q)`` renormalised. ``generator``:
    a numpy Generator or an int seed (through :mod:`nlp_helpers.seeds`).
    """
    p, q = _check_dist("p", p), _check_dist("q", q)
    if p.shape != q.shape:
        raise ValueError(f"p and q must have the same shape, got {p.shape} and {q.shape}")
    x = check_int("x", x, minimum=0, maximum=p.size - 1)
    if q[x] == 0:
        raise ValueError(f"x = {x} has probability 0 under q, so it cannot be a draft token")
    g = generator if isinstance(generator, np.random.Generator) else seeded_rng(generator or 0)
    if g.random() < min(1.0, p[x] / q[x]):
        return x
    rest = np.maximum(p - q, 0.0)
    return int(g.choice(p.size, p=rest / rest.sum()))


def early_exit_draft(model: Any, num_layers: int) -> Any:
    """A draft model sharing ``model``'s weights: its first ``num_layers`` decoder layers, final norm and LM head.

    ``model``: a Hugging Face ``LlamaForCausalLM`` (e.g. SmolLM2). Returns a model of
    the same class whose forward runs only those layers (no copy of any weight).
    """
    layers = getattr(getattr(model, "model", None), "layers", None)
    if layers is None:
        raise TypeError(f"model must be a Llama-style causal LM with model.model.layers, got {type(model).__name__}")
    n = check_int("num_layers", num_layers, minimum=1, maximum=len(layers))
    import copy

    # Shallow copies share every parameter; fresh module dicts keep the original model untouched.
    inner = copy.copy(model.model)
    inner._modules = dict(model.model._modules)
    inner._modules["layers"] = type(layers)(list(layers)[:n])
    draft = copy.copy(model)
    draft._modules = dict(model._modules)
    draft._modules["model"] = inner
    config = copy.copy(model.config)
    config.num_hidden_layers = n
    draft.config = inner.config = config
    return draft


def model_logits_fn(model: Any, cache: bool = True) -> LogitsFn:
    """Wrap a Hugging Face causal LM as a callable ``ids (T,) -> logits (T, V)`` (float32 numpy).

    With ``cache`` the callable keeps the keys and values (and logits) of the last
    sequence it saw: a call whose ids extend (or share a prefix with) the previous ones
    only runs the new positions, after cropping the cache to the common prefix, and a
    call whose ids are a prefix of the last sequence (or equal to it) runs nothing: a
    causal model's logits at a position depend only on the ids up to it. The logits
    equal a fresh forward pass up to float32 rounding.
    """
    import torch

    if not callable(model):
        raise TypeError(f"model must be a callable Hugging Face model, got {type(model).__name__}")
    state: dict[str, Any] = {"ids": [], "past": None, "rows": None}

    def fresh(ids: Sequence[int]) -> np.ndarray:
        with torch.no_grad():
            return model(torch.tensor([list(ids)]), use_cache=False).logits[0].numpy()

    def cached(ids: Sequence[int]) -> np.ndarray:
        ids = [int(i) for i in ids]
        old = state["ids"]
        if 0 < len(ids) <= len(old) and old[: len(ids)] == ids:
            return state["rows"][: len(ids)]  # seen already: no forward pass
        common = 0
        while common < min(len(old), len(ids) - 1) and old[common] == ids[common]:
            common += 1
        if common == 0:
            state["past"], state["rows"] = None, np.zeros((0, 0), dtype=np.float32)
        elif common < len(old):
            state["past"].crop(common - len(old))  # a negative value removes that many positions
        with torch.no_grad():
            out, past = forward_with_cache(model, torch.tensor([ids[common:]]), state["past"])
        new = out.logits[0].numpy()
        rows = state["rows"][:common] if common else np.zeros((0, new.shape[1]), dtype=new.dtype)
        state.update(ids=ids, past=past, rows=np.concatenate([rows, new]))
        return state["rows"]

    return cached if cache else fresh


def _check_speedup_args(alpha: float, gamma: int) -> tuple[float, int]:
    a = float(alpha)
    if not 0.0 <= a <= 1.0:
        raise ValueError(f"alpha must be an acceptance rate in [0, 1], got {alpha!r}")
    return a, check_int("gamma", gamma, minimum=0)


def expected_tokens_per_pass(alpha: float, gamma: int) -> float:
    """Expected number of tokens one round (one target pass) produces: ``(1 - alpha**(gamma+1)) / (1 - alpha)``.

    ``alpha``: the probability that a drafted token is accepted, in [0, 1] (at 1 the
    value is the limit ``gamma + 1``); ``gamma``: drafted tokens per round, >= 0.
    """
    a, g = _check_speedup_args(alpha, gamma)
    return float(g + 1) if a == 1.0 else (1.0 - a ** (g + 1)) / (1.0 - a)


def speculative_speedup(alpha: float, gamma: int, c: float) -> float:
    """Expected wall-time speed-up over plain decoding: ``expected_tokens_per_pass / (gamma * c + 1)``.

    ``c``: the cost of one draft pass in target passes (>= 0). A round costs ``gamma``
    draft passes and one target pass, and yields :func:`expected_tokens_per_pass` tokens.
    """
    a, g = _check_speedup_args(alpha, gamma)
    cost = float(c)
    if not np.isfinite(cost) or cost < 0:
        raise ValueError(f"c must be a finite cost ratio >= 0, got {c!r}")
    return expected_tokens_per_pass(a, g) / (g * cost + 1.0)
