"""A hidden Markov model part-of-speech tagger in the style of TnT (Brants, 2000), first order.

The model: tags form a Markov chain, ``P(t_i | t_{i-1})``, with a start and an end-of-sentence
state; each tag emits a word, ``P(w_i | t_i)``. Both are estimated by counting (maximum
likelihood), with two repairs that make it work on real text:

* **Transitions** are interpolated with the unigram tag distribution,
  ``lambda_2 P(t | t') + lambda_1 P(t)``, the lambdas set by TnT's *deleted interpolation*.
* **Unknown words** get ``P(w | t) proportional to P(t | suffix) / P(t)``: ``P(t | suffix)`` comes from the
  rare training words (count <= ``rare_max``) ending in the same last letters (up to ``max_suffix``),
  each longer suffix smoothed towards the shorter one with TnT's weight ``theta`` (the standard
  deviation of the tag probabilities), separately for capitalised and other words.

Decoding is :func:`nlp_helpers.tagging.viterbi.viterbi`. Leaves out: TnT's second-order (trigram)
transitions and beam search; known words keep only the tags they were seen with (as TnT's lexicon).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from nlp_helpers._checks import check_int, check_text
from nlp_helpers.tagging.baseline import check_tagged_sentences
from nlp_helpers.tagging.viterbi import viterbi

__all__ = ["HMMTagger"]

_FLOOR = 1e-12  # a tiny corpus may give a weight of 0; no transition becomes impossible


class HMMTagger:
    """A bigram HMM tagger with interpolated transitions and a TnT suffix model for unknown words.

    Args:
        max_suffix: longest word ending used for unknown words (TnT: 10).
        rare_max: words seen at most this often in training feed the suffix model (TnT: 10).

    After :meth:`fit`: ``tags`` (K tag names), ``log_start`` (K,), ``log_trans`` (K, K),
    ``log_end`` (K,), ``lambdas`` (bigram, unigram weights) and ``theta``.

    >>> hmm = HMMTagger().fit([[("the", "DET"), ("dog", "NOUN"), ("runs", "VERB")],
    ...                        [("a", "DET"), ("cat", "NOUN"), ("sleeps", "VERB")]])
    >>> hmm.tag(["the", "cat", "runs"])
    ['DET', 'NOUN', 'VERB']
    """

    def __init__(self, order: int = 3, max_suffix: int = 10, rare_max: int = 10) -> None:
        self.order = check_int("order", order, minimum=2, maximum=3)
        self.max_suffix = check_int("max_suffix", max_suffix, minimum=0)
        self.rare_max = check_int("rare_max", rare_max, minimum=1)
        self.tags: list[str] = []

    # ----- training -----
    def fit(self, sentences) -> HMMTagger:
        """Estimate the model from ``sentences``: lists of ``(word, tag)`` pairs."""
        sentences = check_tagged_sentences("sentences", sentences)
        if not any(sentences):
            raise ValueError("sentences must contain at least one (word, tag) pair")
        self._fit(sentences)
        return self

    def _fit(self, sentences) -> None:
        self.tags = sorted({t for s in sentences for _w, t in s})
        index = {t: i for i, t in enumerate(self.tags)}
        K = len(self.tags)
        # Index K is START in a history position and END in a predicted one.
        tri = np.zeros((K + 1, K + 1, K + 1))
        word_tag: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(K))
        for sent in sentences:
            a = b = K
            for word, tag in sent:
                c = index[tag]
                tri[a, b, c] += 1
                word_tag[word][c] += 1
                a, b = b, c
            tri[a, b, K] += 1
        self._fit_transitions(tri)
        uni = tri.sum(axis=(0, 1))[:K]
        with np.errstate(divide="ignore"):
            self._known = {w: np.log(c / uni) for w, c in word_tag.items()}
        self._fit_suffixes(word_tag, uni)
        self._unknown_cache: dict[str, np.ndarray] = {}

    def _fit_transitions(self, tri: np.ndarray) -> None:
        K = tri.shape[0] - 1
        big = tri.sum(axis=0)  # (history b, predicted c)
        uni = big.sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            p3 = np.nan_to_num(tri / tri.sum(axis=2, keepdims=True))
            p2 = np.nan_to_num(big / big.sum(axis=1, keepdims=True))
        p1 = uni / uni.sum()
        lam = _deleted_interpolation(tri, big, uni, self.order)
        self.lambdas = tuple(float(x) for x in lam)
        if self.order == 2:
            log = np.log(np.maximum(lam[1] * p2 + lam[2] * p1, _FLOOR))  # (K+1, K+1)
            self.log_start, self.log_trans, self.log_end = log[K, :K], log[:K, :K], log[:K, K]
        else:
            probs = np.maximum(lam[0] * p3 + lam[1] * p2 + lam[2] * p1, _FLOOR)
            self.log_trans3 = np.log(probs)  # (K+1, K+1, K+1)

    def _fit_suffixes(self, word_tag: dict[str, np.ndarray], uni: np.ndarray) -> None:
        self._p_tag = uni / uni.sum()
        # TnT's theta: the standard deviation of the unconditional tag probabilities.
        self.theta = float(np.std(self._p_tag, ddof=1)) if len(uni) > 1 else 1.0
        counts: dict[tuple[bool, str], np.ndarray] = defaultdict(lambda: np.zeros(len(uni)))
        for word, c in word_tag.items():
            if c.sum() > self.rare_max:
                continue
            cap = word[:1].isupper()
            for k in range(min(self.max_suffix, len(word)) + 1):
                counts[(cap, word[len(word) - k :])] += c
        self._suffix_probs = {key: c / c.sum() for key, c in counts.items()}

    # ----- tagging -----
    def unknown_tag_probs(self, word: str) -> np.ndarray:
        """(K,) ``P(tag | suffix)`` that the suffix model gives ``word`` as if it were unknown."""
        check_text("word", word)
        if not self.tags:
            raise RuntimeError("call fit(sentences) before tagging")
        return self._suffix_model(word)

    def _suffix_model(self, word: str) -> np.ndarray:
        cap = word[:1].isupper()
        p = self._suffix_probs.get((cap, ""), self._p_tag)
        for k in range(1, min(self.max_suffix, len(word)) + 1):
            longer = self._suffix_probs.get((cap, word[len(word) - k :]))
            if longer is None:
                break
            p = (longer + self.theta * p) / (1 + self.theta)
        return p

    def _unknown(self, word: str) -> np.ndarray:
        cached = self._unknown_cache.get(word)
        if cached is not None:
            return cached
        p = self._suffix_model(word)
        with np.errstate(divide="ignore"):
            out = np.log(p) - np.log(self._p_tag)  # Bayes: P(w|t) = P(t|w) P(w) / P(t), P(w) drops out
        self._unknown_cache[word] = out
        return out

    def emission_scores(self, words) -> np.ndarray:
        """(T, K) log emission scores of one sentence (unknown words: suffix model, up to a constant)."""
        words = self._check_words(words)
        return self._emissions(words)

    def _emissions(self, words: list[str]) -> np.ndarray:
        return np.array([self._known[w] if w in self._known else self._unknown(w) for w in words])

    def tag(self, words) -> list[str]:
        """The most likely tags of one sentence (a list of words), by Viterbi."""
        words = self._check_words(words)
        if not words:
            return []
        emissions = self._emissions(words)
        if self.order == 3:
            return [self.tags[i] for i in _viterbi_trigram(self.log_trans3, emissions)]
        emissions[-1] = emissions[-1] + self.log_end
        path, _score = viterbi(self.log_start, self.log_trans, emissions)
        return [self.tags[i] for i in path]

    def _check_words(self, words) -> list[str]:
        if not self.tags:
            raise RuntimeError("call fit(sentences) before tagging")
        if isinstance(words, str) or not isinstance(words, (list, tuple)):
            raise TypeError(f"words must be a list of word strings (one sentence), got {type(words).__name__}")
        if not all(isinstance(w, str) for w in words):
            raise TypeError("words must contain only strings")
        return list(words)


def _deleted_interpolation(tri: np.ndarray, big: np.ndarray, uni: np.ndarray, order: int) -> np.ndarray:
    """TnT's lambdas (Brants 2000, fig. 1) as (trigram, bigram, unigram) weights summing to 1.

    Each n-gram votes, with its count, for the estimate that predicts it best once the n-gram itself
    is left out (its count minus one). With ``order=2`` only bigrams vote and the trigram weight is 0.
    """
    lam = np.zeros(3)
    N = uni.sum()
    ctx2, ctx1 = tri.sum(axis=2), big.sum(axis=1)

    def ratio(num, den):
        return (num - 1) / (den - 1) if den > 1 else 0.0

    if order == 3:
        for a, b, c in zip(*np.nonzero(tri)):
            scores = (ratio(tri[a, b, c], ctx2[a, b]), ratio(big[b, c], ctx1[b]), ratio(uni[c], N))
            lam[int(np.argmax(scores))] += tri[a, b, c]
    else:
        for b, c in zip(*np.nonzero(big)):
            scores = (ratio(big[b, c], ctx1[b]), ratio(uni[c], N))
            lam[1 + int(np.argmax(scores))] += big[b, c]
    return lam / lam.sum()


def _viterbi_trigram(log_trans3: np.ndarray, emissions: np.ndarray) -> list[int]:
    """Second-order Viterbi: states are pairs (previous tag, tag); index K is START/END."""
    T, K = emissions.shape
    A = log_trans3[:, :K, :K]  # (K+1 a, K b, K c): log P(c | a, b)
    delta = np.full((K + 1, K), -np.inf)  # delta[a, b]: best path ending in tags (a, b)
    delta[K] = log_trans3[K, K, :K] + emissions[0]
    backs = []
    for t in range(1, T):
        cand = delta[:, :, None] + A  # (K+1, K, K)
        back = cand.argmax(axis=0)  # (K b, K c)
        best = np.take_along_axis(cand, back[None], axis=0)[0] + emissions[t]
        backs.append(back)
        delta = np.vstack([best, np.full((1, K), -np.inf)])
    final = delta + log_trans3[:, :K, K]  # end of sentence
    a, b = np.unravel_index(int(final.argmax()), final.shape)
    path = [int(b)] if T == 1 else [int(b), int(a)]
    for back in reversed(backs[1:] if T > 1 else []):
        path.append(int(back[path[-1], path[-2]]))
    path.reverse()
    return path
