"""Word tokenization, normalization and Heaps' law (nlp_helpers.words.words).

References: nltk's TreebankWordTokenizer (Penn Treebank rules), nltk's PorterStemmer
with the examples of Porter (1980), the token counts the TF-IDF table of the lecture notes
implies (its TF column is 1/8, 1/13, 1/21, 1/23), and a synthetic corpus whose
vocabulary grows exactly as k N^b.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.tokenize import TreebankWordTokenizer

from nlp_helpers.words import words as tk
from nlp_helpers.words.words import (
    case_fold,
    heaps_law_fit,
    is_punctuation,
    lemmatize,
    merged_forms,
    stem,
    vocabulary_growth,
    word_spans,
    word_tokenize,
)

NOTES_DOCS = [
    "There are many popular restaurants nearby this church.",
    "Some restaurants offer breakfasts as early as 6:00 am to provide for prayers.",
    '"The price and taste are all good.", said one prayer who has been a frequent visitor to this church since 1998.',
    "However, Covid-19 has forced some restaurants to shut down for lack of revenue during the pandemic, "
    "and many prayers are complained about it.",
]


# --------------------------------------------------------------------------- seed examples
def test_lecture_notes_token_counts_match_the_tf_column():
    # The lecture notes' TF of a once-occurring word is 0.125, 0.0769..., 0.0476..., 0.0434...
    counts = [len(word_tokenize(d, keep_punct=False)) for d in NOTES_DOCS]
    assert counts == [8, 13, 21, 23]
    assert [1 / c for c in counts] == pytest.approx(
        [0.125, 0.07692307692307693, 0.047619047619047616, 0.043478260869565216]
    )


def test_lecture_notes_question_sentence():
    assert word_tokenize("What restaurants are nearby?") == ["What", "restaurants", "are", "nearby", "?"]
    assert word_tokenize("What restaurants are nearby?", keep_punct=False) == ["What", "restaurants", "are", "nearby"]


@pytest.mark.parametrize(
    "unit",
    [
        "6:00",
        "$45.55",
        "01/01/2020",
        "Covid-19",
        "abc@xyz.com",
        "1998",
        "U.S.A.",
        "https://example.com/a?b=1",
        "1,000,000",
        "3.5",
        "19-year-old",
    ],
)
def test_units_the_seeds_name_stay_whole(unit):
    assert word_tokenize(f"See {unit} here, please.") == ["See", unit, "here", ",", "please", "."]


def test_url_and_email_lose_their_trailing_punctuation():
    assert word_tokenize("Mail abc@xyz.com.") == ["Mail", "abc@xyz.com", "."]
    assert word_tokenize("(see https://ex.org/x).") == ["(", "see", "https://ex.org/x", ")", "."]


def test_clitics_split_penn_treebank_style():
    assert word_tokenize("I don't know; they'll see John's car. I'm sure we've won't.") == [
        "I",
        "do",
        "n't",
        "know",
        ";",
        "they",
        "'ll",
        "see",
        "John",
        "'s",
        "car",
        ".",
        "I",
        "'m",
        "sure",
        "we",
        "'ve",
        "wo",
        "n't",
        ".",
    ]
    assert word_tokenize("DON'T") == ["DO", "N'T"]
    assert word_tokenize("O'Neil's rock'n'roll") == ["O'Neil", "'s", "rock'n'roll"]


TREEBANK_SENTENCES = [
    "There are many popular restaurants nearby this church.",
    '"The price and taste are all good," said one prayer who has been a frequent visitor since 1998.',
    "However, Covid-19 has forced some restaurants to shut down during the pandemic, and many prayers complained.",
    "I don't think they'll come, and she can't either.",
    "It's John's car (the red one) and we're sure you've seen it!",
    "Mr. Smith paid 3.5% of 1,000,000 people on 01/01/2020; nobody won't complain?",
    "The state-of-the-art model couldn't parse O'Neil's sentence -- really...",
    'He said: "I\'m NOT happy" and left.',
    "Don't WON'T Can't isn't aren't wouldn't.",
]


@pytest.mark.parametrize("sentence", TREEBANK_SENTENCES)
def test_matches_nltk_treebank_tokenizer_on_single_sentences(sentence):
    # nltk rewrites double quotes as `` and ''; we keep the quote character.
    reference = [{"``": '"', "''": '"'}.get(t, t) for t in TreebankWordTokenizer().tokenize(sentence)]
    assert word_tokenize(sentence) == reference


def test_differs_from_treebank_where_documented():
    # PTB splits the currency sign and, on unsplit text, leaves sentence-internal periods attached.
    text = "It costs $45.55. Good."
    assert TreebankWordTokenizer().tokenize(text) == ["It", "costs", "$", "45.55.", "Good", "."]
    assert word_tokenize(text) == ["It", "costs", "$45.55", ".", "Good", "."]


def test_keep_punct_and_lowercase():
    text = "Hello, World... It's $5!"
    assert word_tokenize(text, keep_punct=False) == ["Hello", "World", "It", "'s", "$5"]
    assert word_tokenize(text, lowercase=True) == ["hello", ",", "world", "...", "it", "'s", "$5", "!"]
    assert word_tokenize("Straße", lowercase=True) == ["strasse"]


def test_chinese_text_is_not_segmented_by_a_whitespace_tokenizer():
    assert word_tokenize("談到貿易戰的長遠影響，林行止表示") == ["談到貿易戰的長遠影響", "，", "林行止表示"]


@settings(max_examples=200, deadline=None, database=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60))
def test_spans_cover_every_non_space_character(text):
    spans = word_spans(text)
    tokens = word_tokenize(text)
    assert [text[s:e] for s, e in spans] == tokens
    assert all(t for t in tokens)
    # Only whitespace lies outside the tokens, and tokens never overlap.
    covered = np.zeros(len(text), bool)
    for s, e in spans:
        assert not covered[s:e].any()
        covered[s:e] = True
    assert all(ch.isspace() for ch, c in zip(text, covered) if not c)


def test_is_punctuation():
    assert is_punctuation(",") and is_punctuation("...") and is_punctuation("$") and is_punctuation("«")
    assert not is_punctuation("$5") and not is_punctuation("n't") and not is_punctuation("")


@pytest.mark.parametrize("bad", [None, 3, b"bytes", ["a list"]])
def test_word_tokenize_rejects_non_strings(bad):
    with pytest.raises(TypeError, match="text"):
        word_tokenize(bad)


def test_word_tokenize_rejects_non_bool_flags():
    with pytest.raises(TypeError, match="keep_punct"):
        word_tokenize("a b", keep_punct="no")
    with pytest.raises(TypeError, match="lowercase"):
        word_tokenize("a b", lowercase=1)


def test_empty_text_has_no_tokens():
    assert word_tokenize("") == [] and word_tokenize("   \n\t") == []


# --------------------------------------------------------------------------- normalization
def test_porter_stemmer_on_porters_examples():
    # Porter (1980), "An algorithm for suffix stripping", steps 1a-1b and 2.
    words = ["caresses", "ponies", "cats", "feed", "agreed", "plastered", "motoring", "relational", "conditional"]
    assert stem(words) == ["caress", "poni", "cat", "feed", "agre", "plaster", "motor", "relat", "condit"]


def test_lemmatize_uses_the_exceptions_the_rules_and_leaves_unknown_words():
    assert lemmatize(["Mice", "were", "better", "running", "tokenizers"]) == [
        "mouse",
        "be",
        "good",
        "run",
        "tokenizers",
    ]
    assert lemmatize(["cats"], table={"cats": "cat"}) == ["cat"]
    with pytest.raises(TypeError, match="table"):
        lemmatize(["a"], table=["not", "a", "mapping"])


def test_case_folding_loses_the_distinctions_the_notes_warn_about():
    tokens = word_tokenize("The US said it would help us. I am NOT happy, not at all.")
    lost = merged_forms(tokens, case_fold)
    assert lost == {"not": ["NOT", "not"], "us": ["US", "us"]}
    assert merged_forms(["a", "b"], case_fold) == {}


def test_merged_forms_checks_its_normalizer():
    with pytest.raises(TypeError, match="normalizer"):
        merged_forms(["a"], "lower")
    with pytest.raises(ValueError, match="normalizer returned"):
        merged_forms(["a", "b"], lambda toks: toks[:1])
    with pytest.raises(TypeError, match="tokens"):
        case_fold("a single string")
    with pytest.raises(TypeError, match="tokens"):
        stem(["ok", 3])


# --------------------------------------------------------------------------- Heaps' law
def _heaps_corpus(k: float, b: float, n: int) -> list[str]:
    """Tokens whose vocabulary after N tokens is exactly ceil(k N^b) (capped at N)."""
    tokens, types = [], 0
    for i in range(1, n + 1):
        if types < min(i, math.ceil(k * i**b)):
            types += 1
            tokens.append(f"w{types}")
        else:
            tokens.append("w1")
    return tokens


@pytest.mark.parametrize("k,b", [(5.0, 0.7), (20.0, 0.5), (2.0, 0.8)])
def test_heaps_law_fit_recovers_a_known_law(k, b):
    fit = heaps_law_fit(_heaps_corpus(k, b, 200_000), min_tokens=1000)
    assert fit.b == pytest.approx(b, abs=0.01)
    assert fit.k == pytest.approx(k, rel=0.05)
    assert fit.r2 > 0.999
    assert np.all(np.diff(fit.n_tokens) > 0) and fit.n_tokens[-1] == 200_000
    assert fit.predict(1e6) == pytest.approx(fit.k * 1e6**fit.b)


def test_vocabulary_growth_counts_types():
    assert vocabulary_growth(["a", "b", "a", "c", "b"]).tolist() == [1, 2, 2, 3, 3]


def test_heaps_law_fit_bad_input():
    with pytest.raises(ValueError, match="tokens"):
        heaps_law_fit([])
    with pytest.raises(ValueError, match="at least 200 tokens"):
        heaps_law_fit(["a"] * 150)
    with pytest.raises(ValueError, match="num_points"):
        heaps_law_fit(["a"] * 500, num_points=1)
    with pytest.raises(TypeError, match="min_tokens"):
        heaps_law_fit(["a"] * 500, min_tokens=1.5)


def test_module_exports_only_its_own_names():
    # __all__ lists what the module defines: the subword tools belong to the next chapter and are not re-exported.
    assert set(tk.__all__) <= set(dir(tk))
    assert all(getattr(tk, name).__module__ == tk.__name__ for name in tk.__all__ if callable(getattr(tk, name)))
    assert not {"BPE", "pretokenize", "max_match", "edit_distance"} & set(dir(tk))
