"""Training a Unigram language-model tokenizer: EM over all segmentations, then pruning.

What it implements
    Kudo (2018), "Subword Regularization", section 3.2. A unigram model gives each piece ``x``
    a probability ``p(x)``; a word's likelihood is the sum over all its segmentations of the
    product of their pieces' probabilities. Training starts from a large seed vocabulary (every
    character plus the most frequent substrings) and repeats:

    * E-step (:func:`expected_counts`): the expected number of times each piece is used, over all
      segmentations of every word weighted by their posterior probability. The forward-backward
      algorithm over the lattice of pieces computes it in ``O(n * L)`` per word of ``n``
      characters (``L`` = longest piece): ``alpha[j] = log p(word[:j])`` summed over all splits,
      ``beta[i] = log p(word[i:])``, and the piece ``word[i:j]`` gets the posterior
      ``exp(alpha[i] + log p(piece) + beta[j] - alpha[n])``.
    * M-step: ``p(x) = count(x) / sum of counts``.
    * Pruning, after a few EM steps: each multi-character piece ``x`` is scored by the
      log-likelihood the corpus would lose if ``x`` were replaced by its best segmentation into
      the other pieces, ``count(x) * (log p(x) - log p(best split of x without x))`` (the
      approximation SentencePiece makes); the lowest-scoring ones are removed so that the
      vocabulary shrinks by the factor ``shrink``. Single characters are never removed, so every
      word stays writable.

    It stops when the vocabulary has ``vocab_size`` pieces, then runs a last round of EM.

What it leaves out
    SentencePiece's and Hugging Face's details: their seed vocabulary comes from a suffix array
    (top substrings by frequency x length), their M-step uses a Bayesian (digamma) update that
    drives rare pieces to zero, and they trim the final vocabulary by probability. So the pieces
    they learn differ from these, though the algorithm is the same.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from nlp_helpers._checks import check_int
from nlp_helpers.tokenization.unigram import check_log_probs

__all__ = ["UnigramTraining", "check_word_counts", "expected_counts", "seed_vocabulary", "train_unigram"]


@dataclass
class UnigramTraining:
    """The result of :func:`train_unigram`.

    ``log_probs`` maps each piece of the final vocabulary to its log probability; ``history`` has
    one row per EM step: ``(round, vocabulary size, corpus log-likelihood in nats)``.
    """

    log_probs: dict[str, float]
    history: list[tuple[int, int, float]] = field(default_factory=list)


def check_word_counts(word_counts: Mapping[str, int]) -> dict[str, int]:
    """Check a word -> count mapping (non-empty str keys, positive int counts) and return it as a dict."""
    if not isinstance(word_counts, Mapping):
        raise TypeError(f"word_counts must be a mapping word -> count, got {type(word_counts).__name__}")
    if not word_counts:
        raise ValueError("word_counts must not be empty")
    out = {}
    for word, count in word_counts.items():
        if not (isinstance(word, str) and word):
            raise ValueError(f"word_counts keys must be non-empty strings, got {word!r}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(f"word_counts[{word!r}] must be a positive int, got {count!r}")
        out[word] = count
    return out


def expected_counts(word_counts: Mapping[str, int], log_probs: Mapping[str, float]) -> tuple[dict[str, float], float]:
    """The E-step: expected uses of each piece over all segmentations, and the corpus log-likelihood.

    >>> counts, ll = expected_counts({"ab": 1}, {"a": math.log(0.25), "b": math.log(0.25), "ab": math.log(0.5)})
    >>> round(counts["ab"], 6), round(counts["a"], 6), round(ll, 6) == round(math.log(0.5625), 6)
    (0.888889, 0.111111, True)

    Raises ``ValueError`` if a word cannot be written with the pieces of ``log_probs``.
    """
    word_counts = check_word_counts(word_counts)
    log_probs = check_log_probs(log_probs)
    return _expected_counts(word_counts, log_probs)


def _logaddexp(a: float, b: float) -> float:
    if a == -math.inf:
        return b
    if b == -math.inf:
        return a
    hi, lo = (a, b) if a > b else (b, a)
    return hi + math.log1p(math.exp(lo - hi))


def _expected_counts(word_counts: dict[str, int], log_probs: dict[str, float]) -> tuple[dict[str, float], float]:
    longest = max(map(len, log_probs))
    counts: dict[str, float] = Counter()
    total = 0.0
    for word, c in word_counts.items():
        n = len(word)
        edges = [  # (i, j, log p(word[i:j])) for every piece of the lattice
            (i, j, log_probs[word[i:j]])
            for i in range(n)
            for j in range(i + 1, min(n, i + longest) + 1)
            if word[i:j] in log_probs
        ]
        alpha = [0.0] + [-math.inf] * n
        for i, j, lp in edges:  # sorted by i: alpha[i] is final when its edges are read
            alpha[j] = _logaddexp(alpha[j], alpha[i] + lp)
        if alpha[n] == -math.inf:
            raise ValueError(f"word {word!r} of word_counts cannot be written with the pieces of log_probs")
        beta = [-math.inf] * n + [0.0]
        for i, j, lp in reversed(edges):  # sorted by decreasing i: beta[j] is final
            beta[i] = _logaddexp(beta[i], lp + beta[j])
        for i, j, lp in edges:
            counts[word[i:j]] += c * math.exp(alpha[i] + lp + beta[j] - alpha[n])
        total += c * alpha[n]
    return dict(counts), total


def seed_vocabulary(word_counts: Mapping[str, int], size: int, max_piece_length: int = 16) -> dict[str, float]:
    """Every character plus the ``size`` most frequent longer substrings (by count x length), as log probs.

    A substring's count is the number of its occurrences in the corpus (each word weighted by its
    count); the log probabilities are the counts normalised, the starting point of EM.
    """
    word_counts = check_word_counts(word_counts)
    size = check_int("size", size, minimum=0)
    max_piece_length = check_int("max_piece_length", max_piece_length, minimum=1)
    return _seed(word_counts, size, max_piece_length)


def _seed(word_counts: dict[str, int], size: int, max_len: int) -> dict[str, float]:
    subs: Counter = Counter()
    for word, c in word_counts.items():
        for i in range(len(word)):
            for j in range(i + 1, min(len(word), i + max_len) + 1):
                subs[word[i:j]] += c
    chars = {s: n for s, n in subs.items() if len(s) == 1}
    longer = sorted((s for s in subs if len(s) > 1 and subs[s] > 1), key=lambda s: (-subs[s] * len(s), s))
    kept = chars | {s: subs[s] for s in longer[:size]}
    total = sum(kept.values())
    return {s: math.log(n / total) for s, n in kept.items()}


def train_unigram(
    word_counts: Mapping[str, int],
    vocab_size: int,
    *,
    seed_size: int = 10_000,
    max_piece_length: int = 16,
    shrink: float = 0.75,
    em_steps: int = 2,
) -> UnigramTraining:
    """Train a Unigram tokenizer's vocabulary of ``vocab_size`` pieces (or all the characters, if more).

    ``seed_size`` longer substrings start the vocabulary; each round runs ``em_steps`` EM steps and
    keeps the ``shrink`` fraction of the pieces that lose the most likelihood when removed.
    """
    word_counts = check_word_counts(word_counts)
    vocab_size = check_int("vocab_size", vocab_size, minimum=1)
    seed_size = check_int("seed_size", seed_size, minimum=0)
    max_piece_length = check_int("max_piece_length", max_piece_length, minimum=1)
    em_steps = check_int("em_steps", em_steps, minimum=1)
    if isinstance(shrink, bool) or not isinstance(shrink, (int, float)) or not 0 < shrink < 1:
        raise ValueError(f"shrink must be a number strictly between 0 and 1, got {shrink!r}")
    return _train(word_counts, vocab_size, _seed(word_counts, seed_size, max_piece_length), shrink, em_steps)


def _em_step(word_counts: dict[str, int], log_probs: dict[str, float]) -> tuple[dict[str, float], dict, float]:
    counts, loglik = _expected_counts(word_counts, log_probs)
    counts = {p: c for p, c in counts.items() if c > 0 or len(p) == 1}
    total = sum(counts.values())
    return {p: math.log(max(c, 1e-300) / total) for p, c in counts.items()}, counts, loglik


def _prune(log_probs: dict[str, float], counts: dict[str, float], keep: int) -> dict[str, float]:
    loss = {
        piece: counts.get(piece, 0.0) * (lp - _best_split_without_itself(piece, log_probs))
        for piece, lp in log_probs.items()
        if len(piece) > 1
    }
    chars = [p for p in log_probs if len(p) == 1]
    best = sorted(loss, key=lambda p: (-loss[p], p))[: max(keep - len(chars), 0)]
    return {p: log_probs[p] for p in chars + best}


def _best_split_without_itself(piece: str, log_probs: dict[str, float]) -> float:
    """Viterbi's best log probability of ``piece`` written with at least two pieces."""
    n = len(piece)
    best = [0.0] + [-math.inf] * n
    for j in range(1, n + 1):
        for i in range(1 if j == n else 0, j):
            lp = log_probs.get(piece[i:j])
            if lp is not None and best[i] + lp > best[j]:
                best[j] = best[i] + lp
    return best[n]


def _train(word_counts, vocab_size, log_probs, shrink, em_steps) -> UnigramTraining:
    history: list[tuple[int, int, float]] = []
    n_chars = sum(len(p) == 1 for p in log_probs)
    rnd = 0
    while True:
        for _ in range(em_steps):
            size = len(log_probs)
            log_probs, counts, loglik = _em_step(word_counts, log_probs)
            history.append((rnd, size, loglik))
        if len(log_probs) <= max(vocab_size, n_chars):
            return UnigramTraining(log_probs, history)
        keep = max(vocab_size, int(len(log_probs) * shrink))
        log_probs = _prune(log_probs, counts, keep)
        rnd += 1
