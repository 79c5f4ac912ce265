"""Bits per character: a measure that compares language models over different tokenizers.

Perplexity is per *token*, so a word model and a character model (or two subword
tokenizers) have perplexities in different units. Both assign a probability to the same
text, so the total number of bits they need for it, divided by the number of characters,
compares them (Jurafsky & Martin, 3rd ed., ch. 3; Graves 2013 for character models).

The text of tokenised sentences is taken to be each sentence's tokens joined by single
spaces, plus one newline per sentence (the ``</s>``): ``len(" ".join(s)) + 1`` characters.
A word model with an *open* vocabulary pays only log2 P(<UNK>) for a word it does not know,
which is the probability of a whole class of words, not of that word's spelling. To be a
model of the characters it must also spell the word out: :func:`bits_per_character` adds the
bits of a character-level *spelling model* for every out-of-vocabulary token (Chen & Goodman
1998 call such a model open-vocabulary; the result is an upper bound, because the spelling
model also gives some mass to spellings of in-vocabulary words).
Left out: byte-level accounting (non-ASCII characters count as one character each).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from nlp_helpers._checks import check_nonempty
from nlp_helpers.ngram.models import NGramLM

__all__ = ["text_characters", "bits_per_character"]


def _check_sentences(sentences: Iterable[Sequence[str]]) -> list[Sequence[str]]:
    sentences = check_nonempty("sentences", sentences)
    for i, s in enumerate(sentences):
        if isinstance(s, str) or not isinstance(s, Sequence) or not all(isinstance(t, str) for t in s):
            raise TypeError(f"sentences must be a list of token lists; sentences[{i}] is not a list of str")
    return sentences


def text_characters(sentences: Iterable[Sequence[str]]) -> int:
    """Characters of the sentences as text: tokens joined by spaces, one newline per sentence."""
    sentences = _check_sentences(sentences)
    return int(sum(len(" ".join(s)) + 1 for s in sentences))


def bits_per_character(lm: NGramLM, sentences: Iterable[Sequence[str]], spelling: NGramLM | None = None) -> float:
    """Total bits of ``lm`` on ``sentences`` (every token and ``</s>``) per character of their text.

    ``spelling``: a character-level model fitted on words (each word a "sentence" of characters);
    every token outside ``lm``'s vocabulary then also costs the bits of its spelling (its characters
    and the end ``</s>``). With ``spelling=None`` unknown words are not spelled out, and the result
    understates the bits of an open-vocabulary model.
    """
    if not isinstance(lm, NGramLM):
        raise TypeError(f"lm must be a fitted NGramLM, got {type(lm).__name__}")
    if spelling is not None and not isinstance(spelling, NGramLM):
        raise TypeError(f"spelling must be a fitted character-level NGramLM or None, got {type(spelling).__name__}")
    sentences = _check_sentences(sentences)
    return _bpc(lm, sentences, spelling)


def _bpc(lm: NGramLM, sentences: list[Sequence[str]], spelling: NGramLM | None) -> float:
    bits = -float(np.sum(lm.token_logprobs(sentences)))
    known = set(lm.vocab)
    unknown = [list(w) for s in sentences for w in s if w not in known]
    if spelling is not None and unknown:
        bits -= float(np.sum(spelling.token_logprobs(unknown)))  # each spelling ends with </s>
    return bits / text_characters(sentences)
