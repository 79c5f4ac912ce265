"""The decoding page's checkers say "not yet" to the untouched stubs, and accept the page's by-hand numbers
(the catalogue of right and wrong answers is in ``test_decoding_exercise_catalogue.py``)."""

from __future__ import annotations

import numpy as np

from nlp_helpers.sampling.decoding_exercises import (
    check_best_draft_length,
    check_choose_option,
    check_contrastive_search,
)
from nlp_helpers.sampling.speculative import speculative_speedup
from tests.exercise_helpers import stub


def test_stubs_are_not_yet() -> None:
    for check in (check_best_draft_length, check_choose_option, check_contrastive_search):
        assert "not yet" in str(check(stub)).lower()


def test_best_draft_length_by_hand() -> None:
    """alpha = 0.6, c = 0.1 worked on paper: S = 1.6/1.1, 1.96/1.2, 2.176/1.3, 2.3056/1.4 for gamma = 1..4."""
    hand = [1.6 / 1.1, 1.96 / 1.2, 2.176 / 1.3, 2.3056 / 1.4]
    np.testing.assert_allclose([speculative_speedup(0.6, g, 0.1) for g in range(1, 5)], hand, rtol=1e-12)
    assert int(np.argmax(hand)) + 1 == 3

    def answer(alpha, c, max_gamma):  # the table worked on paper, as a student might hard-code it
        if not 0 <= alpha <= 1 or c < 0 or max_gamma < 1:
            raise ValueError("bad arguments")
        s = [sum(alpha**i for i in range(g + 1)) / (g * c + 1) for g in range(1, max_gamma + 1)]
        return int(np.argmax(s)) + 1, float(max(s))

    assert check_best_draft_length(answer).passed
