"""Word shapes and the feature templates of a feature-based CRF tagger (SLP3 ch. 17).

A word's *shape* maps upper-case letters to ``X``, lower-case to ``x``, digits to ``d`` and keeps
other characters (``DC10-30`` -> ``XXdd-dd``); the *short* shape collapses runs of the same symbol
(``Xd-d``). Shapes, prefixes and suffixes let a tagger generalise to words it never saw. The
templates below pair each tag with the current word, its neighbours, its shape and affixes;
leaves out: gazetteers (lists of known names), which help NER but are not shipped here.
"""

from __future__ import annotations

from itertools import groupby

from nlp_helpers._checks import check_int, check_text

__all__ = ["token_features", "word_shape"]


def word_shape(word: str, short: bool = False) -> str:
    """The shape of ``word``: ``X`` upper, ``x`` lower, ``d`` digit, other characters kept.

    With ``short=True`` consecutive repeats collapse to one symbol.

    >>> word_shape("DC10-30"), word_shape("DC10-30", short=True), word_shape("Janet", short=True)
    ('XXdd-dd', 'Xd-d', 'Xx')
    """
    check_text("word", word)
    return _shape(word, short)


def _shape(word: str, short: bool) -> str:
    out = "".join("X" if c.isupper() else "x" if c.islower() else "d" if c.isdigit() else c for c in word)
    return "".join(symbol for symbol, _run in groupby(out)) if short else out


def token_features(words, i: int) -> list[str]:
    """The feature strings of token ``i`` of a sentence (a list of words).

    Current word (lower-cased), its prefixes and suffixes of length 1-3, long and short shape,
    capitalisation, digit and hyphen flags, the neighbouring words, and the word pair with its
    left neighbour (the template ``<y_i, x_i, x_(i-1)>``). Each feature is paired with every tag by
    the CRF's weight matrix.
    """
    if isinstance(words, str) or not isinstance(words, (list, tuple)) or not words:
        raise TypeError("words must be a non-empty list of word strings (one sentence)")
    i = check_int("i", i, minimum=0, maximum=len(words) - 1)
    return _features(words, i)


def _features(words, i: int) -> list[str]:
    w = words[i]
    low = w.lower()
    prev = words[i - 1].lower() if i > 0 else "<s>"
    nxt = words[i + 1].lower() if i + 1 < len(words) else "</s>"
    feats = [
        "bias",
        f"w={low}",
        f"shape={_shape(w, False)}",
        f"short={_shape(w, True)}",
        f"prev={prev}",
        f"next={nxt}",
        f"prev+w={prev}|{low}",
    ]
    feats += [f"suf{k}={low[-k:]}" for k in (1, 2, 3) if len(low) >= k]
    feats += [f"pre{k}={low[:k]}" for k in (1, 2, 3) if len(low) >= k]
    if w[:1].isupper():
        feats.append("title" if i > 0 else "title_first")
    if any(c.isdigit() for c in w):
        feats.append("digit")
    if "-" in w:
        feats.append("hyphen")
    return feats
