"""The RNN chapter's source-reversal comparison over several seeds.

The chapter trains its encoder-decoder without attention once, on the reversal task with the source
*reversed* relative to the target (in the task, output i is input n-1-i). Sutskever et al.'s
comparison needs a second model that sees the source in target order (a copy task); a notebook has
45 s, so this script trains both, at the chapter's settings (embedding 32, hidden 48, 300 Adam steps
of 64 pairs, lr 1e-2, clipping at 1), for seeds 0..N-1 (plus ``$NLP_SEED_OFFSET``), and scores them
with greedy decoding on the chapter's 1,000 test pairs: token accuracy over all lengths and the share
of exactly right outputs by source length.

It writes ``nlp_helpers/rnn/source_reversal_study.json``, which the chapter reads with
:func:`nlp_helpers.rnn.seq2seq.source_reversal_study`.

Run: ``python -m benchmarks.seed_study_rnn [n_seeds]`` (about 12 s of CPU per seed).
"""

from __future__ import annotations

import json
import sys

import numpy as np
import pandas as pd

from nlp_helpers.rnn.seq2seq import STUDY_FILE, Seq2Seq, evaluate, reversal_task, train_seq2seq
from nlp_helpers.seeds import manual_seed, seed

BINS = [2, 5, 8, 10, 12]
LABELS = ["3–5", "6–8", "9–10", "11–12"]


def run(n: int) -> list[dict]:
    train = reversal_task(5000, 3, 12, n_symbols=10, seed=0)
    test = reversal_task(1000, 3, 12, n_symbols=10, seed=1)
    bins = pd.cut(pd.Series([len(s) for s, _ in test]), BINS, labels=LABELS)
    rows = []
    for setting, to_pairs in [
        ("source reversed", lambda pairs: pairs),
        ("source in order", lambda pairs: [(t, t) for _, t in pairs]),
    ]:
        manual_seed(n)
        model = Seq2Seq(13, embedding_dim=32, hidden_size=48, attention=False)
        train_seq2seq(model, to_pairs(train), steps=300, batch_size=64, lr=1e-2, seed=n, progress=False)
        ev = evaluate(model, to_pairs(test))
        exact = ev.groupby(bins.values, observed=True).exact.mean()
        rows.append(
            {"setting": setting, "seed": seed(n), "token_acc": float(ev.token_acc.mean())}
            | {f"exact {k}": float(v) for k, v in exact.items()}
        )
        print(rows[-1], flush=True)
    return rows


def main(n_seeds: int = 8) -> None:
    rows = [r for n in range(n_seeds) for r in run(n)]
    STUDY_FILE.write_text(json.dumps({"about": __doc__.split("\n\n")[0], "runs": rows}, indent=1) + "\n")
    df = pd.DataFrame(rows)
    print(df.groupby("setting").agg(["mean", "std", "min", "max"]).T)
    diff = df[df.setting == "source reversed"].token_acc.values - df[df.setting == "source in order"].token_acc.values
    print("token-accuracy gain of reversal per seed:", np.round(diff, 3))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 8)
