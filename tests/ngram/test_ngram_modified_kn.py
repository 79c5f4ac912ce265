"""Tests of nlp_helpers.ngram.modified_kn: hand-worked discounts and probabilities, parity with nltk.lm's
KneserNeyInterpolated in the single-discount case, and with an independent dict-based implementation of
Chen & Goodman's equations (tests/ngram/test_ngram_exercises.py) with three discounts per order."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from nltk.lm import KneserNeyInterpolated
from nltk.lm.smoothing import KneserNey
from nltk.lm.vocabulary import Vocabulary

from nlp_helpers.data.splits import shakespeare_sentences
from nlp_helpers.ngram.models import NGramLM
from nlp_helpers.ngram.modified_kn import ModifiedKneserNey, modified_kn_discounts
from tests.ngram.test_ngram_exercises import mkn_discounts, modified_kn

SAM = [s.split() for s in ["I am Sam", "Sam I am", "I do not like green eggs and ham"]]


@pytest.fixture(scope="module")
def macbeth() -> list[list[str]]:
    return shakespeare_sentences("macbeth")


def test_hand_worked_discounts():
    # n1..n4 = 6, 3, 2, 1: Y = 1/2, D1 = 1 - 2 (1/2)(3/6), D2 = 2 - 3 (1/2)(2/3), D3+ = 3 - 4 (1/2)(1/2)
    assert modified_kn_discounts([1] * 6 + [2] * 3 + [3] * 2 + [4, 8, 0]) == pytest.approx((0.5, 1.0, 2.0), rel=1e-12)


def test_hand_worked_bigram_on_sam():
    """P(am | I) with unigram discounts (0.5, 1, 1.5) and bigram discounts (0.6, 1.1, 1.4), worked by hand:
    15 bigram types; continuation counts: </s> 3, I 2, Sam 2, eight words 1; |V| = 12."""
    lm = ModifiedKneserNey(2, discounts=[(0.5, 1.0, 1.5), (0.6, 1.1, 1.4)]).fit(SAM)
    p_am = (1 - 0.5) / 15 + (0.5 * 8 + 1.0 * 2 + 1.5 * 1) / 15 / 12
    assert lm.prob("am", ["zebra"]) == pytest.approx(p_am, rel=1e-12)
    assert lm.prob("am", ["I"]) == pytest.approx((2 - 1.1) / 3 + (0.6 + 1.1) / 3 * p_am, rel=1e-12)
    assert lm.prob("</s>", ["am"]) == pytest.approx((1 - 0.6) / 2 + 2 * 0.6 / 2 * ((3 - 1.5) / 15 + 7.5 / 15 / 12))


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_distributions_sum_to_one(macbeth, n):
    lm = ModifiedKneserNey(n).fit(macbeth)
    for ctx in (["<s>"] * 3, ["i", "am", "not"], ["the", "thane", "of"], ["zebra", "zebra", "the"]):
        assert lm.distribution(ctx[4 - n :] if n > 1 else []).sum() == pytest.approx(1.0, rel=1e-9)


def test_estimated_discounts_match_counts_of_counts(macbeth):
    """The top order's discounts come from its counts, the lower orders' from continuation counts."""
    lm = ModifiedKneserNey(3).fit(macbeth)
    top = Counter()
    left = {}
    for s in macbeth:
        toks = ["<s>", "<s>", *s, "</s>"]
        for i in range(2, len(toks)):
            top[tuple(toks[i - 2 : i + 1])] += 1
            left.setdefault(tuple(toks[i - 1 : i + 1]), set()).add(toks[i - 2])
    cont = [len(v) for v in left.values()]
    assert lm.discounts[2] == pytest.approx(mkn_discounts(list(top.values())), rel=1e-12)
    assert lm.discounts[1] == pytest.approx(mkn_discounts(cont), rel=1e-12)


def test_matches_independent_implementation(macbeth):
    train, test = macbeth[:400], macbeth[400:430]
    d = [(0.45, 0.95, 1.3), (0.6, 1.05, 1.35), (0.7, 1.2, 1.5)]
    ours, ref = ModifiedKneserNey(3, discounts=d).fit(train), modified_kn(train, 3, d)
    for s in test:
        toks = ["<s>", "<s>", *s, "</s>"]
        for i in range(2, len(toks)):
            assert ours.prob(toks[i], toks[i - 2 : i]) == pytest.approx(ref(toks[i], toks[i - 2 : i]), rel=1e-9)


class _KneserNeyUniformBase(KneserNey):
    """nltk's KneserNey with Chen & Goodman's unigram level (discounted, plus the uniform 1/|V|)."""

    def unigram_score(self, word):
        cont, total = self._continuation_counts(word)
        if not hasattr(self, "_types"):
            self._types = sum(self._continuation_counts(w)[0] > 0 for w in self.vocab)
        return max(cont - self.discount, 0) / total + self.discount * self._types / total / len(self.vocab)


@pytest.mark.parametrize("n,discount", [(2, 0.75), (3, 0.6)])
def test_single_discount_matches_nltk(macbeth, n, discount):
    """With D1 = D2 = D3+ = d the model is nltk's KneserNeyInterpolated (with the uniform base), 1e-9."""
    train, test = macbeth[:150], macbeth[:15]
    ours = ModifiedKneserNey(n, discounts=[(discount,) * 3] * n).fit(train)
    vocab = Vocabulary([w for w in ours.vocab if w != "<UNK>"], unk_cutoff=1)
    ref = KneserNeyInterpolated(n, discount=discount, vocabulary=vocab)
    ref.fit(
        [
            [tuple(t[i - k + 1 : i + 1]) for i in range(n - 1, len(t)) for k in range(1, n + 1)]
            for t in (["<s>"] * (n - 1) + list(s) + ["</s>"] for s in train)
        ]
    )
    ref.estimator = _KneserNeyUniformBase(ref.vocab, ref.counts, order=n, discount=discount)
    for s in test:
        toks = ["<s>"] * (n - 1) + list(s) + ["</s>"]
        for i in range(n - 1, len(toks)):
            ctx = tuple(toks[i - n + 1 : i])
            assert ours.prob(toks[i], ctx) == pytest.approx(ref.score(toks[i], ctx), rel=1e-9)
    assert np.allclose(
        ours.distribution(["the"] * (n - 1)), NGramLM(n, discount=discount).fit(train).distribution(["the"] * (n - 1))
    )


@pytest.mark.parametrize(
    "call,name",
    [
        (lambda: modified_kn_discounts([]), "counts"),
        (lambda: modified_kn_discounts([1, 2, -3]), "counts"),
        (lambda: modified_kn_discounts([1, 1, 2, 3]), "counts"),  # no n-gram seen 4 times
        (lambda: modified_kn_discounts("1234"), "counts"),
        (lambda: ModifiedKneserNey(2, discounts=[(0.5, 1.0, 1.5)]), "discounts"),
        (lambda: ModifiedKneserNey(1, discounts=[(0.5, 2.5, 1.5)]), "discounts"),
        (lambda: ModifiedKneserNey(1, discounts=[(0.5, "a", 1.5)]), "discounts"),
        (lambda: ModifiedKneserNey(0), "n"),
        (lambda: ModifiedKneserNey(2).fit(SAM), "discounts"),  # too small to estimate: pass them
        (lambda: ModifiedKneserNey(2, discounts=[(0.5, 1, 1.5)] * 2).fit(SAM).with_params(n=1), "with_params"),
    ],
)
def test_bad_inputs_name_the_argument(call, name):
    with pytest.raises((ValueError, TypeError), match=name):
        call()
