"""The TnT-style HMM tagger: hand-worked deleted interpolation, Viterbi against brute force for both
orders, the suffix model, and accuracy on the UD English Web Treebank."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from nlp_helpers.data.ud import ewt_sentences
from nlp_helpers.tagging.baseline import tag_accuracy
from nlp_helpers.tagging.hmm import HMMTagger

ABAB = [[("x", "A"), ("y", "B")], [("x", "A"), ("y", "B")], [("x", "A"), ("x", "A")]]


def test_bigram_deleted_interpolation_by_hand():
    # Padded bigrams: (S,A) x3, (A,B) x2, (B,E) x2, (A,A) x1, (A,E) x1; N = 9 predicted tags (A 4, B 2, E 3).
    # Votes: (S,A) 3 and (A,B) 2 and (B,E) 2 for the bigram estimate; (A,A) 1 and (A,E) 1 for the unigram.
    hmm = HMMTagger(order=2).fit(ABAB)
    assert hmm.lambdas == pytest.approx((0.0, 7 / 9, 2 / 9))
    A, B = hmm.tags.index("A"), hmm.tags.index("B")
    assert np.exp(hmm.log_trans[A, B]) == pytest.approx(7 / 9 * 2 / 4 + 2 / 9 * 2 / 9)
    assert np.exp(hmm.log_start[A]) == pytest.approx(7 / 9 * 1 + 2 / 9 * 4 / 9)
    assert np.exp(hmm.log_end[B]) == pytest.approx(7 / 9 * 1 + 2 / 9 * 3 / 9)
    # emissions: P(x | A) = 4/4, P(y | B) = 2/2, P(y | A) = 0
    em = hmm.emission_scores(["x", "y"])
    assert np.exp(em[0, A]) == pytest.approx(1.0) and em[1, A] == -np.inf


def _small_corpus():
    return ewt_sentences("dev")[:300]


def test_bigram_tagger_equals_brute_force():
    hmm = HMMTagger(order=2).fit(_small_corpus())
    K = len(hmm.tags)
    for words in (["I", "like", "it"], ["The", "zorp", "ran", "home"]):
        em = hmm.emission_scores(words)
        best = max(
            itertools.product(range(K), repeat=len(words)),
            key=lambda p: (
                hmm.log_start[p[0]]
                + em[0, p[0]]
                + hmm.log_end[p[-1]]
                + sum(hmm.log_trans[a, b] + em[t + 1, b] for t, (a, b) in enumerate(itertools.pairwise(p)))
            ),
        )
        assert hmm.tag(words) == [hmm.tags[k] for k in best]


def test_trigram_tagger_equals_brute_force():
    hmm = HMMTagger(order=3).fit(_small_corpus())
    assert sum(hmm.lambdas) == pytest.approx(1.0) and min(hmm.lambdas) > 0
    K = len(hmm.tags)
    L = hmm.log_trans3
    for words in (["Thanks"], ["I", "like", "it"], ["The", "zorp", "ran", "home"]):
        em = hmm.emission_scores(words)

        def score(p, em=em):
            hist = [K, K, *p, K]  # START START tags END
            return sum(em[t, y] for t, y in enumerate(p)) + sum(
                L[hist[i], hist[i + 1], hist[i + 2]] for i in range(len(p) + 1)
            )

        best = max(itertools.product(range(K), repeat=len(words)), key=score)
        assert hmm.tag(words) == [hmm.tags[k] for k in best]


def test_suffix_model_guesses_from_word_endings():
    corpus = [[("it", "PRON"), ("went", "VERB"), (w, "ADV")] for w in ["quickly", "slowly", "badly"]]
    corpus += [[("they", "PRON"), (w, "VERB")] for w in ["walked", "talked", "jumped"]]
    hmm = HMMTagger().fit(corpus)
    probs = dict(zip(hmm.tags, hmm.unknown_tag_probs("sadly")))
    assert max(probs, key=probs.get) == "ADV" and sum(probs.values()) == pytest.approx(1.0)
    assert hmm.tag(["it", "went", "madly"])[-1] == "ADV"
    assert hmm.tag(["they", "hopped"])[-1] == "VERB"
    assert hmm.tag([]) == []


@pytest.mark.slow
def test_tnt_reaches_92_percent_upos_accuracy_on_ewt_test():
    train, test = ewt_sentences("train"), ewt_sentences("test")
    hmm = HMMTagger(order=3).fit(train)
    acc = tag_accuracy([[t for _, t in s] for s in test], [hmm.tag([w for w, _ in s]) for s in test])
    assert acc >= 0.92


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="order"):
        HMMTagger(order=4)
    with pytest.raises(ValueError, match="rare_max"):
        HMMTagger(rare_max=0)
    with pytest.raises(TypeError, match="max_suffix"):
        HMMTagger(max_suffix=2.5)
    with pytest.raises(ValueError, match="sentences"):
        HMMTagger().fit([])
    with pytest.raises(TypeError, match="sentences"):
        HMMTagger().fit([[("a", 1)]])
    with pytest.raises(RuntimeError, match="fit"):
        HMMTagger().tag(["a"])
    hmm = HMMTagger().fit(ABAB)
    with pytest.raises(TypeError, match="words"):
        hmm.tag("x y")
    with pytest.raises(TypeError, match="word"):
        hmm.unknown_tag_probs(None)
