"""Sampling widgets: explore temperature, top-k and top-p on a real model's next-token distribution.

* :class:`NextTokenExplorer` - for a few prompts, the model's top next-token
  logits (precomputed in Python, e.g. by :meth:`NextTokenExplorer.from_model`)
  drawn as bars, and the rest of the vocabulary as one "other tokens" bar; sliders
  for temperature, top-k and top-p, a prompt menu, the entropy and the number of
  tokens that survive the filters, and a text table. Everything is computed over the
  **full vocabulary**: each prompt also ships the logits of the tokens it does not
  draw as a histogram on a 0.01 grid (:func:`tail_histogram`, about 2,000 bins for
  SmolLM2's 49,152 tokens), which is enough for temperature, top-k, top-p and the
  entropy to come out as on the full distribution (:func:`compact_filter`).
* :class:`SoftmaxTemperature` - a compact softmax-with-temperature view of any
  logits (attention scores, class scores), for reuse by other chapters.

All recomputation happens in ``sampling.js`` (same rules as
:func:`nlp_helpers.sampling.distributions.filtered_probs`), so both work on the static page.
:func:`compact_filter` is its Python twin: :meth:`NextTokenExplorer.probabilities`
and :meth:`NextTokenExplorer.summary` compute in Python what the view shows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import anywidget
import numpy as np
import traitlets

from nlp_helpers._checks import check_array, check_float, check_int, check_nonempty, check_text
from nlp_helpers.widgets.assets import load_css, load_esm

__all__ = ["NextTokenExplorer", "SoftmaxTemperature", "compact_filter", "explorer_prompt", "tail_histogram"]

MAX_TOKENS = 200
TEMPERATURE_STEP = 0.05  # the sliders' grid: values set from Python are rounded to it
TOP_P_STEP = 0.05
TAIL_GRID = 0.01  # logits of the tokens not drawn are shipped rounded to this grid
# Shipped logits keep 6 decimals. A logit error d changes a probability by at most p (1 - p) 2d / T
# <= d / (2 T): with d = 5e-7 and the slider's smallest non-zero T = 0.05, at most 5e-6, a twentieth
# of the last digit the table shows (4 decimals). Without rounding, json writes 17-digit float64
# reprs of float32 logits (and 13.120000000000001 for grid points).
LOGIT_DECIMALS = 6


def _page_logit(value: float) -> float:
    """A logit as the page gets it: rounded to ``LOGIT_DECIMALS`` decimals."""
    return round(float(value), LOGIT_DECIMALS)


def _page_grid(value: float) -> float:
    """A grid value without float noise (``13.120000000000001`` -> ``13.12``), for short JSON."""
    return round(float(value), 10)


def _on_grid(name: str, value: float, step: float, lo: float, hi: float) -> float:
    value = check_float(name, value, minimum=lo, maximum=hi)
    return round(round(value / step) * step, 10)


def tail_histogram(logits: Any, ceiling: float | None = None, grid: float = TAIL_GRID) -> dict[str, list]:
    """The logits of many tokens ``(n,)`` as a histogram: ``{"logits": [...], "counts": [...]}``, largest first.

    Each logit is rounded to the nearest multiple of ``grid`` (and capped at ``ceiling``,
    the smallest logit drawn individually, so the order of the shipped tokens stays
    right); ``counts[j]`` tokens share ``logits[j]``.
    """
    x = check_array("logits", logits, ndim=1)
    grid = check_float("grid", grid, minimum=0.0, min_inclusive=False)
    q = np.round(x / grid) * grid
    if ceiling is not None:
        q = np.minimum(q, check_float("ceiling", ceiling))
    values, counts = np.unique(q, return_counts=True)
    return {"logits": [float(v) for v in values[::-1]], "counts": [int(c) for c in counts[::-1]]}


def explorer_prompt(
    prompt: str,
    tokens: Sequence[str],
    logits: Sequence[float],
    tail: Mapping[str, Sequence[float]] | None = None,
) -> dict[str, Any]:
    """One validated prompt record for :class:`NextTokenExplorer`, sorted by logit (largest first).

    ``tokens``/``logits``: the candidate next tokens drawn as bars (as text) and their
    logits; ``tail``: the rest of the vocabulary as ``{"logits": [...], "counts": [...]}``
    (see :func:`tail_histogram`; ``None`` if the tokens are the whole vocabulary).
    """
    check_text("prompt", prompt)
    tokens = check_nonempty("tokens", tokens)
    if any(not isinstance(t, str) for t in tokens):
        raise TypeError("tokens must be strings (the text of each candidate token)")
    x = check_array("logits", logits, ndim=1)
    if len(tokens) != len(x):
        raise ValueError(f"tokens has {len(tokens)} entries but logits has {len(x)}; they must match")
    if len(tokens) > MAX_TOKENS:
        raise ValueError(f"at most {MAX_TOKENS} tokens per prompt keep the page light, got {len(tokens)}")
    order = np.argsort(-x, kind="stable")
    shipped = [_page_logit(x[i]) for i in order]
    rec = {"prompt": prompt, "tokens": [tokens[i] for i in order], "logits": shipped}
    rec["tail"] = {"logits": [], "counts": []}
    if tail is not None:
        if not isinstance(tail, Mapping) or not {"logits", "counts"} <= set(tail):
            raise ValueError("tail must be a mapping with keys 'logits' and 'counts' (see tail_histogram)")
        tl = check_array("tail logits", tail["logits"], ndim=1) if len(tail["logits"]) else np.zeros(0)
        tc = np.asarray(tail["counts"])
        if tc.shape != tl.shape or (tc.size and (tc.dtype.kind not in "iu" or tc.min() < 1)):
            raise ValueError("tail counts must be positive integers, one per tail logit")
        if tl.size and (np.any(np.diff(tl) >= 0) or tl[0] > x.min()):
            raise ValueError("tail logits must be strictly decreasing and not above the smallest shipped logit")
        # rounded for the page; capped so no tail bin rises above the (rounded) smallest shipped logit
        rec["tail"] = {"logits": [min(_page_grid(v), shipped[-1]) for v in tl], "counts": [int(c) for c in tc]}
    return rec


def compact_filter(
    logits: Sequence[float],
    tail: Mapping[str, Sequence[float]] | None,
    temperature: float,
    top_k: int,
    top_p: float,
) -> dict[str, Any]:
    """Python twin of ``filterDistribution`` in ``sampling.js``: filters over shipped tokens + a tail histogram.

    ``top_k = 0`` means no top-k. Returns ``probs`` (per shipped token), ``other`` (the
    total probability of the tail tokens), ``nucleus`` (tokens that can be sampled,
    over the whole vocabulary) and ``entropy`` (nats). Tail tokens are treated as
    distinct tokens with equal logits: top-p keeps as many of a tail bin as it needs.
    """
    x0 = np.asarray(logits, dtype=np.float64)
    n = x0.size
    tl = np.asarray(tail["logits"] if tail else [], dtype=np.float64)
    tc = np.asarray(tail["counts"] if tail else [], dtype=np.int64)
    v = np.concatenate([x0, tl])
    c = np.concatenate([np.ones(n, dtype=np.int64), tc])
    order = np.lexsort((np.arange(v.size), -v))  # by logit, largest first; stable
    v, c, shipped = v[order], c[order], order < n
    keep = c.copy()
    x = v if temperature == 0 else v / temperature
    if temperature == 0:
        keep = np.where((x == x[0]) & shipped, 1, 0)
    mass = np.exp(x - x[0])
    if temperature != 0 and 0 < top_k < c.sum():
        before = np.cumsum(c) - c
        kth = x[np.argmax(before + c >= top_k)]
        seen = 0
        for r in range(v.size):
            keep[r] = c[r] if x[r] > kth else 0 if x[r] < kth else 1 if shipped[r] else max(0, min(c[r], top_k - seen))
            seen += keep[r]
    if temperature != 0 and top_p < 1:
        z = float((keep * mass).sum())
        above, last = 0.0, None
        for r in range(v.size):
            if keep[r] == 0:
                continue
            q = mass[r] / z
            take = 0
            if above < top_p:
                take = 1 if shipped[r] else min(int(keep[r]), math.ceil((top_p - above) / q))
            above += keep[r] * q
            keep[r] = take
            if take > 0:
                last = x[r]
        if last is None:
            keep[0], last = 1, x[0]
        keep[shipped & (x == last)] = 1
    z = float((keep * mass).sum())
    q = np.where(keep > 0, mass / z, 0.0)
    probs = np.zeros(n)
    probs[order[shipped]] = q[shipped]
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -float(np.where(q > 0, keep * q * np.log(q), 0.0).sum())
    return {
        "probs": probs,
        "other": float((keep * q)[~shipped].sum()),
        "nucleus": int(keep.sum()),
        "entropy": h,
    }


class NextTokenExplorer(anywidget.AnyWidget):
    """Next-token distributions of several prompts with temperature / top-k / top-p sliders.

    ``prompts``: records made by :func:`explorer_prompt` (or mappings with keys
    ``prompt``, ``tokens``, ``logits`` and optionally ``tail``). ``top_k=None`` (stored
    as 0) means no top-k filter; ``top_p=1`` keeps all.
    """

    _esm = load_esm("sampling.js")
    _css = load_css()
    _view = traitlets.Unicode("explorer").tag(sync=True)
    prompts = traitlets.List().tag(sync=True)
    prompt_index = traitlets.Int(0).tag(sync=True)
    temperature = traitlets.Float(1.0).tag(sync=True)
    top_k = traitlets.Int(0).tag(sync=True)
    top_p = traitlets.Float(1.0).tag(sync=True)

    def __init__(
        self,
        prompts: Sequence[Mapping[str, Any]],
        *,
        prompt_index: int = 0,
        temperature: float = 1.0,
        top_k: int | None = None,
        top_p: float = 1.0,
    ) -> None:
        records = []
        for i, p in enumerate(check_nonempty("prompts", prompts)):
            if not isinstance(p, Mapping) or not {"prompt", "tokens", "logits"} <= set(p):
                raise ValueError(f"prompts[{i}] must be a mapping with keys 'prompt', 'tokens', 'logits'")
            records.append(explorer_prompt(p["prompt"], p["tokens"], p["logits"], p.get("tail")))
        prompt_index = check_int("prompt_index", prompt_index, minimum=0, maximum=len(records) - 1)
        n = len(records[prompt_index]["tokens"])
        # With a tail, no top-k is 0 (the slider's last position); without one, k = n already keeps everything.
        has_tail = bool(records[prompt_index]["tail"]["counts"])
        top_k = (0 if has_tail else n) if top_k is None else check_int("top_k", top_k, minimum=1)
        super().__init__(
            prompts=records,
            prompt_index=prompt_index,
            temperature=_on_grid("temperature", temperature, TEMPERATURE_STEP, 0.0, 3.0),
            top_k=min(top_k, n),
            top_p=_on_grid("top_p", top_p, TOP_P_STEP, TOP_P_STEP, 1.0),
        )

    @classmethod
    def from_model(
        cls, model: Any, tokenizer: Any, prompts: Sequence[str], top: int = 50, **kwargs: Any
    ) -> NextTokenExplorer:
        """Draw the ``top`` next tokens of each prompt of a causal LM (e.g. SmolLM2); ship the rest as a histogram."""
        from nlp_helpers.sampling.llm import next_token_logits

        top = check_int("top", top, minimum=1, maximum=MAX_TOKENS)
        records = []
        for prompt in check_nonempty("prompts", prompts):
            logits = next_token_logits(model, tokenizer, prompt)
            order = np.argsort(-logits, kind="stable")
            head, rest = order[:top], order[top:]
            tail = tail_histogram(logits[rest], ceiling=float(logits[head[-1]])) if rest.size else None
            records.append(explorer_prompt(prompt, [tokenizer.decode([int(i)]) for i in head], logits[head], tail))
        return cls(records, **kwargs)

    def _settings(self, temperature, top_k, top_p, prompt_index) -> tuple[dict, float, int, float]:
        i = check_int(
            "prompt_index",
            self.prompt_index if prompt_index is None else prompt_index,
            minimum=0,
            maximum=len(self.prompts) - 1,
        )
        t = check_float("temperature", self.temperature if temperature is None else temperature, minimum=0.0)
        k = self.top_k if top_k is None else check_int("top_k", top_k, minimum=0)
        p = check_float("top_p", self.top_p if top_p is None else top_p, minimum=0.0, maximum=1.0, min_inclusive=False)
        return self.prompts[i], t, k, p

    def probabilities(
        self,
        temperature: float | None = None,
        top_k: int | None = None,
        top_p: float | None = None,
        prompt_index: int | None = None,
    ) -> np.ndarray:
        """Probabilities of the drawn tokens, in order, at the current settings (unless given); ``top_k=0``: no top-k.

        Over the whole vocabulary: the rest of the probability, ``summary()["other"]``, is on the other tokens.
        """
        rec, t, k, p = self._settings(temperature, top_k, top_p, prompt_index)
        return compact_filter(rec["logits"], rec["tail"], t, k, p)["probs"]

    def summary(self, **settings: Any) -> dict[str, Any]:
        """Entropy (nats), number of tokens that can be sampled and the probability of all other tokens (whole vocabulary)."""
        rec, t, k, p = self._settings(
            settings.get("temperature"), settings.get("top_k"), settings.get("top_p"), settings.get("prompt_index")
        )
        res = compact_filter(rec["logits"], rec["tail"], t, k, p)
        return {"entropy": res["entropy"], "nucleus": res["nucleus"], "other": res["other"]}


class SoftmaxTemperature(anywidget.AnyWidget):
    """Bars of ``softmax(logits / T)`` with a temperature slider; works for any small set of labelled scores."""

    _esm = load_esm("sampling.js")
    _css = load_css()
    _view = traitlets.Unicode("softmax").tag(sync=True)
    logits = traitlets.List().tag(sync=True)
    labels = traitlets.List().tag(sync=True)
    temperature = traitlets.Float(1.0).tag(sync=True)
    min_temperature = traitlets.Float(0.0).tag(sync=True)
    max_temperature = traitlets.Float(3.0).tag(sync=True)

    def __init__(
        self, logits: Sequence[float], labels: Sequence[str], *, temperature: float = 1.0, max_temperature: float = 3.0
    ) -> None:
        x = check_array("logits", logits, ndim=1)
        labels = check_nonempty("labels", labels)
        if len(labels) != len(x):
            raise ValueError(f"labels has {len(labels)} entries but logits has {len(x)}; they must match")
        if len(x) > MAX_TOKENS:
            raise ValueError(f"at most {MAX_TOKENS} logits, got {len(x)}")
        max_t = _on_grid("max_temperature", max_temperature, TEMPERATURE_STEP, TEMPERATURE_STEP, 20.0)
        super().__init__(
            logits=[_page_logit(v) for v in x],
            labels=[str(s) for s in labels],
            temperature=_on_grid("temperature", temperature, TEMPERATURE_STEP, 0.0, max_t),
            max_temperature=max_t,
        )

    def probabilities(self, temperature: float | None = None) -> np.ndarray:
        """``softmax(logits / T)`` as the view shows it (``T = 0``: mass on the maximum)."""
        from nlp_helpers.sampling.distributions import softmax

        return softmax(self.logits, self.temperature if temperature is None else temperature)
