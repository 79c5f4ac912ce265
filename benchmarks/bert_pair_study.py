"""The BERT chapter's pairwise study: cross-encoder against bi-encoder on SimLex-999 word pairs.

SimLex-999 (shipped with gensim) rates the *similarity* of 999 English word pairs from 0 to 10
(``old``/``new`` scores low although the words are related). For seeds 0..N-1 (plus
``$NLP_SEED_OFFSET``), the words are split at random into a training and a test side
(``nlp_helpers.bert.pairs.disjoint_pair_split``, 40 % of the words to test): a pair of two test words
is a test pair, a pair of two training words a training pair, so no word of a test pair was seen in
training. On the same test pairs it scores

* the bi-encoder unchanged: the cosine of all-MiniLM-L6-v2's mean-pooled vectors of the two words;
* the bi-encoder fine-tuned on the training pairs (Sentence-BERT's regression objective, cosine vs score / 10);
* a cross-encoder fine-tuned on the training pairs: ``[CLS] w1 [SEP] w2 [SEP]``, a linear head on ``[CLS]``,
  binary cross-entropy against score / 10,

each with Spearman's rho against the human scores and the ROC AUC of "similar" (score >= 5): the chance
that a similar pair scores above a dissimilar one. Every weight is fine-tuned (AdamW, lr 5e-5, the
cross-encoder's new head 1e-3, batches of 16, ``EPOCHS`` epochs). A seed takes a few minutes of CPU.

It writes ``nlp_helpers/bert/pair_study.json``, which the chapter reads with
:func:`nlp_helpers.bert.pairs.pair_study`.

Run: ``python -m benchmarks.bert_pair_study [n_seeds]``.
"""

from __future__ import annotations

import json
import os
import sys
import time

import numpy as np
import pandas as pd
import torch
from scipy.stats import spearmanr
from sklearn.metrics import roc_auc_score

from nlp_helpers.bert.pairs import (
    STUDY_FILE,
    BiEncoder,
    CrossEncoder,
    disjoint_pair_split,
    pair_scores,
    train_pair_model,
)
from nlp_helpers.data.corpora import simlex999
from nlp_helpers.seeds import rng, seed

EPOCHS = 4
TEST_FRACTION = 0.4
MODELS = ["bi-encoder, unchanged", "bi-encoder, fine-tuned", "cross-encoder, fine-tuned"]


def run(n: int) -> list[dict]:
    pairs = simlex999()
    a, b, y = list(pairs.word1), list(pairs.word2), pairs.score.to_numpy() / 10
    train, test = disjoint_pair_split(a, b, test_fraction=TEST_FRACTION, rng=rng(n))

    def pick(idx, values):
        return [values[i] for i in idx]

    rows = []
    for name in MODELS:
        start = time.perf_counter()
        model = CrossEncoder() if name.startswith("cross") else BiEncoder()
        if "fine-tuned" in name:
            train_pair_model(model, pick(train, a), pick(train, b), y[train], epochs=EPOCHS, seed=n, progress=False)
        s = pair_scores(model, pick(test, a), pick(test, b))
        row = {
            "model": name,
            "seed": seed(n),
            "spearman": float(spearmanr(s, y[test]).statistic),
            "auc": float(roc_auc_score(y[test] >= 0.5, s)),
            "n_train": len(train),
            "n_test": len(test),
            "seconds": round(time.perf_counter() - start, 1),
        }
        print(row, flush=True)
        rows.append(row)
    return rows


def _write(rows: list[dict]) -> None:
    STUDY_FILE.write_text(
        json.dumps(
            {
                "about": __doc__.split("\n\n")[0],
                "data": "SimLex-999 (gensim test data)",
                "epochs": EPOCHS,
                "test_fraction": TEST_FRACTION,
                "torch": torch.__version__,
                "cpu_capability": os.environ.get("ATEN_CPU_CAPABILITY", "") or torch.backends.cpu.get_cpu_capability(),
                "runs": rows,
            },
            indent=1,
        )
        + "\n"
    )


def main(n_seeds: int = 5) -> None:
    """Run every seed; the file is rewritten after each, so an interrupted study keeps what it measured."""
    rows: list[dict] = []
    for n in range(n_seeds):
        rows += run(n)
        _write(rows)
    frame = pd.DataFrame(rows)
    print(frame.groupby("model")[["spearman", "auc", "seconds"]].agg(["mean", "std"]).round(3).T)
    print("test pairs per seed:", np.unique(frame.n_test).tolist())


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
