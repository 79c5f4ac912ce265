"""Sentiment-lexicon features: the VADER lexicon and per-document counts of its words.

VADER (Hutto & Gilbert, 2014) ships ``vader_lexicon.txt`` with the ``vaderSentiment`` package
(MIT licence): 7,500 English words, emoticons and slang, each rated by ten people on a -4 (most
negative) to +4 (most positive) scale; the file lists the mean rating. A lexicon feature in the
sense of SLP3 ch. 4 is a count of the document's words on a predetermined positive or negative
list, so a classifier can use the lexicon's knowledge of words it saw rarely or never in training.

Left out: VADER's rules (intensifiers, "but", capitalisation, punctuation emphasis) and its
compound score; we use only the word list.
"""

from __future__ import annotations

import functools
import importlib.resources
from collections.abc import Mapping, Sequence

import numpy as np

from nlp_helpers._checks import check_float
from nlp_helpers.classification.features import check_docs

__all__ = ["lexicon_counts", "vader_lexicon"]


@functools.lru_cache(maxsize=1)
def _read_vader() -> tuple[tuple[str, float], ...]:
    try:
        text = importlib.resources.files("vaderSentiment").joinpath("vader_lexicon.txt").read_text("utf-8")
    except ModuleNotFoundError:
        raise FileNotFoundError(
            "the VADER lexicon ships with the package vaderSentiment: pip install vaderSentiment==3.3.2"
        ) from None
    entries = []
    for line in text.split("\n"):
        parts = line.split("\t")
        if len(parts) >= 2 and parts[0]:
            entries.append((parts[0], float(parts[1])))
    return tuple(entries)


def vader_lexicon() -> dict[str, float]:
    """The VADER lexicon as ``{token: mean valence in [-4, 4]}`` (a fresh dict on every call)."""
    return dict(_read_vader())


def lexicon_counts(docs: Sequence[Sequence[str]], lexicon: Mapping[str, float], threshold: float = 0.0) -> np.ndarray:
    """Counts of positive and negative lexicon words per document: shape (n_docs, 2).

    Column 0 counts tokens whose valence is above ``threshold``, column 1 tokens below
    ``-threshold``; tokens not in the lexicon count for neither.
    """
    docs = check_docs("docs", docs)
    if not isinstance(lexicon, Mapping):
        raise TypeError(f"lexicon must be a mapping token -> valence, got {type(lexicon).__name__}")
    threshold = check_float("threshold", threshold, minimum=0.0)
    return _lexicon_counts(docs, lexicon, threshold)


def _lexicon_counts(docs: list[list[str]], lexicon: Mapping[str, float], threshold: float) -> np.ndarray:
    out = np.zeros((len(docs), 2))
    for i, doc in enumerate(docs):
        values = [lexicon[t] for t in doc if t in lexicon]
        out[i, 0] = sum(v > threshold for v in values)
        out[i, 1] = sum(v < -threshold for v in values)
    return out
