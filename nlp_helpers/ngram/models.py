"""N-gram language models: smoothing, perplexity and generation.

Follows Jurafsky & Martin, *Speech and Language Processing* (3rd ed.), chapter 3,
and Chen & Goodman (1998) for interpolated absolute discounting and Kneser-Ney.

Conventions (the same for every model, so perplexities are comparable):

* A sentence is padded with ``n - 1`` ``<s>`` on the left and one ``</s>`` on the
  right. ``</s>`` is predicted (and counted in perplexity); ``<s>`` never is.
* The vocabulary ``V`` is every training word seen at least ``min_count`` times,
  plus ``</s>`` and ``<UNK>``; any other word, in training or later, becomes ``<UNK>``.
  Every conditional distribution is over ``V`` (``|V|`` counts ``</s>`` and
  ``<UNK>`` but not ``<s>``) and sums to 1.
* Logarithms are base 2, so cross-entropy is in bits and perplexity is ``2 ** H``.

The count tables (and how they are stored: a trie flattened into sorted numpy arrays)
are in :mod:`nlp_helpers.ngram.counts`; this module turns them into probabilities,
vectorised over many (word, context) pairs, with no Python loop over tokens.

Modified Kneser-Ney (three discounts per order) is in :mod:`nlp_helpers.ngram.modified_kn`.
Left out: Katz back-off, count pruning and quantisation.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence

import numpy as np

from nlp_helpers._checks import check_choice, check_float, check_int
from nlp_helpers.ngram.counts import BOS, EOS, UNK, UNK_ID, NGramCounts
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["BOS", "EOS", "UNK", "SMOOTHINGS", "NGramLM", "StupidBackoff"]


def _gather(values: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """``values[ids]`` with 0 where ``ids`` is -1 (an n-gram or context never seen)."""
    return np.where(ids >= 0, values[np.maximum(ids, 0)], 0)


SMOOTHINGS = ("mle", "laplace", "add_k", "interpolated", "absolute_discounting", "kneser_ney")


class NGramLM(NGramCounts):
    """An n-gram language model with one of the classic smoothing methods.

    ``smoothing``:

    * ``"mle"``: c(h w) / c(h); zero for unseen n-grams, undefined (returned as 0) for unseen h.
    * ``"laplace"`` / ``"add_k"``: (c(h w) + k) / (c(h) + k |V|), with k = 1 for Laplace.
    * ``"interpolated"``: sum_j lambdas[j-1] * P~_j(w | last j-1 words), where P~_1 is the
      add-one unigram and P~_j is the MLE, or P~_(j-1) when its context was never seen.
      ``fit_lambdas`` tunes the weights on held-out data with EM.
    * ``"absolute_discounting"``: max(c(h w) - d, 0) / c(h) + d N1+(h .) / c(h) * P(w | h'),
      recursively down to a discounted unigram interpolated with the uniform 1/|V|.
    * ``"kneser_ney"``: interpolated Kneser-Ney: like absolute discounting, but every lower
      order uses continuation counts N1+(. h' w) instead of counts (Chen & Goodman 1998).

    A context never seen in training passes all its mass to the next lower order.
    """

    def __init__(
        self,
        n: int,
        smoothing: str = "kneser_ney",
        *,
        k: float | None = None,
        discount: float | None = None,
        lambdas: Sequence[float] | None = None,
        min_count: int = 1,
    ) -> None:
        super().__init__(n, min_count)
        self.smoothing = check_choice("smoothing", smoothing, SMOOTHINGS)
        if k is not None and smoothing != "add_k":
            raise ValueError(f"k is only used by smoothing='add_k', not {smoothing!r}")
        if discount is not None and smoothing not in ("absolute_discounting", "kneser_ney"):
            raise ValueError(f"discount is only used by absolute_discounting and kneser_ney, not {smoothing!r}")
        if lambdas is not None and smoothing != "interpolated":
            raise ValueError(f"lambdas is only used by smoothing='interpolated', not {smoothing!r}")
        self.k = (
            1.0 if smoothing == "laplace" else check_float("k", 1.0 if k is None else k, minimum=0, min_inclusive=False)
        )
        self.discount = check_float(
            "discount", 0.75 if discount is None else discount, minimum=0, maximum=1, min_inclusive=False
        )
        self.lambdas = self._check_lambdas(np.full(self.n, 1 / self.n) if lambdas is None else lambdas)

    def _check_lambdas(self, lambdas: Sequence[float]) -> np.ndarray:
        lam = np.asarray(lambdas, dtype=float)
        if lam.shape != (self.n,) or not np.all(np.isfinite(lam)) or np.any(lam < 0) or abs(lam.sum() - 1) > 1e-9:
            raise ValueError(
                f"lambdas must be {self.n} non-negative weights (unigram first) summing to 1, got {lambdas!r}"
            )
        return lam

    def __repr__(self) -> str:
        extra = {
            "add_k": f", k={self.k:g}",
            "absolute_discounting": f", discount={self.discount:g}",
            "kneser_ney": f", discount={self.discount:g}",
            "interpolated": f", lambdas={np.round(self.lambdas, 3).tolist()}",
        }.get(self.smoothing, "")
        return f"NGramLM(n={self.n}, smoothing={self.smoothing!r}{extra})"

    def with_params(self, smoothing: str | None = None, *, n: int | None = None, **params) -> NGramLM:
        """A copy that shares the fitted count tables but uses another smoothing, ``k``/``discount``/
        ``lambdas``, or a lower order ``n``. Every method reads the same tables, and the k-grams ending
        at predicted positions do not depend on the padding length, so ``NGramLM(4).fit(s).with_params(n=2)``
        equals ``NGramLM(2).fit(s)``: tuning and comparing orders needs no refit."""
        self._check_fitted()
        n = self.n if n is None else check_int("n", n, minimum=1, maximum=self.n)
        smoothing = smoothing or self.smoothing
        if smoothing == self.smoothing:  # keep the current (e.g. tuned) parameters unless overridden
            keep = {
                "add_k": {"k": self.k},
                "absolute_discounting": {"discount": self.discount},
                "kneser_ney": {"discount": self.discount},
                "interpolated": {"lambdas": self.lambdas} if n == self.n else {},
            }.get(smoothing, {})
            params = {**keep, **params}
        new = NGramLM(n, smoothing, min_count=self.min_count, **params)
        clone = copy.copy(self)
        clone.n, clone._orders = n, self._orders[:n]
        clone.smoothing, clone.k, clone.discount, clone.lambdas = new.smoothing, new.k, new.discount, new.lambdas
        return clone

    # ----- the probability of words given context ids ----------------------------
    def _probs(self, words: np.ndarray, ctx: list[np.ndarray], top: int) -> np.ndarray:
        """P(words | context), shape (m,): ``words`` (m,) token ids, ``ctx[j]`` (m,) ids of the
        j-word contexts for j = 0..top-1 (-1 if unseen); orders above ``top`` are not used."""
        V, method = self.vocab_size, self.smoothing

        def level(j: int, continuation: bool = False):  # counts at order j+1
            o = self._orders[j]
            g = o.lookup(ctx[j], words, self._base)
            if continuation:
                return _gather(o.cont, g), _gather(o.ctx_cont, ctx[j]), _gather(o.ctx_cont_types, ctx[j])
            return _gather(o.count, g), _gather(o.ctx_count, ctx[j]), _gather(o.ctx_types, ctx[j])

        if method in ("mle", "laplace", "add_k"):
            c_w, c_h, _ = level(top - 1)
            if method == "mle":
                return np.where(c_h > 0, c_w / np.maximum(c_h, 1), 0.0)
            return (c_w + self.k) / (c_h + self.k * V)
        if method == "interpolated":
            c_w, c_h, _ = level(0)
            p_tilde = (c_w + 1.0) / (c_h + V)
            lam = self.lambdas[:top]  # a shorter context uses the first `top` weights, renormalised
            lam = lam / lam.sum() if lam.sum() > 0 else np.full(top, 1.0 / top)
            total = lam[0] * p_tilde
            for j in range(1, top):
                c_w, c_h, _ = level(j)
                p_tilde = np.where(c_h > 0, c_w / np.maximum(c_h, 1), p_tilde)
                total = total + lam[j] * p_tilde
            return total
        d, p = self.discount, np.full(len(words), 1.0 / V)
        for j in range(top):  # from the unigram up: P_j = discounted count + backoff weight * P_(j-1)
            continuation = method == "kneser_ney" and j < self.n - 1
            c_w, c_h, types = level(j, continuation)
            seen = c_h > 0
            c_h = np.maximum(c_h, 1)
            p = np.where(seen, np.maximum(c_w - d, 0) / c_h + d * types / c_h * p, p)
        return p

    def _word_ids(self, words: Sequence[str]) -> np.ndarray:
        return np.array([self._stoi.get(w, UNK_ID) for w in words], dtype=np.int64)

    def prob(self, word: str, context: Sequence[str] = ()) -> float:
        """P(word | context). Only the last n-1 context tokens are used; a shorter context
        gives the lower-order estimate. Unknown words count as ``<UNK>``; ``P(<s>) = 0``."""
        self._check_fitted()
        if not isinstance(word, str):
            raise TypeError(f"word must be a str, got {type(word).__name__}")
        if word == BOS:
            return 0.0
        ctx = self._context_ids(context)
        return float(self._probs(self._word_ids([word]), [np.array([c]) for c in ctx], len(ctx))[0])

    def logprob(self, word: str, context: Sequence[str] = ()) -> float:
        """log2 P(word | context); ``-inf`` when the probability is 0 (MLE on unseen n-grams)."""
        p = self.prob(word, context)
        return float(np.log2(p)) if p > 0 else float("-inf")

    def distribution(self, context: Sequence[str] = ()) -> np.ndarray:
        """P(w | context) for every w in :attr:`vocab` (shape ``(|V|,)``, sums to 1 except MLE on unseen contexts)."""
        self._check_fitted()
        ctx = self._context_ids(context)
        words = np.arange(1, self._base)
        return self._probs(words, [np.full(len(words), c) for c in ctx], len(ctx))

    # ----- held-out evaluation ---------------------------------------------------
    def token_logprobs(self, sentences: Iterable[Sequence[str]]) -> np.ndarray:
        """log2 P of every predicted token (words and one ``</s>`` per sentence), in order."""
        self._check_fitted()
        sentences = self._check_sentences(sentences)
        ids, offset, predicted = self._encode(sentences)
        grams = self._chain(ids, offset, self.n - 1) if self.n > 1 else []
        ctx = [np.zeros(int(predicted.sum()), dtype=np.int64)]
        pos = np.flatnonzero(predicted)
        for j in range(1, self.n):
            ctx.append(grams[j - 1][pos - 1])  # the j-gram ending just before the predicted word
        with np.errstate(divide="ignore"):
            return np.log2(self._probs(ids[pos], ctx, self.n))

    def cross_entropy(self, sentences: Iterable[Sequence[str]]) -> float:
        """H = -(1/N) sum log2 P(token | context), in bits per token (``inf`` if some P is 0)."""
        return float(-np.mean(self.token_logprobs(sentences)))

    def perplexity(self, sentences: Iterable[Sequence[str]]) -> float:
        """PP = 2 ** H = P(tokens) ** (-1/N); N counts the words and each ``</s>``, never ``<s>``."""
        return float(2.0 ** self.cross_entropy(sentences))

    def fit_lambdas(self, held_out: Iterable[Sequence[str]], iterations: int = 50, tol: float = 1e-7) -> NGramLM:
        """Tune the interpolation weights on held-out sentences with EM; returns ``self``.

        E-step: each token's responsibility r_j = lambda_j P~_j / sum_i lambda_i P~_i;
        M-step: lambda_j = mean responsibility. Each step cannot lower the held-out likelihood.
        """
        if self.smoothing != "interpolated":
            raise ValueError(f"fit_lambdas needs smoothing='interpolated', this model uses {self.smoothing!r}")
        iterations = check_int("iterations", iterations, minimum=1)
        tol = check_float("tol", tol, minimum=0.0)
        per_order = np.stack([self._p_tilde(held_out, j) for j in range(1, self.n + 1)], axis=1)  # (N, n)
        lam = np.full(self.n, 1 / self.n)
        for _ in range(iterations):
            mix = per_order * lam
            resp = mix / mix.sum(axis=1, keepdims=True)
            new = resp.mean(axis=0)
            done = np.max(np.abs(new - lam)) < tol
            lam = new
            if done:
                break
        self.lambdas = lam / lam.sum()
        return self

    def _p_tilde(self, sentences: Iterable[Sequence[str]], order: int) -> np.ndarray:
        """P~_order of every held-out token (the interpolation component of that order)."""
        one_hot = np.zeros(self.n)
        one_hot[order - 1] = 1.0
        saved, self.lambdas = self.lambdas, one_hot
        try:
            return 2.0 ** self.token_logprobs(sentences)
        finally:
            self.lambdas = saved

    # ----- generation ---------------------------------------------------------------
    def generate(
        self, n_words: int = 20, seed: int = 0, context: Sequence[str] = (), order: int | None = None
    ) -> list[str]:
        """Sample up to ``n_words`` words after ``context`` (default: a sentence start); stops at ``</s>``.

        ``order`` < n conditions on only the last ``order - 1`` tokens: for MLE that is exactly the
        order-``order`` model. Sampling uses ``nlp_helpers.seeds.rng(seed)`` (``seed`` plus ``$NLP_SEED_OFFSET``); the result excludes ``</s>``.
        """
        self._check_fitted()
        n_words = check_int("n_words", n_words, minimum=1)
        order = self.n if order is None else check_int("order", order, minimum=1, maximum=self.n)
        rng = seeded_rng(check_int("seed", seed, minimum=0))  # seed + $NLP_SEED_OFFSET
        self._context_ids(context)  # a str or non-sequence context is an error, not a list of characters
        history = [BOS] * (order - 1) + list(context)
        out: list[str] = []
        vocab = self.vocab
        for _ in range(n_words):
            ctx = history[len(history) - order + 1 :] if order > 1 else []
            p = self.distribution(ctx)
            total = p.sum()
            if total <= 0:
                raise ValueError(f"the MLE distribution after context {ctx} is undefined (unseen context)")
            word = vocab[int(np.searchsorted(np.cumsum(p) / total, rng.random(), side="right"))]
            if word == EOS:
                break
            out.append(word)
            history.append(word)
        return out


class StupidBackoff(NGramCounts):
    """Stupid back-off (Brants et al. 2007): S(w|h) = c(h w)/c(h) if c(h w) > 0, else alpha * S(w|h').

    The scores are *not* probabilities (they do not sum to 1 over V), so the model has no
    perplexity; it ranks continuations cheaply and works well for very large corpora.
    """

    def __init__(self, n: int, alpha: float = 0.4, min_count: int = 1) -> None:
        super().__init__(n, min_count)
        self.alpha = check_float("alpha", alpha, minimum=0, maximum=1, min_inclusive=False)

    def _scores(self, words: np.ndarray, ctx: list[int]) -> np.ndarray:
        score = np.zeros(len(words))
        todo = np.ones(len(words), dtype=bool)
        weight = 1.0
        for j in range(len(ctx) - 1, -1, -1):  # from the longest context down to the unigram
            o = self._orders[j]
            c_h = o.ctx_count[ctx[j]] if ctx[j] >= 0 else 0
            if c_h > 0:
                c_w = _gather(o.count, o.lookup(np.full(len(words), ctx[j]), words, self._base))
                hit = todo & (c_w > 0)
                score[hit] = weight * c_w[hit] / c_h
                todo &= ~hit
            weight *= self.alpha
        return score

    def score(self, word: str, context: Sequence[str] = ()) -> float:
        """S(word | context) (unknown words count as ``<UNK>``)."""
        self._check_fitted()
        if not isinstance(word, str):
            raise TypeError(f"word must be a str, got {type(word).__name__}")
        return float(self._scores(np.array([self._stoi.get(word, UNK_ID)]), self._context_ids(context))[0])

    def scores(self, context: Sequence[str] = ()) -> np.ndarray:
        """S(w | context) for every w in :attr:`vocab`; their sum is usually not 1."""
        self._check_fitted()
        return self._scores(np.arange(1, self._base), self._context_ids(context))

    def perplexity(self, sentences) -> float:
        raise TypeError(
            "stupid back-off scores are not probabilities (they do not sum to 1), so perplexity is undefined"
        )
