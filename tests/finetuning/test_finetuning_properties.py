"""Laws that must hold for every input (hypothesis), for the fine-tuning chapter's helpers.

Settings and strategies are shared (``tests/strategies.py``): 50 derandomized examples per law.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from nlp_helpers.finetuning.topics import c_tf_idf_from_counts
from tests.strategies import PROPERTY


@PROPERTY
@given(
    arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 5)), elements=st.integers(1, 50).map(float)),
    st.sampled_from([1.0, 1e-3, 3e306]),
)
def test_c_tf_idf_is_finite_non_negative_and_scale_free(counts, scale):
    scores = c_tf_idf_from_counts(counts)
    assert np.isfinite(scores).all() and (scores >= 0).all()
    np.testing.assert_allclose(c_tf_idf_from_counts(counts * scale), scores, rtol=1e-9)
