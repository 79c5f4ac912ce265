"""Tests of nlp_helpers.tfidf: the lecture notes' TF-IDF table, parity with scikit-learn / nltk, hand-worked PPMI, bad input.

References: scikit-learn's CountVectorizer/TfidfVectorizer/TruncatedSVD/cosine_similarity
(same tokenizer passed in), nltk's BigramCollocationFinder (window counts), scipy.stats,
the numbers printed in the lecture notes and in Jurafsky & Martin, *Speech and Language
Processing* (3rd ed.), ch. 6 (Fig. 6.10 counts, Fig. 6.12 PPMI, the cosine example).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from scipy.stats import pearsonr, spearmanr
from sklearn.decomposition import TruncatedSVD
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.metrics.pairwise import cosine_similarity as sk_cosine

from nlp_helpers.data.corpora import lee_background, lee_documents, lee_similarities
from nlp_helpers.seeds import rng as seeded_rng
from nlp_helpers.seeds import seed
from nlp_helpers.tfidf.bag_of_words import (
    FOUR_SENTENCES,
    bag_of_words,
    build_vocabulary,
    one_hot,
    tokenize_corpus,
)
from nlp_helpers.tfidf.cooccurrence import cooccurrence_matrix, most_similar, pmi, truncated_svd
from nlp_helpers.tfidf.similarity import cosine_similarity, similarity_correlation
from nlp_helpers.tfidf.weighting import (
    LEE_TFIDF_PEARSON,
    LEE_TFIDF_SPEARMAN,
    TfIdf,
    count_matrix,
    inverse_document_frequency,
    lee_tfidf_correlation,
    term_document_matrix,
    tf_idf,
)
from nlp_helpers.words.words import word_tokenize

SEED_DOCS = list(FOUR_SENTENCES)
# The lecture notes' table, typed from the notes: token -> (TF per document, document count, IDF, TF x IDF per document).
SEED_TABLE = {
    "many": ([0.125, 0, 0, 0.043478260869565216], 2, 0.301, [0.038, 0, 0, 0.013]),
    "popular": ([0.125, 0, 0, 0], 1, 0.602, [0.075, 0, 0, 0]),
    "restaurants": ([0.125, 0.07692307692307693, 0, 0.043478260869565216], 3, 0.125, [0.016, 0.01, 0, 0.005]),
    "nearby": ([0.125, 0, 0, 0], 1, 0.602, [0.075, 0, 0, 0]),
    "church": ([0.125, 0, 0.047619047619047616, 0], 2, 0.301, [0.038, 0, 0.014, 0]),
    "offer": ([0, 0.07692307692307693, 0, 0], 1, 0.602, [0, 0.046, 0, 0]),
}


def lower_tokens(text: str) -> list[str]:
    """The chapter's tokenization, written out for the reference libraries."""
    return [t.lower() for t in word_tokenize(text, keep_punct=False)]


def split(text: str) -> list[str]:
    return text.split()


# --------------------------------------------------------------------------- the lecture notes' table
def test_seed_documents_have_the_seeds_token_counts():
    _, _, lengths = count_matrix(SEED_DOCS)
    assert lengths.tolist() == [8, 13, 21, 23]


def test_seed_table_cell_for_cell():
    model = TfIdf(tf="relative", idf="log10", norm=None)
    weights = tf_idf(SEED_DOCS)
    tf = tf_idf(SEED_DOCS, idf=None)
    model.fit(SEED_DOCS)
    for term, (tf_seed, df_seed, idf_seed, tfidf_seed) in SEED_TABLE.items():
        j = model.vocabulary_.index(term)
        np.testing.assert_allclose(tf.loc[term].to_numpy(), tf_seed, rtol=0, atol=1e-15)
        assert model.document_frequency_[j] == df_seed
        assert round(model.idf_[j], 3) == idf_seed
        assert weights.loc[term].round(3).tolist() == tfidf_seed, term


def test_tf_idf_frame_is_terms_by_documents():
    frame = tf_idf(SEED_DOCS)
    assert list(frame.columns) == ["Doc 1", "Doc 2", "Doc 3", "Doc 4"]
    assert frame.index.name == "term"
    assert "covid-19" in frame.index and "6:00" in frame.index and "1998" in frame.index
    assert "The" not in frame.index and "the" in frame.index  # case folding
    # relative TF sums to 1 in each document (without IDF)
    np.testing.assert_allclose(tf_idf(SEED_DOCS, idf=None).sum(axis=0), 1.0)


# --------------------------------------------------------------------------- scikit-learn parity
@pytest.mark.parametrize("corpus", ["seed", "lee"])
@pytest.mark.parametrize(
    "ours, theirs",
    [
        ({}, {}),  # raw TF, smooth IDF, L2
        ({"idf": "ln"}, {"smooth_idf": False}),
        ({"tf": "sublinear"}, {"sublinear_tf": True}),
        ({"tf": "sublinear", "idf": "ln", "norm": "l1"}, {"sublinear_tf": True, "smooth_idf": False, "norm": "l1"}),
        ({"norm": None}, {"norm": None}),
        ({"idf": None}, {"use_idf": False}),
    ],
)
def test_tfidf_equals_sklearn(corpus, ours, theirs):
    docs = SEED_DOCS if corpus == "seed" else list(lee_background())
    ref = TfidfVectorizer(tokenizer=lower_tokens, lowercase=False, token_pattern=None, **theirs)
    expected = ref.fit_transform(docs)
    model = TfIdf(**ours)
    got = model.fit_transform(docs)
    assert model.vocabulary_ == list(ref.get_feature_names_out())
    assert got.shape == expected.shape
    assert abs(got - expected).max() <= 1e-12
    if theirs.get("use_idf", True):
        np.testing.assert_allclose(model.idf_, ref.idf_, rtol=1e-15)
    # transform of unseen text uses the fitted vocabulary and IDF, like sklearn
    new = ["Bushfires near Sydney destroyed homes and restaurants.", "Unknownword only, plus church."]
    assert abs(model.transform(new) - ref.transform(new)).max() <= 1e-12


def test_relative_tf_and_raw_tf_agree_after_l2_norm():
    # Dividing a document by its length is a rescaling, which L2 normalisation undoes.
    a = TfIdf(tf="relative").fit_transform(SEED_DOCS)
    b = TfidfVectorizer(tokenizer=lower_tokens, lowercase=False, token_pattern=None).fit_transform(SEED_DOCS)
    assert abs(a - b).max() <= 1e-12


def test_count_matrix_and_term_document_matrix_equal_countvectorizer():
    docs = list(lee_documents())
    ref = CountVectorizer(tokenizer=lower_tokens, lowercase=False, token_pattern=None)
    expected = ref.fit_transform(docs)
    counts, terms, lengths = count_matrix(docs)
    assert terms == list(ref.get_feature_names_out())
    assert (counts != expected).nnz == 0
    np.testing.assert_array_equal(lengths, np.asarray(expected.sum(axis=1)).ravel())
    frame = term_document_matrix(SEED_DOCS)
    ref_small = CountVectorizer(tokenizer=lower_tokens, lowercase=False, token_pattern=None)
    np.testing.assert_array_equal(frame.to_numpy(), ref_small.fit_transform(SEED_DOCS).toarray().T)


def test_fixed_vocabulary_keeps_document_length_for_relative_tf():
    frame = tf_idf(SEED_DOCS, vocabulary=list(SEED_TABLE))
    assert list(frame.index) == list(SEED_TABLE)
    for term, (_, _, _, tfidf_seed) in SEED_TABLE.items():
        assert frame.loc[term].round(3).tolist() == tfidf_seed
    ref = CountVectorizer(tokenizer=lower_tokens, lowercase=False, token_pattern=None, vocabulary=list(SEED_TABLE))
    counts, _, _ = count_matrix(SEED_DOCS, vocabulary=list(SEED_TABLE))
    assert (counts != ref.fit_transform(SEED_DOCS)).nnz == 0


def test_tf_variants_by_hand():
    docs = ["a a a a a a a a a b", "b c"]  # a: 9 times in doc 1
    log = tf_idf(docs, tf="log", idf=None, tokenizer=split)
    assert log.loc["a", "Doc 1"] == pytest.approx(1.0)  # log10(1 + 9)
    assert log.loc["b", "Doc 2"] == pytest.approx(math.log10(2))
    sub = tf_idf(docs, tf="sublinear", idf=None, tokenizer=split)
    assert sub.loc["a", "Doc 1"] == pytest.approx(1 + math.log(9))
    assert sub.loc["a", "Doc 2"] == 0.0


def test_idf_formulas_on_seed_numbers():
    df = np.array([1, 2, 3, 4])
    np.testing.assert_allclose(inverse_document_frequency(df, 4, "log10").round(3), [0.602, 0.301, 0.125, 0.0])
    np.testing.assert_allclose(inverse_document_frequency(df, 4, "smooth"), np.log(5 / (1 + df)) + 1)
    np.testing.assert_allclose(inverse_document_frequency(df, 4, "ln"), np.log(4 / df) + 1)


# --------------------------------------------------------------------------- bag of words, one-hot
def test_bag_of_words_top_terms_plus_unk():
    bow = bag_of_words(["a a b c", "b d e"], vocab_size=3, tokenizer=split)
    assert list(bow.columns) == ["a", "b", "<unk>"]  # a and b twice; c, d, e once -> UNK
    assert bow.to_numpy().tolist() == [[2, 1, 1], [0, 1, 2]]
    big = bag_of_words(SEED_DOCS, vocab_size=10)
    np.testing.assert_array_equal(big.sum(axis=1), [8, 13, 21, 23])  # every token counted once


def test_build_vocabulary_orders_by_frequency_then_alphabet():
    assert build_vocabulary([["b", "a", "c", "a"], ["c", "d"]]) == ["a", "c", "b", "d"]
    assert build_vocabulary([["b", "a", "a"]], 2, unk="<unk>") == ["a", "<unk>"]
    assert build_vocabulary([["b", "a", "a"]], min_count=2) == ["a"]
    with pytest.raises(ValueError, match="unk"):
        build_vocabulary([["<unk>", "a"]], unk="<unk>")


def test_one_hot_rows_sum_to_the_bag_of_words():
    vocab = ["church", "restaurants", "<unk>"]
    tokens = tokenize_corpus(SEED_DOCS[:1])[0]
    rows = one_hot(tokens, vocab, unk="<unk>")
    assert rows.shape == (8, 3)
    np.testing.assert_array_equal(rows.sum(axis=1), 1)
    np.testing.assert_array_equal(rows.sum(axis=0), [1, 1, 6])
    with pytest.raises(ValueError, match=r"tokens\[0\]"):
        one_hot(["pizza"], vocab)


# --------------------------------------------------------------------------- cosine
def test_cosine_matches_jurafsky_martin_and_sklearn():
    # J&M 3rd ed. ch. 6: dimensions pie, data, computer; cos(cherry, information) = .018, cos(digital, information) = .996
    cherry, digital, information = [442, 8, 2], [5, 1683, 1670], [5, 3982, 3325]
    assert round(cosine_similarity(cherry, information), 3) == 0.018
    assert round(cosine_similarity(digital, information), 3) == 0.996
    rng = seeded_rng(0)
    a, b = rng.random((5, 7)), rng.random((3, 7))
    np.testing.assert_allclose(cosine_similarity(a, b), sk_cosine(a, b), rtol=1e-12)
    x = TfIdf().fit_transform(lee_documents())
    np.testing.assert_allclose(cosine_similarity(x, x), sk_cosine(x), atol=1e-12)
    assert cosine_similarity(a[0], b).shape == (3,)


def test_cosine_bad_input():
    with pytest.raises(ValueError, match="zero vector"):
        cosine_similarity([0, 0], [1, 2])
    with pytest.raises(ValueError, match="b has a zero vector"):
        cosine_similarity(np.ones((2, 2)), np.zeros((1, 2)))
    with pytest.raises(ValueError, match="dimensions"):
        cosine_similarity([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="finite"):
        cosine_similarity([1, np.nan], [1, 2])


# --------------------------------------------------------------------------- retrieval and human judgements
def test_search_ranks_like_sklearn_and_finds_a_document_from_its_own_text():
    docs = list(lee_background())
    model = TfIdf().fit(docs)
    ref = TfidfVectorizer(tokenizer=lower_tokens, lowercase=False, token_pattern=None)
    x = ref.fit_transform(docs)
    for query in ["bushfires in New South Wales", "Sydney to Hobart yacht race", "Pakistan India"]:
        got = model.search(query, top_k=5)
        scores = (x @ ref.transform([query]).T).toarray().ravel()
        want = np.argsort(-scores, kind="stable")[:5]
        assert got["document"].tolist() == want.tolist()
        np.testing.assert_allclose(got["score"], scores[want], atol=1e-12)
    top = model.search(docs[42], top_k=1)
    assert top["document"].tolist() == [42] and top["score"][0] == pytest.approx(1.0)


def test_search_leaves_out_documents_with_no_shared_term():
    model = TfIdf(tokenizer=split).fit(["red apple", "green pear", "red pear"])
    assert model.search("apple", top_k=3)["document"].tolist() == [0]


def test_term_weights_of_a_query():
    model = TfIdf().fit(lee_background())
    w = model.term_weights("Bushfires, bushfires near Sydney zzzunknown")
    assert w["term"].tolist()[0] == "bushfires"
    assert w.loc[w.term == "bushfires", "count"].item() == 2
    assert (w["weight"] ** 2).sum() == pytest.approx(1.0)  # L2-normalised
    assert w.attrs["unknown_terms"] == ["zzzunknown"]


def test_similarity_correlation_uses_each_pair_once():
    rng = seeded_rng(1)
    human = rng.random((6, 6))
    pred = rng.random((6, 6))
    iu = np.triu_indices(6, 1)
    r = similarity_correlation(pred, human)
    assert r["n_pairs"] == 15
    assert r["pearson"] == pytest.approx(np.corrcoef(pred[iu], human[iu])[0, 1])
    assert r["spearman"] == pytest.approx(spearmanr(pred[iu], human[iu]).statistic)
    pred2 = pred.copy()
    pred2[np.tril_indices(6)] = 99.0  # diagonal and lower triangle must not matter
    assert similarity_correlation(pred2, human)["pearson"] == pytest.approx(r["pearson"])


def test_lee_correlation_matches_an_independent_sklearn_pipeline_and_the_recorded_constants():
    ref = TfidfVectorizer(tokenizer=lower_tokens, lowercase=False, token_pattern=None).fit(lee_background())
    sims = sk_cosine(ref.transform(lee_documents()))
    iu = np.triu_indices(50, 1)
    human = lee_similarities()
    got = lee_tfidf_correlation()
    assert got["n_pairs"] == 1225
    assert got["pearson"] == pytest.approx(pearsonr(sims[iu], human[iu]).statistic, abs=1e-12)
    assert got["spearman"] == pytest.approx(spearmanr(sims[iu], human[iu]).statistic, abs=1e-12)
    # the constants the fine-tuning chapter compares with must be what the code computes
    assert got["pearson"] == pytest.approx(LEE_TFIDF_PEARSON, abs=5e-5)
    assert got["spearman"] == pytest.approx(LEE_TFIDF_SPEARMAN, abs=5e-5)


# --------------------------------------------------------------------------- co-occurrence, PMI, LSA
@pytest.mark.parametrize("window", [1, 2, 4])
def test_cooccurrence_counts_equal_nltk_window_finder(window):
    from nltk.collocations import BigramCollocationFinder

    tokens = lower_tokens(lee_documents()[0])
    matrix, vocab = cooccurrence_matrix(tokens, window)
    ordered = BigramCollocationFinder.from_words(tokens, window_size=window + 1).ngram_fd  # (w1 then w2) counts
    index = {t: i for i, t in enumerate(vocab)}
    want = np.zeros_like(matrix.toarray())
    for (a, b), n in ordered.items():
        want[index[a], index[b]] += n  # b follows a within the window ...
        want[index[b], index[a]] += n  # ... so a precedes b: both are in each other's window
    np.testing.assert_array_equal(matrix.toarray(), want)
    assert (matrix != matrix.T).nnz == 0


def test_cooccurrence_windows_stop_at_sequence_boundaries_and_vocabulary():
    matrix, vocab = cooccurrence_matrix([["a", "b"], ["c", "d"]], window=3)
    m = pd.DataFrame(matrix.toarray(), index=vocab, columns=vocab)
    assert m.loc["a", "b"] == 1 and m.loc["b", "c"] == 0 and m.loc["a", "d"] == 0
    matrix, vocab = cooccurrence_matrix("x a y b".split(), window=2, vocabulary=["a", "b"])
    assert vocab == ["a", "b"] and matrix.toarray().tolist() == [[0, 1], [1, 0]]  # y still takes a position
    matrix, vocab = cooccurrence_matrix("a a".split(), window=1)
    assert matrix.toarray().tolist() == [[2]]


JM_COUNTS = pd.DataFrame(
    [[2, 8, 9, 442, 25], [0, 0, 1, 60, 19], [1670, 1683, 85, 5, 4], [3325, 3982, 378, 5, 13]],
    index=["cherry", "strawberry", "digital", "information"],
    columns=["computer", "data", "result", "pie", "sugar"],
)
# J&M 3rd ed., Fig. 6.12 (PPMI, log2, two decimals).
JM_PPMI = [[0, 0, 0, 4.38, 3.30], [0, 0, 0, 4.10, 5.51], [0.18, 0.01, 0, 0, 0], [0.02, 0.09, 0.28, 0, 0]]


def test_ppmi_reproduces_jurafsky_martin():
    got = pmi(JM_COUNTS)
    assert isinstance(got, pd.DataFrame) and list(got.columns) == list(JM_COUNTS.columns)
    np.testing.assert_allclose(got.to_numpy(), JM_PPMI, atol=0.005)
    assert got.loc["information", "data"] == pytest.approx(0.0944, abs=5e-5)  # worked in J&M's text
    raw = pmi(JM_COUNTS, positive=False)
    assert raw.loc["strawberry", "computer"] == -np.inf  # unseen pair
    assert raw.loc["digital", "pie"] < 0


def test_ppmi_with_alpha_hand_worked():
    # Context totals 1 and 16: 1**0.75 = 1 and 16**0.75 = 8, so P_0.75(c) = 1/9 and 8/9; N = 17,
    # row totals 4 and 13. PMI(w1,c1) = log2((1/17) / (4/17 * 1/9)) = log2(9/4), PMI(w1,c2) = log2(27/32),
    # PMI(w2,c2) = log2((13/17) / (13/17 * 8/9)) = log2(9/8). Without smoothing PMI(w1,c1) = log2(17/4).
    counts = np.array([[1.0, 3.0], [0.0, 13.0]])
    raw = pmi(counts, alpha=0.75, positive=False)
    assert raw[0, 0] == pytest.approx(math.log2(9 / 4))
    assert raw[0, 1] == pytest.approx(math.log2(27 / 32))
    assert raw[1, 1] == pytest.approx(math.log2(9 / 8))
    assert raw[1, 0] == -np.inf
    np.testing.assert_allclose(pmi(counts, alpha=0.75), [[math.log2(9 / 4), 0], [0, math.log2(9 / 8)]])
    assert pmi(counts)[0, 0] == pytest.approx(math.log2(17 / 4))
    assert pmi(counts, base=math.e)[0, 0] == pytest.approx(math.log(17 / 4))


def test_ppmi_sparse_equals_dense():
    matrix, _ = cooccurrence_matrix(lower_tokens(" ".join(lee_documents()[:10])), 3)
    for alpha in (1.0, 0.75):
        np.testing.assert_allclose(pmi(matrix, alpha=alpha).toarray(), pmi(matrix.toarray(), alpha=alpha), atol=1e-12)


def test_pmi_bad_input():
    with pytest.raises(ValueError, match="alpha"):
        pmi(JM_COUNTS, alpha=0)
    with pytest.raises(ValueError, match="non-negative"):
        pmi(np.array([[1.0, -1.0]]))
    with pytest.raises(ValueError, match="positive count"):
        pmi(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="positive=False"):
        pmi(sp.csr_array(np.eye(2)), positive=False)
    with pytest.raises(ValueError, match="2-D"):
        pmi(np.ones(3))
    with pytest.raises(ValueError, match="base"):
        pmi(JM_COUNTS, base=1)


def test_most_similar_hand_example():
    vectors = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [1.0, 1.0]])
    got = most_similar("a", vectors, ["a", "b", "c", "d"], top_k=3)
    assert got["word"].tolist() == ["b", "d", "c"]
    assert got["cosine"].iloc[1] == pytest.approx(1 / math.sqrt(2))
    with pytest.raises(ValueError, match="word 'z'"):
        most_similar("z", vectors, ["a", "b", "c", "d"])
    with pytest.raises(ValueError, match="rows"):
        most_similar("a", vectors, ["a", "b"])


def test_truncated_svd_equals_sklearn_up_to_sign():
    x = TfIdf().fit_transform(lee_documents())
    for matrix in (x, x.toarray()[:, :40]):
        ours = truncated_svd(matrix, 5)
        ref = TruncatedSVD(5, algorithm="arpack", random_state=seed(0)).fit_transform(matrix)
        signs = np.sign(np.sum(ours * ref, axis=0))
        np.testing.assert_allclose(ours, ref * signs, atol=1e-8)
    # the column norms are the singular values
    s = np.linalg.svd(x.toarray(), compute_uv=False)[:5]
    np.testing.assert_allclose(np.linalg.norm(truncated_svd(x, 5), axis=0), s, rtol=1e-8)
    with pytest.raises(ValueError, match="n_components"):
        truncated_svd(np.ones((3, 2)), 3)


# --------------------------------------------------------------------------- bad input and scale
def test_bad_corpus_input():
    with pytest.raises(ValueError, match="docs must not be empty"):
        tf_idf([])
    with pytest.raises(ValueError, match=r"docs\[1\] has no tokens"):
        tf_idf(["a real document", "!!! ..."])
    with pytest.raises(TypeError, match=r"docs\[0\]"):
        tf_idf([42])
    with pytest.raises(TypeError, match="docs"):
        tf_idf("a single string")
    with pytest.raises(ValueError, match="norm"):
        tf_idf(SEED_DOCS, norm="l3")
    with pytest.raises(ValueError, match="tf"):
        TfIdf(tf="binary")
    with pytest.raises(ValueError, match="idf"):
        TfIdf(idf="log2")
    with pytest.raises(TypeError, match="tokenizer"):
        TfIdf(tokenizer="split")
    with pytest.raises(ValueError, match="df = 0"):
        tf_idf(SEED_DOCS, vocabulary=["church", "pizza"])
    with pytest.raises(ValueError, match="duplicate"):
        count_matrix(SEED_DOCS, vocabulary=["church", "church"])
    with pytest.raises(ValueError, match="doc_names"):
        tf_idf(SEED_DOCS, doc_names=["a", "b"])
    with pytest.raises(TypeError, match="tokenizer must return a list of str"):
        tf_idf(SEED_DOCS, tokenizer=lambda text: [len(text)])
    with pytest.raises(RuntimeError, match="fit"):
        TfIdf().transform(SEED_DOCS)
    model = TfIdf().fit(SEED_DOCS)
    with pytest.raises(ValueError, match="query"):
        model.search("zzz qqq", top_k=1)
    with pytest.raises(ValueError, match="top_k"):
        model.search("church", top_k=5)
    with pytest.raises(ValueError, match="window"):
        cooccurrence_matrix(["a", "b"], window=0)
    with pytest.raises(TypeError, match="mix"):
        cooccurrence_matrix(["a", ["b"]])
    with pytest.raises(ValueError, match="square"):
        similarity_correlation(np.ones((3, 4)), np.ones((3, 4)))
    with pytest.raises(ValueError, match="same shape"):
        similarity_correlation(np.ones((3, 3)), np.ones((4, 4)))
    with pytest.raises(ValueError, match="constant"):
        similarity_correlation(np.ones((3, 3)), np.eye(3) + np.arange(9).reshape(3, 3))
    with pytest.raises(ValueError, match="matrix must be 2-D"):
        truncated_svd([1.0, 2.0])
    with pytest.raises(ValueError, match="zero vector"):
        most_similar("b", [[1.0, 0.0], [0.0, 0.0]], ["a", "b"], top_k=1)


def test_synthetic_corpus_stays_sparse():
    rng = seeded_rng(0)
    words = np.array([f"w{i}" for i in range(5000)])
    p = 1 / np.arange(1, 5001)
    docs = [" ".join(rng.choice(words, size=rng.integers(20, 120), p=p / p.sum())) for _ in range(2000)]
    x = TfIdf(tokenizer=split).fit_transform(docs)
    assert sp.issparse(x) and x.shape[0] == 2000
    assert x.nnz < 0.05 * x.shape[0] * x.shape[1]
    np.testing.assert_allclose(np.sqrt(x.multiply(x).sum(axis=1)), 1.0)
