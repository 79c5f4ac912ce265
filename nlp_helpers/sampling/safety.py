"""Choosing which generated samples a page shows: the first one free of offensive words.

A small model trained on web text swears now and then, and which sample a seed draws changes with the
machine and the seed. A page that prints "a sample" therefore prints the first sample of a setting
that contains none of a short list of English swear words and slurs. The measurements (diversity,
log-probability) always count every sample; only the choice of the example shown is filtered.

The list is stored ROT13-encoded, so that nobody reading this file or a notebook meets the words
themselves.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable

from nlp_helpers._checks import check_text

__all__ = ["is_offensive", "first_inoffensive"]

_ENCODED = "avttre chffl ergneq fuvg fyhg juber nffubyr onfgneq ovgpu phag qvpx shpx shpxvat snt snttbg"
_WORDS = frozenset(codecs.decode(_ENCODED, "rot13").split())
_WORD = re.compile(r"[a-z]+")


def is_offensive(text: str) -> bool:
    """True if ``text`` contains one of the listed words (whole words, any case)."""
    check_text("text", text)
    return _core_is_offensive(text)


def _core_is_offensive(text: str) -> bool:
    return not _WORDS.isdisjoint(_WORD.findall(text.lower()))


def first_inoffensive(texts: Iterable[str]) -> str:
    """The first of ``texts`` that :func:`is_offensive` accepts.

    Raises ``ValueError`` if ``texts`` is empty or every text contains a listed word (a page should
    then draw more samples rather than show one).
    """
    texts = list(texts)
    if not texts:
        raise ValueError("texts: expected at least one text, got none")
    for i, text in enumerate(texts):
        check_text(f"texts[{i}]", text)
    for text in texts:
        if not _core_is_offensive(text):
            return text
    raise ValueError(f"texts: all {len(texts)} texts contain an offensive word; draw more samples")
