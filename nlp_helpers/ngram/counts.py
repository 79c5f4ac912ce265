"""Counting n-grams for language models: the vocabulary, padding, and count tables in numpy.

:class:`NGramCounts` is the base of the models in :mod:`nlp_helpers.ngram.models`. It encodes
sentences as token ids (``<s>`` = 0, ``</s>`` = 1, ``<UNK>`` = 2, words from 3), pads each
with ``n - 1`` ``<s>`` and one ``</s>``, and counts, for every order k = 1..n:

* c(g), how often each k-gram ends at a *predicted* position (a word or ``</s>``);
* per context h (a (k-1)-gram): c(h) = sum_w c(h w) and N1+(h .), the number of distinct
  words seen after h;
* the Kneser-Ney continuation counts N1+(. g) (distinct words seen right before g) and their
  per-context totals N1+(. h .) and types.

Storage is a trie flattened into numpy arrays (Jurafsky & Martin 3.7 on storing large
models): the k-grams of each order are a sorted ``int64`` array of keys
``prefix_id * B + last_word`` (``B`` = number of token ids), so a k-gram's id is its
position in that array and its prefix is a (k-1)-gram id. Counting is a few ``np.unique``
calls per order; looking up many n-grams is one hash look-up per order (``pandas.Index``).
Left out: pruning, quantised counts, hashing words to 64-bit ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain

import numpy as np
import pandas as pd

from nlp_helpers._checks import check_int, check_nonempty, check_text
from nlp_helpers.data.splits import BOS, EOS, UNK

__all__ = ["BOS", "EOS", "UNK", "NGramCounts"]

BOS_ID, EOS_ID, UNK_ID = 0, 1, 2  # token ids of the special tokens; words start at 3


@dataclass
class _Order:
    """The n-grams of one order k, indexed by id = position in the sorted ``keys``."""

    keys: np.ndarray  # (G,) int64, sorted: prefix_id * B + last_word
    count: np.ndarray  # (G,) c(g): how often g ends at a predicted position
    ctx_count: np.ndarray  # (C,) c(h) = sum_w c(h w), C = number of (k-1)-grams (1 for k = 1)
    ctx_types: np.ndarray  # (C,) N1+(h .) = #{w : c(h w) > 0}
    cont: np.ndarray | None = None  # (G,) N1+(. g) = #{u : c(u g) > 0}; None at the top order
    ctx_cont: np.ndarray | None = None  # (C,) N1+(. h .) = sum_w N1+(. h w)
    ctx_cont_types: np.ndarray | None = None  # (C,) #{w : N1+(. h w) > 0}
    _hash: pd.Index | None = field(default=None, repr=False)

    def lookup(self, prefix: np.ndarray, word: np.ndarray, base: int) -> np.ndarray:
        """Ids of the n-grams (prefix, word); -1 where unseen or where prefix is -1."""
        if len(prefix) > 256 and prefix[0] >= 0 and (prefix == prefix[0]).all():
            return self._lookup_row(int(prefix[0]), word, base)  # one context, many words
        if self._hash is None:  # a hash table on the keys: O(1) look-ups, built on first use
            self._hash = pd.Index(self.keys)
        idx = self._hash.get_indexer(prefix.astype(np.int64) * base + word)
        return np.where(prefix >= 0, idx, -1)

    def _lookup_row(self, prefix: int, word: np.ndarray, base: int) -> np.ndarray:
        """Ids of (prefix, word) for one prefix: its n-grams are one sorted run of ``keys``."""
        lo, hi = np.searchsorted(self.keys, [prefix * base, (prefix + 1) * base])
        row = self.keys[lo:hi] - prefix * base  # the words seen after prefix, sorted
        if len(row) == 0:
            return np.full(len(word), -1, dtype=np.int64)
        pos = np.minimum(np.searchsorted(row, word), len(row) - 1)
        return np.where(row[pos] == word, lo + pos, -1)


def _at(values: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """``values[ids]`` with 0 where ``ids`` is -1."""
    return np.where(ids >= 0, values[np.maximum(ids, 0)], 0)


def _per_context(prefix: np.ndarray, counts: np.ndarray, n_ctx: int) -> tuple[np.ndarray, np.ndarray]:
    total = np.bincount(prefix, weights=counts, minlength=n_ctx).astype(np.int64)
    types = np.bincount(prefix[counts > 0], minlength=n_ctx).astype(np.int64)
    return total, types


class NGramCounts:
    """Vocabulary, padding and n-gram count tables of orders 1..n (the base of every n-gram model)."""

    def __init__(self, n: int, min_count: int = 1) -> None:
        self.n = check_int("n", n, minimum=1)
        self.min_count = check_int("min_count", min_count, minimum=1)
        self._orders: list[_Order] | None = None

    # ----- vocabulary and encoding -------------------------------------------------
    @property
    def vocab(self) -> list[str]:
        """The vocabulary V in id order: ``['</s>', '<UNK>', word, ...]`` (no ``<s>``)."""
        self._check_fitted()
        return self._itos[1:]

    @property
    def vocab_size(self) -> int:
        """|V|, including ``</s>`` and ``<UNK>``."""
        self._check_fitted()
        return len(self._itos) - 1  # the vocabulary without <s>, as in :attr:`vocab`

    def _check_fitted(self) -> None:
        if self._orders is None:
            raise RuntimeError(f"this {type(self).__name__} is not fitted yet; call .fit(sentences) first")

    @staticmethod
    def _check_sentences(sentences: Iterable[Sequence[str]], name: str = "sentences") -> list[Sequence[str]]:
        sentences = check_nonempty(name, sentences)
        for i, s in enumerate(sentences):
            if isinstance(s, str) or not isinstance(s, Sequence):
                raise TypeError(
                    f"{name} must be a list of token lists; {name}[{i}] is a {type(s).__name__} "
                    f"(split each sentence into tokens first, e.g. text.split())"
                )
        return sentences

    def _encode(self, sentences: list[Sequence[str]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Padded token ids of all sentences, each position's offset in its sentence, predicted mask."""
        lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
        word_ids = self._index.get_indexer(list(chain.from_iterable(sentences)))
        if np.any((word_ids == BOS_ID) | (word_ids == EOS_ID)):
            raise ValueError("sentences must not contain <s> or </s>: the models add them (a literal <UNK> is fine)")
        word_ids[word_ids < 0] = UNK_ID
        padded = lengths + self.n  # n-1 <s>, the words, one </s>
        starts = np.cumsum(padded) - padded
        ids = np.full(int(padded.sum()), BOS_ID, dtype=np.int64)
        within = np.arange(len(word_ids)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        ids[np.repeat(starts + self.n - 1, lengths) + within] = word_ids
        ids[starts + padded - 1] = EOS_ID
        offset = np.arange(len(ids)) - np.repeat(starts, padded)
        return ids, offset, offset >= self.n - 1

    def _chain(self, ids: np.ndarray, offset: np.ndarray, upto: int) -> list[np.ndarray]:
        """gram[k-1][i] = id of the k-gram ending at position i (k = 1..upto), -1 if unseen."""
        grams: list[np.ndarray] = []
        prev = np.zeros(len(ids), dtype=np.int64)  # the empty context: root id 0
        for k in range(1, upto + 1):
            shifted = np.full(len(ids), -1, dtype=np.int64)
            shifted[1:] = prev[:-1] if k > 1 else 0
            shifted[0] = 0 if k == 1 else -1
            prefix = np.where(offset >= k - 1, shifted, -1)
            prev = self._orders[k - 1].lookup(prefix, ids, self._base)
            grams.append(prev)
        return grams

    # ----- fitting ------------------------------------------------------------------
    def fit(self, sentences: Iterable[Sequence[str]], vocabulary: Iterable[str] | None = None):
        """Count the n-grams of ``sentences`` (lists of tokens). Returns ``self``.

        ``vocabulary``: the words to keep (others become ``<UNK>``); default: the
        training words seen at least ``min_count`` times.
        """
        sentences = self._check_sentences(sentences)
        if isinstance(vocabulary, str):
            raise TypeError("vocabulary must be an iterable of words, not a single str")
        if vocabulary is None:
            counts = pd.Series(list(chain.from_iterable(sentences)), dtype=object).value_counts()
            counts = counts[counts >= self.min_count]
            freq = dict(zip(counts.index, counts.to_numpy()))
            words = sorted(freq, key=lambda w: (-freq[w], w))
        else:
            words = list(dict.fromkeys(vocabulary))
        words = [w for w in words if w not in (BOS, EOS, UNK)]
        if not words:
            raise ValueError("sentences must contain at least one word (seen at least min_count times)")
        self._itos = [BOS, EOS, UNK, *words]
        self._stoi = {w: i for i, w in enumerate(self._itos)}
        self._index = pd.Index(self._itos, dtype=object)
        self._base = len(self._itos)
        ids, offset, predicted = self._encode(sentences)
        self._orders = []
        prev = np.zeros(len(ids), dtype=np.int64)
        for k in range(1, self.n + 1):
            valid = offset >= k - 1  # the k-gram ending here lies inside its sentence
            shifted = np.zeros(len(ids), dtype=np.int64)
            if k > 1:
                shifted[1:] = prev[:-1]
            keys = shifted[valid] * self._base + ids[valid]
            uniq, inverse = np.unique(keys, return_inverse=True)
            inverse = inverse.ravel()
            gram = np.full(len(ids), -1, dtype=np.int64)
            gram[valid] = inverse
            count = np.bincount(gram[predicted], minlength=len(uniq)).astype(np.int64)
            n_ctx = 1 if k == 1 else len(self._orders[-1].keys)
            ctx_count, ctx_types = _per_context(uniq // self._base, count, n_ctx)
            self._orders.append(_Order(uniq, count, ctx_count, ctx_types))
            if k > 1:  # continuation counts of the (k-1)-grams: distinct left extensions
                lower = self._orders[-2]
                suffix = np.empty(len(uniq), dtype=np.int64)
                suffix[inverse] = prev[valid]  # every occurrence of a k-gram has the same suffix
                lower.cont = np.bincount(suffix[count > 0], minlength=len(lower.keys)).astype(np.int64)
                n_ctx_lower = 1 if k == 2 else len(self._orders[-3].keys)
                lower.ctx_cont, lower.ctx_cont_types = _per_context(lower.keys // self._base, lower.cont, n_ctx_lower)
            prev = gram
        self.n_train_tokens = int(predicted.sum())
        return self

    # ----- queries on the tables ---------------------------------------------------
    def _context_ids(self, context: Sequence[str]) -> list[int]:
        """ids of the suffixes of ``context`` of length 0..n-1 (-1 when unseen); may be shorter."""
        if isinstance(context, str):
            raise TypeError("context must be a sequence of tokens (e.g. ['<s>', 'i']), not a str")
        if not isinstance(context, Iterable):
            raise TypeError(f"context must be a sequence of tokens (e.g. ['<s>', 'i']), got {type(context).__name__}")
        toks = list(context)[-(self.n - 1) :] if self.n > 1 else []
        ctx_ids = [0]
        for j in range(1, len(toks) + 1):  # id of the j-gram toks[-j:], built left to right
            sub = np.array([self._stoi.get(t, UNK_ID) for t in toks[-j:]], dtype=np.int64)
            g = self._chain(sub, np.arange(len(sub)), len(sub))[-1][-1]
            ctx_ids.append(int(g))
        return ctx_ids

    def ngram_count(self, ngram: Sequence[str]) -> int:
        """c(ngram): how often the n-gram (1 <= len <= n) ends at a predicted training position.

        Unknown words count as ``<UNK>``, so ``ngram_count(["zebra"])`` is the count of ``<UNK>``."""
        self._check_fitted()
        if isinstance(ngram, str) or not isinstance(ngram, Iterable):
            raise TypeError(f"ngram must be a sequence of tokens (e.g. ['of', 'the']), got {type(ngram).__name__}")
        toks = list(ngram)
        if not 1 <= len(toks) <= self.n:
            raise ValueError(f"ngram must have between 1 and n={self.n} tokens, got {len(toks)}")
        sub = np.array([self._stoi.get(t, UNK_ID) for t in toks], dtype=np.int64)
        g = int(self._chain(sub, np.arange(len(sub)), len(sub))[-1][-1])
        return int(self._orders[len(toks) - 1].count[g]) if g >= 0 else 0

    def continuation_count(self, word: str) -> int:
        """N1+(. word): the number of distinct words seen right before ``word`` (needs n >= 2)."""
        self._check_fitted()
        check_text("word", word)
        if self.n < 2:
            raise ValueError("continuation counts need bigrams: fit a model with n >= 2")
        g = int(self._orders[0].lookup(np.array([0]), np.array([self._stoi.get(word, UNK_ID)]), self._base)[0])
        return int(self._orders[0].cont[g]) if g >= 0 else 0

    def n_distinct(self, order: int) -> int:
        """Number of distinct n-grams of ``order`` seen in training (at predicted positions)."""
        self._check_fitted()
        order = check_int("order", order, minimum=1, maximum=self.n)
        return int(np.count_nonzero(self._orders[order - 1].count))

    def ngram_table(self, order: int) -> pd.DataFrame:
        """Every n-gram of ``order`` seen in training: columns ``w1..w<order>`` and ``count``, most frequent first."""
        self._check_fitted()
        order = check_int("order", order, minimum=1, maximum=self.n)
        o = self._orders[order - 1]
        ids = np.flatnonzero(o.count)
        itos = np.array(self._itos, dtype=object)
        columns, keys = {}, o.keys[ids]
        for j in range(order, 0, -1):  # peel the last word off, then walk up to the prefix
            columns[f"w{j}"] = itos[keys % self._base]
            if j > 1:
                keys = self._orders[j - 2].keys[keys // self._base]
        table = pd.DataFrame({f"w{j}": columns[f"w{j}"] for j in range(1, order + 1)})
        table["count"] = o.count[ids]
        return table.sort_values("count", ascending=False, kind="stable").reset_index(drop=True)

    def ngram_statistics(self, test: Iterable[Sequence[str]]) -> pd.DataFrame:
        """Per order k = 1..n: distinct training k-grams and the share of ``test`` k-gram tokens unseen in training.

        Test k-grams are those ending at each predicted position (padding as in training);
        words outside the vocabulary count as ``<UNK>``.
        """
        self._check_fitted()
        test = self._check_sentences(test, "test")
        ids, offset, predicted = self._encode(test)
        grams = self._chain(ids, offset, self.n)
        rows = []
        for k in range(1, self.n + 1):
            seen = _at(self._orders[k - 1].count, grams[k - 1][predicted]) > 0
            rows.append({"n": k, "distinct_train": self.n_distinct(k), "unseen_test_share": float(1 - seen.mean())})
        return pd.DataFrame(rows)
