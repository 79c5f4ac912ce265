"""How the number of negative samples k and the dimension d change our skip-gram's scores.

At the chapter's setting (window 5, min_count 5, subsampling 1e-3, 3 epochs, alpha 0.05) this script
trains our skip-gram (``nlp_helpers.word2vec.sgns.Word2Vec``) along two one-dimensional sweeps that meet
at the chapter's point (k = 5, d = 50):

* k = 1, 10 and 20 negative samples per pair at d = 50,
* d = 25, 100 and 200 dimensions at k = 5,

for seeds 0..N-1 (plus ``$NLP_SEED_OFFSET``), and records WordSim353 and SimLex-999 Spearman rho and
3CosAdd analogy accuracy. It writes ``nlp_helpers/data/files/word2vec_hyper_study.csv`` (one row per
run), which the chapter's extensions page reads. The chapter's point itself is not retrained: it is our
skip-gram of ``benchmarks/seed_study_word2vec.py`` (the same settings, ten seeds).

Run: ``python -m benchmarks.word2vec_hyper_study [n_seeds]`` (runs already in the file are kept; delete
the file to start afresh).
"""

from __future__ import annotations

import sys
import time

import pandas as pd

from benchmarks.word2vec_common import scores, sentences
from nlp_helpers.seeds import seed
from nlp_helpers.word2vec.evaluation import HYPER_STUDY_FILE
from nlp_helpers.word2vec.sgns import Word2Vec

BASE = dict(dim=50, window=5, negative=5, min_count=5, subsample=1e-3, epochs=3, alpha=0.05)
# (negative, dim), in the order they are trained; settings added here are appended to the file.
CONFIGS = [(1, 50), (20, 50), (10, 50), (5, 25), (5, 100), (5, 200)]


def run(n_seeds: int = 5) -> pd.DataFrame:
    """Train every (k, d) of ``CONFIGS`` with ``n_seeds`` seeds; appends rows to the file after every run."""
    sents = sentences()
    done = pd.read_csv(HYPER_STUDY_FILE) if HYPER_STUDY_FILE.exists() else pd.DataFrame()
    for k, d in CONFIGS:
        for s in range(n_seeds):
            if len(done) and ((done.negative == k) & (done.dim == d) & (done.seed == seed(s))).any():
                continue
            start = time.perf_counter()
            model = Word2Vec(sg=True, seed=s, **{**BASE, "negative": k, "dim": d}).fit(sents, progress=False)
            sc = scores(model)
            row = {
                "negative": k,
                "dim": d,
                "seed": seed(s),
                "wordsim353": sc["wordsim353"],
                "simlex999": sc["simlex999"],
                "analogy": sc["analogy"],
                "seconds": round(time.perf_counter() - start, 1),
            }
            print(row, flush=True)
            done = pd.concat([done, pd.DataFrame([row])], ignore_index=True)
            done.round(6).to_csv(HYPER_STUDY_FILE, index=False)
    return done


if __name__ == "__main__":
    table = run(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
    print(table.groupby(["negative", "dim"])[["wordsim353", "simlex999", "analogy"]].agg(["mean", "std"]))
