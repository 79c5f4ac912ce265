"""Unigram Viterbi segmentation: Hugging Face's Unigram model, brute force over all segmentations, bad input."""

from __future__ import annotations

import json
import math
import random
import re

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from nlp_helpers.data.corpora import lee_background
from nlp_helpers.seeds import seed
from nlp_helpers.tokenization.unigram import check_log_probs, viterbi_segment
from tests.tokenization.brute_force import segmentations


def test_hand_worked():
    lp = {"a": -1.0, "b": -1.0, "c": -1.0, "ab": -1.5, "bc": -3.0}
    assert viterbi_segment("abc", lp) == (["ab", "c"], -2.5)
    assert viterbi_segment("", lp) == ([], 0.0)
    # greedy longest-match would take "ab" and pay -6 in total; the best split is a + bc = -2.5
    assert viterbi_segment("abc", {"ab": -1.0, "c": -5.0, "a": -1.5, "bc": -1.0})[0] == ["a", "bc"]


def test_equals_brute_force_on_random_strings():
    rng = random.Random(seed(3))
    for _ in range(200):
        lp = {"".join(rng.choice("ab") for _ in range(rng.randint(1, 3))): -rng.uniform(0.1, 5) for _ in range(8)}
        lp.update({"a": -6.0, "b": -6.0})
        text = "".join(rng.choice("ab") for _ in range(rng.randint(1, 9)))
        pieces, score = viterbi_segment(text, lp)
        best = max(sum(lp[p] for p in seg) for seg in segmentations(text) if all(p in lp for p in seg))
        assert "".join(pieces) == text
        assert math.isclose(score, best, rel_tol=1e-12) and math.isclose(sum(lp[p] for p in pieces), best)


@pytest.mark.slow
def test_equals_huggingface_unigram_on_every_word_of_the_news_corpus():
    news = list(lee_background())
    tok = Tokenizer(models.Unigram())
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(
        news, trainers.UnigramTrainer(vocab_size=2000, special_tokens=["<unk>"], unk_token="<unk>", show_progress=False)
    )
    lp = {p: s for p, s in json.loads(tok.to_str())["model"]["vocab"] if p != "<unk>"}
    words = sorted({w for d in news for w in re.findall(r"[A-Za-z]+", d)})
    assert len(words) > 5000
    for w in words:
        assert viterbi_segment(w, lp)[0] == [t.value for t in tok.model.tokenize(w)], w


def test_bad_input_names_the_argument():
    with pytest.raises(TypeError, match="text"):
        viterbi_segment(None, {"a": -1.0})
    with pytest.raises(TypeError, match="log_probs"):
        viterbi_segment("a", [("a", -1.0)])
    with pytest.raises(ValueError, match="log_probs"):
        viterbi_segment("a", {})
    with pytest.raises(ValueError, match="log_probs"):
        viterbi_segment("a", {"a": 0.5})  # a log probability is <= 0
    with pytest.raises(ValueError, match="log_probs"):
        viterbi_segment("a", {"a": float("nan")})
    with pytest.raises(ValueError, match="cannot be written"):
        viterbi_segment("abd", {"a": -1.0, "b": -1.0})


def test_check_log_probs_accepts_log_probabilities_and_names_what_is_wrong():
    assert check_log_probs({"a": -1, "ab": -0.5}) == {"a": -1.0, "ab": -0.5}
    with pytest.raises(TypeError, match="log_probs must be a mapping"):
        check_log_probs([("a", -1.0)])
    with pytest.raises(ValueError, match="must not be empty"):
        check_log_probs({})
    with pytest.raises(ValueError, match=r"log_probs\['a'\] must be a finite log probability"):
        check_log_probs({"a": 0.5})
    with pytest.raises(ValueError, match="non-empty strings"):
        check_log_probs({"": -1.0})


def test_the_brute_force_enumerates_every_segmentation_once():
    assert sorted(segmentations("abc")) == sorted([["abc"], ["a", "bc"], ["ab", "c"], ["a", "b", "c"]])
    assert list(segmentations("x")) == [["x"]] and len(list(segmentations("abcdef"))) == 2**5
