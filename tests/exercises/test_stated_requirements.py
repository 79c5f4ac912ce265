"""Requirements a statement names, for chapters whose checkers have no catalogue of their own yet: each wrong
answer breaks only that requirement, and its checker rejects it with a hint naming it (the rule of
``tests.exercise_helpers.assert_verdict``)."""

from __future__ import annotations

import numpy as np
import pytest

from nlp_helpers.tfidf.exercises import check_cosine
from tests.exercise_helpers import Wrong, assert_verdict


def cosine_checks_the_first_vector_only(u, v):  # "raise ValueError if either is the zero vector"
    u, v = np.asarray(u, dtype=float), np.asarray(v, dtype=float)
    if not u.any():
        raise ValueError("u: the zero vector has no direction")
    norm_v = np.linalg.norm(v)
    return float(u @ v / (np.linalg.norm(u) * norm_v)) if norm_v else 0.0


@pytest.mark.parametrize(
    ("checker", "wrong"),
    [(check_cosine, Wrong(cosine_checks_the_first_vector_only, ("[0,0,0]", "check both")))],
    ids=["cosine-checks-the-first-vector-only"],
)
def test_a_wrong_answer_breaking_one_stated_requirement_is_rejected(checker, wrong) -> None:
    assert_verdict(checker, wrong.answer, wrong)
