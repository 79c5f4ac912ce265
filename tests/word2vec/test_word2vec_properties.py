"""Laws that must hold for every input (hypothesis), for the word2vec helpers.

Settings and strategies are shared (``tests/strategies.py``): 50 derandomized examples per law.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from nlp_helpers.word2vec.corpus import keep_probabilities, noise_distribution
from nlp_helpers.word2vec.fasttext import char_ngrams
from nlp_helpers.word2vec.softmax import softmax as w2v_softmax
from tests.strategies import ANY_CHAR, PROPERTY


@PROPERTY
@given(st.text(ANY_CHAR, min_size=1, max_size=12), st.integers(1, 4), st.integers(0, 4))
def test_char_ngram_count_follows_the_formula(word, minn, extra):
    """``<word>`` has len + 2 characters, so len + 3 - n n-grams of each length n it can hold."""
    maxn = minn + extra
    L = len(word) + 2
    assert len(char_ngrams(word, minn, maxn)) == sum(max(0, L - n + 1) for n in range(minn, maxn + 1))


@PROPERTY
@given(arrays(np.float64, st.integers(1, 10), elements=st.floats(1, 1e6)), st.floats(0.0, 100.0), st.floats(0.0, 1.0))
def test_word2vec_noise_and_subsampling_probabilities(counts, power, sample):
    p = noise_distribution(counts, power)
    assert np.isfinite(p).all() and (p >= 0).all() and p.sum() == pytest.approx(1.0)
    keep = keep_probabilities(counts, sample)
    assert np.isfinite(keep).all() and ((keep > 0) & (keep <= 1)).all()


@PROPERTY
@given(arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 6)), elements=st.floats(-1e300, 1e300)))
def test_word2vec_softmax_is_a_distribution(scores):
    p = w2v_softmax(scores)
    assert np.isfinite(p).all()
    np.testing.assert_allclose(p.sum(axis=-1), 1.0)
