"""Tests of nlp_helpers.ngram.good_turing against hand-worked examples.

Reference: Jurafsky & Martin, *Speech and Language Processing* (2nd ed.), 4.5.1, Josh Goodman's
fishing example: 10 carp, 3 perch, 2 whitefish, 1 trout, 1 salmon, 1 eel (N = 18).
P_GT(unseen) = N_1 / N = 3/18; c*(trout) = 2 N_2 / N_1 = 2/3; P_GT(trout) = (2/3)/18 = 0.037.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from nlp_helpers.ngram.good_turing import counts_of_counts, good_turing_table

FISH = {"carp": 10, "perch": 3, "whitefish": 2, "trout": 1, "salmon": 1, "eel": 1}


def test_counts_of_counts_by_hand():
    assert counts_of_counts(FISH.values()) == {1: 3, 2: 1, 3: 1, 10: 1}
    assert counts_of_counts([0, 2, 2, 0, 5]) == {2: 2, 5: 1}


def test_fishing_example():
    table = good_turing_table(counts_of_counts(FISH.values()), max_count=3, n_unseen=1).set_index("c")
    # one unseen species (catfish, say): it gets all of the unseen mass N1/N = 3/18
    assert table.loc[0, "P_GT"] == pytest.approx(3 / 18, rel=1e-12)
    assert table.loc[1, "c*"] == pytest.approx(2 / 3, rel=1e-12)
    assert round(table.loc[1, "P_GT"], 3) == 0.037  # the textbook's rounded value
    assert table.loc[2, "c*"] == pytest.approx(3 * 1 / 1, rel=1e-12)  # 3 N_3 / N_2
    assert table.loc[3, "c*"] == 0.0  # N_4 = 0: the raw estimate breaks down for large c
    # without n_unseen there is no row 0
    assert good_turing_table({1: 3, 2: 1}).c.min() == 1


def test_unseen_mass_and_conservation():
    """N_0 c*_0 = N_1, and (with no gaps in N_c) the c* of c = 1..C-1 re-distribute exactly the
    tokens of counts 2..C: sum_c N_c c*_c = sum_c (c + 1) N_(c+1)."""
    gen = np.random.default_rng(0)
    counts = np.minimum(gen.zipf(1.7, size=5000), 20)  # Zipf-like, capped so that every N_c > 0
    n_c = counts_of_counts(counts)
    big = max(n_c)
    assert sorted(n_c) == list(range(1, big + 1))
    table = good_turing_table(n_c, max_count=big, n_unseen=12345).set_index("c")
    assert table.loc[0, "N_c"] * table.loc[0, "c*"] == pytest.approx(n_c[1], rel=1e-12)
    seen = table.loc[1 : big - 1]
    mass = np.nansum(seen["N_c"] * seen["c*"])
    assert mass == pytest.approx(sum(c * n for c, n in n_c.items() if c >= 2), rel=1e-12)
    # a gap (N_c = 0) leaves c* undefined there
    assert math.isnan(good_turing_table({1: 4, 3: 1}, max_count=2).set_index("c").loc[2, "c*"])


@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
        ({"n_c": {}}, TypeError, "n_c"),
        ({"n_c": [1, 2]}, TypeError, "n_c"),
        ({"n_c": {0: 3}}, ValueError, "n_c"),
        ({"n_c": {1: -1}}, ValueError, "n_c"),
        ({"n_c": {1: 2}, "max_count": 0}, ValueError, "max_count"),
        ({"n_c": {1: 2}, "n_unseen": 0}, ValueError, "n_unseen"),
    ],
)
def test_bad_table_input(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        good_turing_table(**kwargs)


def test_bad_counts():
    with pytest.raises(ValueError, match="counts"):
        counts_of_counts([])
    with pytest.raises(ValueError, match="counts"):
        counts_of_counts([1, -2])
    with pytest.raises(ValueError, match="counts"):
        counts_of_counts([1.5])
