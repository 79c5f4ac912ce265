"""Unigram training: the E-step against brute force over all segmentations, EM, pruning, Hugging Face, bad input."""

from __future__ import annotations

import json
import math
import random
import re
from collections import Counter

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from nlp_helpers.data.corpora import lee_background
from nlp_helpers.seeds import seed
from nlp_helpers.tokenization.unigram import viterbi_segment
from nlp_helpers.tokenization.unigram_train import (
    UnigramTraining,
    check_word_counts,
    expected_counts,
    seed_vocabulary,
    train_unigram,
)
from tests.tokenization.brute_force import segmentations


def _brute_force(word_counts, log_probs):
    """Expected counts by enumerating every segmentation and weighting it by its posterior."""
    counts, total = Counter(), 0.0
    for word, c in word_counts.items():
        segs = [s for s in segmentations(word) if all(p in log_probs for p in s)]
        probs = [math.exp(sum(log_probs[p] for p in s)) for s in segs]
        z = sum(probs)
        for s, p in zip(segs, probs):
            for piece in s:
                counts[piece] += c * p / z
        total += c * math.log(z)
    return counts, total


def test_hand_worked_two_letter_word():
    # "ab" = a + b (0.25 * 0.25 = 1/16) or ab (1/2): posteriors 1/9 and 8/9, likelihood 9/16.
    lp = {"a": math.log(0.25), "b": math.log(0.25), "ab": math.log(0.5)}
    counts, ll = expected_counts({"ab": 3}, lp)
    assert math.isclose(counts["ab"], 3 * 8 / 9, rel_tol=1e-12) and math.isclose(counts["a"], 3 / 9, rel_tol=1e-12)
    assert math.isclose(ll, 3 * math.log(9 / 16), rel_tol=1e-12)


def test_expected_counts_equal_brute_force_on_random_corpora():
    rng = random.Random(seed(5))
    for _ in range(100):
        lp = {"".join(rng.choice("abc") for _ in range(rng.randint(2, 4))): -rng.uniform(0.5, 6) for _ in range(10)}
        lp.update({c: -rng.uniform(2, 8) for c in "abc"})
        words = {"".join(rng.choice("abc") for _ in range(rng.randint(1, 10))): rng.randint(1, 5) for _ in range(6)}
        got, ll = expected_counts(words, lp)
        want, ll_want = _brute_force(words, lp)
        assert set(got) <= set(lp) and math.isclose(ll, ll_want, rel_tol=1e-9)
        for piece in set(got) | set(want):
            assert math.isclose(got.get(piece, 0.0), want[piece], rel_tol=1e-9, abs_tol=1e-12), piece
        # every character of the corpus is covered by exactly one piece of each segmentation
        assert math.isclose(sum(len(p) * c for p, c in got.items()), sum(len(w) * c for w, c in words.items()))


def test_seed_vocabulary_counts_substrings_by_hand():
    lp = seed_vocabulary({"abab": 2, "ab": 1}, size=1)
    # counts: a 5, b 5, ab 5, ba 2, aba 2, bab 2, abab 2; by count x length ab (10) beats abab (8), aba (6)
    assert set(lp) == {"a", "b", "ab"}
    assert math.isclose(math.exp(lp["ab"]), 5 / 15, rel_tol=1e-12)


def test_training_shrinks_the_vocabulary_and_em_never_lowers_the_likelihood():
    words = Counter("low lower lowest newer newest wider wide new low lowest".split() * 3)
    result = train_unigram(words, vocab_size=20, seed_size=200, shrink=0.7, em_steps=3)
    assert isinstance(result, UnigramTraining)
    chars = {c for w in words for c in w}
    assert len(result.log_probs) == 20 and chars <= set(result.log_probs)
    assert math.isclose(sum(math.exp(v) for v in result.log_probs.values()), 1.0, rel_tol=1e-9)
    sizes = [size for _, size, _ in result.history]
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] == 20 and sizes[0] > 20
    for (r1, _, ll1), (r2, _, ll2) in zip(result.history, result.history[1:]):
        if r1 == r2:  # EM steps of one round: the likelihood never decreases
            assert ll2 >= ll1 - 1e-9 * abs(ll1)
    for w in words:  # every word is still writable
        assert "".join(viterbi_segment(w, result.log_probs)[0]) == w


@pytest.mark.slow
def test_segmentations_agree_with_huggingface_unigram_on_most_running_words():
    news = list(lee_background())
    words = Counter(w for d in news for w in re.findall(r"\w+|[^\w\s]+", d))
    ours = train_unigram(words, vocab_size=2000).log_probs
    tok = Tokenizer(models.Unigram())
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(
        news, trainers.UnigramTrainer(vocab_size=2000, special_tokens=["<unk>"], unk_token="<unk>", show_progress=False)
    )
    hf = {p for p, _ in json.loads(tok.to_str())["model"]["vocab"]}
    same = {w: viterbi_segment(w, ours)[0] == [t.value for t in tok.model.tokenize(w)] for w in words}
    token_agreement = sum(words[w] for w in words if same[w]) / sum(words.values())
    # Measured (deterministic: no randomness in either trainer): 69% of running words, 44% of types,
    # 52% of the pieces shared. The trainers differ in seed vocabulary, M-step and final trimming.
    assert 0.6 < token_agreement < 1.0
    assert 0.35 < sum(same.values()) / len(words) < 0.9
    assert len(hf & set(ours)) > 0.4 * len(ours)


def test_bad_input_names_the_argument():
    with pytest.raises(TypeError, match="word_counts"):
        expected_counts(["ab"], {"a": -1.0})
    with pytest.raises(ValueError, match="word_counts"):
        expected_counts({}, {"a": -1.0})
    with pytest.raises(ValueError, match="word_counts"):
        expected_counts({"ab": 0}, {"a": -1.0, "b": -1.0})
    with pytest.raises(ValueError, match="word_counts"):
        check_word_counts({"": 2})
    with pytest.raises(ValueError, match="log_probs"):
        expected_counts({"ab": 1}, {"a": 0.5})
    with pytest.raises(ValueError, match="cannot be written"):
        expected_counts({"abc": 1}, {"a": -1.0, "b": -1.0})
    with pytest.raises(ValueError, match="vocab_size"):
        train_unigram({"ab": 1}, 0)
    with pytest.raises(ValueError, match="shrink"):
        train_unigram({"ab": 1}, 2, shrink=1.0)
    with pytest.raises(ValueError, match="em_steps"):
        train_unigram({"ab": 1}, 2, em_steps=0)
    with pytest.raises(ValueError, match="size"):
        seed_vocabulary({"ab": 1}, size=-1)
