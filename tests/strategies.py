"""Shared hypothesis settings and strategies of the property tests (``tests/*/test_*_properties.py``)."""

from __future__ import annotations

import math
import unicodedata
from functools import lru_cache

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from nlp_helpers.bert.wordpiece import (
    clean_text,
    load_vocab,
)
from nlp_helpers.tokenization.bpe import BPE

# Fast and reproducible: 50 examples, the same ones on every run, nothing stored between runs.
PROPERTY = settings(
    max_examples=50,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

# Text from the scripts and features the issue names: CJK, combining accents, emoji (with
# zero-width joiners and skin tones), right-to-left scripts and direction marks, plus any
# character hypothesis likes except lone surrogates (a Python str may hold them, text may not).
SNIPPETS = [
    "中文",
    "語言模型",
    "日本語",
    "한국어",
    "e\u0301",
    "n\u0303o",
    "a\u0308\u0304",
    "café",
    "Ångström",
    "🙂",
    "👩\u200d💻",
    "👍🏽",
    "🇫🇷",
    "שלום",
    "עברית",
    "مرحبا",
    "العربية",
    "\u200f",
    "\u200e",
    "\u202b",
    " ",
    "  ",
    "\t",
    "\n",
    "x",
    "The",
    " cat",
    ",",
    "!",
    "42",
    "\u00a0",
    "\u3000",
    "ß",
    "İ",
]

ANY_CHAR = st.characters(blacklist_categories=("Cs",))

UNICODE_TEXT = st.one_of(
    st.text(ANY_CHAR, max_size=40),
    st.lists(st.sampled_from(SNIPPETS), max_size=12).map("".join),
    st.lists(st.one_of(st.sampled_from(SNIPPETS), st.text(ANY_CHAR, max_size=3)), max_size=10).map("".join),
)

# Logits over a small vocabulary, with magnitudes from 0 to 1e30 and some huge values near the
# float64 limit, and -inf for removed tokens (at least one finite entry per row).
FINITE_LOGIT = st.one_of(st.floats(-50, 50), st.sampled_from([1e30, -1e30, 1e300, -1e300, 1.5e308, -1.5e308, 0.0]))


@st.composite
def logits(draw, max_v: int = 12, allow_neg_inf: bool = True):
    v = draw(st.integers(1, max_v))
    row = draw(
        st.lists(st.one_of(FINITE_LOGIT, st.just(-math.inf)) if allow_neg_inf else FINITE_LOGIT, min_size=v, max_size=v)
    )
    if all(x == -math.inf for x in row):
        row[draw(st.integers(0, v - 1))] = draw(FINITE_LOGIT)
    return np.array(row)


TEMPERATURE = st.one_of(st.just(0.0), st.floats(1e-3, 20.0), st.sampled_from([1e-300, 1e-12, 1e12]))


@lru_cache(maxsize=1)
def unicode_bpe() -> BPE:
    """A BPE trained on the snippets, so merges of CJK, accents, emoji and RTL characters are exercised too."""
    corpus = [" ".join(SNIPPETS * 3), "中文 語言 模型 שלום עולם مرحبا بالعالم café naïve 👩\u200d💻👍🏽 e\u0301e\u0301"]
    return BPE.train(corpus, 60)


@lru_cache(maxsize=1)
def bert_vocab() -> dict[str, int]:
    from nlp_helpers.bert.minilm import minilm_path

    return load_vocab(minilm_path() / "vocab.txt")


def visible_text(text: str) -> str:
    """The characters BERT keeps: cleaned (no control characters), composed (NFC), whitespace removed."""
    return "".join(ch for ch in unicodedata.normalize("NFC", clean_text(text)) if not ch.isspace())


@st.composite
def attention_inputs(draw):
    n_q, n_k, d = draw(st.integers(1, 5)), draw(st.integers(0, 5)), draw(st.integers(1, 4))
    scale = draw(st.sampled_from([1.0, 1e3, 1e30, 1e-30]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    Q, K, V = (rng.normal(size=s) * scale for s in ((n_q, d), (n_k, d), (n_k, d)))
    mask = rng.random((n_q, n_k)) < draw(st.floats(0.0, 1.0))
    return Q, K, V, mask


WORDS = ["a", "b", "c", "d"]

SENTENCES = st.lists(st.lists(st.sampled_from(WORDS), max_size=6), min_size=1, max_size=6)

VECTORS = arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 5)), elements=st.floats(-1e3, 1e3))

SEQ = st.text(st.sampled_from("abc"), max_size=7)
