"""Laws that must hold for every input (hypothesis), for the widgets helpers.

Settings and strategies are shared (``tests/strategies.py``): 50 derandomized examples per law.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from nlp_helpers.widgets.attention import transform_weights
from tests.strategies import PROPERTY


@PROPERTY
@given(
    arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 5)), elements=st.floats(0, 10)),
    st.floats(0.05, 10.0),
    st.booleans(),
)
def test_attention_widget_transform_rows_sum_to_one_or_stay_zero(w, t, causal):
    if causal:
        w = np.resize(w, (w.shape[1], w.shape[1]))
    out = transform_weights(w, temperature=t, causal=causal)
    sums = out.sum(axis=-1)
    assert np.isfinite(out).all()
    assert np.all(np.isclose(sums, 1.0) | (sums == 0))
