"""Looking inside a real LLM's next-token prediction: SmolLM2-135M-Instruct (loaded by
``nlp_helpers.data.smollm2.load_smollm2``).

:func:`next_token_logits` (the model's raw scores for the next
token), :func:`top_next_tokens` (the top candidates as a table),
:func:`logit_lens` (unembed the hidden state of every layer) and
:func:`sequence_log_probs` (teacher forcing: log-probability of each observed
token). Generation with our own sampling code is :func:`nlp_helpers.sampling.generate.generate`.
:func:`forward_with_cache` runs one step with the key/value cache under either name transformers
has given it (``past_key_values`` before version 5, ``cache`` since).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from nlp_helpers._checks import check_int, check_text

if TYPE_CHECKING:  # imported lazily: transformers takes seconds to import
    import torch

__all__ = ["forward_with_cache", "logit_lens", "next_token_logits", "sequence_log_probs", "top_next_tokens"]


def _encode(tokenizer: Any, prompt: str, name: str = "prompt") -> torch.Tensor:
    check_text(name, prompt, allow_empty=False)
    ids = tokenizer(prompt, return_tensors="pt", add_special_tokens=False)["input_ids"]
    return ids  # (1, T)


def forward_with_cache(model: Any, input_ids: torch.Tensor, cache: Any = None, **inputs: Any) -> tuple[Any, Any]:
    """One forward pass of a Hugging Face causal LM that reads and returns its key/value cache.

    ``cache`` is what the previous call returned (``None`` at the start); ``inputs`` go to the model
    as they are (``attention_mask`` and ``position_ids`` for a left-padded batch). Returns ``(output, cache)``.
    transformers 5 calls the argument and the output field ``cache`` and deprecates the older name
    ``past_key_values`` with a FutureWarning; the name ``model.forward`` accepts is used.
    """
    if not callable(getattr(model, "forward", None)):
        raise TypeError(f"model must be a Hugging Face causal LM with a forward method, got {type(model).__name__}")
    name = _cache_argument(model)
    out = model(input_ids, use_cache=True, **{name: cache}, **inputs)
    return out, getattr(out, name)


def _cache_argument(model: Any) -> str:
    import inspect

    params = inspect.signature(model.forward).parameters
    return "cache" if "cache" in params else "past_key_values"


def next_token_logits(model: Any, tokenizer: Any, prompt: str) -> np.ndarray:
    """The model's logits for the token after ``prompt``: a float64 array of shape ``(V,)``."""
    import torch

    ids = _encode(tokenizer, prompt)
    with torch.no_grad():
        logits = model(ids).logits[0, -1]  # (V,)
    return logits.double().numpy()


def top_next_tokens(model: Any, tokenizer: Any, prompt: str, k: int = 10) -> Any:
    """The ``k`` most likely next tokens after ``prompt`` as a DataFrame: token, id, logit, probability.

    Probabilities are over the whole vocabulary (softmax of all ``V`` logits).
    """
    import pandas as pd

    k = check_int("k", k, minimum=1)
    logits = next_token_logits(model, tokenizer, prompt)
    k = min(k, logits.size)
    probs = np.exp(logits - logits.max())
    probs /= probs.sum()
    order = np.argsort(-logits, kind="stable")[:k]
    return pd.DataFrame(
        {
            "token": [tokenizer.decode([int(i)]) for i in order],
            "id": order.astype(int),
            "logit": logits[order],
            "probability": probs[order],
        }
    )


def logit_lens(model: Any, tokenizer: Any, prompt: str, layers: list[int] | None = None, k: int = 3) -> Any:
    """Apply the final norm and the unembedding to the last position's hidden state after each layer.

    Returns a DataFrame with one row per layer in ``layers`` (default: all; 0 is the
    embedding output, ``L`` the last block) and columns ``layer``, ``top tokens``
    (the ``k`` most likely, as text) and ``p(top)``. The last layer reproduces the
    model's real next-token distribution (its hidden state already went through
    the final norm in the forward pass, so it is not normed twice).
    """
    import pandas as pd
    import torch

    k = check_int("k", k, minimum=1)
    n_layers = model.config.num_hidden_layers
    layers = (
        list(range(n_layers + 1))
        if layers is None
        else [check_int("layers[i]", layer, minimum=0, maximum=n_layers) for layer in layers]
    )
    ids = _encode(tokenizer, prompt)
    with torch.no_grad():
        out = model(ids, output_hidden_states=True)
        rows = []
        for layer in layers:
            h = out.hidden_states[layer][0, -1]  # (d_model,)
            # transformers stores the *normed* output of the last block as the last hidden state.
            h = h if layer == n_layers else model.model.norm(h)
            probs = torch.softmax(model.lm_head(h), dim=-1)
            top = torch.topk(probs, k)
            rows.append(
                {
                    "layer": layer,
                    "top tokens": [tokenizer.decode([int(i)]) for i in top.indices],
                    "p(top)": float(top.values[0]),
                }
            )
    return pd.DataFrame(rows)


def sequence_log_probs(model: Any, tokenizer: Any, text: str) -> Any:
    """Teacher forcing on ``text``: for each token after the first, log P(token | all previous tokens).

    One forward pass computes every position at once (the causal mask keeps each
    position from seeing its future). Returns a DataFrame with columns ``context``
    (the last input token), ``target`` (the observed next token) and ``log_prob``;
    the cross-entropy loss is ``-df.log_prob.mean()``.
    """
    import pandas as pd
    import torch

    ids = _encode(tokenizer, text, "text")
    if ids.shape[1] < 2:
        raise ValueError(f"text must have at least 2 tokens to predict one from the other, got {ids.shape[1]}")
    with torch.no_grad():
        log_probs = torch.log_softmax(model(ids).logits[0, :-1].double(), dim=-1)  # (T-1, V)
    targets = ids[0, 1:]
    picked = log_probs[torch.arange(len(targets)), targets]
    return pd.DataFrame(
        {
            "context": [tokenizer.decode([int(i)]) for i in ids[0, :-1]],
            "target": [tokenizer.decode([int(i)]) for i in targets],
            "log_prob": picked.numpy(),
        }
    )
