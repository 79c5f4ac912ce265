"""Tests of nlp_helpers.ngram.models: hand-worked examples, normalisation, parity with nltk.lm, bad input.

nltk.lm is fed exactly our n-grams (n-1 ``<s>`` on the left, one ``</s>`` on the right, and for
every predicted position the n-grams of orders 1..n ending there) and a vocabulary of our V
without ``<UNK>`` (nltk adds its own ``<UNK>``), so ``len(nltk vocab) == |V|``. nltk then looks
``<s>`` up as ``<UNK>``; with ``min_count=1`` and in-vocabulary test words ``<UNK>`` stands for
``<s>`` alone, so the two models see identical events.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from nltk.lm import MLE, AbsoluteDiscountingInterpolated, KneserNeyInterpolated, Laplace, Lidstone
from nltk.lm import StupidBackoff as NltkStupidBackoff
from nltk.lm.smoothing import AbsoluteDiscounting, KneserNey
from nltk.lm.vocabulary import Vocabulary

from nlp_helpers.data.splits import shakespeare_sentences
from nlp_helpers.ngram.models import SMOOTHINGS, NGramLM, StupidBackoff
from nlp_helpers.seeds import rng as seeded_rng

# Jurafsky & Martin, SLP3 section 3.1: the "I am Sam" corpus.
SAM = [s.split() for s in ["I am Sam", "Sam I am", "I do not like green eggs and ham"]]


@pytest.fixture(scope="module")
def macbeth() -> list[list[str]]:
    return shakespeare_sentences("macbeth")


# ----- hand-worked examples ---------------------------------------------------------------
def test_jurafsky_martin_i_am_sam_bigrams():
    lm = NGramLM(2, "mle").fit(SAM)
    # SLP3 eq. 3.11 (the fractions are printed there as .67, .33, .67, .5, .5, .33).
    assert lm.prob("I", ["<s>"]) == pytest.approx(2 / 3)
    assert lm.prob("Sam", ["<s>"]) == pytest.approx(1 / 3)
    assert lm.prob("am", ["I"]) == pytest.approx(2 / 3)
    assert lm.prob("</s>", ["Sam"]) == pytest.approx(1 / 2)
    assert lm.prob("Sam", ["am"]) == pytest.approx(1 / 2)
    assert lm.prob("do", ["I"]) == pytest.approx(1 / 3)
    assert lm.prob("ham", ["I"]) == 0.0


def test_counts_and_continuation_counts_by_hand():
    lm = NGramLM(2, "mle").fit(SAM)
    assert lm.ngram_count(["I", "am"]) == 2
    assert lm.ngram_count(["I"]) == 3
    assert lm.ngram_count(["<s>", "I"]) == 2
    # distinct left neighbours: </s> follows Sam, am, ham; Sam follows <s>, am; I follows <s>, Sam
    assert lm.continuation_count("</s>") == 3
    assert lm.continuation_count("Sam") == 2
    assert lm.continuation_count("I") == 2
    assert lm.continuation_count("ham") == 1
    assert lm.n_distinct(2) == 15  # 17 bigram tokens, (<s>, I) and (I, am) occur twice
    assert lm.vocab_size == 12  # 10 words + </s> + <UNK>


def test_perplexity_of_i_am_sam_by_hand():
    lm = NGramLM(2, "mle").fit(SAM)
    # P = 2/3 * 2/3 * 1/2 * 1/2 = 1/9 over N = 4 predicted tokens (3 words and </s>)
    assert lm.perplexity([["I", "am", "Sam"]]) == pytest.approx(9 ** (1 / 4))
    assert lm.cross_entropy([["I", "am", "Sam"]]) == pytest.approx(math.log2(9) / 4)
    assert math.isinf(lm.perplexity([["I", "am", "ham"]]))  # (am, ham) never seen


def test_laplace_and_add_k_by_hand():
    lm = NGramLM(2, "laplace").fit(SAM)
    assert lm.prob("am", ["I"]) == pytest.approx((2 + 1) / (3 + 12))
    assert lm.prob("ham", ["I"]) == pytest.approx(1 / (3 + 12))
    assert lm.prob("am", ["never-seen"]) == pytest.approx(1 / 12)  # unseen context: uniform
    lm = NGramLM(2, "add_k", k=0.5).fit(SAM)
    assert lm.prob("am", ["I"]) == pytest.approx((2 + 0.5) / (3 + 0.5 * 12))


def test_kneser_ney_bigram_by_hand():
    d = 0.75
    lm = NGramLM(2, "kneser_ney", discount=d).fit(SAM)
    # 15 bigram types; 11 words have a left neighbour; |V| = 12; Sam has 2 left neighbours.
    p_sam = (2 - d) / 15 + d * 11 / 15 / 12
    # c(am Sam) = 1, c(am .) = 2 (Sam, </s>), two distinct followers of "am"
    assert lm.prob("Sam", ["am"]) == pytest.approx((1 - d) / 2 + d * 2 / 2 * p_sam)
    # a word never seen after "am": only the back-off term
    assert lm.prob("ham", ["am"]) == pytest.approx(d * 2 / 2 * ((1 - d) / 15 + d * 11 / 15 / 12))
    # <UNK> has no left neighbour: only the uniform share of the unigram level
    assert lm.prob("zebra", ["am"]) == pytest.approx(d * (d * 11 / 15 / 12))


def test_absolute_discounting_bigram_by_hand():
    d = 0.5
    lm = NGramLM(2, "absolute_discounting", discount=d).fit(SAM)
    n_tokens = 17  # 14 words + 3 </s>
    p_sam = (2 - d) / n_tokens + d * 11 / n_tokens / 12  # 11 distinct predicted tokens
    assert lm.prob("Sam", ["am"]) == pytest.approx((1 - d) / 2 + d * 2 / 2 * p_sam)


def test_interpolation_by_hand():
    lm = NGramLM(3, "interpolated", lambdas=[0.2, 0.3, 0.5]).fit(SAM)
    p1 = (2 + 1) / (17 + 12)  # add-one unigram of "am": 17 predicted tokens, V = 12
    p2 = 2 / 3  # MLE P(am | I)
    p3 = 1 / 2  # MLE P(am | <s> I): <s> I am, <s> I do
    assert lm.prob("am", ["<s>", "I"]) == pytest.approx(0.2 * p1 + 0.3 * p2 + 0.5 * p3)
    # unseen trigram context (Sam, Sam): the order-3 term falls back to the bigram MLE P(am | Sam) = 0
    p2_sam = 0.0
    assert lm.prob("am", ["Sam", "Sam"]) == pytest.approx(0.2 * p1 + 0.3 * p2_sam + 0.5 * p2_sam)


def test_ngram_statistics_by_hand():
    rows = NGramLM(2, "mle").fit(SAM).ngram_statistics([["I", "am", "ham"]]).to_dict("records")
    assert rows[0] == {"n": 1, "distinct_train": 11, "unseen_test_share": 0.0}
    # test bigrams (<s> I) (I am) (am ham) (ham </s>): only (am ham) is new
    assert rows[1] == {"n": 2, "distinct_train": 15, "unseen_test_share": 0.25}


def test_ngram_table_by_hand():
    table = NGramLM(3, "mle").fit(SAM).ngram_table(2)
    assert len(table) == 15 and table["count"].sum() == 17
    top = table.head(2)
    assert {tuple(r) for r in top[["w1", "w2", "count"]].itertuples(index=False)} == {("<s>", "I", 2), ("I", "am", 2)}
    tri = NGramLM(3, "mle").fit(SAM).ngram_table(3)
    assert ("<s>", "<s>", "I", 2) in set(tri.itertuples(index=False, name=None))
    assert ("I", "am", "</s>", 1) in set(tri.itertuples(index=False, name=None))  # from "Sam I am"
    assert not (tri["w1"] == "</s>").any() and not (tri["w2"] == "</s>").any()  # never across sentences
    assert ("I", "am", "Sam", 1) in set(tri.itertuples(index=False, name=None))


# ----- every smoothed distribution sums to one ----------------------------------------
def _contexts(sentences, n, rng, how_many=25):
    """Seen contexts (from the data), unseen ones (shuffled words), OOV and short contexts."""
    words = sorted({w for s in sentences for w in s})
    seen = []
    for s in rng.choice(len(sentences), how_many):
        toks = ["<s>"] * (n - 1) + sentences[s]
        i = rng.integers(n - 1, len(toks) + 1)
        seen.append(toks[i - n + 1 : i] if n > 1 else [])
    unseen = [list(rng.choice(words, n - 1)) for _ in range(how_many)]
    odd = [
        ["never-seen-word"] * (n - 1),
        ["<s>"] * (n - 1),
        ["<s>", "never-seen-word"][-(n - 1) :] if n > 1 else [],
        [],
    ]
    return seen + unseen + odd


@pytest.mark.parametrize("smoothing", [s for s in SMOOTHINGS if s != "mle"])
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_distributions_sum_to_one(macbeth, smoothing, n):
    rng = seeded_rng(n)
    lm = NGramLM(n, smoothing, min_count=2).fit(macbeth[:1500])
    for ctx in _contexts(macbeth[:1500], n, rng):
        p = lm.distribution(ctx)
        assert p.shape == (lm.vocab_size,)
        assert np.all(p >= 0)
        assert p.sum() == pytest.approx(1.0, abs=1e-9), (smoothing, n, ctx)
        assert p[lm.vocab.index("<UNK>")] > 0  # smoothing leaves mass for unknown words


def test_mle_sums_to_one_on_seen_contexts_only(macbeth):
    rng = seeded_rng(0)
    lm = NGramLM(3, "mle").fit(macbeth[:1500])
    for ctx in _contexts(macbeth[:1500], 3, rng)[:25]:
        assert lm.distribution(ctx).sum() == pytest.approx(1.0, abs=1e-9)
    assert lm.distribution(["never-seen-word", "never-seen-word"]).sum() == 0.0


@pytest.mark.parametrize("discount", [0.05, 0.5, 1.0])
def test_kneser_ney_sums_to_one_for_any_discount(macbeth, discount):
    lm = NGramLM(3, "kneser_ney", discount=discount).fit(macbeth[:800])
    for ctx in _contexts(macbeth[:800], 3, seeded_rng(1), 10):
        assert lm.distribution(ctx).sum() == pytest.approx(1.0, abs=1e-9)


def test_stupid_backoff_scores_are_not_a_distribution(macbeth):
    sb = StupidBackoff(3).fit(macbeth)
    assert sb.scores(["<s>", "i"]).sum() > 1.05  # seen words plus alpha * lower-order mass
    with pytest.raises(TypeError, match="not probabilities"):
        sb.perplexity(macbeth[:2])


# ----- parity with nltk.lm --------------------------------------------------------------
def _nltk_ngrams(sentence, n):
    toks = ["<s>"] * (n - 1) + list(sentence) + ["</s>"]
    return [tuple(toks[i - k + 1 : i + 1]) for i in range(n - 1, len(toks)) for k in range(1, n + 1)]


def _nltk_fit(model, ours: NGramLM | StupidBackoff, sentences, n):
    model.fit([_nltk_ngrams(s, n) for s in sentences])
    assert len(model.vocab) == ours.vocab_size
    return model


def _vocab(ours):
    return Vocabulary([w for w in ours.vocab if w != "<UNK>"], unk_cutoff=1)


def _events(sentences, n):
    """(word, context) of every predicted position, context of length n-1."""
    for s in sentences:
        toks = ["<s>"] * (n - 1) + list(s) + ["</s>"]
        for i in range(n - 1, len(toks)):
            yield toks[i], tuple(toks[i - n + 1 : i]) if n > 1 else ()


def _assert_parity(ours, ref, sentences, n, rel=1e-12):
    for word, ctx in _events(sentences, n):
        assert ours.prob(word, ctx) == pytest.approx(ref.score(word, ctx), rel=rel, abs=1e-15), (word, ctx)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_mle_laplace_lidstone_match_nltk(macbeth, n):
    train, test = macbeth[:600], macbeth[:40]
    ours = NGramLM(n, "mle").fit(train)
    _assert_parity(ours, _nltk_fit(MLE(n, vocabulary=_vocab(ours)), ours, train, n), test, n)
    ours = NGramLM(n, "laplace").fit(train)
    _assert_parity(ours, _nltk_fit(Laplace(n, vocabulary=_vocab(ours)), ours, train, n), test, n)
    for k in (0.01, 0.5):
        ours = NGramLM(n, "add_k", k=k).fit(train)
        ref = _nltk_fit(Lidstone(k, n, vocabulary=_vocab(ours)), ours, train, n)
        _assert_parity(ours, ref, test, n)
        ctx = ("macbeth",) * (n - 1)  # a context never seen in training
        assert ours.prob("the", ctx) == pytest.approx(ref.score("the", ctx), rel=1e-12)


def test_laplace_perplexity_matches_nltk(macbeth):
    train, test = macbeth[:600], macbeth[600:700]
    ours = NGramLM(2, "laplace").fit(train)
    test = [[w for w in s if w in set(ours.vocab)] for s in test]  # in-vocabulary words only (see module doc)
    ref = _nltk_fit(Laplace(2, vocabulary=_vocab(ours)), ours, train, 2)
    top = [g for s in test for g in _nltk_ngrams(s, 2) if len(g) == 2]
    assert ours.perplexity(test) == pytest.approx(ref.perplexity(top), rel=1e-10)


def test_stupid_backoff_matches_nltk(macbeth):
    train, test = macbeth[:600], macbeth[600:640]
    ours = StupidBackoff(3, alpha=0.4).fit(train)
    known = set(ours.vocab)
    test = [[w for w in s if w in known] for s in test]
    ref = _nltk_fit(NltkStupidBackoff(0.4, 3, vocabulary=_vocab(ours)), ours, train, 3)
    for word, ctx in _events(test, 3):
        assert ours.score(word, ctx) == pytest.approx(ref.score(word, ctx), rel=1e-12, abs=1e-15)


class _KneserNeyUniformBase(KneserNey):
    """nltk's KneserNey with the lowest level of Chen & Goodman / SLP3 eq. 3.41.

    nltk (>= the fix of nltk#2599) uses the raw continuation probability N1+(. w) / N1+(. .)
    as its unigram level, which gives 0 to any word never seen after another word (<UNK>,
    nltk#3211). Chen & Goodman discount it as well and give the freed mass to the uniform
    distribution. Computed here from nltk's own counts, independently of our code.
    """

    def unigram_score(self, word):
        cont, total = self._continuation_counts(word)
        if not hasattr(self, "_types"):  # words with a left neighbour (nltk's code is slow: compute once)
            self._types = sum(self._continuation_counts(w)[0] > 0 for w in self.vocab)
        return max(cont - self.discount, 0) / total + self.discount * self._types / total / len(self.vocab)


class _AbsoluteDiscountingUniformBase(AbsoluteDiscounting):
    """nltk's AbsoluteDiscounting with a discounted unigram level interpolated with the uniform."""

    def unigram_score(self, word):
        uni = self.counts.unigrams
        types = sum(1 for w in uni if uni[w] > 0)
        return max(uni[word] - self.discount, 0) / uni.N() + self.discount * types / uni.N() / len(self.vocab)


@pytest.mark.parametrize("n,discount", [(2, 0.75), (3, 0.75), (3, 0.1)])
def test_kneser_ney_matches_nltk_recursion(macbeth, n, discount):
    """Every order above the unigram matches nltk's KneserNeyInterpolated exactly."""
    train, test = macbeth[:150], macbeth[:15]
    ours = NGramLM(n, "kneser_ney", discount=discount).fit(train)
    ref = _nltk_fit(KneserNeyInterpolated(n, discount=discount, vocabulary=_vocab(ours)), ours, train, n)
    ref.estimator = _KneserNeyUniformBase(ref.vocab, ref.counts, order=n, discount=discount)
    _assert_parity(ours, ref, test, n, rel=1e-10)
    # and unigram (continuation) level: N1+(. w) / N1+(. .) is exactly nltk's raw unigram score
    raw = KneserNey(ref.vocab, ref.counts, order=n, discount=discount)
    total = ours.n_distinct(2)
    for w in ["the", "and", "macbeth", "</s>"]:
        assert ours.continuation_count(w) / total == pytest.approx(raw.unigram_score(w), rel=1e-12)


def test_absolute_discounting_matches_nltk_recursion(macbeth):
    train, test = macbeth[:300], macbeth[:25]
    ours = NGramLM(3, "absolute_discounting", discount=0.6).fit(train)
    ref = _nltk_fit(AbsoluteDiscountingInterpolated(3, discount=0.6, vocabulary=_vocab(ours)), ours, train, 3)
    ref.estimator = _AbsoluteDiscountingUniformBase(ref.vocab, ref.counts, discount=0.6)
    _assert_parity(ours, ref, test, 3, rel=1e-10)


def test_nltk_kneser_ney_gives_unknown_words_zero_probability(macbeth):
    """nltk#3211: nltk's KN unigram level has no uniform share, so <UNK> gets P = 0 (perplexity inf); ours > 0."""
    train = macbeth[:300]
    ours = NGramLM(2, "kneser_ney").fit(train)
    ref = _nltk_fit(KneserNeyInterpolated(2, discount=0.75, vocabulary=_vocab(ours)), ours, train, 2)
    assert ref.score("some-unknown-word", ("the",)) == 0.0
    assert math.isinf(ref.perplexity([("the", "some-unknown-word")]))
    assert ours.prob("some-unknown-word", ["the"]) > 0
    assert math.isfinite(ours.perplexity([["the", "some-unknown-word", "king"]]))


# ----- interpolation weights by EM -------------------------------------------------------
def test_em_lambdas_are_at_least_as_good_as_a_grid(macbeth):
    train, held = macbeth[:900], macbeth[900:]
    lm = NGramLM(3, "interpolated", min_count=2).fit(train).fit_lambdas(held)
    assert lm.lambdas.sum() == pytest.approx(1.0) and np.all(lm.lambdas >= 0)
    best_em = lm.cross_entropy(held)
    grid = [np.array(w) / 10 for w in itertools.product(range(1, 10), repeat=3) if sum(w) == 10]
    best_grid = min(lm.with_params(lambdas=w).cross_entropy(held) for w in grid)
    assert best_em <= best_grid + 1e-6
    assert best_em < lm.with_params(lambdas=[1 / 3] * 3).cross_entropy(held)


# ----- evaluation, tuning copies, generation ---------------------------------------------
def test_vectorised_perplexity_equals_token_by_token(macbeth):
    train, test = macbeth[:1000], macbeth[1000:1030]
    for smoothing in ("laplace", "interpolated", "kneser_ney"):
        lm = NGramLM(3, smoothing, min_count=2).fit(train)
        logs = [math.log2(lm.prob(w, ctx)) for w, ctx in _events(test, 3)]
        assert lm.perplexity(test) == pytest.approx(2 ** (-np.mean(logs)), rel=1e-10)


@pytest.mark.parametrize("smoothing", ["mle", "add_k", "interpolated", "absolute_discounting", "kneser_ney"])
def test_a_truncated_model_equals_a_fresh_lower_order_fit(macbeth, smoothing):
    big = NGramLM(4, smoothing).fit(macbeth[:700])
    for n in (1, 2, 3):
        fresh = NGramLM(n, smoothing).fit(macbeth[:700])
        assert big.with_params(n=n).perplexity(macbeth[700:760]) == pytest.approx(
            fresh.perplexity(macbeth[700:760]), rel=1e-12
        )
        ctx = ["<s>", "the", "king"][3 - n + 1 :] if n > 1 else []
        np.testing.assert_allclose(big.with_params(n=n).distribution(ctx), fresh.distribution(ctx), rtol=1e-12)


def test_with_params_equals_a_fresh_fit(macbeth):
    base = NGramLM(3, "kneser_ney").fit(macbeth[:500])
    fresh = NGramLM(3, "add_k", k=0.3).fit(macbeth[:500])
    assert base.with_params("add_k", k=0.3).perplexity(macbeth[500:550]) == pytest.approx(
        fresh.perplexity(macbeth[500:550])
    )
    assert base.smoothing == "kneser_ney"  # the original is untouched
    tuned = base.with_params(discount=0.9)
    assert tuned.with_params(n=2).discount == 0.9  # parameters are kept unless overridden
    interp = NGramLM(3, "interpolated").fit(macbeth[:500]).fit_lambdas(macbeth[500:600])
    np.testing.assert_array_equal(interp.with_params().lambdas, interp.lambdas)


def test_generation_is_seeded_and_mle_only_produces_seen_bigrams(macbeth):
    lm = NGramLM(2, "mle").fit(macbeth)
    a, b = lm.generate(30, seed=3), lm.generate(30, seed=3)
    assert a == b and len(a) >= 1
    assert any(lm.generate(30, seed=s) != a for s in range(4, 8))
    toks = ["<s>", *a]
    assert all(lm.ngram_count(pair) > 0 for pair in zip(toks, toks[1:]))


def test_generation_follows_the_model_distribution():
    lm = NGramLM(2, "mle").fit(SAM)
    first = [lm.generate(1, seed=s)[0] for s in range(2000)]
    # P(I | <s>) = 2/3; 2000 draws have sd 0.011, so 0.04 is 3.8 sd (NLP_SEED_OFFSET 0, 3, 7, 9: |error| <= 0.003)
    assert first.count("I") / len(first) == pytest.approx(2 / 3, abs=0.04)
    assert set(first) == {"I", "Sam"}


def test_generation_with_context():
    lm = NGramLM(2, "mle").fit(SAM)
    assert lm.generate(5, seed=0, context=["green"]) == ["eggs", "and", "ham"]


# ----- bad input -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
        ({"n": 0}, ValueError, "n must be >= 1"),
        ({"n": 2.5}, TypeError, "n must be an integer"),
        ({"n": 2, "smoothing": "good_turing"}, ValueError, "smoothing must be one of"),
        ({"n": 2, "smoothing": "add_k", "k": 0}, ValueError, "k must be > 0"),
        ({"n": 2, "smoothing": "add_k", "k": -1}, ValueError, "k must be > 0"),
        ({"n": 2, "smoothing": "laplace", "k": 0.5}, ValueError, "k is only used"),
        ({"n": 2, "smoothing": "kneser_ney", "discount": 0}, ValueError, "discount must be > 0"),
        ({"n": 2, "smoothing": "kneser_ney", "discount": 1.5}, ValueError, "discount must be <= 1"),
        ({"n": 2, "smoothing": "interpolated", "lambdas": [0.5, 0.6]}, ValueError, "lambdas must be 2"),
        ({"n": 2, "smoothing": "interpolated", "lambdas": [1.0]}, ValueError, "lambdas must be 2"),
        ({"n": 2, "min_count": 0}, ValueError, "min_count must be >= 1"),
    ],
)
def test_bad_constructor_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        NGramLM(**kwargs)


def test_bad_corpora():
    with pytest.raises(ValueError, match="sentences must not be empty"):
        NGramLM(2).fit([])
    with pytest.raises(TypeError, match=r"sentences\[0\] is a str"):
        NGramLM(2).fit(["I am Sam"])
    with pytest.raises(ValueError, match="at least one word"):
        NGramLM(2).fit([[], []])
    with pytest.raises(ValueError, match="must not contain <s> or </s>"):
        NGramLM(2).fit([["<s>", "I", "am"]])
    with pytest.raises(ValueError, match="must not contain <s> or </s>"):
        NGramLM(2).fit(SAM).perplexity([["I", "am", "</s>"]])
    with pytest.raises(TypeError, match="vocabulary must be an iterable of words"):
        NGramLM(2).fit(SAM, vocabulary="I am")
    pre_unked = NGramLM(2).fit([["I", "<UNK>", "Sam"]])  # a corpus whose rare words are already <UNK>
    assert pre_unked.ngram_count(["I", "<UNK>"]) == 1 and pre_unked.vocab_size == 4
    with pytest.raises(ValueError, match="at least one word"):
        NGramLM(2, min_count=5).fit(SAM)


def test_bad_use():
    with pytest.raises(RuntimeError, match="not fitted"):
        NGramLM(2).prob("I", ["<s>"])
    lm = NGramLM(2, "mle").fit(SAM)
    with pytest.raises(TypeError, match="context must be a sequence of tokens"):
        lm.prob("am", "I")
    with pytest.raises(TypeError, match="word must be a str"):
        lm.prob(3, ["I"])
    with pytest.raises(ValueError, match="fit_lambdas needs smoothing='interpolated'"):
        lm.fit_lambdas(SAM)
    with pytest.raises(ValueError, match="n_words must be >= 1"):
        lm.generate(0)
    with pytest.raises(ValueError, match="undefined"):
        lm.generate(3, context=["never-seen"])
    with pytest.raises(ValueError, match="ngram must have between 1 and n=2"):
        lm.ngram_count(["I", "am", "Sam"])
    with pytest.raises(ValueError, match="alpha must be <= 1"):
        StupidBackoff(2, alpha=2)
    with pytest.raises(TypeError, match=r"test\[0\] is a str"):
        lm.ngram_statistics(["I am"])
    with pytest.raises(ValueError, match="n must be <= 2"):
        lm.with_params(n=3)
    assert lm.prob("<s>", ["I"]) == 0.0
