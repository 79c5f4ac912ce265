"""fastText's subword idea: a word is the bag of its character n-grams, each hashed into one of a fixed number of buckets.

Follows Bojanowski et al. (2017, "Enriching Word Vectors with Subword Information")
and the reference implementation as gensim reproduces it: the word is wrapped in
``<`` and ``>``, every character n-gram with ``minn <= n <= maxn`` is hashed with
32-bit FNV-1a over its UTF-8 bytes (each byte sign-extended, a quirk of the C++
code that gensim copies), and the hash modulo ``buckets`` picks a row of the
n-gram matrix. An unseen word's vector is the mean of its n-grams' rows.

Left out: training. The chapter trains with gensim's ``FastText`` and uses these
functions to show (and the tests to check) how a vector for an unseen word is
put together from the trained n-gram rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from nlp_helpers._checks import check_array, check_int, check_text

__all__ = ["char_ngrams", "fnv1a_32", "ngram_buckets", "subword_vector"]

FNV_OFFSET, FNV_PRIME = 2166136261, 16777619


def char_ngrams(word: str, minn: int = 3, maxn: int = 6) -> list[str]:
    """All character n-grams of ``<word>`` with ``minn <= n <= maxn``, shortest first.

    ``char_ngrams("where", 3, 3) == ['<wh', 'whe', 'her', 'ere', 're>']``. The brackets
    let ``"her>"`` (a word ending) differ from ``"her"`` inside a word.
    """
    check_text("word", word, allow_empty=False)
    minn = check_int("minn", minn, minimum=1)
    maxn = check_int("maxn", maxn, minimum=minn)
    wrapped = f"<{word}>"
    return [wrapped[i : i + n] for n in range(minn, maxn + 1) for i in range(len(wrapped) - n + 1)]


def fnv1a_32(data: bytes) -> int:
    """fastText's 32-bit FNV-1a hash of ``data`` (bytes are sign-extended before the xor, as in fastText)."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"data must be bytes, got {type(data).__name__}; encode strings with .encode('utf-8')")
    h = FNV_OFFSET
    for byte in data:
        signed = byte - 256 if byte >= 128 else byte  # C++ `int8_t(c)` then cast to uint32
        h = ((h ^ (signed & 0xFFFFFFFF)) * FNV_PRIME) & 0xFFFFFFFF
    return h


def ngram_buckets(word: str, minn: int = 3, maxn: int = 6, buckets: int = 2_000_000) -> list[int]:
    """The bucket (row of the n-gram matrix) of each n-gram of ``word``: ``fnv1a_32(ngram) % buckets``.

    Different n-grams may share a bucket (a hash collision); that is the price of a fixed-size table.
    """
    buckets = check_int("buckets", buckets, minimum=1)
    return [fnv1a_32(g.encode("utf-8")) % buckets for g in char_ngrams(word, minn, maxn)]


def subword_vector(word: str, ngram_vectors: Any, minn: int = 3, maxn: int = 6) -> np.ndarray:
    """Vector of a (possibly unseen) word: the mean of its n-grams' rows of ``ngram_vectors`` (buckets, d).

    This is how fastText (and gensim's ``FastText.wv[word]``) builds a vector for a word it never saw.
    """
    table = check_array("ngram_vectors", ngram_vectors, ndim=2, dtype=np.float32)
    rows = ngram_buckets(word, minn, maxn, table.shape[0])
    if not rows:  # fastText (and gensim) cannot build a vector from nothing either
        raise ValueError(
            f"word {word!r} has no character n-grams of length {minn}..{maxn} "
            f"(with its brackets it has {len(word) + 2} characters); lower minn"
        )
    return table[rows].mean(axis=0)
