"""BERT's relatives in numbers: parameter counts of encoder models computed from their configuration.

A BERT-style encoder (Devlin et al., 2019) has

* embeddings: ``(V + P + S) d`` for the word, learned position and segment tables, plus one LayerNorm;
* per layer: four ``d x d`` attention projections with biases, a ``d -> d_ff -> d`` feed-forward
  block with biases, and two LayerNorms;
* optionally the pooler, a ``d x d`` dense layer on the ``[CLS]`` vector.

DeBERTa (He et al., 2021) has no absolute position table; instead every layer has two extra
``d x d`` projections of shared relative-position embeddings (``2k x d``, ``k = 512``), and its
key projection has no bias.
:func:`encoder_parameters` counts all of these; the tests check it against ``transformers``.

Left out: the pre-training heads (MLM and NSP), which are not part of the encoder.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from nlp_helpers._checks import check_int

__all__ = ["RELATIVES", "encoder_parameters", "relatives_table"]


def encoder_parameters(
    vocab_size: int,
    d_model: int,
    n_layers: int,
    d_ff: int,
    *,
    max_positions: int = 512,
    n_segments: int = 2,
    pooler: bool = True,
    relative_positions: int = 0,
    key_bias: bool = True,
) -> int:
    """Number of parameters of a BERT-style encoder.

    ``max_positions``/``n_segments`` are the sizes of the absolute position and segment tables
    (0 if the model has none). ``relative_positions = k > 0`` adds DeBERTa's disentangled
    attention: a ``(2k, d)`` relative-position table and two ``d x d`` projections per layer
    (the query one with a bias). ``key_bias=False``: the key projection has no bias (DeBERTa).
    """
    V = check_int("vocab_size", vocab_size, minimum=1)
    d = check_int("d_model", d_model, minimum=1)
    L = check_int("n_layers", n_layers, minimum=1)
    d_ff = check_int("d_ff", d_ff, minimum=1)
    P = check_int("max_positions", max_positions, minimum=0)
    S = check_int("n_segments", n_segments, minimum=0)
    k = check_int("relative_positions", relative_positions, minimum=0)
    for name, flag in (("pooler", pooler), ("key_bias", key_bias)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be a bool, got {type(flag).__name__}")
    return _count(V, d, L, d_ff, P, S, pooler, k, key_bias)


def _count(V: int, d: int, L: int, d_ff: int, P: int, S: int, pooler: bool, k: int, key_bias: bool) -> int:
    embeddings = (V + P + S) * d + 2 * d  # three tables + LayerNorm (gain, bias)
    attention = 4 * (d * d + d) - (0 if key_bias else d) + 2 * d  # Q, K, V, output + LayerNorm
    ffn = d * d_ff + d_ff + d_ff * d + d + 2 * d  # two linear layers + LayerNorm
    layer = attention + ffn
    relative = 0
    if k:
        relative = 2 * k * d + L * (2 * d * d + d)  # shared table; per layer W_{K,r} and W_{Q,r} (+ bias)
    return embeddings + L * layer + relative + (d * d + d if pooler else 0)


_ROBERTA = {"max_positions": 514, "n_segments": 1}
_DEBERTA = {"max_positions": 0, "n_segments": 0, "pooler": False, "relative_positions": 512, "key_bias": False}

#: (name, language, layers, hidden size, feed-forward size, vocabulary, keyword arguments of
#: :func:`encoder_parameters`), from each model's published configuration.
RELATIVES: list[tuple[str, str, int, int, int, int, dict[str, Any]]] = [
    ("BERT base", "English", 12, 768, 3072, 30_522, {}),
    ("BERT large", "English", 24, 1024, 4096, 30_522, {}),
    ("RoBERTa base", "English", 12, 768, 3072, 50_265, _ROBERTA),
    ("RoBERTa large", "English", 24, 1024, 4096, 50_265, _ROBERTA),
    ("XLM-R base", "100 languages", 12, 768, 3072, 250_002, _ROBERTA),
    ("XLM-R large", "100 languages", 24, 1024, 4096, 250_002, _ROBERTA),
    ("DeBERTa base", "English", 12, 768, 3072, 50_265, _DEBERTA),
    ("DeBERTa large", "English", 24, 1024, 4096, 50_265, _DEBERTA),
    ("DistilBERT", "English", 6, 768, 3072, 30_522, {"n_segments": 0, "pooler": False}),
]


def relatives_table(extra: list[tuple[str, str, int, int, int, int, dict[str, Any]]] | None = None) -> pd.DataFrame:
    """:data:`RELATIVES` (plus ``extra`` rows of the same form) as a table with parameter counts in millions."""
    rows = list(RELATIVES) + list(extra or [])
    for row in rows:
        if not (isinstance(row, tuple) and len(row) == 7 and isinstance(row[6], dict)):
            raise ValueError(
                f"extra: every row must be (name, language, layers, d, d_ff, vocabulary, kwargs), got {row!r}"
            )
    return pd.DataFrame(
        [
            {
                "model": name,
                "language": lang,
                "layers": L,
                "hidden size": d,
                "vocabulary": V,
                "parameters (M)": round(encoder_parameters(V, d, L, ff, **kw) / 1e6, 1),
            }
            for name, lang, L, d, ff, V, kw in rows
        ]
    ).set_index("model")
