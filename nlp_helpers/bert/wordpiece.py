"""WordPiece tokenization exactly as BERT does it, from scratch.

BERT turns text into tokens in two stages (Devlin et al., 2019; Google's
``tokenization.py``):

1. a **basic tokenizer** that cleans the text (drops NUL, U+FFFD and control
   characters, maps every whitespace character to a space), puts spaces around
   CJK ideographs (so each becomes its own word), lower-cases, strips accents
   (Unicode NFD, then drop the non-spacing marks ``Mn``), and splits on
   whitespace and on every punctuation character;
2. **WordPiece**: each word is cut into vocabulary pieces by *greedy
   longest-match-first*: take the longest prefix that is in the vocabulary,
   then the longest ``##``-prefixed continuation of the rest, and so on. If
   some remainder has no match at all, the *whole word* becomes ``[UNK]``.

:func:`encode` then adds ``[CLS]``/``[SEP]``, segment ids (``token_type_ids``)
for sentence pairs, and :func:`pad_batch` pads a batch and builds the attention
mask. The result equals Hugging Face's ``BertTokenizer`` and the Rust
``tokenizers`` WordPiece pipeline of the uncased models on the test sentences
(``tests/test_wordpiece.py``).

Left out: *training* a WordPiece vocabulary (the tokenization chapter trains
subword vocabularies), the cased variant's options other than ``lowercase``,
and character offsets.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from nlp_helpers._checks import check_int, check_nonempty, check_text, check_type

__all__ = [
    "SPECIAL_TOKENS",
    "load_vocab",
    "clean_text",
    "space_cjk",
    "strip_accents",
    "split_punctuation",
    "basic_tokenize",
    "wordpiece_word",
    "wordpiece_tokenize",
    "encode",
    "pad_batch",
]

SPECIAL_TOKENS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")

# CJK Unified Ideographs and their extensions: BERT writes each of these as a separate word.
# (Hangul, Hiragana and Katakana are *not* in these blocks, as in the original code.)
_CJK_RANGES = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B820, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)


def load_vocab(path: str | Path) -> dict[str, int]:
    """Read a ``vocab.txt`` (one piece per line; the line number is the id) into ``{piece: id}``."""
    check_type("path", path, (str, Path))
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"path must point to a vocab.txt file, {path} does not exist")
    pieces = path.read_text(encoding="utf-8").split("\n")
    if pieces and pieces[-1] == "":
        pieces.pop()  # the final newline
    if not pieces:
        raise ValueError(f"path {path} contains no vocabulary entries")
    return {piece: i for i, piece in enumerate(pieces)}


def _is_whitespace(ch: str) -> bool:
    # \t, \n, \r are control characters to Unicode, but BERT treats them as spaces.
    return ch in " \t\n\r" or unicodedata.category(ch) == "Zs"


def _is_control(ch: str) -> bool:
    return ch not in "\t\n\r" and unicodedata.category(ch).startswith("C")


def _is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    # Every non-alphanumeric ASCII character counts ("$", "^", "`" are symbols to Unicode).
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(ch: str) -> bool:
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _CJK_RANGES)


def clean_text(text: str) -> str:
    """Drop NUL, U+FFFD and control characters; turn every whitespace character into ``" "``."""
    check_text("text", text)
    out = []
    for ch in text:
        if ch == "\x00" or ch == "\ufffd" or _is_control(ch):
            continue
        out.append(" " if _is_whitespace(ch) else ch)
    return "".join(out)


def space_cjk(text: str) -> str:
    """Put a space on both sides of every CJK ideograph, so each one becomes a word."""
    check_text("text", text)
    return "".join(f" {ch} " if _is_cjk(ch) else ch for ch in text)


def strip_accents(text: str) -> str:
    """Remove accents: decompose (NFD) and drop the combining marks, e.g. ``"café" -> "cafe"``."""
    check_text("text", text)
    return "".join(ch for ch in unicodedata.normalize("NFD", text) if unicodedata.category(ch) != "Mn")


def split_punctuation(word: str) -> list[str]:
    """Split a word so that every punctuation character is a token of its own: ``"isn't" -> ["isn", "'", "t"]``."""
    check_text("word", word)
    pieces: list[str] = []
    start_new = True
    for ch in word:
        if _is_punctuation(ch):
            pieces.append(ch)
            start_new = True
        else:
            if start_new:
                pieces.append("")
            pieces[-1] += ch
            start_new = False
    return pieces


def _split_specials(text: str, specials: Sequence[str]) -> list[tuple[str, bool]]:
    """Cut ``text`` around literal occurrences of special tokens: ``[(chunk, is_special), ...]``."""
    chunks: list[tuple[str, bool]] = []
    rest = text
    while rest:
        hits = [(rest.find(s), -len(s), s) for s in specials if s and rest.find(s) >= 0]
        if not hits:
            chunks.append((rest, False))
            break
        pos, _, special = min(hits)  # earliest, and the longest if two start together
        if pos:
            chunks.append((rest[:pos], False))
        chunks.append((special, True))
        rest = rest[pos + len(special) :]
    return chunks


def basic_tokenize(text: str, *, lowercase: bool = True, special_tokens: Iterable[str] = ()) -> list[str]:
    """BERT's basic tokenizer: clean, space CJK, lower-case + strip accents, split on spaces and punctuation.

    ``special_tokens`` that occur literally in ``text`` (e.g. ``"[MASK]"``) are kept whole.
    """
    check_text("text", text)
    specials = [check_text("special_tokens item", s) for s in special_tokens]
    words: list[str] = []
    for chunk, is_special in _split_specials(text, specials):
        if is_special:
            words.append(chunk)
            continue
        # NFC first, as Hugging Face's Python tokenizer does; NFD follows in strip_accents.
        chunk = unicodedata.normalize("NFC", space_cjk(clean_text(chunk)))
        for word in chunk.split():
            if lowercase:
                word = strip_accents(word.lower())
            words.extend(p for p in split_punctuation(word) if p.strip())
    return words


def wordpiece_word(word: str, vocab: Mapping[str, int], *, unk_token: str = "[UNK]", max_chars: int = 100) -> list[str]:
    """Cut one word into pieces, greedy longest-match-first; the whole word is ``[unk_token]`` if that fails.

    >>> wordpiece_word("unaffable", {"un": 0, "##aff": 1, "##able": 2})
    ['un', '##aff', '##able']
    """
    check_text("word", word, allow_empty=False)
    check_type("vocab", vocab, Mapping)
    max_chars = check_int("max_chars", max_chars, minimum=1)
    if len(word) > max_chars:  # very long "words" are usually URLs or garbage: one [UNK]
        return [unk_token]
    pieces: list[str] = []
    start = 0
    while start < len(word):
        # Try the longest remaining substring first and shorten it one character at a time.
        for end in range(len(word), start, -1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
        else:
            return [unk_token]  # no piece fits here: BERT gives up on the whole word
        pieces.append(piece)
        start = end
    return pieces


def wordpiece_tokenize(
    text: str,
    vocab: Mapping[str, int],
    *,
    lowercase: bool = True,
    unk_token: str = "[UNK]",
    special_tokens: Iterable[str] = SPECIAL_TOKENS,
    max_chars: int = 100,
) -> list[str]:
    """Tokenize ``text`` into WordPiece tokens (no ``[CLS]``/``[SEP]``; :func:`encode` adds those)."""
    check_type("vocab", vocab, Mapping)
    if not vocab:
        raise ValueError("vocab must not be empty")
    if unk_token not in vocab:
        raise ValueError(f"unk_token {unk_token!r} is not in vocab")
    if isinstance(special_tokens, str) or not isinstance(special_tokens, Iterable):
        raise TypeError(f"special_tokens must be a list of str, got {type(special_tokens).__name__}")
    specials = [s for s in special_tokens if s in vocab]
    tokens: list[str] = []
    for word in basic_tokenize(text, lowercase=lowercase, special_tokens=specials):
        if word in specials:
            tokens.append(word)
        else:
            tokens.extend(wordpiece_word(word, vocab, unk_token=unk_token, max_chars=max_chars))
    return tokens


def _truncate_pair(a: list[str], b: list[str], budget: int) -> None:
    """Shorten a pair in place to ``budget`` tokens the way Hugging Face's "longest_first" does.

    The shorter sequence (the first on ties) keeps at most half the budget; the
    longer one gets the rest. Tokens are dropped from the end.
    """
    if len(a) + len(b) <= budget:
        return
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    keep_short = min(len(short), budget // 2)
    keep_long = min(len(long), budget - keep_short)
    del short[keep_short:]
    del long[keep_long:]


def encode(
    text: str,
    vocab: Mapping[str, int],
    text_pair: str | None = None,
    *,
    max_length: int | None = None,
    lowercase: bool = True,
) -> dict[str, list]:
    """Encode one text (or a pair) as BERT input: ``[CLS] A [SEP]`` or ``[CLS] A [SEP] B [SEP]``.

    Returns a dict with ``tokens``, ``input_ids``, ``token_type_ids`` (0 for the first
    segment including ``[CLS]`` and its ``[SEP]``, 1 for the second) and
    ``attention_mask`` (all ones; :func:`pad_batch` adds the zeros). With
    ``max_length``, a single text is cut at the end and a pair is shortened as
    Hugging Face's ``truncation="longest_first"`` does.
    """
    check_type("vocab", vocab, Mapping)
    for special in ("[CLS]", "[SEP]", "[UNK]"):
        if special not in vocab:
            raise ValueError(f"vocab must contain the special token {special!r}")
    a = wordpiece_tokenize(text, vocab, lowercase=lowercase)
    b = (
        None
        if text_pair is None
        else wordpiece_tokenize(check_text("text_pair", text_pair), vocab, lowercase=lowercase)
    )
    if max_length is not None:
        n_special = 2 if b is None else 3
        max_length = check_int("max_length", max_length, minimum=n_special + 1)
        if b is None:
            del a[max_length - n_special :]
        else:
            _truncate_pair(a, b, max_length - n_special)
    tokens = ["[CLS]", *a, "[SEP]"]
    types = [0] * len(tokens)
    if b is not None:
        tokens += [*b, "[SEP]"]
        types += [1] * (len(b) + 1)
    return {
        "tokens": tokens,
        "input_ids": [vocab[t] for t in tokens],
        "token_type_ids": types,
        "attention_mask": [1] * len(tokens),
    }


def pad_batch(encodings: Sequence[Mapping[str, list]], pad_id: int = 0) -> dict[str, list[list[int]]]:
    """Pad encodings from :func:`encode` to the longest one; padded positions get ``attention_mask`` 0.

    Returns ``input_ids``, ``token_type_ids`` and ``attention_mask``, each a list of ``B`` lists of length ``T``.
    """
    encodings = check_nonempty("encodings", encodings)
    pad_id = check_int("pad_id", pad_id, minimum=0)
    for i, enc in enumerate(encodings):
        if not isinstance(enc, Mapping) or "input_ids" not in enc:
            raise TypeError(f"encodings[{i}] must be a dict from encode() with 'input_ids', got {type(enc).__name__}")
    T = max(len(enc["input_ids"]) for enc in encodings)
    batch: dict[str, list[list[int]]] = {"input_ids": [], "token_type_ids": [], "attention_mask": []}
    for enc in encodings:
        n_pad = T - len(enc["input_ids"])
        batch["input_ids"].append(list(enc["input_ids"]) + [pad_id] * n_pad)
        batch["token_type_ids"].append(list(enc.get("token_type_ids", [0] * len(enc["input_ids"]))) + [0] * n_pad)
        batch["attention_mask"].append([1] * len(enc["input_ids"]) + [0] * n_pad)
    return batch
