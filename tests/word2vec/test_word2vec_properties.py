"""Laws that must hold for every input (hypothesis), for the word2vec helpers.

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
