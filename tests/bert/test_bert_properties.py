"""Laws that must hold for every input (hypothesis), for the BERT chapter's helpers.

Settings and strategies are shared (``tests/strategies.py``): 50 derandomized examples per law.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from nlp_helpers.bert.mlm import IGNORE_INDEX, mask_tokens
from nlp_helpers.bert.wordpiece import (
    SPECIAL_TOKENS,
    basic_tokenize,
    wordpiece_tokenize,
)
from tests.strategies import PROPERTY, UNICODE_TEXT, bert_vocab, visible_text


@PROPERTY
@given(UNICODE_TEXT, st.booleans())
def test_wordpiece_keeps_every_non_whitespace_character_or_says_unk(text, lowercase):
    """Pieces of a word concatenate (without ``##``) back to the word, or the whole word is [UNK]."""
    vocab = bert_vocab()
    if not lowercase:  # without case folding and accent stripping no character is changed at all
        assert "".join(basic_tokenize(text, lowercase=False)) == visible_text(text)
    specials = [s for s in SPECIAL_TOKENS if s in vocab]
    words = basic_tokenize(text, lowercase=lowercase, special_tokens=specials)
    tokens = wordpiece_tokenize(text, vocab, lowercase=lowercase)
    i = 0
    for word in words:
        if word in specials or tokens[i] == "[UNK]":
            assert tokens[i] == word or tokens[i] == "[UNK]"
            i += 1
            continue
        piece, i = tokens[i], i + 1
        while i < len(tokens) and tokens[i].startswith("##"):
            piece, i = piece + tokens[i][2:], i + 1
        assert piece == word
    assert i == len(tokens)


@PROPERTY
@given(
    arrays(np.int64, st.tuples(st.integers(1, 3), st.integers(1, 8)), elements=st.integers(0, 9)),
    st.floats(0.0, 1.0),
    st.integers(0, 2**32 - 1),
)
def test_masked_lm_corruption_only_touches_selected_ordinary_tokens(ids, p, seed):
    special = [0, 1]
    inputs, labels = mask_tokens(ids, 10, 9, special, np.random.default_rng(seed), p)
    selected = labels != IGNORE_INDEX
    np.testing.assert_array_equal(labels[selected], ids[selected])
    np.testing.assert_array_equal(inputs[~selected], ids[~selected])  # unselected tokens are never changed
    assert not np.isin(ids[selected], special + [9]).any()  # special tokens are never chosen
