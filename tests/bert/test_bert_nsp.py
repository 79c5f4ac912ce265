"""Next-sentence-prediction pairs (nlp_helpers.bert.nsp) follow BERT's recipe (Devlin et al., 2019, 3.1)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from nlp_helpers.bert.nsp import nsp_pairs
from nlp_helpers.data.corpora import lee_background
from nlp_helpers.seeds import rng as seeded_rng

DOCS = [["a1", "a2", "a3"], ["b1", "b2"], ["c1"], ["d1", "d2", "d3", "d4"]]


def test_every_consecutive_pair_gives_one_example_with_a_correct_label():
    pairs = nsp_pairs(DOCS, seeded_rng(0))
    assert [a for a, _, _ in pairs] == ["a1", "a2", "b1", "d1", "d2", "d3"]
    for a, b, is_next in pairs:
        if is_next:
            assert b[0] == a[0] and int(b[1]) == int(a[1]) + 1
        else:
            assert b[0] != a[0]  # NotNext: B comes from another document


def test_half_of_the_pairs_are_real_within_binomial_tolerance():
    docs = [[s for s in re.split(r"(?<=[.!?])\s+", d) if s] for d in lee_background()]
    pairs = nsp_pairs(docs, seeded_rng(1))
    n = len(pairs)
    assert n == sum(len(d) - 1 for d in docs)
    share = np.mean([is_next for _, _, is_next in pairs])
    assert abs(share - 0.5) <= 4 * np.sqrt(0.25 / n)
    followers = {(a, b) for d in docs for a, b in zip(d, d[1:])}
    assert all((a, b) in followers for a, b, is_next in pairs if is_next)


@pytest.mark.parametrize("p_next", [0.0, 1.0])
def test_p_next_extremes(p_next):
    pairs = nsp_pairs(DOCS, seeded_rng(2), p_next=p_next)
    assert all(is_next == bool(p_next) for _, _, is_next in pairs)


def test_bad_input_gives_clear_errors():
    rng = seeded_rng(0)
    with pytest.raises(ValueError, match="documents must not be empty"):
        nsp_pairs([], rng)
    with pytest.raises(TypeError, match=r"documents\[0\]"):
        nsp_pairs(["a whole document as one string", ["x"]], rng)
    with pytest.raises(ValueError, match="at least 2 non-empty documents"):
        nsp_pairs([["a", "b"]], rng)
    with pytest.raises(ValueError, match="at least 2 sentences"):
        nsp_pairs([["a"], ["b"]], rng)
    with pytest.raises(ValueError, match=r"documents\[1\]\[0\]"):
        nsp_pairs([["a", "b"], [""]], rng)
    with pytest.raises(ValueError, match="p_next"):
        nsp_pairs(DOCS, rng, p_next=1.5)
    with pytest.raises(TypeError, match="rng"):
        nsp_pairs(DOCS, 42)
