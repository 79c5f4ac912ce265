"""The RNN chapter's pooling comparison (last state, mean, max) on the presence task, over several seeds.

The chapter's setting: 2,000 training sequences of 30 tokens from a vocabulary of 20, half of them
holding the signal token once at a random position; an LSTM of 32 units over 16-dimensional
embeddings, trained for 100 Adam steps of 32 sequences (lr 1e-2) with each summary; scored on 1,000
test sequences by the position of the signal (bands of five positions) and on the sequences
without it. The page trains one run of each summary; this script repeats it for seeds 0..N-1 (plus
``$NLP_SEED_OFFSET``; seed 0 is the page's run) and writes ``nlp_helpers/rnn/pooling_study.json``
(or the path given as the second argument), read by :func:`nlp_helpers.rnn.regularize.pooling_study`.

Run: ``OMP_NUM_THREADS=1 python -m benchmarks.seed_study_rnn_pooling [n_seeds] [out.json]``
(about 6 s of CPU per seed).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import torch

from nlp_helpers.rnn.classify import SequenceClassifier, presence_task, train_classifier
from nlp_helpers.rnn.regularize import POOLING_STUDY_FILE
from nlp_helpers.seeds import manual_seed, seed

T = 30


def run(n: int) -> list[dict]:
    """One run of each summary with seed ``n``: the page's loop body."""
    train, labels, _ = presence_task(2000, T, seed=0)
    test, test_labels, positions = presence_task(1000, T, seed=1)
    rows = []
    for pooling in ["last", "mean", "max"]:
        manual_seed(n)
        clf = SequenceClassifier(20, cell="lstm", pooling=pooling, hidden_size=32, embedding_dim=16)
        train_classifier(clf, train, labels, steps=100, batch_size=32, lr=1e-2, seed=n, progress=False)
        with torch.no_grad():
            correct = (clf(test).argmax(-1) == test_labels).float()
        row = {"summary": pooling, "seed": seed(n), "no signal": correct[test_labels == 0].mean().item()}
        for a in np.arange(0, T, 5):
            at = (positions >= a) & (positions < a + 5)
            row[f"{a}–{a + 4}"] = correct[at].mean().item()
        rows.append(row)
    return rows


if __name__ == "__main__":
    torch.set_num_threads(1)
    n_seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else POOLING_STUDY_FILE
    runs = []
    for n in range(n_seeds):
        runs.extend(run(n))
        print(runs[-3:], flush=True)
    about = __doc__.split("\n\n")[0]
    kernels = os.environ.get("ATEN_CPU_CAPABILITY", "native")
    out.write_text(json.dumps({"about": about, "kernels": kernels, "runs": runs}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")
