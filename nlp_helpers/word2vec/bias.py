"""Bias measured in word vectors: a direction from word pairs, projections on it, and WEAT.

* :func:`bias_direction`: the unit mean of the differences ``unit(a) - unit(b)`` over pairs such as
  (he, she), (man, woman) -- the simple "gender direction" of Bolukbasi et al. (2016), who use the first
  principal component of the same differences.
* :func:`projections`: the cosine of each word with that direction (positive: the ``a`` side).
* :func:`weat`: the Word Embedding Association Test of Caliskan et al. (2017): effect size and a one-sided
  permutation p-value for "target words X are more associated with attribute words A than with B,
  compared with targets Y".

Every function takes a :class:`~nlp_helpers.word2vec.evaluation.WordVectors`, drops the words it does not
know and reports them, and raises a clear error if too few words remain.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from nlp_helpers._checks import check_array, check_int, check_nonempty, check_text, check_type
from nlp_helpers.word2vec.evaluation import WordVectors

__all__ = [
    "in_vocabulary",
    "bias_direction",
    "projections",
    "association",
    "weat_effect_size",
    "weat",
    "GENDER_PAIRS",
    "OCCUPATIONS",
    "WEAT_8",
    "BIAS_STUDY_FILE",
]


def in_vocabulary(wv: WordVectors, words: Sequence[str], name: str = "words") -> tuple[list[str], list[str]]:
    """Split ``words`` into (known, dropped) by membership in ``wv``'s vocabulary, keeping their order."""
    check_type("wv", wv, WordVectors)
    items = [check_text(f"{name}[{i}]", w) for i, w in enumerate(check_nonempty(name, words))]
    return [w for w in items if w in wv], [w for w in items if w not in wv]


def bias_direction(wv: WordVectors, pairs: Sequence[tuple[str, str]]) -> tuple[np.ndarray, list[tuple[str, str]]]:
    """The unit vector along the mean of ``unit(a) - unit(b)`` over the known pairs ``(a, b)``.

    Returns ``(direction (d,), dropped pairs)``. A pair is dropped if either word is unknown; a
    ``ValueError`` is raised if no pair is left or the differences cancel out.
    """
    check_type("wv", wv, WordVectors)
    items = check_nonempty("pairs", pairs)
    for i, p in enumerate(items):
        if not (isinstance(p, (tuple, list)) and len(p) == 2 and all(isinstance(w, str) for w in p)):
            raise TypeError(f"pairs[{i}] must be a pair of words (a, b), got {p!r}")
    kept = [(a, b) for a, b in items if a in wv and b in wv]
    if not kept:
        raise ValueError(f"pairs: no pair has both words in the vocabulary ({len(items)} given)")
    return _direction(wv, kept), [tuple(p) for p in items if tuple(p) not in kept]


def _direction(wv: WordVectors, pairs: list[tuple[str, str]]) -> np.ndarray:
    diffs = np.stack([wv.unit[wv.index[a]] - wv.unit[wv.index[b]] for a, b in pairs]).astype(np.float64)
    mean = diffs.mean(axis=0)  # (d,)
    norm = np.linalg.norm(mean)
    if norm < 1e-12:
        raise ValueError("pairs: the differences cancel out, so they define no direction")
    return mean / norm


def projections(wv: WordVectors, words: Sequence[str], direction: Any) -> pd.Series:
    """Cosine of each known word of ``words`` with ``direction``, as a Series indexed by word.

    Unknown words are left out (use :func:`in_vocabulary` to list them).
    """
    check_type("wv", wv, WordVectors)
    g = check_array("direction", direction, shape=(wv.vectors.shape[1],), dtype=np.float64)
    if np.linalg.norm(g) < 1e-12:
        raise ValueError("direction must not be the zero vector")
    known, _ = in_vocabulary(wv, words)
    if not known:
        raise ValueError("words: none of them is in the vocabulary")
    rows = wv.unit[[wv.index[w] for w in known]].astype(np.float64)  # (n, d)
    return pd.Series(rows @ (g / np.linalg.norm(g)), index=pd.Index(known, name="word"), name="projection")


def association(targets: Any, a: Any, b: Any) -> np.ndarray:
    """WEAT's ``s(w, A, B) = mean_a cos(w, a) - mean_b cos(w, b)`` for every row ``w`` of ``targets``.

    ``targets`` (n, d), ``a`` (n_a, d), ``b`` (n_b, d): arrays of vectors (any length, none zero).
    Returns shape (n,).
    """
    t, va, vb = (_unit_rows(name, x) for name, x in [("targets", targets), ("a", a), ("b", b)])
    if not t.shape[1] == va.shape[1] == vb.shape[1]:
        raise ValueError(f"targets, a and b must have the same width, got {t.shape[1]}, {va.shape[1]}, {vb.shape[1]}")
    return (t @ va.T).mean(axis=1) - (t @ vb.T).mean(axis=1)


def weat_effect_size(x: Any, y: Any, a: Any, b: Any) -> float:
    """Caliskan et al.'s effect size: ``(mean_x s(x) - mean_y s(y)) / sd_{w in X ∪ Y} s(w)`` (sd with ddof 1).

    ``x``, ``y``, ``a``, ``b``: arrays of vectors (n_x, d), (n_y, d), ... . Between -2 and 2.
    """
    sx, sy = association(x, a, b), association(y, a, b)
    if len(sx) + len(sy) < 3:
        raise ValueError("x and y must hold at least three vectors between them")
    return _effect(sx, sy)


def _effect(sx: np.ndarray, sy: np.ndarray) -> float:
    sd = np.concatenate([sx, sy]).std(ddof=1)
    if sd < 1e-12:
        raise ValueError("every target word has the same association: the effect size is undefined")
    return float((sx.mean() - sy.mean()) / sd)


def weat(
    wv: WordVectors,
    x: Sequence[str],
    y: Sequence[str],
    a: Sequence[str],
    b: Sequence[str],
    *,
    n_permutations: int = 20_000,
    seed: int = 0,
) -> dict[str, Any]:
    """The WEAT of word lists ``x``, ``y`` (targets) against ``a``, ``b`` (attributes) in ``wv``.

    Unknown words are dropped (listed under ``"dropped"``). Returns ``effect_size``, ``statistic``
    ``sum_x s(x) - sum_y s(y)``, and ``p_value``: the share of equal-size re-splits of X ∪ Y whose
    statistic is at least the observed one (one-sided; the observed split counts). All splits are
    enumerated when there are at most ``n_permutations`` of them, otherwise ``n_permutations`` random
    splits are drawn with ``seed`` and ``p = (1 + #{>=}) / (1 + n_permutations)``.
    """
    check_type("wv", wv, WordVectors)
    n_permutations = check_int("n_permutations", n_permutations, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    lists = {name: in_vocabulary(wv, words, name) for name, words in [("x", x), ("y", y), ("a", a), ("b", b)]}
    for name, (known, _) in lists.items():
        if len(known) < 2:
            raise ValueError(f"{name}: at least two of its words must be in the vocabulary, got {known}")
    vec = {name: wv.vectors[[wv.index[w] for w in known]] for name, (known, _) in lists.items()}
    sx, sy = association(vec["x"], vec["a"], vec["b"]), association(vec["y"], vec["a"], vec["b"])
    return {
        "effect_size": _effect(sx, sy),
        "statistic": float(sx.sum() - sy.sum()),
        "p_value": _permutation_p(np.concatenate([sx, sy]), len(sx), n_permutations, seed),
        "words": {name: known for name, (known, _) in lists.items()},
        "dropped": {name: dropped for name, (_, dropped) in lists.items()},
    }


def _permutation_p(s: np.ndarray, n_x: int, n_permutations: int, seed: int) -> float:
    total, observed = s.sum(), 2 * s[:n_x].sum() - s.sum()
    tol = 1e-9 * max(1.0, np.abs(s).sum())  # ties within float rounding count as ties
    if comb(len(s), n_x) <= n_permutations:
        subsets = np.array(list(combinations(range(len(s)), n_x)))  # (n_splits, n_x)
        stats = 2 * s[subsets].sum(axis=1) - total
        return float(np.mean(stats >= observed - tol))
    rng = np.random.default_rng(seed)
    stats = np.array([2 * s[rng.permutation(len(s))[:n_x]].sum() - total for _ in range(n_permutations)])
    return float((1 + np.sum(stats >= observed - tol)) / (1 + n_permutations))


def _unit_rows(name: str, value: Any) -> np.ndarray:
    arr = check_array(name, value, ndim=2, dtype=np.float64)
    if arr.shape[0] == 0:
        raise ValueError(f"{name} must hold at least one vector")
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    if np.any(norms < 1e-12):
        raise ValueError(f"{name} contains a zero vector, whose cosine is undefined")
    return arr / norms


# The chapter's word lists (benchmarks/word2vec_bias_study.py and the evaluation page).
GENDER_PAIRS = [
    ("he", "she"), ("his", "her"), ("man", "woman"), ("men", "women"), ("boy", "girl"), ("father", "mother"),
    ("son", "daughter"), ("brother", "sister"), ("husband", "wife"), ("king", "queen"), ("male", "female"),
]  # fmt: skip
OCCUPATIONS = (
    "nurse teacher engineer doctor scientist soldier lawyer actor actress singer writer professor president "
    "secretary physician poet author politician player businessman manager programmer carpenter farmer judge "
    "priest architect dancer painter librarian housekeeper homemaker receptionist"
).split()
# Caliskan et al. (2017), WEAT 8: targets science / arts, attributes male / female terms.
WEAT_8 = (
    "science technology physics chemistry einstein nasa experiment astronomy".split(),
    "poetry art shakespeare dance literature novel symphony drama".split(),
    "brother father uncle grandfather son he his him".split(),
    "sister mother aunt grandmother daughter she hers her".split(),
)
# Written by benchmarks/word2vec_bias_study.py: the measures above for our skip-gram over several seeds.
BIAS_STUDY_FILE = Path(__file__).parents[1] / "data" / "files" / "word2vec_bias_study.csv"
