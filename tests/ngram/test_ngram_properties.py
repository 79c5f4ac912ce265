"""Laws that must hold for every input (hypothesis), for the ngram helpers.

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

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nlp_helpers.ngram.models import SMOOTHINGS, NGramLM, StupidBackoff
from tests.strategies import PROPERTY, SENTENCES, WORDS


@PROPERTY
@given(
    SENTENCES.filter(lambda s: any(s)),
    st.integers(1, 3),
    st.sampled_from([s for s in SMOOTHINGS if s != "mle"]),
    st.lists(st.sampled_from([*WORDS, "zebra", "<s>"]), max_size=3),
    st.lists(st.lists(st.sampled_from([*WORDS, "zebra"]), max_size=5), min_size=1, max_size=3),
)
def test_ngram_distributions_sum_to_one_and_perplexity_is_at_least_one(train, n, smoothing, context, held_out):
    lm = NGramLM(n, smoothing).fit(train)
    dist = lm.distribution(context)
    assert dist.shape == (lm.vocab_size,)
    assert (dist >= 0).all() and dist.sum() == pytest.approx(1.0, abs=1e-9)
    logprobs = lm.token_logprobs(held_out)
    assert (logprobs <= 1e-12).all()
    assert lm.perplexity(held_out) >= 1.0 - 1e-12


@PROPERTY
@given(SENTENCES.filter(lambda s: any(s)), st.integers(1, 3), st.lists(st.sampled_from([*WORDS, "zebra"]), max_size=3))
def test_mle_distribution_sums_to_one_or_zero_and_stupid_backoff_scores_lie_in_0_1(train, n, context):
    dist = NGramLM(n, "mle").fit(train).distribution(context)
    assert dist.sum() == pytest.approx(1.0) or dist.sum() == 0.0  # 0: an unseen context, as documented
    scores = StupidBackoff(n).fit(train).scores(context)
    assert ((scores >= 0) & (scores <= 1)).all()
