"""Word vectors on the Wikipedia sample over several seeds: the word2vec chapter's comparison table.

The chapter trains each model once (a notebook has 45 s); this script repeats the training with
seeds 0..N-1 (plus ``$NLP_SEED_OFFSET``, see ``nlp_helpers.seeds``) at the chapter's settings
(50 dimensions, window 5, 5 negatives, min_count 5, subsampling 1e-3, 3 epochs, alpha 0.05) and
scores every run with the same code as the chapter:

* our skip-gram and CBOW (``nlp_helpers.word2vec.sgns.Word2Vec``) and gensim's (one worker thread),
* count-based vectors on the same tokens and vocabulary, which have no seed: PPMI with context
  smoothing alpha = 0.75 from a window of 5 (``nlp_helpers.tfidf``), and its truncated SVD to 50
  dimensions (Levy, Goldberg & Dagan 2015 compare the two families with the same settings).

Columns: model, seed, WordSim353 and SimLex-999 Spearman rho, analogy accuracy by 3CosAdd and by
the nearest neighbour of c alone (Linzen 2016). It writes
``nlp_helpers/data/files/word2vec_seed_study.csv``, which the chapter reads
(``nlp_helpers.word2vec.evaluation.seed_study()``) and checks its own run against.

Run: ``python -m benchmarks.seed_study_word2vec [n_seeds]`` (about 30 s of CPU per seed).

``python -m benchmarks.seed_study_word2vec windows [n_seeds]`` writes the chapter's window study,
``word2vec_window_study.csv`` beside it: gensim skip-gram with a window of 2 and of 10 (32 dimensions,
3 epochs, alpha 0.05, one worker), one row per (window, seed) with both benchmark scores and the six
nearest neighbours of the chapter's probe words (about 14 s of CPU per seed).
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
from scipy import stats

from benchmarks.word2vec_common import scores, sentences, train_gensim
from nlp_helpers.data.corpora import simlex999, wordsim353
from nlp_helpers.seeds import seed
from nlp_helpers.tfidf import cooccurrence, similarity
from nlp_helpers.word2vec.evaluation import SEED_STUDY_FILE, WordVectors
from nlp_helpers.word2vec.sgns import Word2Vec

SETTINGS = dict(dim=50, window=5, negative=5, min_count=5, subsample=1e-3, epochs=3, alpha=0.05)


def sparse_rho(matrix, vocab: list[str], pairs: pd.DataFrame) -> float:
    """Spearman rho of the cosine of sparse rows (as WordVectors.evaluate_similarity, without densifying)."""
    index = {w: i for i, w in enumerate(vocab)}
    used = pairs[pairs.word1.isin(index) & pairs.word2.isin(index)]
    a, b = matrix[[index[w] for w in used.word1]], matrix[[index[w] for w in used.word2]]
    cos = np.diag(similarity.cosine_similarity(a, b))
    return float(stats.spearmanr(cos, used.score).statistic)


def count_models(sents) -> list[dict]:
    cooc, vocab = cooccurrence.cooccurrence_matrix(sents, window=SETTINGS["window"], min_count=SETTINGS["min_count"])
    ppmi = cooccurrence.pmi(cooc, alpha=0.75)
    svd = WordVectors(list(vocab), cooccurrence.truncated_svd(ppmi, n_components=SETTINGS["dim"]))
    rows = [
        {
            "model": "PPMI (alpha 0.75)",
            "seed": np.nan,
            "wordsim353": sparse_rho(ppmi, list(vocab), wordsim353()),
            "simlex999": sparse_rho(ppmi, list(vocab), simlex999()),
            "analogy": np.nan,
            "analogy_only_c": np.nan,
        }
    ]
    rows.append({"model": "PPMI + SVD (50 d)", "seed": np.nan, **scores(svd)})
    return rows


def neural_models(sents, s: int) -> list[dict]:
    rows = []
    for sg, name in [(True, "skip-gram"), (False, "CBOW")]:
        ours = Word2Vec(sg=sg, seed=s, **SETTINGS).fit(sents, progress=False)
        rows.append({"model": f"our {name} (PyTorch)", "seed": seed(s), **scores(ours)})
        theirs = train_gensim(sents, SETTINGS, sg=sg, seed=seed(s))
        rows.append({"model": f"gensim {name}", "seed": seed(s), **scores(WordVectors.from_gensim(theirs.wv))})
    return rows


WINDOW_STUDY_FILE = SEED_STUDY_FILE.with_name("word2vec_window_study.csv")
WINDOW_PROBES = ["church", "played", "france", "king", "war"]
WINDOW_SETTINGS = dict(dim=32, negative=5, min_count=5, epochs=3, alpha=0.05)


def window_study(n_seeds: int = 10, first: int = 0, path=WINDOW_STUDY_FILE) -> pd.DataFrame:
    """Skip-gram with a narrow (2) and a wide (10) window over several seeds: scores and neighbours."""
    sents, rows = sentences(), []
    for s in range(first, first + n_seeds):
        for w in (2, 10):
            model = train_gensim(sents, {**WINDOW_SETTINGS, "window": w}, sg=True, seed=seed(s))
            wv = WordVectors.from_gensim(model.wv)
            row = {"window": w, "seed": seed(s)}
            row["wordsim353"] = wv.evaluate_similarity(wordsim353())["spearman"]
            row["simlex999"] = wv.evaluate_similarity(simlex999())["spearman"]
            row.update({p: ", ".join(x for x, _ in wv.most_similar(p, 6)) for p in WINDOW_PROBES})
            rows.append(row)
        print(pd.DataFrame(rows).tail(2).to_string(index=False), flush=True)
    frame = pd.DataFrame(rows)
    frame.to_csv(path, index=False, float_format="%.6f")
    return frame


def main(n_seeds: int = 10) -> pd.DataFrame:
    sents = sentences()
    rows = count_models(sents)
    for s in range(n_seeds):
        rows += neural_models(sents, s)
        print(pd.DataFrame(rows).tail(4).to_string(index=False), flush=True)
    frame = pd.DataFrame(rows)
    frame.to_csv(SEED_STUDY_FILE, index=False, float_format="%.6f")
    return frame


if __name__ == "__main__" and sys.argv[1:2] == ["windows"]:
    study = window_study(int(sys.argv[2]) if len(sys.argv) > 2 else 10)
    print(study.groupby("window")[["wordsim353", "simlex999"]].agg(["mean", "std"]).to_string())
elif __name__ == "__main__":
    result = main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
    print(result.groupby("model", sort=False).agg(["mean", "std"]).round(3).to_string())
