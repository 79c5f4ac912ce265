"""Byte-level BPE against Hugging Face: GPT-2's byte table, the same merges, the same tokens."""

from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers.convert_slow_tokenizer import bytes_to_unicode as hf_bytes_to_unicode

from nlp_helpers.data.corpora import lee_background
from nlp_helpers.tokenization.bpe import BPE
from nlp_helpers.tokenization.byte_level import ByteLevelBPE, bytes_to_unicode, from_byte_chars, to_byte_chars

TEXTS = ["I don't think, 2024!", "談到貿易戰 🙂 naïve\tcafé  \n", "", "  spaces   and\n\nlines "]


@pytest.fixture(scope="module")
def trained():
    news = list(lee_background())
    ours = ByteLevelBPE.train(news, 400)
    hf = Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    hf.train_from_iterator(
        news,
        trainers.BpeTrainer(
            vocab_size=256 + 400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
        ),
    )
    return ours, hf


def test_byte_table_equals_gpt2s():
    assert bytes_to_unicode() == hf_bytes_to_unicode()
    assert bytes_to_unicode()[32] == "Ġ" and bytes_to_unicode()[10] == "Ċ"  # hand-checked in GPT-2's vocab


def test_byte_chars_round_trip_and_match_huggingface():
    pre = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    for text in TEXTS:
        assert from_byte_chars(to_byte_chars(text)) == text
        assert "".join(p for p, _ in pre.pre_tokenize_str(text)) == to_byte_chars(text)
    assert to_byte_chars(" é") == "ĠÃ©"
    assert from_byte_chars(to_byte_chars("談")[:2]) == "\ufffd"  # a partial character, as GPT-2 decodes it


def test_merges_and_tokens_equal_huggingface(trained):
    ours, hf = trained
    assert ours.merges == [tuple(m) for m in json.loads(hf.to_str())["model"]["merges"]]
    for text in [*TEXTS, *list(lee_background())[:20]]:
        assert ours.encode(text) == hf.encode(text).tokens
        assert ours.decode(ours.encode(text)) == text


def test_bad_input_names_the_argument(trained):
    ours, _ = trained
    with pytest.raises(TypeError, match="text"):
        to_byte_chars(None)
    with pytest.raises(ValueError, match="chars"):
        from_byte_chars("a b")  # a plain space is not a byte character
    with pytest.raises(ValueError, match="errors"):
        from_byte_chars("a", errors="loud")
    with pytest.raises(TypeError, match="bpe"):
        ByteLevelBPE("merges")
    with pytest.raises(ValueError, match="bpe"):
        ByteLevelBPE(BPE([("a", " ")]))
    with pytest.raises(TypeError, match="corpus"):
        ByteLevelBPE.train(3, 5)
    with pytest.raises(TypeError, match="tokens"):
        ours.decode("abc")
