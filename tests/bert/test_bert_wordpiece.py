"""WordPiece from scratch (nlp_helpers.bert.wordpiece) against BERT's real tokenizers.

References, on the same inputs: the Rust ``tokenizers`` pipeline of all-MiniLM-L6-v2
(``tokenizer.json``: BertNormalizer + BertPreTokenizer + WordPiece) and Hugging Face's
pure-Python ``BertTokenizerLegacy`` (a port of Google's ``tokenization.py``) built from
the same ``vocab.txt``. Tokens must be identical; there is no tolerance.
"""

from __future__ import annotations

import functools
import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nlp_helpers.bert.minilm import minilm_path
from nlp_helpers.bert.wordpiece import (
    basic_tokenize,
    clean_text,
    encode,
    load_vocab,
    pad_batch,
    space_cjk,
    split_punctuation,
    strip_accents,
    wordpiece_tokenize,
    wordpiece_word,
)
from nlp_helpers.data.corpora import lee_background, lee_documents, pang_lee_polarity

HARD_CASES = [
    "Héllo wörld! 3.14159 naïve café ☃ \u0000x",
    "São Paulo, Zürich & Kraków — €100.50 (approx.)",
    "İstanbul ǅemal ß ẞ Ω ﬁ ligature Ⅻ ½ ²",
    "e\u0301 vs é, a\u030a vs å",
    "tab\there\nnewline\r\u00a0nbsp\u2028line sep\u3000ideographic space",
    "emoji 😀👍🏽 family 👨‍👩‍👧 and \u200b zero width \ufeff bom",
    "日本語のテキストと한국어, 中文：你好！",
    "a[MASK]b [CLS] x [SEP] [mask] [PAD][UNK]",
    "x" * 101 + " ok " + "y" * 100,
    'don\'t "quote" «guillemets» ‘single’ „low“',
    "$5 ^caret` backtick ~tilde | pipe \\ backslash",
    "１２３ full-width ＡＢＣ！",
    "Ελληνικά Русский עברית العربية हिन्दी ไทย",
    "\ufffd replacement \x7f del \x1b esc \x85 nel",
    "¿Qué? ¡Sí! Ça va… — – -",
    "2,000,000 1e-5 3/4 50% #hashtag @user http://x.org/a?b=c&d=e",
    "   leading and trailing   ",
    "",
    "UNAFFABLE Unaffable unaffable",
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
]


@functools.lru_cache(maxsize=1)
def _vocab() -> dict[str, int]:
    return load_vocab(minilm_path() / "vocab.txt")


@functools.lru_cache(maxsize=1)
def _rust():
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(minilm_path() / "tokenizer.json"))
    tok.no_padding()  # the file pads to 128 by default
    tok.no_truncation()
    return tok


@pytest.fixture(scope="module")
def vocab() -> dict[str, int]:
    return _vocab()


@pytest.fixture(scope="module")
def rust():
    return _rust()


@pytest.fixture(scope="module")
def hf_tokenizer():
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(minilm_path(), local_files_only=True)


@functools.lru_cache(maxsize=1)
def _legacy():
    from transformers.models.bert import BertTokenizerLegacy

    return BertTokenizerLegacy.from_pretrained(minilm_path(), local_files_only=True)


@pytest.fixture(scope="module")
def legacy():
    return _legacy()


def parity_sentences() -> list[str]:
    news = [s for doc in lee_background() + lee_documents() for s in re.split(r"(?<=[.!?])\s+", doc) if s]
    reviews = pang_lee_polarity()["text"].tolist()
    return news[::4] + reviews[::2] + HARD_CASES  # ~800 varied texts


# --------------------------------------------------------------------------- reference parity
def test_vocab_file_has_bert_size_and_special_ids(vocab):
    assert len(vocab) == 30522
    assert [vocab[t] for t in ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")] == [0, 100, 101, 102, 103]


def test_equal_to_rust_tokenizer_on_many_sentences(vocab, rust):
    texts = parity_sentences()
    assert len(texts) > 700
    diffs = [(t, wordpiece_tokenize(t, vocab), rust.encode(t, add_special_tokens=False).tokens) for t in texts]
    diffs = [d for d in diffs if d[1] != d[2]]
    assert diffs == []


def test_equal_to_python_reference_tokenizer(vocab, legacy):
    texts = parity_sentences()
    diffs = [t for t in texts if wordpiece_tokenize(t, vocab) != legacy.tokenize(t)]
    assert diffs == []


def test_basic_tokenizer_equals_reference_basic_tokenizer():
    from transformers.models.bert.tokenization_bert_legacy import BasicTokenizer

    ref = BasicTokenizer(do_lower_case=True)
    for text in HARD_CASES:
        assert basic_tokenize(text) == ref.tokenize(text), text
    ref_cased = BasicTokenizer(do_lower_case=False)
    for text in HARD_CASES:
        assert basic_tokenize(text, lowercase=False) == ref_cased.tokenize(text), text


# The Rust crate's Unicode tables are older than Python's: for characters added in recent Unicode
# versions (e.g. U+07FD, an NKo mark of Unicode 11), unassigned code points, and the CJK block
# U+2B820-U+2B91F (a typo in its range list) it disagrees with Google's Python reference, which we
# follow (see the exhaustive test below). Random text for the Rust comparison therefore uses
# characters that Unicode 3.2 already assigned, from Latin/Greek/Cyrillic/Hebrew/Arabic with
# combining marks, general punctuation, CJK ideographs and Hangul syllables.
_OLD_BLOCKS = st.one_of(
    st.characters(max_codepoint=0x07BF),
    st.characters(min_codepoint=0x2000, max_codepoint=0x206F),
    st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),
    st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3),
).filter(lambda c: unicodedata.ucd_3_2_0.category(c) != "Cn")


@settings(max_examples=300, deadline=None)
@given(st.lists(_OLD_BLOCKS, max_size=40).map("".join))
def test_property_equal_to_rust_tokenizer_on_random_text(text):
    assert wordpiece_tokenize(text, _vocab()) == _rust().encode(text, add_special_tokens=False).tokens


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_property_equal_to_python_reference_on_any_unicode(text):
    assert wordpiece_tokenize(text, _vocab()) == _legacy().tokenize(text)


@pytest.mark.slow
def test_every_code_point_equals_python_reference():
    vocab, legacy = _vocab(), _legacy()
    code_points = [cp for cp in [*range(0x30000), *range(0xE0000, 0xE0080)] if not 0xD800 <= cp <= 0xDFFF]
    bad = [
        hex(cp)
        for cp in code_points
        if wordpiece_tokenize(f"a{chr(cp)}b {chr(cp)}", vocab) != legacy.tokenize(f"a{chr(cp)}b {chr(cp)}")
    ]
    assert bad == []


def test_encode_single_and_pair_equal_huggingface(vocab, hf_tokenizer):
    tokenizer = hf_tokenizer
    a = "The trophy does not fit into the suitcase because it is too big."
    b = "It is too big."
    for first, second in [(a, None), (a, b), ("Café, naïve?", "日本")]:
        ours = encode(first, vocab, second)
        ref = tokenizer(first, second)
        assert ours["input_ids"] == ref["input_ids"]
        assert ours["token_type_ids"] == ref["token_type_ids"]
        assert ours["attention_mask"] == ref["attention_mask"]


@pytest.mark.parametrize("max_length", [4, 5, 6, 7, 8, 9, 10, 11, 13, 16, 40])
def test_truncation_equals_huggingface_longest_first(vocab, hf_tokenizer, max_length):
    tokenizer = hf_tokenizer
    pairs = [
        ("one two three four five six", "seven eight nine ten eleven twelve"),
        ("Short one.", "A much longer second sentence that goes on and on and on."),
        ("A long first sentence with many many words in it, really.", "Tiny."),
        ("Equal length a b", "c d e f"),
    ]
    for a, b in pairs:
        ours = encode(a, vocab, b, max_length=max_length)
        ref = tokenizer(a, b, truncation=True, max_length=max_length)
        assert ours["input_ids"] == ref["input_ids"], (a, b, max_length)
        assert ours["token_type_ids"] == ref["token_type_ids"]
    ours = encode(pairs[1][1], vocab, max_length=max_length)
    assert ours["input_ids"] == tokenizer(pairs[1][1], truncation=True, max_length=max_length)["input_ids"]


def test_pad_batch_equals_huggingface_padding(vocab, hf_tokenizer):
    tokenizer = hf_tokenizer
    texts = ["Let's stick to statistics.", "The dog gets the stick.", "Sticks and stones may break my bones!", "Hi"]
    ours = pad_batch([encode(t, vocab) for t in texts])
    ref = tokenizer(texts, padding=True)
    for key in ("input_ids", "token_type_ids", "attention_mask"):
        assert ours[key] == ref[key], key


# --------------------------------------------------------------------------- hand-worked cases
def test_greedy_longest_match_first_by_hand():
    # Google's tokenization.py docstring: "unaffable" -> ["un", "##aff", "##able"].
    vocab = {"un": 0, "##aff": 1, "##able": 2, "##a": 3, "##ff": 4, "##ble": 5, "unaff": 6, "[UNK]": 7}
    assert wordpiece_word("unaffable", vocab) == ["unaff", "##able"]  # the longest prefix wins
    del vocab["unaff"]
    assert wordpiece_word("unaffable", vocab) == ["un", "##aff", "##able"]
    assert wordpiece_word("unaffablez", vocab) == ["[UNK]"]  # one failure: the whole word is unknown
    assert wordpiece_word("aff", vocab) == ["[UNK]"]  # "##aff" cannot start a word


def test_long_words_become_one_unk():
    vocab = {"a": 0, "##a": 1, "[UNK]": 2}
    assert wordpiece_word("a" * 100, vocab) == ["a"] + ["##a"] * 99
    assert wordpiece_word("a" * 101, vocab) == ["[UNK]"]
    assert wordpiece_word("aaa", vocab, max_chars=2) == ["[UNK]"]


def test_basic_steps_by_hand():
    assert clean_text("a\x00b\x07c\td\u00a0e\ufffd") == "abc d e"
    assert space_cjk("ab東京c") == "ab 東  京 c"
    assert strip_accents("Çafé naïve Ångström") == "Cafe naive Angstrom"
    assert split_punctuation("isn't...") == ["isn", "'", "t", ".", ".", "."]
    assert split_punctuation("$5^") == ["$", "5", "^"]  # ASCII symbols count as punctuation
    assert basic_tokenize("Héllo, Wörld!") == ["hello", ",", "world", "!"]
    assert basic_tokenize("Héllo", lowercase=False) == ["Héllo"]
    assert basic_tokenize("a[MASK]b", special_tokens=["[MASK]"]) == ["a", "[MASK]", "b"]
    assert basic_tokenize("a[MASK]b") == ["a", "[", "mask", "]", "b"]


# --------------------------------------------------------------------------- bad input
def test_bad_input_gives_clear_errors(vocab, tmp_path):
    with pytest.raises(TypeError, match="text"):
        wordpiece_tokenize(42, vocab)
    with pytest.raises(ValueError, match="vocab must not be empty"):
        wordpiece_tokenize("hi", {})
    with pytest.raises(ValueError, match="unk_token"):
        wordpiece_tokenize("hi", {"hi": 0})
    with pytest.raises(ValueError, match="word"):
        wordpiece_word("", vocab)
    with pytest.raises(TypeError, match="vocab"):
        wordpiece_word("hi", ["hi"])
    with pytest.raises(ValueError, match="max_length"):
        encode("hi", vocab, "there", max_length=3)
    with pytest.raises(ValueError, match=r"\[CLS\]"):
        encode("hi", {"hi": 0, "[UNK]": 1})
    with pytest.raises(ValueError, match="encodings must not be empty"):
        pad_batch([])
    with pytest.raises(TypeError, match=r"encodings\[1\]"):
        pad_batch([encode("hi", vocab), [1, 2]])
    with pytest.raises(FileNotFoundError, match="vocab.txt"):
        load_vocab(tmp_path / "missing.txt")
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match="no vocabulary entries"):
        load_vocab(tmp_path / "empty.txt")
