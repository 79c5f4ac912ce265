"""Documents as features: vocabulary, sparse count matrices and the negation trick.

A document is a list of tokens (``text.split()`` for the polarity snippets). :func:`count_matrix`
turns documents into a ``scipy.sparse`` matrix of shape ``(n_docs, vocab_size)``, the same matrix
as scikit-learn's ``CountVectorizer(vocabulary=...)`` on the same tokens; words outside the
vocabulary are dropped, which is how naive Bayes treats unknown test words.

:func:`mark_negation` follows Das & Chen (2001) and Pang, Lee & Vaithyanathan (2002) as told in
Jurafsky & Martin (SLP3, ch. 4): after a token of logical negation, prefix ``NOT_`` to every token
up to the next punctuation mark, so ``didn't like this movie , but I`` becomes
``didn't NOT_like NOT_this NOT_movie , but I``.

Left out: n-gram features, stop-word lists, stemming and weighting schemes (TF-IDF is its own chapter).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from nlp_helpers._checks import check_int, check_nonempty

__all__ = ["NEGATORS", "build_vocabulary", "check_docs", "check_labels", "count_matrix", "mark_negation"]

# Words of logical negation (SLP3 names n't, not, no and never); any token ending in "n't" also counts.
NEGATORS = frozenset({"not", "no", "never", "nothing", "nobody", "none", "nowhere", "neither", "nor", "cannot"})


def check_docs(name: str, docs: Any, *, allow_empty: bool = False) -> list[list[str]]:
    """Check that ``docs`` is a sequence of token lists (each a list or tuple of str); return lists.

    A single string, or a list of strings (untokenized texts), is the usual mistake: the message
    says to split them first.
    """
    if isinstance(docs, (str, bytes)):
        raise TypeError(f"{name} must be a list of token lists, got a single {type(docs).__name__}")
    items = check_nonempty(name, docs) if not allow_empty else list(docs)
    for i, doc in enumerate(items):
        if isinstance(doc, str):
            raise TypeError(f"{name}[{i}] must be a list of tokens, got the str {doc[:30]!r}: use text.split()")
        if not isinstance(doc, (list, tuple)):
            raise TypeError(f"{name}[{i}] must be a list of tokens, got {type(doc).__name__}")
    if {type(tok) for doc in items for tok in doc} - {str}:  # one fast pass; find the culprit only if needed
        i = next(i for i, doc in enumerate(items) if not all(isinstance(tok, str) for tok in doc))
        raise TypeError(f"{name}[{i}] must contain only str tokens")
    return [doc if isinstance(doc, list) else list(doc) for doc in items]


def check_labels(name: str, labels: Any, n: int) -> np.ndarray:
    """Check that ``labels`` has ``n`` hashable, comparable entries (ints or strs); return an array."""
    if isinstance(labels, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of labels, not a single {type(labels).__name__}")
    items = check_nonempty(name, labels)
    if len(items) != n:
        raise ValueError(f"{name} has {len(items)} entries but there are {n} documents")
    arr = np.asarray(items)
    if (
        arr.ndim != 1
        or arr.dtype.kind not in "iuUbO"
        or (arr.dtype.kind == "O" and not all(isinstance(x, (str, int, np.integer)) for x in items))
    ):
        raise TypeError(f"{name} must be a 1-d sequence of int or str labels, got dtype {arr.dtype}")
    return arr


def build_vocabulary(docs: Iterable[Sequence[str]], min_count: int = 1) -> dict[str, int]:
    """Word -> column index for every word seen at least ``min_count`` times, in sorted order.

    Sorted order makes the columns the same as scikit-learn's ``CountVectorizer``.
    """
    docs = check_docs("docs", docs)
    min_count = check_int("min_count", min_count, minimum=1)
    counts = Counter(tok for doc in docs for tok in doc)
    return {w: i for i, w in enumerate(sorted(w for w, c in counts.items() if c >= min_count))}


def count_matrix(docs: Iterable[Sequence[str]], vocabulary: dict[str, int], *, binary: bool = False) -> sp.csr_matrix:
    """Sparse ``(n_docs, len(vocabulary))`` matrix of word counts; unknown words are dropped.

    ``binary=True`` clips every count at 1 (word presence, as in binary naive Bayes).
    """
    docs = check_docs("docs", docs, allow_empty=True)
    if not isinstance(vocabulary, dict) or not all(isinstance(i, (int, np.integer)) for i in vocabulary.values()):
        raise TypeError("vocabulary must be a dict word -> column index (see build_vocabulary)")
    return _count_matrix(docs, vocabulary, bool(binary))


def _count_matrix(docs: list[list[str]], vocabulary: dict[str, int], binary: bool) -> sp.csr_matrix:
    get = vocabulary.get
    cols = np.fromiter((get(t, -1) for doc in docs for t in doc), dtype=np.int64)
    rows = np.repeat(np.arange(len(docs)), [len(doc) for doc in docs])
    known = cols >= 0  # unknown words are dropped
    m = sp.csr_matrix((np.ones(int(known.sum())), (rows[known], cols[known])), shape=(len(docs), len(vocabulary)))
    m.sum_duplicates()  # repeated (row, col) pairs become counts
    if binary:
        m.data[:] = 1.0
    return m


def _is_punctuation(token: str) -> bool:
    return not any(ch.isalnum() for ch in token)


def _is_negator(token: str) -> bool:
    low = token.lower()
    return low in NEGATORS or low.endswith("n't")


def mark_negation(tokens: Sequence[str]) -> list[str]:
    """Prefix ``NOT_`` to every token after a negation word, up to the next punctuation token.

    >>> " ".join(mark_negation("didn't like this movie , but I".split()))
    "didn't NOT_like NOT_this NOT_movie , but I"

    A second negation word inside the scope is marked too and keeps the scope open.
    """
    if isinstance(tokens, str):
        raise TypeError(f"tokens must be a list of tokens, got the str {tokens[:30]!r}: use text.split()")
    if not isinstance(tokens, (list, tuple)) or not all(isinstance(t, str) for t in tokens):
        raise TypeError(f"tokens must be a list of str tokens, got {type(tokens).__name__}")
    out, negated = [], False
    for tok in tokens:
        if _is_punctuation(tok):
            negated = False
            out.append(tok)
        elif negated:
            out.append("NOT_" + tok)
        else:
            out.append(tok)
            negated = _is_negator(tok)
    return out
