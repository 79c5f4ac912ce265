"""Byte Pair Encoding (BPE) subword tokenization, from scratch.

What it implements
    Sennrich, Haddow & Birch (2016), "Neural Machine Translation of Rare Words
    with Subword Units": start from single characters and repeatedly merge the
    most frequent adjacent pair of symbols into a new symbol.

    * :func:`pretokenize` splits text into chunks with GPT-2's own pattern
      (Radford et al. 2019, ``encoder.py`` of openai/gpt-2): the English clitics
      ``'s 't 're 've 'm 'll 'd`` are chunks, a leading space belongs to the word
      after it (``" the"``), letters, digits and other symbols form separate
      chunks, and runs of whitespace are chunks of their own. Merges never cross
      a chunk boundary. The attached space plays the role of
      Sennrich's end-of-word marker ``</w>`` (here it marks the *start* of a
      word), and because the chunks concatenate back to the text, decoding is
      exact, whitespace included.
    * :class:`BPE` is character level with **byte fallback**: a character never
      seen in training is encoded as its UTF-8 bytes, written ``<0xE6>``, so
      every string (CJK, accents, emoji, tabs) round-trips exactly. Such a token
      cannot arise from merges, because ``<`` and ``0`` always fall into
      different chunks.
    * :meth:`BPE.train` re-counts only the words that hold the merged pair and
      finds the next best pair in a heap with lazy deletion;
      :func:`train_merges_naive` re-counts every pair after every merge.

Tie-breaking
    When several pairs are equally frequent, the pair whose symbols were created
    first wins: symbol ids are the characters in code-point order followed by the
    merged symbols in order of creation, and the smallest ``(id_left, id_right)``
    wins. This is the rule of Hugging Face ``tokenizers``' ``BpeTrainer``, so on
    the same pre-tokenized corpus both learn the same merges.

What it leaves out
    Special tokens, merge dropout and a limit on the alphabet size.
"""

from __future__ import annotations

import heapq
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence

import regex
from tqdm.auto import tqdm

from nlp_helpers._checks import check_int, check_text
from nlp_helpers.display import hide_progress

__all__ = [
    "BPE",
    "GPT2_PATTERN",
    "pretokenize",
    "merge_pair",
    "apply_merges",
    "check_merges",
    "train_merges_naive",
    "byte_token",
]

# GPT-2's pre-tokenizer, character for character (openai/gpt-2, src/encoder.py). It needs the
# `regex` package for \p{L} (letter) and \p{N} (number): the clitics first, then letters,
# digits and "other" each as a chunk with an optional leading space; a whitespace run gives
# its last space to the next word (\s+(?!\S)). The clitics are lower case only, as in GPT-2.
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
_PRETOKENIZE_RE = regex.compile(GPT2_PATTERN)
_BYTE_TOKEN_RE = re.compile(r"<0x([0-9A-F]{2})>")


def pretokenize(text: str) -> list[str]:
    """Split ``text`` into the chunks BPE works inside; ``"".join(pretokenize(t)) == t``.

    >>> pretokenize("Hello  world, 2024!")
    ['Hello', ' ', ' world', ',', ' 2024', '!']
    >>> pretokenize("I don't")
    ['I', ' don', "'t"]
    """
    check_text("text", text)
    return _PRETOKENIZE_RE.findall(text)


def byte_token(byte: int) -> str:
    """The fallback token of one UTF-8 byte, e.g. ``byte_token(0xE6) == "<0xE6>"``."""
    byte = check_int("byte", byte, minimum=0, maximum=255)
    return f"<0x{byte:02X}>"


def merge_pair(symbols: Sequence, pair: tuple, new) -> list:
    """Replace every occurrence of ``pair`` in ``symbols`` by ``new``, scanning left to right."""
    if not isinstance(symbols, Sequence):
        raise TypeError(f"symbols must be a sequence (list, tuple or str) of symbols, got {type(symbols).__name__}")
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        raise ValueError(f"pair must be a (left, right) pair, got {pair!r}")
    return _merge_pair(symbols, pair, new)


def _merge_pair(symbols: Sequence, pair: tuple, new) -> list:
    # merge_pair without the argument checks: the training loops call it once per word per merge.
    out, i, n = [], 0, len(symbols)
    while i < n:
        if i + 1 < n and symbols[i] == pair[0] and symbols[i + 1] == pair[1]:
            out.append(new)
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out


def apply_merges(text: str, merges: Sequence[tuple[str, str]]) -> list[str]:
    """Segment ``text`` by replaying ``merges`` in order on the characters of each chunk.

    This is BPE's definition of encoding (no byte fallback: every character
    stays a symbol); :meth:`BPE.encode` gives the same tokens faster.
    """
    check_text("text", text)
    merges = check_merges(merges)
    tokens: list[str] = []
    for chunk in pretokenize(text):
        symbols = list(chunk)
        for left, right in merges:
            if len(symbols) < 2:
                break
            symbols = _merge_pair(symbols, (left, right), left + right)
        tokens.extend(symbols)
    return tokens


def check_merges(merges: Iterable) -> list[tuple[str, str]]:
    """Check a merge list (an iterable of ``(left, right)`` pairs of non-empty strings) and return it as a list."""
    if isinstance(merges, (str, bytes)) or not isinstance(merges, Iterable):
        raise TypeError(f"merges must be a sequence of (left, right) string pairs, got {type(merges).__name__}")
    out = []
    for i, pair in enumerate(merges):
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2 and all(isinstance(p, str) and p for p in pair)):
            raise ValueError(f"merges[{i}] must be a pair of non-empty strings, got {pair!r}")
        out.append((pair[0], pair[1]))
    return out


def _check_corpus(corpus: str | Iterable[str]) -> list[str]:
    docs = [corpus] if isinstance(corpus, str) else corpus
    try:
        docs = list(docs)
    except TypeError:
        raise TypeError(f"corpus must be a str or an iterable of str, got {type(corpus).__name__}") from None
    for i, doc in enumerate(docs):
        if not isinstance(doc, str):
            raise TypeError(f"corpus must contain only str, got {type(doc).__name__} at position {i}")
    if not any(docs):
        raise ValueError("corpus must contain some text, got an empty corpus")
    return docs


def _check_word_counts(word_counts: Mapping[str, int]) -> None:
    if not isinstance(word_counts, Mapping):
        raise TypeError(f"word_counts must be a mapping chunk -> count, got {type(word_counts).__name__}")
    for w, c in word_counts.items():
        if not (isinstance(w, str) and w):
            raise ValueError(f"word_counts keys must be non-empty strings, got {w!r}")
        check_int(f"word_counts[{w!r}]", c, minimum=1)


def train_merges_naive(
    word_counts: Mapping[str, int], num_merges: int, *, min_frequency: int = 1
) -> list[tuple[str, str]]:
    """Learn BPE merges the straightforward way: re-count all pairs after every merge.

    ``word_counts`` maps each chunk (see :func:`pretokenize`) to its frequency.
    Cost is O(num_merges x corpus size); :meth:`BPE.train` learns the same merges
    (same tie-breaking rule) with incremental counts.
    """
    _check_word_counts(word_counts)
    num_merges = check_int("num_merges", num_merges, minimum=0)
    min_frequency = check_int("min_frequency", min_frequency, minimum=1)
    words = {tuple(w): c for w, c in word_counts.items()}  # chunk as a tuple of symbols -> count
    order = {ch: i for i, ch in enumerate(sorted({ch for w in word_counts for ch in w}))}  # tie-break ids
    merges: list[tuple[str, str]] = []
    for _ in range(num_merges):
        counts: Counter = Counter()
        for w, c in words.items():
            for pair in zip(w, w[1:]):
                counts[pair] += c
        if not counts:
            break
        best = min(counts, key=lambda p: (-counts[p], order[p[0]], order[p[1]]))
        if counts[best] < min_frequency:
            break
        new = best[0] + best[1]
        order.setdefault(new, len(order))
        words = {tuple(_merge_pair(w, best, new)): c for w, c in words.items()}
        merges.append(best)
    return merges


class BPE:
    """A trained BPE tokenizer: an ordered merge list plus a character alphabet.

    Attributes:
        merges: the merges in the order they were learned, ``[("t", "h"), ("th", "e"), ...]``.
        alphabet: the base characters, sorted by code point.
        vocab: token -> id. Ids ``0..255`` are the byte-fallback tokens ``<0x00>..<0xFF>``,
            then the alphabet, then each new merged token (size ``V``).
    """

    def __init__(self, merges: Sequence[tuple[str, str]], alphabet: Iterable[str] | None = None) -> None:
        self.merges = check_merges(merges)
        chars = set() if alphabet is None else set(alphabet)
        for ch in chars:
            if not (isinstance(ch, str) and len(ch) == 1):
                raise ValueError(f"alphabet must contain single characters, got {ch!r}")
        if alphabet is None:  # every character the merges are built from
            chars = {ch for pair in self.merges for part in pair for ch in part}
        self.alphabet = sorted(chars)
        self.vocab: dict[str, int] = {byte_token(b): b for b in range(256)}
        for ch in self.alphabet:
            self.vocab.setdefault(ch, len(self.vocab))
        for i, (left, right) in enumerate(self.merges):
            for part in (left, right):
                if part not in self.vocab:
                    raise ValueError(
                        f"merges[{i}] = {(left, right)!r} uses {part!r}, which is neither a character "
                        "of the alphabet nor the result of an earlier merge"
                    )
            self.vocab.setdefault(left + right, len(self.vocab))
        self.id_to_token = {i: t for t, i in self.vocab.items()}
        self._ranks = {pair: r for r, pair in reversed(list(enumerate(self.merges)))}  # first rank wins
        self._alphabet_set = frozenset(self.alphabet)
        self._cache: dict[str, list[str]] = {}  # chunk -> tokens

    def __repr__(self) -> str:
        return f"BPE(merges={len(self.merges)}, alphabet={len(self.alphabet)}, vocab={len(self.vocab)})"

    @classmethod
    def train(
        cls, corpus: str | Iterable[str], num_merges: int, *, min_frequency: int = 1, progress: bool = False
    ) -> BPE:
        """Learn up to ``num_merges`` merges from ``corpus`` (a str or an iterable of documents).

        Training stops early when no pair occurs at least ``min_frequency`` times.
        ``progress=True`` shows a tqdm bar.
        """
        docs = _check_corpus(corpus)
        word_counts = Counter(chunk for doc in docs for chunk in pretokenize(doc))
        return cls.train_from_counts(word_counts, num_merges, min_frequency=min_frequency, progress=progress)

    @classmethod
    def train_from_counts(
        cls,
        word_counts: Mapping[str, int],
        num_merges: int,
        *,
        min_frequency: int = 1,
        alphabet: Iterable[str] | None = None,
        progress: bool = False,
    ) -> BPE:
        """Learn up to ``num_merges`` merges from chunks already cut and counted, ``{chunk: count}``.

        Use it when the chunks come from another pre-tokenizer, e.g. byte-level chunks
        (:mod:`nlp_helpers.tokenization.byte_level`). ``alphabet`` adds base characters
        that need not occur in the chunks (default: only those that do).
        """
        _check_word_counts(word_counts)
        num_merges = check_int("num_merges", num_merges, minimum=0)
        min_frequency = check_int("min_frequency", min_frequency, minimum=1)
        base = sorted({ch for w in word_counts for ch in w})  # ids in code-point order: the tie-breaking order
        if alphabet is not None:
            if isinstance(alphabet, str) or not isinstance(alphabet, Iterable):
                raise TypeError(f"alphabet must be an iterable of characters, got {type(alphabet).__name__}")
            alphabet = sorted(set(base) | set(alphabet))
        else:
            alphabet = base
        names = list(base)  # symbol id -> string; ids give the tie-breaking order
        ids = {s: i for i, s in enumerate(names)}
        words = [[ids[ch] for ch in w] for w in word_counts]  # each chunk as symbol ids
        freqs = list(word_counts.values())
        pair_counts: Counter = Counter()
        where: defaultdict[tuple[int, int], set[int]] = defaultdict(set)  # pair -> words that contain it
        for wi, w in enumerate(words):
            for pair in zip(w, w[1:]):
                pair_counts[pair] += freqs[wi]
                where[pair].add(wi)
        heap = [(-c, a, b) for (a, b), c in pair_counts.items()]  # max count, then smallest ids
        heapq.heapify(heap)
        merges: list[tuple[int, int]] = []
        with tqdm(total=num_merges, desc="BPE merges", disable=not progress or hide_progress()) as bar:
            while len(merges) < num_merges and heap:
                neg, a, b = heapq.heappop(heap)
                count = pair_counts.get((a, b), 0)
                if count != -neg:  # stale heap entry: the count changed since it was pushed
                    if count > 0:
                        heapq.heappush(heap, (-count, a, b))
                    continue
                if count < min_frequency:
                    break
                new_name = names[a] + names[b]
                if new_name not in ids:  # a string can be built by two different merges
                    ids[new_name] = len(names)
                    names.append(new_name)
                new = ids[new_name]
                merges.append((a, b))
                grown = set()
                for wi in where.pop((a, b)):
                    old = words[wi]
                    merged = _merge_pair(old, (a, b), new)
                    if len(merged) == len(old):
                        continue  # stale index: this word no longer holds the pair
                    f = freqs[wi]
                    for pair in zip(old, old[1:]):
                        pair_counts[pair] -= f
                    for pair in zip(merged, merged[1:]):
                        pair_counts[pair] += f
                        where[pair].add(wi)
                        if new in pair:  # only pairs with the new symbol can have grown
                            grown.add(pair)
                    words[wi] = merged
                for pair in grown:
                    heapq.heappush(heap, (-pair_counts[pair], *pair))
                bar.update(1)
        return cls([(names[a], names[b]) for a, b in merges], alphabet)

    # ----------------------------------------------------------------------- encoding
    def encode_chunk(self, chunk: str) -> list[str]:
        """Tokens of one chunk, without pre-tokenizing it (callers with their own pre-tokenizer use this)."""
        cached = self._cache.get(chunk)
        if cached is not None:
            return cached
        symbols: list[str] = []
        for ch in chunk:
            if ch in self._alphabet_set:
                symbols.append(ch)
            else:  # byte fallback for characters the alphabet does not know
                symbols.extend(byte_token(b) for b in ch.encode("utf-8"))
        while len(symbols) > 1:
            # Merge the earliest-learned pair present; replaying merges in order gives the same result.
            best = min(zip(symbols, symbols[1:]), key=lambda p: self._ranks.get(p, len(self._ranks)))
            if best not in self._ranks:
                break
            symbols = _merge_pair(symbols, best, best[0] + best[1])
        if len(self._cache) < 100_000:
            self._cache[chunk] = symbols
        return symbols

    def encode(self, text: str) -> list[str]:
        """Tokens of ``text`` (strings); ``decode(encode(text)) == text`` for every string."""
        check_text("text", text)
        try:
            return [tok for chunk in pretokenize(text) for tok in self.encode_chunk(chunk)]
        except UnicodeEncodeError as exc:  # a lone surrogate (e.g. "\ud800") has no UTF-8 bytes to fall back to
            raise ValueError(
                f"text contains {exc.object[exc.start : exc.end]!r}, which is not valid Unicode "
                "(a lone surrogate) and has no UTF-8 bytes"
            ) from None

    def encode_ids(self, text: str) -> list[int]:
        """Token ids of ``text`` (see :attr:`vocab`)."""
        return [self.vocab[t] for t in self.encode(text)]

    def decode(self, tokens: Sequence[str]) -> str:
        """The text of a token sequence; byte-fallback tokens are joined and decoded as UTF-8."""
        if isinstance(tokens, str) or not isinstance(tokens, Iterable):
            raise TypeError(f"tokens must be a list of token strings, got {type(tokens).__name__}")
        parts: list[str] = []
        pending = bytearray()
        for i, tok in enumerate(tokens):
            if not isinstance(tok, str):
                raise TypeError(f"tokens must contain only str, got {type(tok).__name__} at position {i}")
            if tok not in self.vocab:
                raise ValueError(f"tokens[{i}] = {tok!r} is not in the vocabulary")
            m = _BYTE_TOKEN_RE.fullmatch(tok)
            if m:
                pending.append(int(m.group(1), 16))
                continue
            if pending:
                parts.append(_decode_bytes(pending))
                pending = bytearray()
            parts.append(tok)
        if pending:
            parts.append(_decode_bytes(pending))
        return "".join(parts)

    def decode_ids(self, ids: Sequence[int]) -> str:
        """The text of a sequence of token ids."""
        if isinstance(ids, (str, bytes)) or not isinstance(ids, Iterable):
            raise TypeError(f"ids must be a sequence of int token ids, got {type(ids).__name__}")
        tokens = []
        for i, idx in enumerate(ids):
            idx = check_int(f"ids[{i}]", idx)
            if idx not in self.id_to_token:
                raise ValueError(f"ids[{i}] = {idx} is not a token id (vocabulary size {len(self.vocab)})")
            tokens.append(self.id_to_token[idx])
        return self.decode(tokens)


def _decode_bytes(data: bytearray) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"tokens: the byte tokens {bytes(data)!r} are not valid UTF-8 ({exc.reason})") from None
