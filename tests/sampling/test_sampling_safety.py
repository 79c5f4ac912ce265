"""The filter that picks which generated sample a page shows."""

from __future__ import annotations

import codecs
import re

import pytest

from nlp_helpers.sampling.safety import first_inoffensive, is_offensive

# Two listed words, spelt here ROT13 like the module's list, decoded for the test.
SWEAR, SLUR = codecs.decode("shpx", "rot13"), codecs.decode("juber", "rot13")


def test_whole_words_in_any_case_are_caught():
    assert is_offensive(f"What the {SWEAR.upper()} is this")
    assert is_offensive(f"a {SLUR}.")
    assert not is_offensive("Scunthorpe is a town")  # a listed word inside another word is not the word
    assert not is_offensive("")


def test_the_first_clean_sample_is_shown():
    assert first_inoffensive([f"{SWEAR} off", "Once upon a time", "later"]) == "Once upon a time"
    assert first_inoffensive(["clean"]) == "clean"


@pytest.mark.parametrize(
    ("texts", "error", "words"),
    [
        ([], ValueError, "at least one"),
        ([f"{SWEAR}", f"x {SLUR}"], ValueError, "all 2 texts"),
        (["ok", 3], TypeError, "texts[1]"),
        (["ok", None], TypeError, "texts[1]"),
    ],
)
def test_bad_input_is_named(texts, error, words):
    with pytest.raises(error, match=re.escape(words)):
        first_inoffensive(texts)


def test_is_offensive_rejects_non_text():
    with pytest.raises(TypeError, match="text must be a str"):
        is_offensive(b"bytes")
