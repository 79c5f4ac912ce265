"""Byte-level BPE, as in GPT-2: BPE over the UTF-8 bytes of the text instead of its characters.

What it implements
    Radford et al. (2019) run BPE on bytes, so the base vocabulary is exactly 256
    symbols and no string is ever out of vocabulary. To reuse string-based BPE code,
    GPT-2 (``encoder.py`` of openai/gpt-2) writes every byte as one printable
    Unicode character: :func:`bytes_to_unicode` keeps the 188 printable Latin-1
    bytes as themselves and moves the other 68 (control bytes, the space) to
    ``U+0100`` onwards, so the space becomes ``"Ġ"`` and a newline ``"Ċ"``.

    * :func:`to_byte_chars` / :func:`from_byte_chars` map text to that alphabet and back.
    * :class:`ByteLevelBPE` cuts text with GPT-2's pattern
      (:func:`~nlp_helpers.tokenization.bpe.pretokenize`), maps each chunk to byte
      characters and learns/applies merges with :class:`~nlp_helpers.tokenization.bpe.BPE`.
      Its tie-breaking is that of Hugging Face ``tokenizers``, so it learns the same
      merges as ``BpeTrainer`` behind a ``ByteLevel`` pre-tokenizer.

What it leaves out
    Special tokens (``<|endoftext|>``) and GPT-2's trained merge table itself.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence

from nlp_helpers._checks import check_choice, check_text
from nlp_helpers.tokenization.bpe import BPE, pretokenize

__all__ = ["bytes_to_unicode", "to_byte_chars", "from_byte_chars", "ByteLevelBPE"]


@functools.lru_cache(maxsize=1)
def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's table byte -> printable character (256 entries, all distinct)."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table = {b: chr(b) for b in keep}  # printable bytes stand for themselves
    shifted = 0
    for b in range(256):
        if b not in table:  # the rest move to U+0100, U+0101, ... in byte order
            table[b] = chr(256 + shifted)
            shifted += 1
    return dict(sorted(table.items()))


@functools.lru_cache(maxsize=1)
def _char_to_byte() -> dict[str, int]:
    return {c: b for b, c in bytes_to_unicode().items()}


def to_byte_chars(text: str) -> str:
    """``text`` as GPT-2's byte characters: one character per UTF-8 byte (``" é"`` -> ``"ĠÃ©"``)."""
    check_text("text", text)
    table = bytes_to_unicode()
    try:
        return "".join(table[b] for b in text.encode("utf-8"))
    except UnicodeEncodeError:
        raise ValueError("text contains a lone surrogate, which has no UTF-8 bytes") from None


def from_byte_chars(chars: str, *, errors: str = "replace") -> str:
    """Inverse of :func:`to_byte_chars`; ``errors`` is passed to ``bytes.decode`` (GPT-2 uses "replace")."""
    check_text("chars", chars)
    check_choice("errors", errors, ["strict", "replace", "ignore"])
    table = _char_to_byte()
    for i, ch in enumerate(chars):
        if ch not in table:
            raise ValueError(f"chars[{i}] = {ch!r} is not one of the 256 byte characters")
    return bytes(table[ch] for ch in chars).decode("utf-8", errors=errors)


class ByteLevelBPE:
    """GPT-2-style byte-level BPE: ``pretokenize`` -> byte characters -> BPE merges.

    Tokens are strings of byte characters (``"Ġthe"``); :meth:`decode` maps them back to text.
    """

    def __init__(self, bpe: BPE) -> None:
        if not isinstance(bpe, BPE):
            raise TypeError(f"bpe must be a BPE over byte characters, got {type(bpe).__name__}")
        outside = sorted(set(bpe.alphabet) - set(bytes_to_unicode().values()))
        if outside:
            raise ValueError(f"bpe must be built on byte characters; its alphabet also holds {outside[:5]!r}")
        self.bpe = bpe
        self.merges = bpe.merges

    def __repr__(self) -> str:
        return f"ByteLevelBPE(merges={len(self.merges)})"

    @classmethod
    def train(cls, corpus: str | Iterable[str], num_merges: int, *, progress: bool = False) -> ByteLevelBPE:
        """Learn ``num_merges`` merges on the byte characters of ``corpus`` (a str or documents)."""
        docs = [corpus] if isinstance(corpus, str) else list(corpus) if isinstance(corpus, Iterable) else None
        if docs is None or not all(isinstance(d, str) for d in docs) or not any(docs):
            raise TypeError("corpus must be a non-empty str or an iterable of str with some text")
        counts = Counter(to_byte_chars(chunk) for doc in docs for chunk in pretokenize(doc))
        alphabet = bytes_to_unicode().values()  # all 256 bytes are tokens, seen or not
        return cls(BPE.train_from_counts(counts, num_merges, alphabet=alphabet, progress=progress))

    def encode(self, text: str) -> list[str]:
        """Byte-level tokens of ``text``; never unknown, whatever the script."""
        check_text("text", text)
        return [tok for chunk in pretokenize(text) for tok in self.bpe.encode_chunk(to_byte_chars(chunk))]

    def decode(self, tokens: Sequence[str]) -> str:
        """Text of a token list (invalid UTF-8 from a partial character becomes U+FFFD, as in GPT-2)."""
        if isinstance(tokens, str) or not isinstance(tokens, Iterable):
            raise TypeError(f"tokens must be a list of token strings, got {type(tokens).__name__}")
        tokens = list(tokens)
        for i, tok in enumerate(tokens):
            if not isinstance(tok, str):
                raise TypeError(f"tokens must contain only str, got {type(tok).__name__} at position {i}")
        return from_byte_chars("".join(tokens))
