"""The RNN chapter's remedies for the overfit review classifier, over several seeds.

The chapter's classifier (a bidirectional LSTM with max pooling, 32 units, 32-dimensional
embeddings; Adam, lr 1e-2, batches of 32) memorises its 150 training snippets (the first 150 of
``polarity_split()["train"]``) and scores about chance on new ones. This script trains it under each
remedy and scores every model on the same 2,132 test snippets (``polarity_split()["test"]``):

* ``none, 40 steps``: the chapter's model; ``none, 100 steps``: trained as long as the remedies;
* ``dropout 0.5``: a new mask at every step on the embedded words, and on the pooled summary;
* ``variational dropout 0.5``: one mask per sentence on the embedded words, reused at every step;
* ``weight decay 1.0``: AdamW's decoupled decay (each step shrinks every weight by lr × 1.0 = 1 %);
* ``early stopping``: 30 of the 150 snippets held out for validation, accuracy checked every 5 steps,
  stop after 5 checks without improvement, keep the best weights;
* ``more data: 7,464 snippets`` (the whole training part): no remedy, fifty times the labelled
  data, 100 steps.

Seeds 0..N-1 (plus ``$NLP_SEED_OFFSET``). It writes ``nlp_helpers/rnn/overfit_remedy_study.json``
(or the path given as the second argument), read by :func:`nlp_helpers.rnn.regularize.remedy_study`.

Run: ``OMP_NUM_THREADS=1 python -m benchmarks.seed_study_rnn_overfit [n_seeds] [out.json]``
(about 40 s of CPU per seed).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import torch

from nlp_helpers.data.polarity import polarity_split
from nlp_helpers.rnn.classify import SequenceClassifier, accuracy, pad_sequences, token_ids, train_classifier
from nlp_helpers.rnn.regularize import REMEDY_STUDY_FILE
from nlp_helpers.seeds import manual_seed, seed

# remedy -> (number of training snippets, model keywords, training keywords)
REMEDIES = {
    "none, 40 steps": (150, {}, {"steps": 40}),
    "none, 100 steps": (150, {}, {"steps": 100}),
    "dropout 0.5": (150, {"dropout": 0.5}, {"steps": 100}),
    "variational dropout 0.5": (150, {"dropout": 0.5, "variational": True}, {"steps": 100}),
    "weight decay 1.0": (150, {}, {"steps": 100, "weight_decay": 1.0}),
    "early stopping": (150, {}, {"steps": 100, "patience": 5}),
    "more data: 7,464 snippets": (7464, {}, {"steps": 100}),
}


def data() -> dict:
    """Token lists and labels of the fixed split's training part, then its test part."""
    parts = polarity_split()
    frame = pd.concat([parts["train"], parts["test"]], ignore_index=True)
    n_train = len(parts["train"])
    return {
        "tokens": [t.split() for t in frame.text],  # the snippets come tokenized
        "labels": torch.tensor(frame.label.to_numpy()),
        "train": np.arange(n_train),
        "test": np.arange(n_train, len(frame)),
    }


def run_one(d: dict, remedy: str, n: int) -> dict:
    n_train, model_kw, train_kw = REMEDIES[remedy]
    train_idx, test_idx = d["train"][:n_train], d["test"]
    vocab = sorted({w for i in train_idx for w in d["tokens"][i]})
    X, lengths = pad_sequences(token_ids(d["tokens"], vocab))
    y = d["labels"]
    fit_idx = train_idx
    if "patience" in train_kw:  # hold out 30 of the training snippets for validation
        fit_idx, val_idx = train_idx[:120], train_idx[120:]
        train_kw = train_kw | {"valid": (X[val_idx], y[val_idx], lengths[val_idx]), "eval_every": 5}
    manual_seed(n)
    model = SequenceClassifier(
        len(vocab) + 2, cell="lstm", pooling="max", bidirectional=True, hidden_size=32, embedding_dim=32, **model_kw
    )
    history = train_classifier(
        model, X[fit_idx], y[fit_idx], lengths[fit_idx], lr=1e-2, seed=n, progress=False, **train_kw
    )
    return {
        "remedy": remedy,
        "seed": seed(n),
        "train_acc": accuracy(model, X[fit_idx], y[fit_idx], lengths[fit_idx]),
        "test_acc": accuracy(model, X[test_idx], y[test_idx], lengths[test_idx]),
        "steps": int(history.attrs.get("best_step", train_kw["steps"])),
    }


if __name__ == "__main__":
    torch.set_num_threads(1)
    n_seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else REMEDY_STUDY_FILE
    d = data()
    runs = []
    for n in range(n_seeds):
        for remedy in REMEDIES:
            runs.append(run_one(d, remedy, n))
            print(runs[-1], flush=True)
    about = __doc__.split("\n\n")[0]
    kernels = os.environ.get("ATEN_CPU_CAPABILITY", "native")
    out.write_text(json.dumps({"about": about, "kernels": kernels, "runs": runs}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")
