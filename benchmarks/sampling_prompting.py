"""Zero- versus few-shot prompting of SmolLM2-135M-Instruct on the sentence polarity data.

Every item of a fixed, balanced sample of the polarity test split
(:func:`nlp_helpers.llm_training.prompting.polarity_test_sample`, 30 per label) is classified by comparing
the log-probabilities of the label words' first tokens after a chat prompt
(:func:`nlp_helpers.llm_training.prompting.classify`), with k = 0, 1, 2 and 4 demonstrations drawn from the
training split (balanced labels, shuffled) for seeds 0..N-1 (plus ``$NLP_SEED_OFFSET``); k = 0 has no
draw and is run once. Per run it stores the accuracy and its standard error over the items, the share
of "positive" answers, the mean prompt length in tokens, the seconds it took and every item's margin
log p(positive) - log p(negative). For comparison: the majority baseline and the classification
chapter's logistic regression (word presence, L2 chosen by cross-validation) on the same items.

It writes ``nlp_helpers/llm_training/prompting_study.json`` after every run, which the chapter reads with
:func:`nlp_helpers.llm_training.prompting.prompting_study`.

Run: ``python -m benchmarks.sampling_prompting [n_seeds] [processes]`` (about 10 minutes of CPU in all;
the runs share ``processes`` parallel processes, default 3).
"""

from __future__ import annotations

import json
import multiprocessing
import sys
import time

import numpy as np
import pandas as pd

from nlp_helpers.classification.systems import polarity_systems
from nlp_helpers.data.polarity import polarity_split
from nlp_helpers.data.smollm2 import load_smollm2
from nlp_helpers.llm_training.prompting import STUDY_FILE, classify, draw_demonstrations, polarity_test_sample
from nlp_helpers.seeds import rng, seed

KS = (1, 2, 4)
N_PER_LABEL = 30


def _run(model, tokenizer, sample: pd.DataFrame, demos: list, k: int, n: int | None) -> dict:
    start = time.perf_counter()
    frame = classify(model, tokenizer, list(sample["text"]), demos)
    correct = frame["prediction"].to_numpy() == sample["label"].to_numpy()
    acc = float(correct.mean())
    margin = frame["log p(positive)"] - frame["log p(negative)"]
    return {
        "k": k,
        "seed": None if n is None else seed(n),
        "accuracy": acc,
        "se": float(np.sqrt(acc * (1 - acc) / len(correct))),
        "share positive": float(frame["prediction"].mean()),
        "prompt tokens": float(frame["prompt tokens"].mean()),
        "seconds": round(time.perf_counter() - start, 1),
        "margins": [round(float(m), 4) for m in margin],
    }


_STATE: dict = {}  # the model and data, loaded once before the worker processes fork


def _task(job: tuple[int, int | None]) -> dict:
    k, n = job
    model, tokenizer, sample, train = (_STATE[key] for key in ("model", "tokenizer", "sample", "train"))
    demos = [] if n is None else draw_demonstrations(list(train["text"]), train["label"].to_numpy(), k, rng(n))
    return _run(model, tokenizer, sample, demos, k, n)


def main(n_seeds: int = 5, processes: int = 3) -> None:
    model, tokenizer = load_smollm2()
    sample = polarity_test_sample(N_PER_LABEL)
    train = polarity_split()["train"]
    _STATE.update(model=model, tokenizer=tokenizer, sample=sample, train=train)
    systems = polarity_systems()
    lr_pred = systems["pred"]["logistic regression"]
    setup = {
        "model": "SmolLM2-135M-Instruct",
        "test items": len(sample),
        "majority accuracy": float(max(sample["label"].mean(), 1 - sample["label"].mean())),
        "logistic regression accuracy": float((lr_pred[sample.index] == sample["label"].to_numpy()).mean()),
        "logistic regression accuracy, whole test split": float((lr_pred == systems["gold"]).mean()),
        "whole test split": int(len(systems["gold"])),
    }
    print(setup, flush=True)
    runs: list[dict] = []
    about = __doc__.split("\n\n")[0]
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        jobs = [(k, n) for k in reversed(KS) for n in range(n_seeds)] + [(0, None)]  # longest first
        for run in pool.imap_unordered(_task, jobs):
            runs.append(run)
            print({key: v for key, v in run.items() if key != "margins"}, flush=True)
            runs.sort(key=lambda r: (r["k"], -1 if r["seed"] is None else r["seed"]))
            STUDY_FILE.write_text(json.dumps({"about": about, "setup": setup, "runs": runs}, indent=1) + "\n")
    df = pd.DataFrame(runs).drop(columns="margins")
    print(df.groupby("k")[["accuracy", "share positive", "prompt tokens", "seconds"]].agg(["mean", "std"]))


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
