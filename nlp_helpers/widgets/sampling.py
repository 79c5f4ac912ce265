"""Sampling widgets: explore temperature, top-k and top-p on a real model's next-token distribution.

* :class:`NextTokenExplorer` - for a few prompts, the model's top next-token
  logits (precomputed in Python, e.g. by :meth:`NextTokenExplorer.from_model`)
  drawn as bars; sliders for temperature, top-k and top-p, a prompt menu, the
  entropy and the number of tokens that survive the filters, and a text table.
* :class:`SoftmaxTemperature` - a compact softmax-with-temperature view of any
  logits (attention scores, class scores), for reuse by other chapters.

All recomputation happens in ``sampling.js`` (same rules as
:func:`nlp_helpers.sampling.distributions.filtered_probs`), so both work on the static page.
:meth:`NextTokenExplorer.probabilities` computes in Python what the view shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import anywidget
import numpy as np
import traitlets

from nlp_helpers._checks import check_array, check_float, check_int, check_nonempty, check_text
from nlp_helpers.sampling.distributions import entropy, filtered_probs
from nlp_helpers.widgets.assets import load_css, load_esm

__all__ = ["NextTokenExplorer", "SoftmaxTemperature", "explorer_prompt"]

MAX_TOKENS = 200
TEMPERATURE_STEP = 0.05  # the sliders' grid: values set from Python are rounded to it
TOP_P_STEP = 0.05


def _on_grid(name: str, value: float, step: float, lo: float, hi: float) -> float:
    value = check_float(name, value, minimum=lo, maximum=hi)
    return round(round(value / step) * step, 10)


def explorer_prompt(
    prompt: str, tokens: Sequence[str], logits: Sequence[float], shown_mass: float = 1.0
) -> dict[str, Any]:
    """One validated prompt record for :class:`NextTokenExplorer`, sorted by logit (largest first).

    ``tokens``/``logits``: the candidate next tokens (as text) and their logits;
    ``shown_mass``: the probability these tokens hold at temperature 1 under the
    full model (1.0 if they are the whole vocabulary).
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
    shown_mass = check_float("shown_mass", shown_mass, minimum=0.0, maximum=1.0, min_inclusive=False)
    order = np.argsort(-x, kind="stable")
    return {
        "prompt": prompt,
        "tokens": [tokens[i] for i in order],
        "logits": [float(x[i]) for i in order],
        "shown_mass": shown_mass,
    }


class NextTokenExplorer(anywidget.AnyWidget):
    """Next-token distributions of several prompts with temperature / top-k / top-p sliders.

    ``prompts``: records made by :func:`explorer_prompt` (or mappings with keys
    ``prompt``, ``tokens``, ``logits`` and optionally ``shown_mass``).
    ``top_k=None`` means all shipped tokens; ``top_p=1`` keeps all.
    """

    _esm = load_esm("sampling.js")
    _css = load_css()
    _view = traitlets.Unicode("explorer").tag(sync=True)
    prompts = traitlets.List().tag(sync=True)
    prompt_index = traitlets.Int(0).tag(sync=True)
    temperature = traitlets.Float(1.0).tag(sync=True)
    top_k = traitlets.Int(1).tag(sync=True)
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
            records.append(explorer_prompt(p["prompt"], p["tokens"], p["logits"], p.get("shown_mass", 1.0)))
        prompt_index = check_int("prompt_index", prompt_index, minimum=0, maximum=len(records) - 1)
        n = len(records[prompt_index]["tokens"])
        top_k = n if top_k is None else check_int("top_k", top_k, minimum=1)
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
        """Compute the ``top`` next tokens of each prompt with a causal LM (e.g. SmolLM2) and build the widget."""
        from nlp_helpers.sampling.llm import next_token_logits

        top = check_int("top", top, minimum=1, maximum=MAX_TOKENS)
        records = []
        for prompt in check_nonempty("prompts", prompts):
            logits = next_token_logits(model, tokenizer, prompt)
            order = np.argsort(-logits, kind="stable")[:top]
            probs = np.exp(logits - logits.max())
            probs /= probs.sum()
            records.append(
                explorer_prompt(
                    prompt,
                    [tokenizer.decode([int(i)]) for i in order],
                    logits[order],
                    float(min(1.0, probs[order].sum())),
                )
            )
        return cls(records, **kwargs)

    def probabilities(
        self,
        temperature: float | None = None,
        top_k: int | None = None,
        top_p: float | None = None,
        prompt_index: int | None = None,
    ) -> np.ndarray:
        """The probabilities the view shows (current settings unless given), in the shipped token order."""
        i = check_int(
            "prompt_index",
            self.prompt_index if prompt_index is None else prompt_index,
            minimum=0,
            maximum=len(self.prompts) - 1,
        )
        rec = self.prompts[i]
        t = self.temperature if temperature is None else temperature
        k = self.top_k if top_k is None else top_k
        p = self.top_p if top_p is None else top_p
        return filtered_probs(rec["logits"], t, min(k, len(rec["logits"])), p)

    def summary(self, **settings: Any) -> dict[str, Any]:
        """Entropy (nats) and number of surviving tokens at the current (or given) settings."""
        probs = self.probabilities(**settings)
        return {"entropy": float(entropy(probs)), "nucleus": int((probs > 0).sum())}


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
            logits=[float(v) for v in x],
            labels=[str(s) for s in labels],
            temperature=_on_grid("temperature", temperature, TEMPERATURE_STEP, 0.0, max_t),
            max_temperature=max_t,
        )

    def probabilities(self, temperature: float | None = None) -> np.ndarray:
        """``softmax(logits / T)`` as the view shows it (``T = 0``: mass on the maximum)."""
        from nlp_helpers.sampling.distributions import softmax

        return softmax(self.logits, self.temperature if temperature is None else temperature)
