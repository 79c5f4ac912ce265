"""Laws that must hold for every input (hypothesis), for the shared helpers.

Settings and strategies are shared (``tests/strategies.py``): 50 derandomized examples per law.
"""

from __future__ import annotations

from tests.strategies import PROPERTY


def test_the_profile_is_deterministic_and_small():
    """Guard the settings this file promises: derandomized, no database, at most 50 examples."""
    assert PROPERTY.derandomize and PROPERTY.database is None and PROPERTY.max_examples == 50
