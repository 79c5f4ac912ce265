"""The Universal Dependencies English Web Treebank (POS tags) and Universal NER on the same text (IOB2).

The UD English Web Treebank (Silveira et al., 2014; Nivre et al., 2020) is 16,622 sentences of web
English (blogs, newsgroups, emails, reviews, question answers) with a Universal POS tag (UPOS, 17
tags) and a Penn Treebank tag (XPOS, ~50 tags) on every syntactic word. Universal NER (Mayhew et al.,
2024) marks person, organisation and location names on the same sentences in IOB2 tags; only its dev
and test sets ship here (its train file is too large to mirror).

The files in ``nlp_helpers/data/files/{ud-english-ewt,uner-english-ewt}/`` are reduced copies (ID,
FORM and the tags only) under the original CC BY-SA 4.0 licence; see the ``SOURCE.md`` beside them.
Multiword tokens (``don't`` = ``do`` + ``n't``) appear as their syntactic words, as UD tags them.
"""

from __future__ import annotations

import functools
import gzip
from pathlib import Path

from nlp_helpers._checks import check_choice

__all__ = [
    "UD_SPLITS",
    "UNER_SPLITS",
    "UPOS_TAGS",
    "ewt_sentence_ids",
    "ewt_sentences",
    "ewt_xpos_sentences",
    "uner_sentences",
]

_FILES = Path(__file__).resolve().parent / "files"
UD_SPLITS = ("train", "dev", "test")
UNER_SPLITS = ("dev", "test")
# The 17 Universal POS tags (https://universaldependencies.org/u/pos/), open classes first.
UPOS_TAGS = (
    "ADJ",
    "ADV",
    "INTJ",
    "NOUN",
    "PROPN",
    "VERB",
    "ADP",
    "AUX",
    "CCONJ",
    "DET",
    "NUM",
    "PART",
    "PRON",
    "SCONJ",
    "PUNCT",
    "SYM",
    "X",
)


def _read(path: Path) -> tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]:
    """Parse a reduced CoNLL file: ``# sent_id = ...`` then tab-separated rows (ID first), blank-separated."""
    if not path.exists():
        raise FileNotFoundError(f"the data file {path.name} is missing from {path.parent}")
    sentences, sent_id, rows = [], "", []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if line.startswith("# sent_id = "):
                sent_id = line[len("# sent_id = ") :]
            elif line:
                rows.append(tuple(line.split("\t")[1:]))  # rows start with the word's ID
            elif rows:
                sentences.append((sent_id, tuple(rows)))
                sent_id, rows = "", []
    if rows:
        sentences.append((sent_id, tuple(rows)))
    return tuple(sentences)


@functools.cache
def _ud(split: str):
    return _read(_FILES / "ud-english-ewt" / f"en_ewt-ud-{split}.tsv.gz")


@functools.cache
def _uner(split: str):
    return _read(_FILES / "uner-english-ewt" / f"en_ewt-ud-{split}.iob2.tsv.gz")


def ewt_sentences(split: str = "train") -> list[list[tuple[str, str]]]:
    """The sentences of one UD EWT split as lists of ``(word, UPOS)`` pairs.

    ``split`` is ``"train"`` (12,544 sentences, 204,577 words), ``"dev"`` (2,001 / 25,147) or
    ``"test"`` (2,077 / 25,094). The parse is cached; each call returns fresh lists.

    >>> ewt_sentences("dev")[0][:3]
    [('From', 'ADP'), ('the', 'DET'), ('AP', 'PROPN')]
    """
    check_choice("split", split, UD_SPLITS)
    return [[(form, upos) for form, upos, _xpos in rows] for _sid, rows in _ud(split)]


def ewt_xpos_sentences(split: str = "train") -> list[list[tuple[str, str]]]:
    """Like :func:`ewt_sentences` but with the Penn Treebank tag (XPOS, e.g. ``NNP``) of each word."""
    check_choice("split", split, UD_SPLITS)
    return [[(form, xpos) for form, _upos, xpos in rows] for _sid, rows in _ud(split)]


def ewt_sentence_ids(split: str = "train") -> list[str]:
    """The ``sent_id`` of each sentence of a UD EWT split, in the order of :func:`ewt_sentences`."""
    check_choice("split", split, UD_SPLITS)
    return [sid for sid, _rows in _ud(split)]


def uner_sentences(split: str = "test") -> list[list[tuple[str, str]]]:
    """The sentences of one Universal NER EWT split as lists of ``(word, IOB2 tag)`` pairs.

    Tags are ``O``, ``B-PER``/``I-PER``, ``B-ORG``/``I-ORG`` and ``B-LOC``/``I-LOC``. ``split`` is
    ``"dev"`` (2,001 sentences, 25,149 tokens) or ``"test"`` (2,077 / 25,097); the train set is not
    shipped. Each call returns fresh lists.

    >>> uner_sentences("dev")[0][6:8]
    [('tampa', 'B-LOC'), ('bay', 'I-LOC')]
    """
    check_choice("split", split, UNER_SPLITS)
    return [[(form, tag) for form, tag in rows] for _sid, rows in _uner(split)]
