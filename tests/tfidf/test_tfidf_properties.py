"""Laws that must hold for every input (hypothesis), for the tfidf helpers.

Settings and strategies are shared (``tests/strategies.py``): 50 derandomized examples per law.
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from nlp_helpers.tfidf.cooccurrence import pmi
from nlp_helpers.tfidf.similarity import cosine_similarity
from nlp_helpers.tfidf.weighting import TfIdf
from tests.strategies import PROPERTY, VECTORS


@PROPERTY
@given(VECTORS, VECTORS, st.sampled_from([1.0, 1e-200, 1e200]), st.floats(1e-3, 1e3))
def test_cosine_lies_in_minus_one_one_is_symmetric_and_scale_free(a, b, scale, factor):
    assume(a.shape[1] == b.shape[1])
    assume((np.abs(a).max(axis=1) > 1e-6).all() and (np.abs(b).max(axis=1) > 1e-6).all())
    sims = cosine_similarity(a * scale, b)
    assert sims.shape == (len(a), len(b))
    assert np.isfinite(sims).all() and (np.abs(sims) <= 1.0).all()
    np.testing.assert_allclose(sims, cosine_similarity(b, a * factor).T, atol=1e-12)
    np.testing.assert_allclose(np.diag(np.atleast_2d(cosine_similarity(a, a * scale))), 1.0, atol=1e-12)


@PROPERTY
@given(
    arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 4)), elements=st.integers(0, 20).map(float)),
    st.sampled_from([1.0, 1e-3, 1e6, 3e306]),
    st.sampled_from([0.75, 1.0]),
)
def test_ppmi_is_non_negative_and_does_not_change_when_all_counts_are_scaled(cooc, scale, alpha):
    assume(cooc.sum() > 0)
    ppmi = pmi(cooc, alpha=alpha)
    assert np.isfinite(ppmi).all() and (ppmi >= 0).all()
    np.testing.assert_allclose(pmi(cooc * scale, alpha=alpha), ppmi, atol=1e-9)


@PROPERTY
@given(st.lists(st.text(st.sampled_from("abcd "), min_size=1, max_size=20).filter(str.strip), min_size=1, max_size=5))
def test_l2_normalised_tfidf_rows_have_length_one_or_zero(docs):
    rows = TfIdf(tokenizer=str.split).fit_transform(docs).toarray()
    norms = np.linalg.norm(rows, axis=1)
    assert np.all(np.isclose(norms, 1.0) | (norms == 0))
