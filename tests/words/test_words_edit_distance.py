"""Minimum edit distance (nlp_helpers.words.edit_distance) against hand-worked cases and nltk.

Hand-worked: Jurafsky & Martin (3rd ed.), section 2.8: intention -> execution costs 8 with
substitution cost 2 (the DP table and the alignment printed there) and 5 with cost 1;
kitten -> sitting costs 3 (k->s, e->i, insert g).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from nltk import edit_distance as nltk_edit_distance

from nlp_helpers.seeds import seed
from nlp_helpers.words.edit_distance import edit_distance


def _apply(alignment) -> tuple[list, list]:
    """Rebuild source and target from an alignment."""
    src = [s.source for s in alignment if s.source is not None]
    tgt = [s.target for s in alignment if s.target is not None]
    return src, tgt


@pytest.mark.parametrize(
    "a,b,sub,want",
    [
        ("intention", "execution", 2, 8),
        ("intention", "execution", 1, 5),
        ("kitten", "sitting", 1, 3),
        ("", "", 1, 0),
        ("", "abc", 1, 3),
        ("abc", "", 2, 3),
        ("same", "same", 2, 0),
    ],
)
def test_hand_worked_distances(a, b, sub, want):
    assert edit_distance(a, b, sub_cost=sub).distance == want


def test_jurafsky_martin_table_and_alignment():
    r = edit_distance("intention", "execution", sub_cost=2)
    # J&M (section 2.8) print this table: the row of the last source letter 'n' and the first column.
    assert r.table[9].tolist() == [9, 8, 9, 10, 11, 12, 11, 10, 9, 8]
    assert r.table[:, 0].tolist() == list(range(10))
    assert r.table.shape == (10, 10)
    # J&M (section 2.8) print this alignment: I N T E * N T I O N / * E X E C U T I O N / d s s _ i s
    frame = r.alignment_frame()
    assert "".join(frame.loc["source"]) == "inte*ntion"
    assert "".join(frame.loc["target"]) == "*execution"
    assert list(frame.loc["operation"]) == ["d", "s", "s", "", "i", "s", "", "", "", ""]


def test_kitten_sitting_alignment():
    r = edit_distance("kitten", "sitting")
    ops = [s.op for s in r.alignment]
    assert ops.count("substitute") == 2 and ops.count("insert") == 1 and ops.count("delete") == 0


@pytest.mark.parametrize("sub", [1, 2])
def test_matches_nltk_on_random_strings(sub):
    rng = random.Random(seed(sub))  # sub + $NLP_SEED_OFFSET
    for _ in range(300):
        a = "".join(rng.choice("abcd") for _ in range(rng.randint(0, 12)))
        b = "".join(rng.choice("abcd") for _ in range(rng.randint(0, 12)))
        r = edit_distance(a, b, sub_cost=sub)
        assert r.distance == nltk_edit_distance(a, b, substitution_cost=sub)
        # The backtrace is a valid alignment of the right cost.
        src, tgt = _apply(r.alignment)
        assert "".join(src) == a and "".join(tgt) == b
        assert sum(s.cost for s in r.alignment) == r.distance
        assert r.path[0] == (0, 0) and r.path[-1] == (len(a), len(b))
        assert all(0 <= i2 - i1 <= 1 and 0 <= j2 - j1 <= 1 for (i1, j1), (i2, j2) in zip(r.path, r.path[1:]))


def test_token_sequences_and_float_costs():
    r = edit_distance("the cat sat".split(), "the black cat sat down".split())
    assert r.distance == 2 and [s.op for s in r.alignment].count("insert") == 2
    f = edit_distance("abc", "abd", sub_cost=1.5, ins_cost=1.0, del_cost=1.0)
    assert f.distance == pytest.approx(1.5) and f.table.dtype == np.float64
    cheap_indel = edit_distance("abc", "abd", sub_cost=3, ins_cost=1, del_cost=1)
    assert cheap_indel.distance == 2  # delete c, insert d beats one substitution


def test_dataframes():
    r = edit_distance("ab", "b")
    df = r.to_frame()
    assert list(df.index) == ["#", "1:a", "2:b"] and list(df.columns) == ["#", "1:b"]
    assert df.to_numpy().tolist() == r.table.tolist()
    assert r.alignment_frame().shape == (3, len(r.alignment))


def test_bad_input():
    with pytest.raises(TypeError, match="source"):
        edit_distance(123, "abc")
    with pytest.raises(TypeError, match="target"):
        edit_distance("abc", None)
    with pytest.raises(TypeError, match=r"source\[0\]"):
        edit_distance([["unhashable"]], ["x"])
    with pytest.raises(ValueError, match="sub_cost"):
        edit_distance("a", "b", sub_cost=-1)
    with pytest.raises(ValueError, match="ins_cost"):
        edit_distance("a", "b", ins_cost=float("nan"))
    with pytest.raises(TypeError, match="del_cost"):
        edit_distance("a", "b", del_cost="1")
