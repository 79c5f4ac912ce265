"""Gender bias in our skip-gram vectors, over seeds: a gender direction and a WEAT.

At the chapter's setting (``benchmarks/seed_study_word2vec.py``: 50 dimensions, window 5, 5 negatives,
3 epochs on the Wikipedia sample) this script trains our skip-gram (``nlp_helpers.word2vec.sgns``) with
seeds 0..N-1 (plus ``$NLP_SEED_OFFSET``) and records, for each seed,

* the projection of every occupation word of ``OCCUPATIONS`` on the gender direction built from
  ``GENDER_PAIRS`` (Bolukbasi et al. 2016), and the mean and sd of the projections of all vocabulary words,
* the WEAT effect size and permutation p-value of Caliskan et al. (2017)'s test 8 (science versus
  arts words, male versus female terms).

It writes ``nlp_helpers/data/files/word2vec_bias_study.csv`` (one row per seed and measure), which the
chapter's evaluation page reads.

Run: ``python -m benchmarks.word2vec_bias_study [n_seeds]`` (seeds already in the file are kept).
"""

from __future__ import annotations

import sys
import time

import pandas as pd

from benchmarks.word2vec_common import sentences
from nlp_helpers.seeds import seed
from nlp_helpers.word2vec.bias import (
    BIAS_STUDY_FILE,
    GENDER_PAIRS,
    OCCUPATIONS,
    WEAT_8,
    bias_direction,
    projections,
    weat,
)
from nlp_helpers.word2vec.evaluation import WordVectors
from nlp_helpers.word2vec.sgns import Word2Vec

SETTINGS = dict(dim=50, window=5, negative=5, min_count=5, subsample=1e-3, epochs=3, alpha=0.05)


def measure(wv: WordVectors, seed_value: int) -> list[dict]:
    """The rows of one model: one per occupation (its projection), the vocabulary mean and sd, and the WEAT."""
    g, _ = bias_direction(wv, GENDER_PAIRS)
    proj = projections(wv, OCCUPATIONS, g)
    rows = [{"seed": seed_value, "measure": "projection", "word": w, "value": v} for w, v in proj.items()]
    every_word = projections(wv, wv.words, g)
    for name, value in [("vocabulary mean", every_word.mean()), ("vocabulary sd", every_word.std(ddof=0))]:
        rows.append({"seed": seed_value, "measure": name, "word": "", "value": value})
    test = weat(wv, *WEAT_8)
    rows += [
        {"seed": seed_value, "measure": f"weat8 {k}", "word": "", "value": test[k]} for k in ("effect_size", "p_value")
    ]
    return rows


def run(n_seeds: int = 5) -> pd.DataFrame:
    """Train and measure seeds 0..n_seeds-1; appends rows to the file after every seed."""
    sents = sentences()
    done = pd.read_csv(BIAS_STUDY_FILE, keep_default_na=False) if BIAS_STUDY_FILE.exists() else pd.DataFrame()
    for s in range(n_seeds):
        if len(done) and (done.seed == seed(s)).any():
            continue
        start = time.perf_counter()
        model = Word2Vec(sg=True, seed=s, **SETTINGS).fit(sents, progress=False)
        done = pd.concat([done, pd.DataFrame(measure(model, seed(s)))], ignore_index=True)
        done.round(6).to_csv(BIAS_STUDY_FILE, index=False)
        print(f"seed {seed(s)}: {time.perf_counter() - start:.0f} s", flush=True)
    return done


if __name__ == "__main__":
    table = run(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
    print(table.groupby(["measure", "word"])["value"].agg(["mean", "std", "count"]))
