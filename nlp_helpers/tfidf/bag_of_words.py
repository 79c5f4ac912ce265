"""Documents as vectors of counts: tokenizing a corpus, a top-(n-1) vocabulary plus UNK, bag-of-words and one-hot vectors."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from nlp_helpers._checks import check_int, check_nonempty, check_text

__all__ = ["FOUR_SENTENCES", "Tokenizer", "bag_of_words", "build_vocabulary", "one_hot", "tokenize_corpus"]


Tokenizer = Callable[[str], Sequence[str]]

# Four short documents about restaurants near a church (8, 13, 21 and 23 word tokens): the worked TF-IDF example.
FOUR_SENTENCES = (
    "There are many popular restaurants nearby this church.",
    "Some restaurants offer breakfasts as early as 6:00 am to provide for prayers.",
    '"The price and taste are all good.", said one prayer who has been a frequent visitor to this church since 1998.',
    "However, Covid-19 has forced some restaurants to shut down for lack of revenue during the pandemic, "
    "and many prayers are complained about it.",
)


# --------------------------------------------------------------------------- tokens
def resolve_tokenizer(tokenizer: Tokenizer | None) -> Tokenizer:
    """The tokenizer to use: ``tokenizer`` if it is callable, the chapter's word tokenizer (no punctuation) if None."""
    if tokenizer is None:
        # Imported on first use: the tokenizer belongs to the words chapter's module.
        from nlp_helpers.words.words import word_tokenize

        return lambda text: word_tokenize(text, keep_punct=False)
    if not callable(tokenizer):
        raise TypeError(f"tokenizer must be a callable str -> list of str (or None), got {type(tokenizer).__name__}")
    return tokenizer


def document_tokens(doc: Any, i: int, tokenize: Tokenizer, lowercase: bool) -> list[str]:
    """The tokens of ``docs[i]``, lower-cased if asked; an empty document is an error (it has no vector)."""
    if not isinstance(doc, str):
        raise TypeError(f"docs[{i}] must be a str, got {type(doc).__name__}")
    tokens = tokenize(doc)
    if isinstance(tokens, str) or not isinstance(tokens, Iterable):
        raise TypeError(f"the tokenizer must return a list of str, got {type(tokens).__name__} for docs[{i}]")
    tokens = list(tokens)
    if not tokens:
        raise ValueError(f"docs[{i}] has no tokens ({doc[:40]!r}); every document needs at least one word")
    if not isinstance(tokens[0], str):
        raise TypeError(f"the tokenizer must return a list of str, got {type(tokens[0]).__name__} for docs[{i}]")
    return [t.lower() for t in tokens] if lowercase else tokens


def tokenize_corpus(docs: Iterable[str], tokenizer: Tokenizer | None = None, lowercase: bool = True) -> list[list[str]]:
    """Tokenize every document (then lower-case if ``lowercase``); raise on an empty corpus or document."""
    docs = check_nonempty("docs", docs)
    tokenize = resolve_tokenizer(tokenizer)
    return [document_tokens(d, i, tokenize, lowercase) for i, d in enumerate(docs)]


def build_vocabulary(
    token_lists: Iterable[Sequence[str]], max_size: int | None = None, *, min_count: int = 1, unk: str | None = None
) -> list[str]:
    """Terms by descending corpus frequency (ties alphabetical), at least ``min_count`` times.

    With ``unk`` the list holds the ``max_size - 1`` most frequent terms plus ``unk``
    last (the lecture notes' top-(n-1) + UNK vocabulary of size n).
    """
    token_lists = check_nonempty("token_lists", token_lists)
    for i, tokens in enumerate(token_lists):
        if isinstance(tokens, str):
            raise TypeError(f"token_lists[{i}] must be a list of tokens, got a str; tokenize it first")
    counts = Counter(t for tokens in token_lists for t in tokens)
    min_count = check_int("min_count", min_count, minimum=1)
    terms = sorted((t for t, c in counts.items() if c >= min_count), key=lambda t: (-counts[t], t))
    if max_size is not None:
        max_size = check_int("max_size", max_size, minimum=2 if unk is not None else 1)
        terms = terms[: max_size - 1] if unk is not None else terms[:max_size]
    if unk is not None:
        check_text("unk", unk, allow_empty=False)
        if unk in terms:
            raise ValueError(f"unk={unk!r} is also a real token of the corpus; choose another placeholder")
        terms.append(unk)
    return terms


def bag_of_words(
    docs: Sequence[str],
    vocab_size: int,
    *,
    tokenizer: Tokenizer | None = None,
    lowercase: bool = True,
    unk: str = "<unk>",
) -> pd.DataFrame:
    """The lecture notes' bag of words: counts of the ``vocab_size - 1`` most frequent terms plus ``unk``.

    Returns a DataFrame (documents x ``vocab_size`` terms); every token outside the
    top terms is counted in the ``unk`` column, so each row sums to the document's length.
    """
    tokens = tokenize_corpus(docs, tokenizer, lowercase)
    vocab = build_vocabulary(tokens, check_int("vocab_size", vocab_size, minimum=2), unk=unk)
    index = {t: j for j, t in enumerate(vocab)}
    rows = np.zeros((len(tokens), len(vocab)), dtype=np.int64)
    for i, doc in enumerate(tokens):
        for t in doc:
            rows[i, index.get(t, len(vocab) - 1)] += 1
    return pd.DataFrame(rows, index=document_names(len(tokens)), columns=vocab)


def one_hot(tokens: Sequence[str], vocabulary: Sequence[str], *, unk: str | None = None) -> np.ndarray:
    """One-hot rows, shape ``(T, V)``: row t has a single 1 at ``tokens[t]``'s index in ``vocabulary``.

    A token not in the vocabulary maps to ``unk`` if given, otherwise it is an error.
    """
    tokens = check_nonempty("tokens", tokens)
    vocabulary = check_nonempty("vocabulary", vocabulary)
    index = {t: j for j, t in enumerate(vocabulary)}
    if unk is not None and unk not in index:
        raise ValueError(f"unk={unk!r} is not in the vocabulary")
    out = np.zeros((len(tokens), len(vocabulary)))
    for t, tok in enumerate(tokens):
        j = index.get(tok, index.get(unk) if unk is not None else None)
        if j is None:
            raise ValueError(f"tokens[{t}] = {tok!r} is not in the vocabulary (pass unk=... to map unknown tokens)")
        out[t, j] = 1.0
    return out


def vocabulary_index(vocabulary: Sequence[str]) -> dict[str, int]:
    """Map each term of a fixed vocabulary (non-empty, no duplicates) to its column."""
    terms = [
        check_text(f"vocabulary[{j}]", t, allow_empty=False)
        for j, t in enumerate(check_nonempty("vocabulary", vocabulary))
    ]
    index = {t: j for j, t in enumerate(terms)}
    if len(index) != len(terms):
        raise ValueError("vocabulary must not contain duplicate terms")
    return index


def document_names(n: int) -> list[str]:
    """The row labels of a small document table: ``["Doc 1", ..., "Doc n"]``."""
    return [f"Doc {i + 1}" for i in range(n)]
