"""BPE from scratch (nlp_helpers.tokenization.bpe) against Hugging Face ``tokenizers`` and the naive algorithm.

Parity with ``tokenizers.trainers.BpeTrainer``: both are trained on the *same pre-tokenized
corpus*: every chunk of :func:`pretokenize` is fed to Hugging Face as one "sequence" with no
pre-tokenizer, so both see identical word counts. Tie-breaking: BpeTrainer pops the pair with
the highest count and, among equal counts, the smallest pair of symbol ids, where ids are the
characters in code-point order followed by merged symbols in order of creation. nlp_helpers.tokenization.bpe
uses the same rule (see its docstring), so the merge lists must be identical, ties included.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, models, trainers

from nlp_helpers.data.corpora import lee_background, shakespeare_text
from nlp_helpers.seeds import seed
from nlp_helpers.tokenization.bpe import (
    BPE,
    apply_merges,
    byte_token,
    merge_pair,
    pretokenize,
    train_merges_naive,
)

UNICODE_SAMPLES = [
    "談到貿易戰的長遠影響，林行止表示貿易戰促使在中國的工廠搬遷到越南。",
    "café naïve résumé Ångström",
    "cafe\u0301 (decomposed accent) ﬁ ligature",
    "emoji 🙂👍🏽 family 👨‍👩‍👧 flag 🇨🇭",
    "tabs\tand  two spaces\r\nwindows newline \u3000ideographic space\u00a0nbsp ",
    "   leading and trailing   ",
    "日本語のテキスト、한국어 텍스트, Ελληνικά, русский, العربية",
    "<0x41> looks like a byte token",
    "",
]


def hf_merges(docs: list[str], num_merges: int, min_frequency: int = 0) -> list[tuple[str, str]]:
    chunks = [c for d in docs for c in pretokenize(d)]
    alphabet = {ch for c in chunks for ch in c}
    tok = Tokenizer(models.BPE())
    trainer = trainers.BpeTrainer(
        vocab_size=len(alphabet) + num_merges, min_frequency=min_frequency, show_progress=False
    )
    tok.train_from_iterator(chunks, trainer)
    return [tuple(m) for m in json.loads(tok.to_str())["model"]["merges"]]


@pytest.fixture(scope="module")
def lee_bpe() -> BPE:
    return BPE.train(list(lee_background()), 1000)


# --------------------------------------------------------------------------- reference parity
@pytest.mark.slow
def test_merges_equal_huggingface_bpetrainer_on_lee_news():
    docs = list(lee_background())
    ours = BPE.train(docs, 3000).merges
    assert len(ours) == 3000
    assert ours == hf_merges(docs, 3000)


def test_merges_equal_huggingface_on_shakespeare_with_min_frequency():
    docs = [shakespeare_text(["sonnets", "tempest"])]
    ours = BPE.train(docs, 5000, min_frequency=20).merges
    theirs = hf_merges(docs, 5000, min_frequency=20)
    assert 100 < len(ours) < 5000  # stopped by min_frequency, not by num_merges
    assert ours == theirs


def test_merges_equal_huggingface_on_multilingual_text():
    docs = [s for s in UNICODE_SAMPLES if s] * 3
    ours = BPE.train(docs, 500).merges
    assert ours == hf_merges(docs, 500)


def test_huggingface_trainers_own_example():
    # tokenizers/src/models/bpe/trainer.rs, test_train: min_frequency 2 gives 're', 'are', 'is'.
    words = {
        "roses": 1,
        "are": 2,
        "red": 1,
        "voilets": 1,
        "blue": 1,
        "BERT": 1,
        "is": 2,
        "big": 1,
        "and": 1,
        "so": 1,
        "GPT-2": 1,
    }
    expected = [("r", "e"), ("a", "re"), ("i", "s")]
    assert train_merges_naive(words, 100, min_frequency=2) == expected
    corpus = "\n".join(w for w, c in words.items() for _ in range(c))  # newlines never attach to a word
    assert BPE.train(corpus, 100, min_frequency=2).merges == expected


def test_encode_equals_huggingface_bpe_model(lee_bpe):
    vocab = {tok: i for tok, i in lee_bpe.vocab.items()}
    hf = Tokenizer(models.BPE(vocab=vocab, merges=list(lee_bpe.merges)))
    text = (
        "The government said on Tuesday that bushfires near Sydney had destroyed 150 homes; "
        "firefighters expect hotter weather."
    )
    chunks = pretokenize(text)
    theirs = [t for enc in hf.encode_batch(chunks) for t in enc.tokens]
    assert lee_bpe.encode(text) == theirs


def test_incremental_training_equals_naive_recount_on_hamlet():
    text = shakespeare_text("hamlet")[:30_000]
    counts = Counter(pretokenize(text))
    assert BPE.train(text, 200).merges == train_merges_naive(counts, 200)


@settings(max_examples=60, deadline=None, database=None)
@given(st.lists(st.text(alphabet="ab c\n", max_size=25), min_size=1, max_size=6), st.integers(0, 30))
def test_incremental_training_equals_naive_recount_on_random_corpora(docs, n):
    if not any(docs):
        return
    counts = Counter(c for d in docs for c in pretokenize(d))
    assert BPE.train(docs, n).merges == train_merges_naive(counts, n)


def test_jurafsky_martin_example():
    # J&M 3rd ed. section 2.5.2 (end-of-word marker "_") learns, in order:
    # er, er_, ne, new, lo, low, newer_, low_. The third merge is a tie: (n, e) and (e, w) both occur
    # 8 times; J&M take "ne", the smallest-id rule takes "ew" (e sorts before n). The segmentation
    # of every training word after the 8 merges is the same either way.
    words = {"low_": 5, "lowest_": 2, "newer_": 6, "wider_": 3, "new_": 2}
    jm = [("e", "r"), ("er", "_"), ("n", "e"), ("ne", "w"), ("l", "o"), ("lo", "w"), ("new", "er_"), ("low", "_")]
    ours = train_merges_naive(words, 8)
    assert ours[:2] == jm[:2]
    assert ours[2] == ("e", "w") and ours[3] == ("n", "ew")
    assert {a + b for a, b in ours} == {a + b for a, b in jm} - {"ne"} | {"ew"}
    assert sorted(ours[4:]) == sorted(jm[4:])
    for word in words:
        assert apply_merges(word, ours) == apply_merges(word, jm)


# --------------------------------------------------------------------------- encode / decode
def test_pretokenize_keeps_every_character():
    assert pretokenize("Hello  world, 2024!") == ["Hello", " ", " world", ",", " 2024", "!"]
    for s in UNICODE_SAMPLES:
        assert "".join(pretokenize(s)) == s


@pytest.mark.parametrize("text", UNICODE_SAMPLES)
def test_round_trip_on_unicode_text(lee_bpe, text):
    tokens = lee_bpe.encode(text)
    assert lee_bpe.decode(tokens) == text
    assert lee_bpe.decode_ids(lee_bpe.encode_ids(text)) == text


@settings(max_examples=300, deadline=None, database=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80))
def test_round_trip_property(text):
    bpe = _small_bpe()
    assert bpe.decode(bpe.encode(text)) == text


_SMALL: list[BPE] = []


def _small_bpe() -> BPE:
    if not _SMALL:
        _SMALL.append(BPE.train(["the cat sat on the mat", "the dog ate the hat"], 30))
    return _SMALL[0]


def test_unknown_characters_fall_back_to_utf8_bytes():
    bpe = _small_bpe()
    assert bpe.encode("é") == ["<0xC3>", "<0xA9>"]
    assert bpe.encode("the") == ["the"]
    assert byte_token(0xE6) == "<0xE6>"


def test_byte_like_text_cannot_become_a_merged_token():
    bpe = BPE.train("<0x41> " * 50, 100)
    assert all(not re.fullmatch(r"<0x[0-9A-F]{2}>", tok) or i < 256 for tok, i in bpe.vocab.items())
    assert bpe.decode(bpe.encode("<0x41>")) == "<0x41>"


def test_apply_merges_replays_in_order_like_encode(lee_bpe):
    text = "Firefighters battled bushfires as temperatures soared across New South Wales."
    for k in (0, 1, 10, 100, 1000):
        assert apply_merges(text, lee_bpe.merges[:k]) == BPE(lee_bpe.merges[:k], lee_bpe.alphabet).encode(text)


def test_merge_pair_scans_left_to_right():
    assert merge_pair(list("aaa"), ("a", "a"), "aa") == ["aa", "a"]
    assert merge_pair(list("abab"), ("a", "b"), "ab") == ["ab", "ab"]


def test_vocab_layout(lee_bpe):
    ids = sorted(lee_bpe.vocab.values())
    assert ids == list(range(len(lee_bpe.vocab)))
    assert lee_bpe.vocab["<0x00>"] == 0 and lee_bpe.vocab["<0xFF>"] == 255
    assert [lee_bpe.vocab[ch] for ch in lee_bpe.alphabet] == list(range(256, 256 + len(lee_bpe.alphabet)))
    assert len(lee_bpe.vocab) <= 256 + len(lee_bpe.alphabet) + len(lee_bpe.merges)


def test_num_merges_zero_gives_characters():
    bpe = BPE.train("hello world", 0)
    assert bpe.merges == [] and bpe.encode("hello") == list("hello")


def test_training_stops_when_nothing_is_left_to_merge():
    bpe = BPE.train("ab ab", 100)
    # chunks "ab" and " ab": (a, b) occurs twice, then (" ", "ab") once; then each chunk is one token.
    assert bpe.merges == [("a", "b"), (" ", "ab")]


def test_progress_bar_does_not_change_the_result():
    assert BPE.train("the cat sat", 5, progress=True).merges == BPE.train("the cat sat", 5).merges


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("corpus", ["", [], ["", ""]])
def test_empty_corpus(corpus):
    with pytest.raises(ValueError, match="corpus"):
        BPE.train(corpus, 10)


@pytest.mark.parametrize("corpus", [None, 42, ["ok", 3], [b"bytes"]])
def test_corpus_of_the_wrong_type(corpus):
    with pytest.raises(TypeError, match="corpus"):
        BPE.train(corpus, 10)


def test_bad_num_merges_and_min_frequency():
    with pytest.raises(ValueError, match="num_merges"):
        BPE.train("abc", -1)
    with pytest.raises(TypeError, match="num_merges"):
        BPE.train("abc", 2.5)
    with pytest.raises(ValueError, match="min_frequency"):
        BPE.train("abc", 2, min_frequency=0)


def test_naive_trainer_bad_input():
    with pytest.raises(TypeError, match="word_counts"):
        train_merges_naive(["low", "lower"], 3)
    with pytest.raises(ValueError, match="word_counts"):
        train_merges_naive({"low": 0}, 3)
    with pytest.raises(ValueError, match="word_counts"):
        train_merges_naive({"": 2}, 3)


def test_bad_merges():
    with pytest.raises(ValueError, match=r"merges\[1\]"):
        BPE([("a", "b"), ("abc", "d")])  # 'abc' was never built
    with pytest.raises(ValueError, match=r"merges\[0\]"):
        BPE([("a", "")])
    with pytest.raises(TypeError, match="merges"):
        BPE("ab")
    with pytest.raises(ValueError, match="alphabet"):
        BPE([], alphabet=["ab"])


def test_bad_encode_and_decode_input(lee_bpe):
    with pytest.raises(TypeError, match="text"):
        lee_bpe.encode(["not", "a", "string"])
    with pytest.raises(TypeError, match="tokens"):
        lee_bpe.decode("a string")
    with pytest.raises(ValueError, match=r"tokens\[1\]"):
        lee_bpe.decode([" the", "NOT-A-TOKEN"])
    with pytest.raises(ValueError, match="UTF-8"):
        lee_bpe.decode(["<0xE6>"])  # half of a character
    with pytest.raises(ValueError, match=r"ids\[0\]"):
        lee_bpe.decode_ids([10**6])


def test_random_documents_round_trip(lee_bpe):
    rng = random.Random(seed(0))  # 0 + $NLP_SEED_OFFSET
    alphabet = "abcdefghij ,.!?é漢🙂\n\t"
    for _ in range(50):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert lee_bpe.decode(lee_bpe.encode(text)) == text


def test_check_merges_accepts_pairs_and_names_what_is_wrong() -> None:
    from nlp_helpers.tokenization.bpe import check_merges

    assert check_merges((("l", "o"), ["lo", "w"])) == [("l", "o"), ("lo", "w")]
    with pytest.raises(TypeError, match="merges must be a sequence"):
        check_merges("lo")
    with pytest.raises((TypeError, ValueError), match=r"merges\[1\]"):
        check_merges([("l", "o"), ("x",)])


# --------------------------------------------------------------------------- GPT-2's pattern
_GPT2_PRE = None


def _hf_gpt2_chunks(text: str) -> list[str]:
    """Hugging Face's GPT-2 pre-tokenizer, its byte-level pieces mapped back to text."""
    global _GPT2_PRE
    from tokenizers import pre_tokenizers
    from transformers.convert_slow_tokenizer import bytes_to_unicode as hf_bytes_to_unicode

    if _GPT2_PRE is None:
        _GPT2_PRE = (
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
            {c: b for b, c in hf_bytes_to_unicode().items()},
        )
    pre, to_byte = _GPT2_PRE
    return [bytes(to_byte[c] for c in piece).decode("utf-8") for piece, _ in pre.pre_tokenize_str(text)]


def test_gpt2_contractions_hand_worked():
    # openai/gpt-2 encoder.py: the clitics are chunks of their own, lower case only.
    assert pretokenize("I don't think they'll come") == ["I", " don", "'t", " think", " they", "'ll", " come"]
    assert pretokenize("DON'T I'M") == ["DON", "'", "T", " I", "'", "M"]
    assert pretokenize("x  \n\n y") == ["x", "  \n\n", " y"]
    assert pretokenize("a\u0301") == ["a", "\u0301"]  # a combining accent is not \p{L}


def test_pretokenize_equals_huggingface_gpt2_pre_tokenizer():
    rng = random.Random(seed(16))
    alphabet = list("aZé ü\t\n'’0123456789.,!?-_$談到🙂\u0301") + ["'s", "'t", "'LL", "'re", "'ve", "'m", "'d", "  "]
    texts = [
        rng.choice(["", "x"]) + "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30))) for _ in range(2000)
    ]
    texts += list(lee_background())[:50]
    for text in texts:
        assert pretokenize(text) == _hf_gpt2_chunks(text), text


def test_train_from_counts_equals_the_naive_trainer_and_keeps_extra_alphabet():
    counts = Counter(c for d in list(lee_background())[:40] for c in pretokenize(d))
    bpe = BPE.train_from_counts(counts, 60, alphabet=["Ω"])
    assert bpe.merges == train_merges_naive(counts, 60)
    assert "Ω" in bpe.alphabet and bpe.encode("Ω") == ["Ω"]
    with pytest.raises(TypeError, match="word_counts"):
        BPE.train_from_counts(["a"], 3)
    with pytest.raises(TypeError, match="alphabet"):
        BPE.train_from_counts({"ab": 1}, 3, alphabet="ab")
