"""The fine-tuning chapter's full fine-tuning study: the frozen encoder against every weight fine-tuned.

Data: the sentence polarity dataset's fixed split (``nlp_helpers.data.polarity.polarity_split``), the
first ``N_TRAIN`` training snippets and the first ``N_TEST`` test snippets, the same for every seed.
For seeds 0..N-1 (plus ``$NLP_SEED_OFFSET``) it trains, on the same training snippets,

* **frozen encoder + head**: all-MiniLM-L6-v2 unchanged, a linear head on its mean-pooled last layer
  (``nlp_helpers.finetuning.classifier.train_classifier``, ``HEAD_EPOCHS`` epochs, AdamW at 1e-2);
* **whole encoder fine-tuned**: every weight of a copy of the encoder (but its table of WordPiece
  vectors) plus a new head
  (``nlp_helpers.finetuning.full_finetuning.finetune_encoder``: AdamW, encoder 5e-5 and head 1e-3, linear
  warm-up over the first 10 % of the steps and linear decay to 0, batches of ``BATCH``, ``EPOCHS`` epoch),

and scores both by accuracy on the same test snippets. A seed takes a few minutes of CPU.

It writes ``nlp_helpers/finetuning/full_finetuning_study.json``, which the chapter reads with
:func:`nlp_helpers.finetuning.full_finetuning.full_finetuning_study`.

Run: ``OMP_NUM_THREADS=1 python -m benchmarks.bert_full_finetuning_study [n_seeds] [out.json]``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import torch

from nlp_helpers.data.polarity import polarity_split
from nlp_helpers.finetuning.classifier import SentenceClassifier, encoder_features, predict, train_classifier
from nlp_helpers.finetuning.full_finetuning import FULL_STUDY_FILE, EncoderClassifier, finetune_encoder, predict_texts
from nlp_helpers.seeds import manual_seed, seed

N_TRAIN, N_TEST = 1600, 800
EPOCHS, BATCH, LR, HEAD_LR, WARMUP, MAX_LENGTH = 1, 8, 5e-5, 1e-3, 0.1, 32
HEAD_EPOCHS = 20
MODELS = ["frozen encoder + head", "whole encoder fine-tuned"]


def data() -> tuple[list[str], np.ndarray, list[str], np.ndarray]:
    """The study's training and test snippets and labels (fixed: the same for every seed)."""
    parts = polarity_split()
    train, test = parts["train"].iloc[:N_TRAIN], parts["test"].iloc[:N_TEST]
    return list(train.text), train.label.to_numpy(), list(test.text), test.label.to_numpy()


def run(n: int, frozen_features: dict) -> list[dict]:
    x_train, y_train, x_test, y_test = data()
    rows = []
    for name in MODELS:
        start = time.perf_counter()
        if name.startswith("frozen"):
            manual_seed(n)
            clf = SentenceClassifier(384, 2)
            f_train, f_test = frozen_features["train"], frozen_features["test"]
            train_classifier(
                clf, f_train["last"], f_train["attention_mask"], y_train, epochs=HEAD_EPOCHS, seed=n, progress=False
            )
            pred = predict(clf, f_test["last"], f_test["attention_mask"])
            steps, loss = HEAD_EPOCHS * -(-N_TRAIN // 16), []
        else:
            manual_seed(n)
            model = EncoderClassifier(2)
            log = finetune_encoder(
                model,
                x_train,
                y_train,
                epochs=EPOCHS,
                batch_size=BATCH,
                lr=LR,
                head_lr=HEAD_LR,
                warmup_fraction=WARMUP,
                max_length=MAX_LENGTH,
                seed=n,
                progress=False,
            )
            pred = predict_texts(model, x_test, max_length=MAX_LENGTH)
            steps, loss = len(log["loss"]), [round(v, 4) for v in log["loss"]]
        row = {
            "model": name,
            "seed": seed(n),
            "accuracy": float((pred == y_test).mean()),
            "n_train": N_TRAIN,
            "n_test": N_TEST,
            "steps": steps,
            "seconds": round(time.perf_counter() - start, 1),
            "loss": loss,
        }
        print({k: v for k, v in row.items() if k != "loss"}, flush=True)
        rows.append(row)
    return rows


def _write(rows: list[dict], out: Path = FULL_STUDY_FILE) -> None:
    out.write_text(
        json.dumps(
            {
                "about": __doc__.split("\n\n")[0],
                "data": "sentence polarity v1.0 (Pang and Lee 2005), polarity_split(): first training and test snippets",
                "epochs": EPOCHS,
                "batch_size": BATCH,
                "lr": LR,
                "head_lr": HEAD_LR,
                "warmup_fraction": WARMUP,
                "max_length": MAX_LENGTH,
                "torch": torch.__version__,
                "cpu_capability": os.environ.get("ATEN_CPU_CAPABILITY", "") or torch.backends.cpu.get_cpu_capability(),
                "runs": rows,
            },
            indent=1,
        )
        + "\n"
    )


def main(n_seeds: int = 5, out: Path = FULL_STUDY_FILE) -> None:
    """Run every seed; the file ``out`` is rewritten after each, so an interrupted study keeps what it measured.

    Another ``out`` (e.g. for a check under ``ATEN_CPU_CAPABILITY=default``) leaves the chapter's file alone.
    """
    x_train, _, x_test, _ = data()
    frozen = {
        "train": encoder_features(x_train, max_length=MAX_LENGTH),
        "test": encoder_features(x_test, max_length=MAX_LENGTH),
    }
    rows: list[dict] = []
    for n in range(n_seeds):
        rows += run(n, frozen)
        _write(rows, out)
    frame = pd.DataFrame(rows)
    print(frame.groupby("model")[["accuracy", "seconds"]].agg(["mean", "std"]).round(4).T)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5, Path(sys.argv[2]) if len(sys.argv) > 2 else FULL_STUDY_FILE)
