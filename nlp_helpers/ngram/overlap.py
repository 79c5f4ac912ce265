"""How much of a generated text was copied from the training text: the longest shared n-gram.

A sample from a high-order MLE model rarely reproduces a whole training sentence, yet it can
contain long verbatim runs (a 4-gram model switches from one training sentence to another
wherever two of them share three words). Testing "is the sample a training sentence?" misses
those runs; the longest n-gram a sample shares with the training text measures them.

:class:`TrainingText` joins the training sentences into one string, one sentence per line and
every token between spaces, so "does this n-gram occur in training, within one sentence?" is a
substring search. The search for the longest run only tests a run starting at ``i`` if it is
longer than the best so far, so a sample of m words costs O(m) searches.
Left out: suffix arrays (faster for millions of samples), matches across sentence boundaries.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from nlp_helpers._checks import check_nonempty

__all__ = ["TrainingText"]


def _check_tokens(name: str, tokens: Sequence[str]) -> list[str]:
    if isinstance(tokens, str) or not isinstance(tokens, Sequence):
        raise TypeError(f"{name} must be a list of tokens (e.g. 'to be or'.split()), got {type(tokens).__name__}")
    for t in tokens:
        if not isinstance(t, str) or not t or any(ch.isspace() for ch in t):
            raise ValueError(f"{name} must hold non-empty tokens without whitespace, got {t!r}")
    return list(tokens)


class TrainingText:
    """The training sentences, searchable for shared n-grams.

    ``sentences``: lists of tokens (no token may contain whitespace).
    """

    def __init__(self, sentences: Iterable[Sequence[str]]) -> None:
        sentences = check_nonempty("sentences", sentences)
        lines = [" ".join(_check_tokens(f"sentences[{i}]", s)) for i, s in enumerate(sentences)]
        self._text = " " + " \n ".join(lines) + " "  # every token between spaces, one sentence per line

    def contains(self, ngram: Sequence[str]) -> bool:
        """Whether ``ngram`` (>= 1 token) occurs, in this order, inside one training sentence."""
        ngram = _check_tokens("ngram", ngram)
        if not ngram:
            raise ValueError("ngram must have at least one token")
        return self._has(ngram)

    def _has(self, ngram: list[str]) -> bool:
        return f" {' '.join(ngram)} " in self._text

    def longest_shared_ngram(self, words: Sequence[str]) -> list[str]:
        """The longest run of consecutive ``words`` that occurs inside one training sentence
        (the first one if several are equally long; ``[]`` if no word occurs)."""
        words = _check_tokens("words", words)
        best: list[str] = []
        for i in range(len(words)):
            j = i + len(best) + 1  # only a longer run can improve on `best`
            while j <= len(words) and self._has(words[i:j]):
                best, j = words[i:j], j + 1
        return best
