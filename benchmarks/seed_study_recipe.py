"""The training recipe of large transformers, measured on TinyGPT: an ablation over several seeds.

The LLM chapter's TinyGPT (``benchmarks/seed_study_tinygpt.py``: 2 layers, 4 heads,
d_model = 64, context 64, AdamW on windows of 16, learning rate 3e-3, on the first quarter of the
Shakespeare training split), in a shorter run of 250 steps, is trained with seeds 0..N-1 (plus
``$NLP_SEED_OFFSET``, see ``nlp_helpers.seeds``) in these variants:

* ``baseline``: the chapter's settings;
* ``+ dropout 0.1``: ``TinyGPTConfig(dropout=0.1)`` (attention weights, sublayer outputs, embeddings);
* ``+ warm-up and cosine decay``: 25 steps (a tenth) of linear warm-up, then a cosine to a tenth of the peak;
* ``+ scaled residual init``: GPT-2's ``0.02 / sqrt(2 N)`` for each residual branch's output layer;
* ``+ label smoothing 0.1``.

Each is scored on the first quarter of the validation text (62,920 characters), the same for every
model, from its predicted distributions (sliding windows, stride 32, as the chapter;
``nlp_helpers.llm.recipe.prediction_quality``): bits per character by plain cross-entropy
(whatever loss trained the model, so label smoothing is scored like the others), the mean entropy
of the predictions in bits, top-1 accuracy and confidence, and the expected calibration error
(15 bins). It writes rows ``variant, seed, bpc, entropy, accuracy, confidence, ece, cpu_s, kernel``
(``kernel`` = ``$ATEN_CPU_CAPABILITY``
or ``native``) to ``nlp_helpers/llm/recipe_study.csv`` after every model, replacing rows
of the same variant, seed and kernel; ``nlp_helpers.llm.recipe.recipe_study()`` reads it.

Run: ``python -m benchmarks.seed_study_recipe [n_seeds] [variant,variant,...]`` (about 11 s of
CPU per model, so about 5 minutes for 5 seeds of the five variants), and again with
``ATEN_CPU_CAPABILITY=default`` for the other kernel path.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np
import pandas as pd
import torch

from benchmarks.seed_study_tinygpt import TINYGPT, data
from nlp_helpers.llm.bpc import char_log_distributions
from nlp_helpers.llm.gpt import CharTokenizer, TinyGPT, TinyGPTConfig, train
from nlp_helpers.llm.recipe import RECIPE_STUDY_FILE, prediction_quality
from nlp_helpers.seeds import manual_seed, seed

# variant -> (extra TinyGPTConfig fields, extra train() arguments)
RECIPE_TRAIN = {"steps": 250, "batch_size": 16, "lr": 3e-3}
VALID_FRACTION = 4  # score the first 1/4 of the validation text

VARIANTS: dict[str, tuple[dict, dict]] = {
    "baseline": ({}, {}),
    "+ dropout 0.1": ({"dropout": 0.1}, {}),
    "+ warm-up and cosine decay": ({}, {"warmup": 25, "cosine": True}),
    "+ scaled residual init": ({"scaled_init": True}, {}),
    "+ label smoothing 0.1": ({}, {"label_smoothing": 0.1}),
}


def variant_scores(
    variant: str, n: int, train_ids: torch.Tensor, valid_ids: torch.Tensor, vocab_size: int
) -> dict[str, float]:
    """Validation scores (``prediction_quality``) of TinyGPT trained with seed ``n`` in ``variant``."""
    config_extra, train_extra = VARIANTS[variant]
    manual_seed(n)
    model = TinyGPT(TinyGPTConfig(vocab_size=vocab_size, **TINYGPT, **config_extra))
    settings = {**RECIPE_TRAIN, **train_extra}
    train(model, train_ids, valid_ids, eval_every=settings["steps"], seed=n, progress=False, **settings)
    log_probs = char_log_distributions(model, valid_ids, stride=32)
    return prediction_quality(log_probs, valid_ids[1:].numpy())


def save(rows: list[dict]) -> pd.DataFrame:
    """Merge ``rows`` into the stored study (same variant, seed and kernel replaced); write atomically."""
    new = pd.DataFrame(rows)
    if RECIPE_STUDY_FILE.exists():
        old = pd.read_csv(RECIPE_STUDY_FILE)
        keys = ["variant", "seed", "kernel"]
        stale = old.set_index(keys).index.isin(new.set_index(keys).index)
        new = pd.concat([old[~stale], new], ignore_index=True)
    new = new.sort_values(["kernel", "variant", "seed"], kind="stable")
    tmp = RECIPE_STUDY_FILE.with_suffix(f".{os.getpid()}.tmp")
    new.to_csv(tmp, index=False, float_format="%.5f")
    os.replace(tmp, RECIPE_STUDY_FILE)
    return new


def run(n_seeds: int = 5, variants: list[str] | None = None) -> pd.DataFrame:
    torch.set_num_threads(1)
    train_text, valid_text, vocab = data()
    chars = CharTokenizer(vocab)
    train_ids = torch.from_numpy(chars.encode_array(train_text))
    valid_ids = torch.from_numpy(chars.encode_array(valid_text[: len(valid_text) // VALID_FRACTION]))
    kernel = os.environ.get("ATEN_CPU_CAPABILITY", "native") or "native"
    variants = list(VARIANTS) if variants is None else variants
    unknown = set(variants) - set(VARIANTS)
    if unknown:
        raise ValueError(f"unknown variants {sorted(unknown)}; choose from {list(VARIANTS)}")
    rows, table = [], pd.DataFrame()
    for n in range(n_seeds):
        for variant in variants:
            start = time.process_time()
            scores = variant_scores(variant, n, train_ids, valid_ids, len(vocab))
            cpu = time.process_time() - start
            rows.append({"variant": variant, "seed": seed(n), **scores, "cpu_s": cpu, "kernel": kernel})
            print(rows[-1], flush=True)
            table = save(rows)
    return table


if __name__ == "__main__":
    chosen = sys.argv[2].split(",") if len(sys.argv) > 2 else None
    table = run(int(sys.argv[1]) if len(sys.argv) > 1 else 5, chosen)
    print(table.groupby(["variant", "kernel"], sort=False).bpc.agg(["mean", "std", "min", "max", "count"]).round(4))
    print(np.round(table.groupby("variant", sort=False).cpu_s.mean(), 1))
