"""Laws that must hold for every input (hypothesis), for the ngram helpers.

Settings and strategies are shared (``tests/strategies.py``): 50 derandomized examples per law.
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
