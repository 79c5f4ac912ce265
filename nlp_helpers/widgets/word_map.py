"""``WordMap``: word vectors on a 2-D map, with nearest neighbours and analogies computed in full dimension.

Python checks the vectors, scales each to unit length and projects them onto their first two principal
components (the map); ``word_map.js`` computes cosines and 3CosAdd itself from the unit vectors, so it works
on the static page with no kernel. Two modes:

* **neighbours**: pick a word (from the list, or by clicking its dot); the ``k`` words with the highest
  cosine similarity among the words on the map are listed (``data-testid="wm-neighbours"``, attribute
  ``data-words``, and ``data-cos`` on each row) and joined to it on the map;
* **analogy**: pick *a*, *b*, *c*; the words closest to ``b - a + c`` (3CosAdd, Mikolov et al. 2013),
  excluding the three, are listed (``wm-analogy``) beside the words closest to *c* alone
  (``wm-only-c``), the baseline of Linzen (2016). The map draws the offset ``b - a`` twice, from *a* and
  from *c*: the projection is linear, so the parallelogram on the map is the projection of the real one.

The map distorts distances (two of 50 dimensions); the lists do not, and the widget says so.

The query words and the listed words are labelled on the map (``wm-labels``), then as many other words as
fit: a greedy placement tries positions around each dot, most important label first, and skips a label
that would overlap one already placed. Each dot has a 32 px target (``wm-dot-i``, a button with the word as
its name), reachable by keyboard with one tab stop (the selected word's): the arrow keys move across the
map from left to right, Enter or Space selects.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import anywidget
import numpy as np
import traitlets

from nlp_helpers._checks import check_array, check_int, check_nonempty, check_text
from nlp_helpers.widgets.assets import load_css, load_esm

__all__ = ["WordMap", "project_2d"]

MAX_WORDS = 200  # every word is a dot on the map; more would not be readable
DIGITS = 4  # unit-vector components sent to the page: cosines move by < 1e-3 (tests/widgets)

_CSS = """
.nlpw-wordmap .nlpw-wm-dot, .nlpw-wordmap .nlpw-wm-target { cursor: pointer; }
.nlpw-wordmap .nlpw-wm-target:focus-visible { outline: 2px solid currentColor; outline-offset: -2px; }
.nlpw-wordmap ol { margin: 0.2rem 0; padding-left: 1.6rem; font-variant-numeric: tabular-nums; }
.nlpw-wordmap .nlpw-wm-lists { display: flex; flex-wrap: wrap; gap: 0.5rem 2rem; }
"""


def project_2d(vectors) -> np.ndarray:
    """The rows of ``vectors`` (n, d), centred, on their first two principal components: shape (n, 2).

    The sign of each component is fixed so that its largest-magnitude loading is positive, which makes
    the map the same on every machine.
    """
    x = check_array("vectors", vectors, ndim=2)
    if x.shape[0] < 2 or x.shape[1] < 2:
        raise ValueError(f"vectors must have at least 2 rows and 2 columns, got shape {x.shape}")
    return _project(x)


def _project(x: np.ndarray) -> np.ndarray:
    centred = x - x.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    comps = vt[:2]
    signs = np.sign(comps[np.arange(2), np.abs(comps).argmax(axis=1)])
    return centred @ (comps * signs[:, None]).T


class WordMap(anywidget.AnyWidget):
    """Explore word vectors: a 2-D map, nearest neighbours and analogies among the given words.

    Parameters
    ----------
    words:
        The words to show, 3 to 200 of them, distinct.
    vectors:
        Their vectors, shape (len(words), d) with d >= 2, no zero rows. Neighbours and analogies are
        computed from these (scaled to unit length); the map only places the dots.
    groups:
        Optional ``{group name: [words]}`` colouring the dots (at most 8 groups); words in no group are grey.
    word:
        The word whose neighbours are shown first (default: the first word).
    k:
        How many neighbours or analogy answers to list (1 to 10, at most one fewer than the words; default 5).
    analogy:
        Optional initial ``(a, b, c)`` for the analogy mode, read "b - a + c".
    """

    _esm = load_esm("word_map.js")
    _css = load_css() + _CSS

    words = traitlets.List(traitlets.Unicode()).tag(sync=True)
    unit = traitlets.List().tag(sync=True)
    coords = traitlets.List().tag(sync=True)
    group_names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    group_of = traitlets.List(traitlets.Int()).tag(sync=True)
    word = traitlets.Unicode("").tag(sync=True)
    k = traitlets.Int(5).tag(sync=True)
    mode = traitlets.Unicode("neighbours").tag(sync=True)
    analogy = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(
        self,
        words: Sequence[str],
        vectors,
        *,
        groups: Mapping[str, Sequence[str]] | None = None,
        word: str | None = None,
        k: int | None = None,
        analogy: Sequence[str] | None = None,
    ) -> None:
        words = [check_text(f"words[{i}]", w, allow_empty=False) for i, w in enumerate(check_nonempty("words", words))]
        if not 3 <= len(words) <= MAX_WORDS or len(set(words)) != len(words):
            raise ValueError(
                f"words must hold 3 to {MAX_WORDS} distinct words, got {len(words)} ({len(set(words))} distinct)"
            )
        vecs = check_array("vectors", vectors, shape=(len(words), None), ndim=2)
        norms = np.linalg.norm(vecs, axis=1)
        if vecs.shape[1] < 2 or (norms == 0).any():
            raise ValueError(
                "vectors must have at least 2 columns and no all-zero row (a zero vector has no direction)"
            )
        k = min(5, len(words) - 1) if k is None else check_int("k", k, minimum=1, maximum=min(10, len(words) - 1))
        word = words[0] if word is None else _known("word", word, words)
        names, group_of = _groups(groups, words)
        trio = [] if analogy is None else [_known(f"analogy[{i}]", w, words) for i, w in enumerate(analogy)]
        if analogy is not None and (len(trio) != 3 or len(set(trio)) != 3):
            raise ValueError(f"analogy must be three distinct words (a, b, c), got {list(analogy)!r}")
        unit = vecs / norms[:, None]
        super().__init__(
            words=words,
            unit=np.round(unit, DIGITS).tolist(),
            coords=np.round(_project(unit), 3).tolist(),
            group_names=names,
            group_of=group_of,
            word=word,
            k=k,
            mode="analogy" if trio else "neighbours",
            analogy=trio or words[:3],
        )


def _known(name: str, word, words: list[str]) -> str:
    word = check_text(name, word, allow_empty=False)
    if word not in words:
        raise ValueError(f"{name} must be one of the words on the map, got {word!r}")
    return word


def _groups(groups: Mapping[str, Sequence[str]] | None, words: list[str]) -> tuple[list[str], list[int]]:
    if groups is None:
        return [], [-1] * len(words)
    if not isinstance(groups, Mapping) or len(groups) > 8:
        raise ValueError("groups must be a mapping of at most 8 group names to lists of words")
    names = [check_text("groups key", g, allow_empty=False) for g in groups]
    group_of = [-1] * len(words)
    index = {w: i for i, w in enumerate(words)}
    for g, members in enumerate(groups.values()):
        for w in members:
            group_of[index[_known(f"groups[{names[g]!r}]", w, words)]] = g
    return names, group_of
