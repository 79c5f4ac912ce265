"""DPO of the reviews character model over several seeds: what the held-out margin and a judge say.

For seeds 0..N-1 (plus ``$NLP_SEED_OFFSET``) it runs the training of the ``char_gpt_dpo`` checkpoint
(``tools/checkpoint_recipes/char_gpt_dpo.py``: ``nlp_helpers.llm_training.dpo.train_dpo`` from
``char_gpt_reviews``, same pairs and settings, the seed choosing the batches), then samples
:data:`N_SAMPLES` continuations of every held-out prompt from the reference and from the trained policy
(:func:`nlp_helpers.llm_training.dpo.sample_continuations`, the same seed for both) and lets the
classification chapter's naive Bayes, fitted on the training snippets, judge them. Per seed it stores the
held-out mean reward margin and share of pairs ranked right after 0, the page's live number of steps and
all steps, and each model's share of continuations judged positive (P(positive) > 0.5) and mean P(positive).

It writes ``nlp_helpers/llm_training/dpo_study.json``, which the chapter reads with
:func:`nlp_helpers.llm_training.dpo.dpo_study`.

Run: ``python -m benchmarks.sampling_dpo [n_seeds] [processes]`` (about a minute of CPU per seed; the seeds
share ``processes`` parallel processes, default 3).
"""

from __future__ import annotations

import copy
import json
import multiprocessing
import os
import sys
import time

import numpy as np

from nlp_helpers.classification.naive_bayes import NaiveBayes
from nlp_helpers.data.polarity import polarity_split
from nlp_helpers.llm_training.dpo import STUDY_FILE, sample_continuations, train_dpo
from nlp_helpers.seeds import seed_offset
from tools.checkpoint_recipes import char_gpt_dpo as recipe

N_SAMPLES = 4
LIVE_STEPS = 20


def judge_positive(judge: NaiveBayes, texts: list[str]) -> np.ndarray:
    """P(positive) of each text under the judge (an empty text gets the prior)."""
    return judge.predict_proba([t.split() for t in texts])[:, list(judge.classes_).index(1)]


def _run(s: int) -> dict:
    import torch

    torch.set_num_threads(1)
    data = recipe.data()
    train = polarity_split()["train"]
    judge = NaiveBayes().fit(train["text"].str.split().tolist(), train["label"].to_numpy())
    prompts = sorted(set(data["held_out"]["prompt"]))
    reference = recipe.reference_model()
    start = time.process_time()
    policy = copy.deepcopy(reference).requires_grad_(True)
    history = train_dpo(
        policy,
        reference,
        data["chars"],
        data["pairs"],
        data["held_out"],
        steps=recipe.STEPS,
        eval_every=LIVE_STEPS,
        seed=s,
        **recipe.TRAINING,
    ).set_index("step")
    row = {"seed": s + seed_offset()}
    for label, step in (("live", LIVE_STEPS), ("all", recipe.STEPS)):
        row[f"margin after {label} steps"] = history.loc[step, "held-out margin"]
        row[f"ranked right after {label} steps"] = history.loc[step, "held-out ranked right"]
    for name, model in (("reference", reference), ("DPO", policy)):
        texts = sample_continuations(model, data["chars"], prompts, N_SAMPLES, recipe.MAX_CHARS, seed=s)
        p = judge_positive(judge, texts)
        row[f"{name} judged positive"] = float((p > 0.5).mean())
        row[f"{name} mean P(positive)"] = float(p.mean())
    row["cpu seconds"] = round(time.process_time() - start, 1)
    print(row, flush=True)
    return row


def main(n_seeds: int = 5, processes: int = 3) -> None:
    data = recipe.data()
    prompts = sorted(set(data["held_out"]["prompt"]))
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        runs = pool.map(_run, range(n_seeds))
    about = {
        "settings": {**recipe.TRAINING, "steps": recipe.STEPS, "live steps": LIVE_STEPS, "max_chars": recipe.MAX_CHARS},
        "held-out prompts": len(prompts),
        "samples per prompt": N_SAMPLES,
        "train pairs": len(data["pairs"]),
        "held-out pairs": len(data["held_out"]),
        "kernels": os.environ.get("ATEN_CPU_CAPABILITY") or "native",
    }
    STUDY_FILE.write_text(json.dumps({"setup": about, "runs": runs}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
