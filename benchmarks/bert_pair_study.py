"""The fine-tuning chapter's pairwise study: cross-encoder against bi-encoder on SimLex-999 word pairs.

SimLex-999 (shipped with gensim) rates the *similarity* of 999 English word pairs from 0 to 10
(``old``/``new`` scores low although the words are related). For seeds 0..N-1 (plus
``$NLP_SEED_OFFSET``), the words are split at random into a training and a test side
(``nlp_helpers.finetuning.pairs.disjoint_pair_split`` with ``seeds.rng(n)``, 40 % of the words to test): a
pair of two test words is a test pair, a pair of two training words a training pair, so no word of a
test pair was seen in training. On the same test pairs it scores

* the bi-encoder unchanged: the cosine of all-MiniLM-L6-v2's mean-pooled vectors of the two words;
* the bi-encoder fine-tuned on the training pairs (Sentence-BERT's regression objective, cosine vs score / 10);
* a cross-encoder fine-tuned on the training pairs: ``[CLS] w1 [SEP] w2 [SEP]``, a linear head on ``[CLS]``
  (initialised after ``seeds.manual_seed(n)``), binary cross-entropy against score / 10,

each with Spearman's rho against the human scores and the ROC AUC of "similar" (score >= 5)
(``nlp_helpers.finetuning.pairs.pair_metrics``). Every weight is fine-tuned with
``nlp_helpers.finetuning.pairs.train_pair_model`` (AdamW, lr 5e-5, the cross-encoder's new head 1e-3, batches of
16, ``EPOCHS`` epochs, shuffling and dropout seeded with ``n``). Each run stores every step's loss and the
two measures after the first ``EARLY_STEPS`` steps, so that a short re-run can be compared with it.

It writes ``nlp_helpers/finetuning/pair_study.json``, which the chapter reads with
:func:`nlp_helpers.finetuning.pairs.pair_study`.

Run: ``OMP_NUM_THREADS=1 python -m benchmarks.bert_pair_study [n_seeds] [out.json]`` (a seed takes about a
minute of CPU).
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
import torch

from nlp_helpers import seeds
from nlp_helpers.data.corpora import simlex999
from nlp_helpers.finetuning.pairs import (
    STUDY_FILE,
    BiEncoder,
    CrossEncoder,
    disjoint_pair_split,
    pair_metrics,
    pair_scores,
    train_pair_model,
)

SETTINGS = {"epochs": 4, "batch_size": 16, "lr": 5e-5, "head_lr": 1e-3, "max_length": 128}
TEST_FRACTION = 0.4
EARLY_STEPS = 5
MODELS = ["bi-encoder, unchanged", "bi-encoder, fine-tuned", "cross-encoder, fine-tuned"]


def split(n: int) -> tuple[list[str], list[str], list[float], list[str], list[str], list[float]]:
    """Seed ``n``'s training and test pairs: ``(a, b, gold)`` for each side, gold = SimLex score / 10."""
    pairs = simlex999()
    a, b, y = list(pairs.word1), list(pairs.word2), list(pairs.score / 10)
    train, test = disjoint_pair_split(a, b, test_fraction=TEST_FRACTION, rng=seeds.rng(n))
    return tuple([values[i] for i in idx] for idx in (train, test) for values in (a, b, y))


def run(n: int, max_steps: int | None = None) -> list[dict]:
    """One row per model for seed ``n``; ``max_steps`` stops the fine-tuning early (for checks)."""
    a, b, y, a_test, b_test, y_test = split(n)
    rows = []
    for name in MODELS:
        start = time.perf_counter()
        seeds.manual_seed(n)  # the cross-encoder's new head
        model = CrossEncoder() if name.startswith("cross") else BiEncoder()
        losses, early = [], {}

        def evaluate(step: int) -> None:
            if step == EARLY_STEPS:
                early.update(pair_metrics(pair_scores(model, a_test, b_test), y_test))

        if "fine-tuned" in name:
            losses = train_pair_model(
                model, a, b, y, **SETTINGS, seed=n, max_steps=max_steps, after_step=evaluate, progress=False
            )
        row = {"model": name, "seed": seeds.seed(n), **pair_metrics(pair_scores(model, a_test, b_test), y_test)}
        row |= {f"early_{k}": v for k, v in early.items()}
        row |= {"n_train": len(a), "n_test": len(a_test), "steps": len(losses), "losses": losses}
        row["seconds"] = round(time.perf_counter() - start, 1)
        print({k: v for k, v in row.items() if k != "losses"}, flush=True)
        rows.append(row)
    return rows


def _write(rows: list[dict], n_seeds: int, path: Path) -> None:
    meta = {
        "about": __doc__.split("\n\n")[0],
        "command": f"OMP_NUM_THREADS=1 python -m benchmarks.bert_pair_study {n_seeds}",
        "seeds": sorted({r["seed"] for r in rows}),
        "data": "SimLex-999 (gensim test data), score / 10",
        "test_fraction": TEST_FRACTION,
        **SETTINGS,
        "optimizer": "AdamW (fused), weight decay 0.01",
        "early_steps": EARLY_STEPS,
        "torch": torch.__version__,
        "cpu_capability": os.environ.get("ATEN_CPU_CAPABILITY", "") or torch.backends.cpu.get_cpu_capability(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
    }
    path.write_text(json.dumps({**meta, "runs": rows}, indent=1) + "\n")


def main(n_seeds: int = 10, path: Path = STUDY_FILE) -> None:
    """Run every seed; the file is rewritten after each, so an interrupted study keeps what it measured."""
    rows: list[dict] = []
    for n in range(n_seeds):
        rows += run(n)
        _write(rows, n_seeds, path)
    frame = pd.DataFrame(rows)
    print(frame.groupby("model")[["spearman", "auc", "early_spearman", "seconds"]].agg(["mean", "std"]).round(3).T)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10, Path(sys.argv[2]) if len(sys.argv) > 2 else STUDY_FILE)
