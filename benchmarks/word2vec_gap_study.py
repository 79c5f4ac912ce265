"""Why our batched skip-gram beats gensim's on the chapter's setting: align one setting at a time.

At the chapter's setting (50 dimensions, window 5, 5 negatives, min_count 5, subsampling 1e-3,
3 epochs, alpha 0.05) our skip-gram (``nlp_helpers.word2vec.sgns.Word2Vec``, mini-batches of 256
pairs) scores clearly higher on WordSim353 than gensim's (one update per pair, one worker). This
script changes one setting at a time, on either side, and records both similarity scores for
seeds 0..N-1 (plus ``$NLP_SEED_OFFSET``):

* the full window for every centre word instead of a random reduced one (gensim ``shrink_windows``),
* a constant learning rate instead of the linear decay (``min_alpha = alpha``),
* ten epochs instead of three,
* subsampling off (``sample=0``),
* smaller batches for ours (32 pairs: closer to one update per pair).

It writes ``nlp_helpers/data/files/word2vec_gap_study.csv`` (one row per run), which the chapter's
evaluation page reads.

Run: ``python -m benchmarks.word2vec_gap_study [n_seeds] [config numbers, e.g. 0,1,2]`` (runs already in
the file are kept; delete the file to start afresh).
"""

from __future__ import annotations

import sys
import time

import pandas as pd

from benchmarks.word2vec_common import sentences, train_gensim
from nlp_helpers.data.corpora import simlex999, wordsim353
from nlp_helpers.seeds import seed
from nlp_helpers.word2vec.evaluation import SEED_STUDY_FILE, WordVectors
from nlp_helpers.word2vec.sgns import Word2Vec

GAP_STUDY_FILE = SEED_STUDY_FILE.with_name("word2vec_gap_study.csv")

BASE = dict(dim=50, window=5, negative=5, min_count=5, subsample=1e-3, epochs=3, alpha=0.05)

# (implementation, change, settings to override). The chapter setting itself comes from the seed study
# (``benchmarks/seed_study_word2vec.py``, ten seeds of ours and of gensim at the same settings).
CONFIGS = [
    ("gensim", "full window (no shrinking)", {"shrink_windows": False}),
    ("gensim", "constant learning rate", {"min_alpha": 0.05}),
    ("gensim", "10 epochs", {"epochs": 10}),
    ("gensim", "no subsampling", {"subsample": 0.0}),
    ("ours", "batches of 32 pairs", {"batch_size": 32}),
]


def _score(wv: WordVectors) -> dict[str, float]:
    return {
        "wordsim353": wv.evaluate_similarity(wordsim353())["spearman"],
        "simlex999": wv.evaluate_similarity(simlex999())["spearman"],
    }


def run(n_seeds: int = 5, configs: list[int] | None = None) -> pd.DataFrame:
    """Train the chosen configurations (all by default) with ``n_seeds`` seeds; appends rows to the file."""
    sents = sentences()
    done = pd.read_csv(GAP_STUDY_FILE) if GAP_STUDY_FILE.exists() else pd.DataFrame()
    for n in configs if configs is not None else range(len(CONFIGS)):
        impl, change, extra = CONFIGS[n]
        settings = {**BASE, **extra}
        for s in range(n_seeds):
            if len(done) and ((done.change == change) & (done.implementation == impl) & (done.seed == seed(s))).any():
                continue
            start = time.perf_counter()
            if impl == "gensim":
                wv = WordVectors.from_gensim(train_gensim(sents, settings, sg=True, seed=seed(s)).wv)
            else:
                wv = Word2Vec(sg=True, seed=s, **settings).fit(sents, progress=False)
            row = {
                "implementation": impl,
                "change": change,
                "seed": seed(s),
                **_score(wv),
                "seconds": round(time.perf_counter() - start, 1),
            }
            print(row, flush=True)
            done = pd.concat([done, pd.DataFrame([row])], ignore_index=True)
            done.round(6).to_csv(GAP_STUDY_FILE, index=False)  # after every run
    return done


if __name__ == "__main__":
    table = run(
        int(sys.argv[1]) if len(sys.argv) > 1 else 5,
        [int(x) for x in sys.argv[2].split(",")] if len(sys.argv) > 2 else None,
    )
    print(table.groupby(["implementation", "change"], sort=False)[["wordsim353", "simlex999"]].agg(["mean", "std"]))
