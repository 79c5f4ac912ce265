"""Benchmarks of the TF-IDF chapter's helpers (``nlp_helpers.tfidf``) against reference libraries.

Rows (see CONTRIBUTING.md, "Benchmarks"):

1. ``TfIdf.fit_transform`` vs scikit-learn's ``TfidfVectorizer`` on a synthetic corpus of 10,000
   documents (Zipf-distributed vocabulary of 20,000 words, 50-300 tokens each), both given
   ``str.split`` as tokenizer so that the counting and weighting are timed, not a regex.
   Target: ours at most 2x sklearn's time, identical matrices (max |difference| <= 1e-12).
2. The same with the chapter's tokenizer (``word_tokenize``, lower-cased) passed to both, on
   2,000 of the documents: what a reader pays in practice (tokenization dominates).
3. ``TfIdf.search`` vs ranking by sklearn vectors: identical top-10 on the Lee background corpus
   for 50 queries (the first sentence of 50 documents).
4. ``cooccurrence_matrix`` vs nltk's ``BigramCollocationFinder`` (window counts) on 100,000
   Wikipedia tokens, window 4. Target: identical counts.
5. ``truncated_svd`` vs sklearn's ``TruncatedSVD(algorithm="arpack")`` on the PPMI matrix of
   the Wikipedia tokens (window 8, words seen >= 5 times), k = 50. Target: equal up to sign.
6. ``lee_tfidf_correlation`` vs the same pipeline in sklearn + scipy. Target: equal Pearson r.

Times are the best of ``REPEATS`` runs. Run: ``python -m benchmarks.bench_tfidf``.
"""

from __future__ import annotations

import numpy as np

from benchmarks.timing import best_of
from nlp_helpers.data.corpora import lee_background, lee_documents, lee_similarities, wikipedia_tokens  # noqa: E402
from nlp_helpers.tfidf.cooccurrence import cooccurrence_matrix, pmi, truncated_svd
from nlp_helpers.tfidf.weighting import TfIdf, lee_tfidf_correlation  # noqa: E402
from nlp_helpers.words.words import word_tokenize  # noqa: E402

REPEATS = 3


def _best(fn, repeats: int = REPEATS):
    return best_of(fn, repeats)


def synthetic_corpus(n_docs: int = 10_000, vocab_size: int = 20_000, seed: int = 0) -> list[str]:
    """Documents of Zipf-distributed words ``w0 .. w{V-1}``, 50-300 tokens each (deterministic)."""
    rng = np.random.default_rng(seed)
    words = np.array([f"w{i}" for i in range(vocab_size)])
    p = 1.0 / np.arange(1, vocab_size + 1)
    lengths = rng.integers(50, 300, n_docs)
    ids = rng.choice(vocab_size, size=int(lengths.sum()), p=p / p.sum())
    return [" ".join(doc) for doc in np.split(words[ids], np.cumsum(lengths)[:-1])]


def _lower_tokens(text: str) -> list[str]:
    return [t.lower() for t in word_tokenize(text, keep_punct=False)]


def bench_fit_transform(docs: list[str], tokenizer, label: str, target_ratio: float | None) -> dict:
    from sklearn.feature_extraction.text import TfidfVectorizer

    ours, t_ours = _best(lambda: TfIdf(tokenizer=tokenizer, lowercase=False).fit_transform(docs))
    ref, t_ref = _best(
        lambda: TfidfVectorizer(tokenizer=tokenizer, lowercase=False, token_pattern=None).fit_transform(docs)
    )
    diff = float(abs(ours - ref).max())
    same = ours.shape == ref.shape and diff <= 1e-12
    ratio = t_ours / t_ref
    met = same and (target_ratio is None or ratio <= target_ratio)
    return {
        "helper": "nlp_helpers.tfidf.weighting.TfIdf.fit_transform",
        "reference": "sklearn TfidfVectorizer (same tokenizer)",
        "agreement": 1.0 if same else 0.0,
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": f"<= {target_ratio}x sklearn's time, identical matrix" if target_ratio else "identical matrix",
        "met": met,
        "note": f"{label}: {len(docs):,} documents, {ours.shape[1]:,} terms, {ours.nnz:,} non-zeros; "
        f"ours/sklearn time {ratio:.2f}x; max |difference| {diff:.1e}",
    }


def bench_search() -> dict:
    from sklearn.feature_extraction.text import TfidfVectorizer

    docs = list(lee_background())
    queries = [d.split(". ")[0] for d in docs[:50]]
    model = TfIdf().fit(docs)
    ref = TfidfVectorizer(tokenizer=_lower_tokens, lowercase=False, token_pattern=None)
    x = ref.fit_transform(docs)
    ours, t_ours = _best(lambda: [model.search(q, top_k=10)["document"].tolist() for q in queries])

    def sklearn_rank():
        scores = (x @ ref.transform(queries).T).toarray()  # (D, Q); rows are unit length
        return [
            [int(i) for i in np.argsort(-scores[:, j], kind="stable")[:10] if scores[i, j] > 0]
            for j in range(len(queries))
        ]

    want, t_ref = _best(sklearn_rank)
    agree = float(np.mean([a == b for a, b in zip(ours, want)]))
    return {
        "helper": "nlp_helpers.tfidf.weighting.TfIdf.search",
        "reference": "sklearn TfidfVectorizer + dot product ranking",
        "agreement": agree,
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": "identical top-10 for every query",
        "met": agree == 1.0,
        "note": f"{len(queries)} queries (first sentences) over the 300 Lee background documents; "
        "ours ranks one query at a time",
    }


def bench_cooccurrence(n_tokens: int = 100_000, window: int = 4) -> dict:
    from nltk.collocations import BigramCollocationFinder

    tokens = [t for article in wikipedia_tokens() for t in article][:n_tokens]
    (matrix, vocab), t_ours = _best(lambda: cooccurrence_matrix(tokens, window), repeats=1)
    fd, t_ref = _best(lambda: BigramCollocationFinder.from_words(tokens, window_size=window + 1).ngram_fd, repeats=1)
    index = {w: i for i, w in enumerate(vocab)}
    rows, cols, vals = [], [], []
    for (a, b), n in fd.items():  # ordered pairs within the window -> symmetric counts
        rows += [index[a], index[b]]
        cols += [index[b], index[a]]
        vals += [n, n]
    import scipy.sparse as sp

    want = sp.coo_array((vals, (rows, cols)), shape=matrix.shape).tocsr()
    same = (matrix != want).nnz == 0
    return {
        "helper": "nlp_helpers.tfidf.cooccurrence.cooccurrence_matrix",
        "reference": "nltk BigramCollocationFinder(window_size)",
        "agreement": 1.0 if same else 0.0,
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": "identical counts",
        "met": same,
        "note": f"{n_tokens:,} Wikipedia tokens, window {window}, {len(vocab):,} words, {matrix.nnz:,} non-zero cells",
    }


def bench_svd(k: int = 50) -> dict:
    from sklearn.decomposition import TruncatedSVD

    cooc, _ = cooccurrence_matrix(wikipedia_tokens(), window=8, min_count=5)
    ppmi = pmi(cooc, alpha=0.75)
    ours, t_ours = _best(lambda: truncated_svd(ppmi, k), repeats=1)
    ref, t_ref = _best(lambda: TruncatedSVD(k, algorithm="arpack", random_state=0).fit_transform(ppmi), repeats=1)
    signs = np.sign(np.sum(ours * ref, axis=0))
    diff = float(np.max(np.abs(ours - ref * signs)))
    scale = float(np.max(np.abs(ref)))
    return {
        "helper": "nlp_helpers.tfidf.cooccurrence.truncated_svd",
        "reference": "sklearn TruncatedSVD(algorithm='arpack')",
        "agreement": 1.0 if diff <= 1e-6 * scale else 0.0,
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": "equal up to the sign of each component (relative 1e-6)",
        "met": diff <= 1e-6 * scale,
        "note": f"PPMI (alpha 0.75) of Wikipedia, {ppmi.shape[0]:,} x {ppmi.shape[1]:,}, {ppmi.nnz:,} non-zeros, "
        f"k = {k}; max |difference| {diff:.1e} (largest entry {scale:.1f})",
    }


def bench_lee_correlation() -> dict:
    from scipy.stats import pearsonr
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.metrics.pairwise import cosine_similarity

    ours, t_ours = _best(lambda: lee_tfidf_correlation()["pearson"], repeats=1)

    def reference():
        ref = TfidfVectorizer(tokenizer=_lower_tokens, lowercase=False, token_pattern=None).fit(lee_background())
        sims = cosine_similarity(ref.transform(lee_documents()))
        iu = np.triu_indices(50, 1)
        return pearsonr(sims[iu], lee_similarities()[iu]).statistic

    want, t_ref = _best(reference, repeats=1)
    return {
        "helper": "nlp_helpers.tfidf.weighting.lee_tfidf_correlation",
        "reference": "sklearn TfidfVectorizer + scipy pearsonr",
        "agreement": 1.0 if abs(ours - want) <= 1e-12 else 0.0,
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": "equal Pearson r",
        "met": abs(ours - want) <= 1e-12,
        "note": f"Pearson r = {ours:.4f} over 1225 pairs of Lee documents (IDF from the 300 background documents)",
    }


def run() -> list[dict]:
    corpus = synthetic_corpus()
    return [
        bench_fit_transform(corpus, str.split, "synthetic Zipf corpus, str.split", 2.0),
        bench_fit_transform(corpus[:2000], _lower_tokens, "synthetic corpus, word_tokenize", None),
        bench_search(),
        bench_cooccurrence(),
        bench_svd(),
        bench_lee_correlation(),
    ]


if __name__ == "__main__":
    for row in run():
        print(" | ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items()))
