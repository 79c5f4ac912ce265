"""Laws that must hold for every input (hypothesis), for the words chapter's helpers.

Settings and strategies are shared (``tests/strategies.py``): 50 derandomized examples per law.
"""

from __future__ import annotations

from functools import cache

from hypothesis import given
from hypothesis import strategies as st

from nlp_helpers.words.edit_distance import edit_distance
from tests.strategies import PROPERTY, SEQ


@PROPERTY
@given(SEQ, SEQ, SEQ)
def test_unit_cost_edit_distance_is_a_metric(a, b, c):
    d = lambda x, y: edit_distance(x, y).distance  # noqa: E731
    assert d(a, b) == d(b, a)
    assert (d(a, b) == 0) == (a == b)
    assert d(a, c) <= d(a, b) + d(b, c)
    assert abs(len(a) - len(b)) <= d(a, b) <= max(len(a), len(b))


@PROPERTY
@given(SEQ, SEQ, st.integers(0, 3), st.integers(1, 3), st.integers(1, 3))
def test_the_alignment_costs_add_up_to_the_distance(a, b, sub, ins, dele):
    res = edit_distance(a, b, sub_cost=sub, ins_cost=ins, del_cost=dele)
    assert sum(step.cost for step in res.alignment) == res.distance
    assert "".join(s.source for s in res.alignment if s.source is not None) == a
    assert "".join(s.target for s in res.alignment if s.target is not None) == b
    assert res.distance == edit_distance(b, a, sub_cost=sub, ins_cost=dele, del_cost=ins).distance  # swap roles


@PROPERTY
@given(SEQ, SEQ)
def test_edit_distance_equals_the_recursive_definition(a, b):
    """An independent memoised recursion (the definition, not the table) gives the same distance."""

    @cache
    def ref(i: int, j: int) -> int:
        if i == 0 or j == 0:
            return i + j
        return min(ref(i - 1, j) + 1, ref(i, j - 1) + 1, ref(i - 1, j - 1) + (a[i - 1] != b[j - 1]))

    assert edit_distance(a, b).distance == ref(len(a), len(b))
