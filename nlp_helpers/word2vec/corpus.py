"""Word2vec's training data: the vocabulary, frequent-word subsampling, the noise distribution, and skip-gram / CBOW examples."""

from __future__ import annotations

import collections
from collections.abc import Iterable, Sequence

import numpy as np

from nlp_helpers._checks import check_array, check_float, check_int, check_nonempty, check_type

__all__ = [
    "Vocabulary",
    "build_vocab",
    "cbow_examples",
    "encode_corpus",
    "keep_probabilities",
    "noise_distribution",
    "noise_table",
    "skipgram_pairs",
]


# --------------------------------------------------------------------------- vocabulary
class Vocabulary:
    """Words sorted by descending count (ties alphabetically), with their counts.

    ``words[i]`` is word ``i``; ``counts[i]`` its corpus frequency; ``index[word] == i``.
    """

    def __init__(self, words: Sequence[str], counts: Sequence[int]) -> None:
        if len(words) != len(counts):
            raise ValueError(f"words has {len(words)} entries but counts has {len(counts)}")
        if len(set(words)) != len(words):
            raise ValueError("words must not contain duplicates")
        self.words = tuple(words)
        self.counts = check_array("counts", counts, ndim=1, dtype=np.int64)  # (V,)
        if (self.counts < 0).any():
            raise ValueError("counts must be non-negative word counts")
        self.index = {w: i for i, w in enumerate(self.words)}

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: object) -> bool:
        return word in self.index

    def __repr__(self) -> str:
        return f"Vocabulary({len(self)} words, {int(self.counts.sum())} tokens)"


def build_vocab(sentences: Iterable[Sequence[str]], min_count: int = 5) -> Vocabulary:
    """Count the words of ``sentences`` (lists of tokens) and keep those seen at least ``min_count`` times."""
    min_count = check_int("min_count", min_count, minimum=1)
    sentences = check_nonempty("sentences", sentences)
    counter: collections.Counter[str] = collections.Counter()
    for i, sent in enumerate(sentences):
        if isinstance(sent, str):
            raise TypeError(f"sentences[{i}] must be a list of tokens, got a str; split it into words first")
        counter.update(sent)
    if not counter:
        raise ValueError("sentences must contain at least one token (all sentences are empty)")
    kept = sorted(((w, c) for w, c in counter.items() if c >= min_count), key=lambda wc: (-wc[1], wc[0]))
    if not kept:
        raise ValueError(f"no word occurs min_count={min_count} times; lower min_count or use a larger corpus")
    words, counts = zip(*kept)
    return Vocabulary(words, counts)


def keep_probabilities(counts: np.ndarray, sample: float = 1e-3) -> np.ndarray:
    """Probability of keeping each occurrence of a word when subsampling frequent words, shape (V,).

    word2vec.c / gensim formula with ``t = sample * total``: ``p = (sqrt(c/t) + 1) * t/c``, capped at 1.
    Words rarer than about ``t`` are always kept; ``sample=0`` keeps everything.
    """
    counts = _check_counts(counts)
    sample = check_float("sample", sample, minimum=0.0, maximum=1.0)
    if sample == 0:
        return np.ones_like(counts)
    t = sample * counts.sum()
    with np.errstate(divide="ignore"):  # a count of 0 gives t/0 = inf: such a word (never seen) is always kept
        return np.minimum(1.0, (np.sqrt(counts / t) + 1.0) * t / counts)


def _check_counts(counts: np.ndarray) -> np.ndarray:
    counts = check_array("counts", counts, ndim=1)
    if counts.size == 0 or np.any(counts < 0) or not counts.sum() > 0:
        raise ValueError("counts must be a non-empty 1-D array of non-negative word counts, not all zero")
    return counts


def noise_distribution(counts: np.ndarray, power: float = 0.75) -> np.ndarray:
    """The negative-sampling distribution ``P(w) ∝ count(w)**power``, shape (V,), sums to 1."""
    counts = check_array("counts", counts, ndim=1)
    power = check_float("power", power, minimum=0.0)
    if counts.ndim != 1 or counts.size == 0 or np.any(counts <= 0):
        raise ValueError("counts must be a non-empty 1-D array of positive counts")
    with np.errstate(over="ignore"):
        weights = counts**power
    if not np.isfinite(weights.sum()):  # a large power overflows: divide by the largest count first (same ratios)
        weights = (counts / counts.max()) ** power
    return weights / weights.sum()


def noise_table(counts: np.ndarray, power: float = 0.75, size: int = 1_000_000) -> np.ndarray:
    """A table of word ids in which word ``w`` fills about ``size * P(w)`` slots (word2vec.c's unigram table).

    Drawing a uniform slot then costs O(1): ``table[rng.integers(size, size=n)]``.
    Largest-remainder rounding makes the table exactly ``size`` long.
    """
    size = check_int("size", size, minimum=1)
    p = noise_distribution(counts, power)
    slots = p * size
    n = np.floor(slots).astype(np.int64)
    short = size - int(n.sum())
    n[np.argsort(-(slots - n), kind="stable")[:short]] += 1  # give the leftover slots to the largest remainders
    return np.repeat(np.arange(len(p), dtype=np.int64), n)


# --------------------------------------------------------------------------- training examples
def encode_corpus(sentences: Sequence[Sequence[str]], vocab: Vocabulary) -> tuple[np.ndarray, np.ndarray]:
    """Word ids of all in-vocabulary tokens, concatenated, and the sentence each one came from: two (N,) arrays.

    Out-of-vocabulary tokens are dropped *before* windows are formed, as in word2vec.c.
    """
    sentences = check_nonempty("sentences", sentences)
    check_type("vocab", vocab, Vocabulary)
    ids, sent_ids = [], []
    for s, sent in enumerate(sentences):
        if isinstance(sent, str):
            raise TypeError(f"sentences[{s}] must be a list of tokens, got a str; split it into words first")
        row = [vocab.index[w] for w in sent if w in vocab.index]
        ids.append(np.asarray(row, dtype=np.int64))
        sent_ids.append(np.full(len(row), s, dtype=np.int64))
    return np.concatenate(ids), np.concatenate(sent_ids)


def skipgram_pairs(
    ids: np.ndarray, sent_ids: np.ndarray, window: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """All (centre, context) pairs within a reduced random window, vectorised: two (P,) arrays.

    Each centre draws its own window ``b ~ U{1..window}`` (so near words count more, on average),
    and pairs never cross a sentence boundary.
    """
    window = check_int("window", window, minimum=1)
    ids, sent_ids = _check_ids_rng(ids, sent_ids, rng)
    b = rng.integers(1, window + 1, size=len(ids))  # reduced window of every centre
    centres, contexts = [], []
    for off in range(1, window + 1):
        same = sent_ids[:-off] == sent_ids[off:]
        right = same & (b[:-off] >= off)  # centre i, context i + off
        left = same & (b[off:] >= off)  # centre i + off, context i
        centres += [ids[:-off][right], ids[off:][left]]
        contexts += [ids[off:][right], ids[:-off][left]]
    return np.concatenate(centres), np.concatenate(contexts)


def cbow_examples(
    ids: np.ndarray, sent_ids: np.ndarray, window: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """CBOW examples: padded context ids (N, 2*window) with -1 for "no word", and the centre ids (N,).

    Uses the same reduced random window as :func:`skipgram_pairs`; centres without any context are dropped.
    """
    window = check_int("window", window, minimum=1)
    ids, sent_ids = _check_ids_rng(ids, sent_ids, rng)
    n = len(ids)
    b = rng.integers(1, window + 1, size=n)
    ctx = np.full((n, 2 * window), -1, dtype=np.int64)
    for j, off in enumerate(range(1, window + 1)):
        right = (sent_ids[:-off] == sent_ids[off:]) & (b[:-off] >= off)
        ctx[:-off, 2 * j][right] = ids[off:][right]  # the word `off` places to the right of centre i
        left = (sent_ids[off:] == sent_ids[:-off]) & (b[off:] >= off)
        ctx[off:, 2 * j + 1][left] = ids[:-off][left]
    has = (ctx >= 0).any(axis=1)
    return ctx[has], ids[has]


def _check_ids_rng(ids: np.ndarray, sent_ids: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    ids = check_array("ids", ids, ndim=1, dtype=np.int64)
    sent_ids = check_array("sent_ids", sent_ids, ndim=1, dtype=np.int64)
    if len(ids) != len(sent_ids):
        raise ValueError(
            f"ids and sent_ids must have the same length (one sentence id per word), got {len(ids)} and {len(sent_ids)}"
        )
    check_type("rng", rng, np.random.Generator)
    return ids, sent_ids
