"""What the word2vec benchmark and seed-study scripts share: the corpus, the scores, gensim's trainer.

``bench_word2vec`` (the standard setting, against gensim) and ``seed_study_word2vec`` (the chapter's
setting over many seeds) must cut the corpus, score vectors and call gensim the same way, or their
numbers would not be comparable with each other or with the chapter.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from nlp_helpers.data.corpora import analogy_questions_path, simlex999, wikipedia_tokens, wordsim353
from nlp_helpers.word2vec.evaluation import WordVectors

logging.getLogger("gensim").setLevel(logging.ERROR)

# gensim truncates sentences longer than 10,000 tokens, so every script cuts the articles there.
MAX_SENTENCE = 10_000


def sentences() -> list[list[str]]:
    """The Wikipedia sample cut into pieces of at most ``MAX_SENTENCE`` tokens."""
    return [list(a[i : i + MAX_SENTENCE]) for a in wikipedia_tokens() for i in range(0, len(a), MAX_SENTENCE)]


def scores(wv: WordVectors) -> dict[str, float]:
    """WordSim353 and SimLex-999 Spearman rho, and analogy accuracy by 3CosAdd and by the neighbour of c."""
    path = analogy_questions_path()
    return {
        "wordsim353": wv.evaluate_similarity(wordsim353())["spearman"],
        "simlex999": wv.evaluate_similarity(simlex999())["spearman"],
        "analogy": wv.evaluate_analogies(path)["accuracy"],
        "analogy_only_c": wv.evaluate_analogies(path, method="only_c")["accuracy"],
    }


def train_gensim(sents: list[list[str]], settings: Mapping[str, Any], sg: bool, seed: int, workers: int = 1) -> Any:
    """gensim's ``Word2Vec`` with the keys of our ``Word2Vec`` settings translated to gensim's names."""
    from gensim.models import Word2Vec as GensimWord2Vec

    names = {"dim": "vector_size", "subsample": "sample"}
    kwargs = {names.get(k, k): v for k, v in settings.items()}
    return GensimWord2Vec(sents, sg=int(sg), workers=workers, seed=seed, **kwargs)
