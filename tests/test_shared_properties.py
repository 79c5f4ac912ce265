"""Laws that must hold for every input (hypothesis), for the shared helpers.

The chapter tests (``tests/test_<module>.py``) compare each helper with a reference library on
chosen inputs; here hypothesis generates the inputs and each test asserts a law that holds for
all of them: probabilities sum to 1 (also for logits of +-1e30 and beyond), decoding undoes
encoding for any Unicode text, attention rows sum to 1 (or are all zero when every key is
masked), n-gram distributions sum to 1 and perplexity is >= 1, cosine lies in [-1, 1], edit
distance is a metric, and quantities that are invariant to scaling stay invariant near the
limits of float64.

Every test runs 50 examples, derandomized and without the example database, so CI sees the same
examples on every run.
"""

from __future__ import annotations

from tests.strategies import PROPERTY


def test_the_profile_is_deterministic_and_small():
    """Guard the settings this file promises: derandomized, no database, at most 50 examples."""
    assert PROPERTY.derandomize and PROPERTY.database is None and PROPERTY.max_examples == 50
