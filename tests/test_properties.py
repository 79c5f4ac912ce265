"""Laws that must hold for *every* input, checked with hypothesis across the whole nlp_helpers package.

The chapter tests (``tests/test_<module>.py``) compare each helper with a reference library on
chosen inputs; here hypothesis generates the inputs and each test asserts a law that holds for
all of them: probabilities sum to 1 (also for logits of +-1e30 and beyond), decoding undoes
encoding for any Unicode text, attention rows sum to 1 (or are all zero when every key is
masked), n-gram distributions sum to 1 and perplexity is >= 1, cosine lies in [-1, 1], edit
distance is a metric, and quantities that are invariant to scaling stay invariant near the
limits of float64.

Every test runs 50 examples, derandomized and without the example database, so CI sees the same
examples on every run.
"""

from __future__ import annotations

import math
import unicodedata
from functools import cache, lru_cache

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from nlp_helpers.attention import self_attention as A
from nlp_helpers.attention.positional import alibi_bias
from nlp_helpers.attention.transformer import layer_norm
from nlp_helpers.bert.mlm import IGNORE_INDEX, mask_tokens
from nlp_helpers.bert.topics import c_tf_idf_from_counts
from nlp_helpers.bert.wordpiece import (
    SPECIAL_TOKENS,
    basic_tokenize,
    clean_text,
    load_vocab,
    wordpiece_tokenize,
)
from nlp_helpers.ngram.models import SMOOTHINGS, NGramLM, StupidBackoff
from nlp_helpers.sampling import distributions as S
from nlp_helpers.sampling.generate import distinct_n, repetition_rate
from nlp_helpers.sampling.tinygpt import CharTokenizer
from nlp_helpers.tfidf.cooccurrence import pmi
from nlp_helpers.tfidf.similarity import cosine_similarity
from nlp_helpers.tfidf.weighting import TfIdf
from nlp_helpers.tokenization.bpe import BPE, pretokenize
from nlp_helpers.tokenization.edit_distance import edit_distance
from nlp_helpers.widgets.attention import transform_weights
from nlp_helpers.word2vec.corpus import keep_probabilities, noise_distribution
from nlp_helpers.word2vec.fasttext import char_ngrams
from nlp_helpers.word2vec.softmax import softmax as w2v_softmax

# Fast and reproducible: 50 examples, the same ones on every run, nothing stored between runs.
PROPERTY = settings(
    max_examples=50,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

# ------------------------------------------------------------------------------ strategies
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


# ------------------------------------------------------------------------------ sampling
@PROPERTY
@given(
    logits(),
    TEMPERATURE,
    st.one_of(st.none(), st.integers(1, 20)),
    st.one_of(st.none(), st.floats(1e-6, 1.0)),
    st.one_of(st.none(), st.floats(0.0, 1.0)),
)
def test_filtered_probs_are_a_distribution_even_for_huge_logits(x, t, k, p, mp):
    """Every filter chain, every temperature (0 = greedy), logits up to 1.5e308: non-negative, sums to 1, no NaN."""
    probs = S.filtered_probs(x, t, k, p, mp)
    assert np.isfinite(probs).all()
    assert (probs >= 0).all() and probs.sum() == pytest.approx(1.0, abs=1e-12)
    assert probs[np.argmax(x)] > 0  # the most likely token always survives
    assert (probs[np.isneginf(x)] == 0).all()  # a removed token never comes back
    soft = S.softmax(x, t)
    assert np.isfinite(soft).all() and soft.sum() == pytest.approx(1.0, abs=1e-12)


@PROPERTY
@given(
    logits(),
    st.floats(1e-3, 5.0),
    st.one_of(st.none(), st.integers(1, 20)),
    st.one_of(st.none(), st.floats(1e-6, 1.0)),
    st.integers(0, 2**32 - 1),
)
def test_a_sampled_token_is_always_a_valid_id_with_nonzero_probability(x, t, k, p, seed):
    token = S.sample(x, t, k, p, generator=seed)
    assert 0 <= token < x.size
    assert S.filtered_probs(x, t, k, p)[token] > 0


@PROPERTY
@given(
    logits(max_v=10, allow_neg_inf=False).filter(lambda x: np.abs(x).max() <= 50),
    st.floats(-1e3, 1e3),
    st.floats(0.05, 5.0),
    st.integers(1, 12),
    st.floats(0.01, 1.0),
)
def test_probabilities_do_not_change_when_every_logit_is_shifted(x, shift, t, k, p):
    """softmax(z + c) = softmax(z): the filters compare logits and probabilities, never absolute values."""
    np.testing.assert_allclose(S.filtered_probs(x + shift, t, k, p), S.filtered_probs(x, t, k, p), atol=1e-9)


@PROPERTY
@given(logits(max_v=15), st.integers(1, 20), st.floats(1e-3, 1.0), st.floats(0.0, 1.0))
def test_top_k_and_min_p_are_idempotent_and_top_p_never_brings_a_token_back(x, k, p, mp):
    """Top-k and min-p filter twice = once (min-p compares probability *ratios*, which renormalising keeps).

    Top-p is not idempotent: renormalised survivors are more likely, so a second pass may cut the
    nucleus further; but it can never re-admit a removed token.
    """
    for f in (lambda z: S.top_k_filter(z, k), lambda z: S.min_p_filter(z, mp)):
        once = f(x)
        np.testing.assert_array_equal(np.isfinite(f(once)), np.isfinite(once))
    once = np.isfinite(S.top_p_filter(x, p))
    twice = np.isfinite(S.top_p_filter(S.top_p_filter(x, p), p))
    assert not (twice & ~once).any() and twice.any()


@PROPERTY
@given(logits(max_v=15, allow_neg_inf=False).filter(lambda x: np.abs(x).max() <= 50))
def test_entropy_lies_between_zero_and_log_v(x):
    h = S.entropy(S.softmax(x))
    assert -1e-12 <= h <= math.log(x.size) + 1e-9
    assert S.entropy(S.softmax(x, 0.0)) == pytest.approx(math.log(np.sum(x == x.max())))  # uniform over the maxima


# ------------------------------------------------------------------------------ BPE and WordPiece
@lru_cache(maxsize=1)
def unicode_bpe() -> BPE:
    """A BPE trained on the snippets, so merges of CJK, accents, emoji and RTL characters are exercised too."""
    corpus = [" ".join(SNIPPETS * 3), "中文 語言 模型 שלום עולם مرحبا بالعالم café naïve 👩\u200d💻👍🏽 e\u0301e\u0301"]
    return BPE.train(corpus, 60)


@PROPERTY
@given(UNICODE_TEXT)
def test_bpe_decode_undoes_encode_for_any_unicode(text):
    bpe = unicode_bpe()
    tokens = bpe.encode(text)
    assert bpe.decode(tokens) == text
    assert bpe.decode_ids(bpe.encode_ids(text)) == text
    assert "".join(pretokenize(text)) == text
    assert all(t in bpe.vocab for t in tokens)


@lru_cache(maxsize=1)
def bert_vocab() -> dict[str, int]:
    from nlp_helpers.bert.minilm import minilm_path

    return load_vocab(minilm_path() / "vocab.txt")


def _visible(text: str) -> str:
    """The characters BERT keeps: cleaned (no control characters), composed (NFC), whitespace removed."""
    return "".join(ch for ch in unicodedata.normalize("NFC", clean_text(text)) if not ch.isspace())


@PROPERTY
@given(UNICODE_TEXT, st.booleans())
def test_wordpiece_keeps_every_non_whitespace_character_or_says_unk(text, lowercase):
    """Pieces of a word concatenate (without ``##``) back to the word, or the whole word is [UNK]."""
    vocab = bert_vocab()
    if not lowercase:  # without case folding and accent stripping no character is changed at all
        assert "".join(basic_tokenize(text, lowercase=False)) == _visible(text)
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
@given(st.text(st.sampled_from("abcé中🙂 \n"), min_size=1, max_size=40))
def test_char_tokenizer_round_trip(text):
    tok = CharTokenizer.from_text(text)
    assert tok.decode(tok.encode(text)) == text


@PROPERTY
@given(st.text(ANY_CHAR, min_size=1, max_size=12), st.integers(1, 4), st.integers(0, 4))
def test_char_ngram_count_follows_the_formula(word, minn, extra):
    """``<word>`` has len + 2 characters, so len + 3 - n n-grams of each length n it can hold."""
    maxn = minn + extra
    L = len(word) + 2
    assert len(char_ngrams(word, minn, maxn)) == sum(max(0, L - n + 1) for n in range(minn, maxn + 1))


# ------------------------------------------------------------------------------ attention
@st.composite
def attention_inputs(draw):
    n_q, n_k, d = draw(st.integers(1, 5)), draw(st.integers(0, 5)), draw(st.integers(1, 4))
    scale = draw(st.sampled_from([1.0, 1e3, 1e30, 1e-30]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    Q, K, V = (rng.normal(size=s) * scale for s in ((n_q, d), (n_k, d), (n_k, d)))
    mask = rng.random((n_q, n_k)) < draw(st.floats(0.0, 1.0))
    return Q, K, V, mask


@PROPERTY
@given(attention_inputs())
def test_attention_rows_sum_to_one_or_are_zero_when_fully_masked(inputs):
    """The documented convention: a query with no allowed key (or no key at all) gets zero weights and output."""
    Q, K, V, mask = inputs
    assume(np.isfinite(Q @ K.T).all() and np.abs(Q @ K.T).max(initial=0) < 1e300)
    out, w = A.scaled_dot_product_attention(Q, K, V, mask)
    assert np.isfinite(w).all() and np.isfinite(out).all()
    allowed = mask.any(axis=1)
    np.testing.assert_allclose(w.sum(axis=1)[allowed], 1.0, atol=1e-12)
    assert (w[~allowed] == 0).all() and (out[~allowed] == 0).all()
    assert (w[~mask] == 0).all()  # a masked key gets exactly zero weight


@PROPERTY
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 4), st.integers(1, 6)),
        elements=st.one_of(st.floats(-1e30, 1e30), st.just(-math.inf)),
    ),
    arrays(np.bool_, st.tuples(st.integers(1, 4), st.integers(1, 6))),
)
def test_masked_softmax_rows_sum_to_one_or_zero(scores, mask):
    assume(mask.shape == scores.shape)
    w = A.softmax(scores, mask)
    allowed = (mask & np.isfinite(scores)).any(axis=-1)
    assert np.isfinite(w).all() and (w >= 0).all()
    np.testing.assert_allclose(w.sum(axis=-1)[allowed], 1.0, atol=1e-12)
    assert (w[~allowed] == 0).all()


@PROPERTY
@given(st.integers(1, 3), st.integers(1, 4), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_every_head_of_multi_head_attention_is_a_distribution(n_heads, T, d_k, seed):
    rng = np.random.default_rng(seed)
    d_model = n_heads * d_k
    X = rng.normal(size=(2, T, d_model)) * 10
    W = [rng.normal(size=(d_model, d_model)) for _ in range(4)]
    mask = A.causal_mask(T)
    _, w = A.multi_head_attention(X, *W, n_heads, mask)
    assert w.shape == (2, n_heads, T, T)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, atol=1e-12)
    assert (w[..., ~mask] == 0).all()


@PROPERTY
@given(
    arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 5)), elements=st.floats(0, 10)),
    st.floats(0.05, 10.0),
    st.booleans(),
)
def test_attention_widget_transform_rows_sum_to_one_or_stay_zero(w, t, causal):
    if causal:
        w = np.resize(w, (w.shape[1], w.shape[1]))
    out = transform_weights(w, temperature=t, causal=causal)
    sums = out.sum(axis=-1)
    assert np.isfinite(out).all()
    assert np.all(np.isclose(sums, 1.0) | (sums == 0))


@PROPERTY
@given(st.integers(1, 6), st.integers(1, 6), st.floats(0.0, 4.0))
def test_alibi_bias_is_a_penalty_that_is_zero_on_the_diagonal(n_q, n_k, slope):
    b = alibi_bias(n_q, n_k, slope)
    assert (b <= 0).all()
    idx = np.arange(min(n_q, n_k))
    assert (b[idx, idx] == 0).all()


@PROPERTY
@given(
    arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(2, 6)), elements=st.floats(-1, 1)),
    st.sampled_from([1.0, 1e-100, 1e100, 1e300]),
)
def test_layer_norm_gives_mean_zero_and_unit_variance_at_any_scale(x, scale):
    assume(np.ptp(x, axis=-1).min() > 1e-3)  # a (nearly) constant row has no spread to normalise
    y = layer_norm(x * scale, eps=0.0)
    np.testing.assert_allclose(y.mean(axis=-1), 0.0, atol=1e-9)
    np.testing.assert_allclose(y.var(axis=-1), 1.0, atol=1e-9)
    np.testing.assert_allclose(y, layer_norm(x, eps=0.0), atol=1e-9)  # normalising removes the scale


# ------------------------------------------------------------------------------ n-gram models
WORDS = ["a", "b", "c", "d"]
SENTENCES = st.lists(st.lists(st.sampled_from(WORDS), max_size=6), min_size=1, max_size=6)


@PROPERTY
@given(
    SENTENCES.filter(lambda s: any(s)),
    st.integers(1, 3),
    st.sampled_from([s for s in SMOOTHINGS if s != "mle"]),
    st.lists(st.sampled_from([*WORDS, "zebra", "<s>"]), max_size=3),
    st.lists(st.lists(st.sampled_from([*WORDS, "zebra"]), max_size=5), min_size=1, max_size=3),
)
def test_ngram_distributions_sum_to_one_and_perplexity_is_at_least_one(train, n, smoothing, context, held_out):
    lm = NGramLM(n, smoothing).fit(train)
    dist = lm.distribution(context)
    assert dist.shape == (lm.vocab_size,)
    assert (dist >= 0).all() and dist.sum() == pytest.approx(1.0, abs=1e-9)
    logprobs = lm.token_logprobs(held_out)
    assert (logprobs <= 1e-12).all()
    assert lm.perplexity(held_out) >= 1.0 - 1e-12


@PROPERTY
@given(SENTENCES.filter(lambda s: any(s)), st.integers(1, 3), st.lists(st.sampled_from([*WORDS, "zebra"]), max_size=3))
def test_mle_distribution_sums_to_one_or_zero_and_stupid_backoff_scores_lie_in_0_1(train, n, context):
    dist = NGramLM(n, "mle").fit(train).distribution(context)
    assert dist.sum() == pytest.approx(1.0) or dist.sum() == 0.0  # 0: an unseen context, as documented
    scores = StupidBackoff(n).fit(train).scores(context)
    assert ((scores >= 0) & (scores <= 1)).all()


# ------------------------------------------------------------------------------ vectors and counts
VECTORS = arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 5)), elements=st.floats(-1e3, 1e3))


@PROPERTY
@given(VECTORS, VECTORS, st.sampled_from([1.0, 1e-200, 1e200]), st.floats(1e-3, 1e3))
def test_cosine_lies_in_minus_one_one_is_symmetric_and_scale_free(a, b, scale, factor):
    assume(a.shape[1] == b.shape[1])
    assume((np.abs(a).max(axis=1) > 1e-6).all() and (np.abs(b).max(axis=1) > 1e-6).all())
    sims = cosine_similarity(a * scale, b)
    assert sims.shape == (len(a), len(b))
    assert np.isfinite(sims).all() and (np.abs(sims) <= 1.0).all()
    np.testing.assert_allclose(sims, cosine_similarity(b, a * factor).T, atol=1e-12)
    np.testing.assert_allclose(np.diag(np.atleast_2d(cosine_similarity(a, a * scale))), 1.0, atol=1e-12)


@PROPERTY
@given(
    arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 4)), elements=st.integers(0, 20).map(float)),
    st.sampled_from([1.0, 1e-3, 1e6, 3e306]),
    st.sampled_from([0.75, 1.0]),
)
def test_ppmi_is_non_negative_and_does_not_change_when_all_counts_are_scaled(cooc, scale, alpha):
    assume(cooc.sum() > 0)
    ppmi = pmi(cooc, alpha=alpha)
    assert np.isfinite(ppmi).all() and (ppmi >= 0).all()
    np.testing.assert_allclose(pmi(cooc * scale, alpha=alpha), ppmi, atol=1e-9)


@PROPERTY
@given(
    arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 5)), elements=st.integers(1, 50).map(float)),
    st.sampled_from([1.0, 1e-3, 3e306]),
)
def test_c_tf_idf_is_finite_non_negative_and_scale_free(counts, scale):
    scores = c_tf_idf_from_counts(counts)
    assert np.isfinite(scores).all() and (scores >= 0).all()
    np.testing.assert_allclose(c_tf_idf_from_counts(counts * scale), scores, rtol=1e-9)


@PROPERTY
@given(st.lists(st.text(st.sampled_from("abcd "), min_size=1, max_size=20).filter(str.strip), min_size=1, max_size=5))
def test_l2_normalised_tfidf_rows_have_length_one_or_zero(docs):
    rows = TfIdf(tokenizer=str.split).fit_transform(docs).toarray()
    norms = np.linalg.norm(rows, axis=1)
    assert np.all(np.isclose(norms, 1.0) | (norms == 0))


@PROPERTY
@given(arrays(np.float64, st.integers(1, 10), elements=st.floats(1, 1e6)), st.floats(0.0, 100.0), st.floats(0.0, 1.0))
def test_word2vec_noise_and_subsampling_probabilities(counts, power, sample):
    p = noise_distribution(counts, power)
    assert np.isfinite(p).all() and (p >= 0).all() and p.sum() == pytest.approx(1.0)
    keep = keep_probabilities(counts, sample)
    assert np.isfinite(keep).all() and ((keep > 0) & (keep <= 1)).all()


@PROPERTY
@given(arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 6)), elements=st.floats(-1e300, 1e300)))
def test_word2vec_softmax_is_a_distribution(scores):
    p = w2v_softmax(scores)
    assert np.isfinite(p).all()
    np.testing.assert_allclose(p.sum(axis=-1), 1.0)


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


@PROPERTY
@given(st.lists(st.lists(st.integers(0, 3), max_size=8), min_size=1, max_size=4), st.integers(1, 3))
def test_distinct_n_and_repetition_rate_are_fractions(seqs, n):
    assume(any(len(s) >= n for s in seqs))
    assert 0 < distinct_n(seqs, n) <= 1
    assert 0 <= repetition_rate(seqs, n) < 1


# ------------------------------------------------------------------------------ edit distance
SEQ = st.text(st.sampled_from("abc"), max_size=7)


@PROPERTY
@given(SEQ, SEQ, SEQ)
def test_unit_cost_edit_distance_is_a_metric(a, b, c):
    d = lambda x, y: edit_distance(x, y).distance  # noqa: E731
    assert d(a, b) == d(b, a)
    assert (d(a, b) == 0) == (a == b)
    assert d(a, c) <= d(a, b) + d(b, c)
    assert abs(len(a) - len(b)) <= d(a, b) <= max(len(a), len(b))


@PROPERTY
@given(SEQ, SEQ, st.integers(0, 3), st.integers(1, 3), st.integers(1, 3))
def test_the_alignment_costs_add_up_to_the_distance(a, b, sub, ins, dele):
    res = edit_distance(a, b, sub_cost=sub, ins_cost=ins, del_cost=dele)
    assert sum(step.cost for step in res.alignment) == res.distance
    assert "".join(s.source for s in res.alignment if s.source is not None) == a
    assert "".join(s.target for s in res.alignment if s.target is not None) == b
    assert res.distance == edit_distance(b, a, sub_cost=sub, ins_cost=dele, del_cost=ins).distance  # swap roles


@PROPERTY
@given(SEQ, SEQ)
def test_edit_distance_equals_the_recursive_definition(a, b):
    """An independent memoised recursion (the definition, not the table) gives the same distance."""

    @cache
    def ref(i: int, j: int) -> int:
        if i == 0 or j == 0:
            return i + j
        return min(ref(i - 1, j) + 1, ref(i, j - 1) + 1, ref(i - 1, j - 1) + (a[i - 1] != b[j - 1]))

    assert edit_distance(a, b).distance == ref(len(a), len(b))


def test_the_profile_is_deterministic_and_small():
    """Guard the settings this file promises: derandomized, no database, at most 50 examples."""
    assert PROPERTY.derandomize and PROPERTY.database is None and PROPERTY.max_examples == 50
