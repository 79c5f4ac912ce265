"""The sentence polarity dataset v1.0 (Pang and Lee, 2005): 10,662 movie-review snippets.

5,331 positive and 5,331 negative one-line snippets from Rotten Tomatoes, lower-cased and tokenized
by the dataset's authors (tokens are separated by single spaces). The files ship gzip-compressed in
``nlp_helpers/data/files/rt-polarity/`` with their attribution (``SOURCE.md``).

The raw files are Windows-1252 text in which byte 0x85 is an ellipsis, not a line break, so lines are
split on ``\\n`` only (``str.splitlines`` would split inside snippets).

The fixed split (:func:`polarity_split`) is a data definition shared by every chapter that uses the
corpus, so it deliberately ignores ``NLP_SEED_OFFSET``.
"""

from __future__ import annotations

import functools
import gzip
from pathlib import Path

import numpy as np
import pandas as pd

from nlp_helpers._checks import check_float

__all__ = ["polarity_sentences", "polarity_split"]

_DIR = Path(__file__).resolve().parent / "files" / "rt-polarity"
N_PER_CLASS = 5331
_SPLIT_SEED = 2005  # the year of the dataset; fixed so every chapter evaluates on the same snippets


def _read(label: str) -> list[str]:
    path = _DIR / f"rt-polarity.{label}.gz"
    if not path.exists():
        raise FileNotFoundError(f"the polarity data file {path.name} is missing from {_DIR}")
    text = gzip.decompress(path.read_bytes()).decode("cp1252")
    lines = [line.strip() for line in text.split("\n")]
    return [line for line in lines if line]


@functools.lru_cache(maxsize=1)
def _frame() -> pd.DataFrame:
    pos, neg = _read("pos"), _read("neg")
    if len(pos) != N_PER_CLASS or len(neg) != N_PER_CLASS:
        raise ValueError(
            f"expected {N_PER_CLASS} snippets per class, found {len(pos)} positive and {len(neg)} negative"
        )
    frame = pd.DataFrame({"text": pos + neg, "label": [1] * len(pos) + [0] * len(neg)})
    frame["text"] = frame["text"].astype(str)
    return frame


def polarity_sentences() -> pd.DataFrame:
    """All 10,662 snippets as a DataFrame with columns ``text`` (str) and ``label`` (1 positive, 0 negative).

    Positive snippets come first, in file order. Tokens are ``text.split()``. Returns a copy, so callers
    may modify it.
    """
    return _frame().copy()


def polarity_split(test_fraction: float = 0.2, dev_fraction: float = 0.1) -> dict[str, pd.DataFrame]:
    """A fixed, stratified train/dev/test split of :func:`polarity_sentences`.

    Each class is shuffled with a fixed seed and cut into test, dev and train parts of the given
    fractions, so both classes keep equal shares in every part. Returns ``{"train", "dev", "test"}``
    DataFrames (columns ``text``, ``label``), each shuffled and re-indexed from 0.

    >>> parts = polarity_split()
    >>> [len(parts[k]) for k in ("train", "dev", "test")]
    [7464, 1066, 2132]
    """
    test_fraction = check_float(
        "test_fraction", test_fraction, minimum=0.0, maximum=1.0, min_inclusive=False, max_inclusive=False
    )
    dev_fraction = check_float("dev_fraction", dev_fraction, minimum=0.0, maximum=1.0, max_inclusive=False)
    if test_fraction + dev_fraction >= 1.0:
        raise ValueError(f"test_fraction + dev_fraction must be < 1, got {test_fraction} + {dev_fraction}")
    return _split(test_fraction, dev_fraction)


def _split(test_fraction: float, dev_fraction: float) -> dict[str, pd.DataFrame]:
    frame = _frame()
    rng = np.random.default_rng(_SPLIT_SEED)
    n_test = int(round(test_fraction * N_PER_CLASS))
    n_dev = int(round(dev_fraction * N_PER_CLASS))
    parts: dict[str, list[pd.DataFrame]] = {"test": [], "dev": [], "train": []}
    for label in (1, 0):
        rows = frame[frame["label"] == label]
        order = rng.permutation(len(rows))
        parts["test"].append(rows.iloc[order[:n_test]])
        parts["dev"].append(rows.iloc[order[n_test : n_test + n_dev]])
        parts["train"].append(rows.iloc[order[n_test + n_dev :]])
    out = {}
    for name, pieces in parts.items():
        joined = pd.concat(pieces)
        out[name] = joined.iloc[rng.permutation(len(joined))].reset_index(drop=True)
    return out
