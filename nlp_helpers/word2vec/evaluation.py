"""Word vectors and their intrinsic evaluation: neighbours, analogies, WordSim353/SimLex, the Google analogy set.

:class:`WordVectors` wraps a vocabulary and a (V, d) matrix. Its evaluations
follow gensim's ``KeyedVectors.evaluate_word_pairs`` and
``evaluate_word_analogies`` (pairs or questions with an out-of-vocabulary word are
skipped and counted; analogies use 3CosAdd on unit vectors, never answering
one of the three question words), so our models and gensim's can be scored by the
same code. Left out: gensim's ``restrict_vocab`` and case folding (our corpora
are lower-cased already).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from nlp_helpers._checks import check_array, check_choice, check_int, check_text

__all__ = ["WordVectors", "read_analogies", "seed_study", "SEED_STUDY_FILE", "HYPER_STUDY_FILE"]

# Written by benchmarks/seed_study_word2vec.py: the chapter's models trained with several seeds.
SEED_STUDY_FILE = Path(__file__).parents[1] / "data" / "files" / "word2vec_seed_study.csv"
# Written by benchmarks/word2vec_hyper_study.py: our skip-gram with k negatives and d dimensions, several seeds.
HYPER_STUDY_FILE = SEED_STUDY_FILE.with_name("word2vec_hyper_study.csv")


class WordVectors:
    """A vocabulary ``words`` (V,) with one row of ``vectors`` (V, d) per word."""

    def __init__(self, words: Sequence[str], vectors: Any) -> None:
        self.words = [check_text(f"words[{i}]", w) for i, w in enumerate(words)]
        self.vectors = check_array("vectors", vectors, ndim=2, dtype=np.float32)
        if len(self.words) != self.vectors.shape[0]:
            raise ValueError(f"words has {len(self.words)} entries but vectors has {self.vectors.shape[0]} rows")
        self._reset_index()

    @classmethod
    def from_gensim(cls, keyed_vectors: Any) -> WordVectors:
        """Wrap a gensim ``KeyedVectors`` (e.g. ``model.wv``) to score it with the same code as ours."""
        return cls(list(keyed_vectors.index_to_key), np.asarray(keyed_vectors.vectors))

    def _reset_index(self) -> None:
        if len(set(self.words)) != len(self.words):
            raise ValueError("words must not contain duplicates")
        self.index = {w: i for i, w in enumerate(self.words)}
        norms = np.linalg.norm(self.vectors, axis=1, keepdims=True)
        self.unit = self.vectors / np.maximum(norms, 1e-12)  # (V, d) rows of length 1 (0 stays 0)

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: object) -> bool:
        return word in self.index

    def _id(self, word: str, name: str = "word") -> int:
        check_text(name, word)
        if not self.index:
            raise ValueError("the model has no vocabulary yet; call fit(sentences) first")
        if word not in self.index:
            raise KeyError(
                f"{name} {word!r} is not in the vocabulary ({len(self)} words); it was unseen or rarer than min_count"
            )
        return self.index[word]

    def vector(self, word: str) -> np.ndarray:
        """The embedding of ``word``, shape (d,). Raises ``KeyError`` naming the word if it is unknown."""
        return self.vectors[self._id(word)].copy()

    def similarity(self, word1: str, word2: str) -> float:
        """Cosine similarity of two words' vectors, in [-1, 1]."""
        return float(self.unit[self._id(word1, "word1")] @ self.unit[self._id(word2, "word2")])

    def nearest(self, query: Any, topn: int = 10, exclude: Iterable[str] = ()) -> list[tuple[str, float]]:
        """The ``topn`` words whose vectors have the largest cosine with the vector ``query`` (d,)."""
        topn = check_int("topn", topn, minimum=1)
        q = check_array("query", query, shape=(self.vectors.shape[1],), dtype=np.float32)
        scores = self.unit @ (q / max(float(np.linalg.norm(q)), 1e-12))  # (V,)
        for w in exclude:
            scores[self._id(w, "exclude word")] = -np.inf
        best = np.argsort(-scores, kind="stable")[:topn]
        return [(self.words[i], float(scores[i])) for i in best if np.isfinite(scores[i])]

    def most_similar(self, word: str, topn: int = 10) -> list[tuple[str, float]]:
        """The ``topn`` nearest neighbours of ``word`` by cosine similarity (the word itself excluded)."""
        return self.nearest(self.unit[self._id(word)], topn, exclude=[word])

    def analogy(self, a: str, b: str, c: str, topn: int = 1) -> list[tuple[str, float]]:
        """Solve "``a`` is to ``b`` as ``c`` is to ?" by 3CosAdd: nearest to ``b̂ - â + ĉ``, excluding a, b, c.

        ``analogy("man", "king", "woman")`` computes king - man + woman.
        """
        ia, ib, ic = self._id(a, "a"), self._id(b, "b"), self._id(c, "c")
        return self.nearest(self.unit[ib] - self.unit[ia] + self.unit[ic], topn, exclude={a, b, c})

    def evaluate_similarity(self, pairs: pd.DataFrame | Iterable[tuple[str, str, float]]) -> dict[str, float]:
        """Spearman's ρ (and Pearson's r) between cosine similarity and human scores of word pairs.

        ``pairs`` is a DataFrame with columns ``word1, word2, score`` (as ``nlp_helpers.data.corpora.wordsim353()``)
        or ``(word1, word2, score)`` tuples. Pairs with an unknown word are skipped; ``oov_rate`` is
        their fraction.
        """
        if isinstance(pairs, pd.DataFrame):
            frame = pairs
        else:
            try:
                frame = pd.DataFrame(list(pairs), columns=["word1", "word2", "score"])
            except (TypeError, ValueError) as exc:
                raise ValueError(
                    f"pairs must be (word1, word2, score) tuples or a DataFrame with those columns: {exc}"
                ) from None
        missing = {"word1", "word2", "score"} - set(frame.columns)
        if missing:
            raise ValueError(f"pairs must have columns word1, word2, score; missing {sorted(missing)}")
        if len(frame) == 0:
            raise ValueError("pairs must not be empty")
        known = [w1 in self.index and w2 in self.index for w1, w2 in zip(frame.word1, frame.word2)]
        used = frame[known]
        if len(used) < 3:
            raise ValueError(f"only {len(used)} of {len(frame)} pairs have both words in the vocabulary; need >= 3")
        scores = check_array("pairs score", used.score.to_numpy(), ndim=1)
        cos = [self.similarity(w1, w2) for w1, w2 in zip(used.word1, used.word2)]
        if np.ptp(scores) == 0 or np.ptp(cos) == 0:  # a correlation with a constant is undefined (NaN)
            raise ValueError(
                "a correlation needs varying values: the pairs' human scores or their cosines are all equal"
            )
        return {
            "spearman": float(stats.spearmanr(cos, used.score).statistic),
            "pearson": float(stats.pearsonr(cos, used.score).statistic),
            "pairs_used": len(used),
            "pairs_total": len(frame),
            "oov_rate": 1 - len(used) / len(frame),
        }

    def evaluate_analogies(self, path: str | Path, batch: int = 512, method: str = "3cosadd") -> dict[str, Any]:
        """Accuracy on analogy questions ``a b c d`` (file format of ``questions-words.txt``).

        Only questions whose four words are all in the vocabulary count; the answer is correct when
        :meth:`analogy` ``(a, b, c)`` returns ``d``. Returns ``accuracy``, ``correct``, ``covered``,
        ``total``, ``oov_rate`` and ``sections`` (a DataFrame of accuracy per section).

        ``method="only_c"`` is Linzen's (2016) baseline: answer with the nearest neighbour of ``c``
        (still excluding a, b and c), ignoring ``a`` and ``b``. 3CosAdd is only evidence of a
        relation where it beats this baseline.
        """
        batch = check_int("batch", batch, minimum=1)
        method = check_choice("method", method, ("3cosadd", "only_c"))
        questions = read_analogies(path)
        lower = [tuple(w.lower() for w in q) for q in questions[["a", "b", "c", "d"]].itertuples(index=False)]
        ok = np.array([all(w in self.index for w in q) for q in lower], dtype=bool)
        ids = np.array([[self.index[w] for w in q] for q, k in zip(lower, ok) if k], dtype=np.int64).reshape(-1, 4)
        hits = np.zeros(len(ids), dtype=bool)
        for lo in range(0, len(ids), batch):
            a, b, c, d = ids[lo : lo + batch].T
            query = self.unit[b] - self.unit[a] + self.unit[c] if method == "3cosadd" else self.unit[c]
            scores = query @ self.unit.T  # (Q, V); the norm of a query does not change its argmax
            rows = np.arange(len(a))
            scores[rows, a] = scores[rows, b] = scores[rows, c] = -np.inf  # never answer a question word
            hits[lo : lo + batch] = scores.argmax(axis=1) == d
        covered = questions[ok].assign(correct=hits)
        sections = covered.groupby("section", sort=False)["correct"].agg(["mean", "size"])
        sections = sections.rename(columns={"mean": "accuracy", "size": "covered"}).reset_index()
        return {
            "accuracy": float(hits.mean()) if len(hits) else 0.0,
            "correct": int(hits.sum()),
            "covered": int(ok.sum()),
            "total": len(questions),
            "oov_rate": 1 - float(ok.mean()),
            "sections": sections,
        }


def read_analogies(path: str | Path) -> pd.DataFrame:
    """Read an analogy file (``: section`` header lines, then ``a b c d`` lines) into columns section, a, b, c, d."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"path {str(path)!r} is not a file of analogy questions")
    records, section = [], None
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith(":"):
            section = line[1:].strip()
            continue
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 4 or section is None:
            raise ValueError(f"{path.name} line {lineno}: expected 4 words after a ': section' line, got {line!r}")
        records.append((section, *parts))
    if not records:
        raise ValueError(f"{path.name} contains no analogy questions")
    return pd.DataFrame.from_records(records, columns=["section", "a", "b", "c", "d"])


def seed_study() -> pd.DataFrame:
    """The word2vec chapter's models trained with several seeds, one row per (model, seed).

    Columns ``model, seed, wordsim353, simlex999, analogy, analogy_only_c`` (Spearman rho, and
    accuracy by 3CosAdd and by the nearest neighbour of c); count-based models have no seed (NaN).
    Computed by ``benchmarks/seed_study_word2vec.py``; see its docstring for the settings.
    """
    if not SEED_STUDY_FILE.is_file():
        raise FileNotFoundError(f"{SEED_STUDY_FILE} is missing: run benchmarks/seed_study_word2vec.py")
    return pd.read_csv(SEED_STUDY_FILE)
