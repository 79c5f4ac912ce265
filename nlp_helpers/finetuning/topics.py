"""BERTopic in miniature: embed documents, reduce, cluster, and label each cluster with c-TF-IDF.

BERTopic (Grootendorst, 2022) finds topics in four steps: Sentence-BERT embeddings
(``nlp_helpers.bert.minilm.sentence_embeddings``), a dimension reduction (UMAP by
default; here PCA), a clustering (HDBSCAN by default; here k-means), and a
*class-based* TF-IDF that treats all documents of a cluster as one big document
and scores its words against the other clusters (the lecture notes' formula):

.. math::

    \\text{c-tf-idf}_{w,c} = \\frac{tf_{w,c}}{\\sum_v tf_{v,c}}
    \\log\\Bigl(1 + \\frac{\\frac1C \\sum_k \\sum_v tf_{v,k}}{tf_w}\\Bigr)

with :math:`tf_w = \\sum_k tf_{w,k}` the word's count over all clusters and the
numerator the average number of words per cluster. (BERTopic's
``ClassTfidfTransformer`` rounds that average down to an integer; we do not.)

Left out: UMAP and HDBSCAN (not installed here), outlier topics, BM25 weighting
and the other representation models of BERTopic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np

from nlp_helpers._checks import check_array, check_int, check_nonempty
from nlp_helpers.seeds import seed as offset_seed
from nlp_helpers.tfidf.weighting import count_matrix

__all__ = ["class_term_counts", "c_tf_idf_from_counts", "c_tf_idf", "top_terms", "cluster_documents"]


def class_term_counts(
    docs_by_class: Sequence[Sequence[str]],
    *,
    tokenizer: Callable[[str], Sequence[str]] | None = None,
    stop_words: Iterable[str] = (),
) -> tuple[np.ndarray, list[str]]:
    """Count every term in every class: ``docs_by_class[c]`` is the list of documents (strings) of class ``c``.

    Tokenization and counting are ``nlp_helpers.tfidf.weighting.count_matrix``'s (lower-cased
    word tokens); the document rows of each class are then summed, "one big document
    per class". Terms in ``stop_words`` are dropped. Returns ``(counts (C, V), terms)``.
    """
    classes = check_nonempty("docs_by_class", docs_by_class)
    docs, owner = [], []
    for c, class_docs in enumerate(classes):
        if isinstance(class_docs, str):
            raise TypeError(f"docs_by_class[{c}] must be a list of documents, not a single str")
        class_docs = check_nonempty(f"docs_by_class[{c}]", class_docs)
        docs.extend(class_docs)
        owner.extend([c] * len(class_docs))
    counts, terms, _ = count_matrix(docs, tokenizer=tokenizer)  # (D, V) sparse
    membership = np.zeros((len(classes), len(docs)))
    membership[owner, np.arange(len(docs))] = 1.0
    per_class = np.asarray((counts.T @ membership.T).T)  # (C, V): sum the documents of each class
    stop = set(stop_words)
    keep = [j for j, t in enumerate(terms) if t not in stop]
    if not keep:
        raise ValueError("every term is a stop word: nothing is left to score")
    return per_class[:, keep], [terms[j] for j in keep]


def c_tf_idf_from_counts(counts: np.ndarray) -> np.ndarray:
    """c-TF-IDF of a (C, V) matrix of word counts per class (see the module docstring): shape (C, V)."""
    tf = check_array("counts", counts, ndim=2)
    if (tf < 0).any():
        raise ValueError("counts must be non-negative")
    with np.errstate(over="ignore"):
        overflow = not np.isfinite(tf.sum())
    if overflow:  # counts near 1e308 overflow their sums; c-TF-IDF is unchanged by scaling all counts
        tf = tf / tf.max()
    words_per_class = tf.sum(axis=1, keepdims=True)  # (C, 1)
    if (words_per_class == 0).any():
        raise ValueError(f"classes {np.flatnonzero(words_per_class[:, 0] == 0).tolist()} have no words")
    tf_w = tf.sum(axis=0)  # (V,) count of each word over all classes
    if (tf_w == 0).any():
        raise ValueError(f"{int((tf_w == 0).sum())} vocabulary words never occur; drop them from counts")
    idf = np.log(1 + words_per_class.mean() / tf_w)  # rare words over all classes weigh more
    return tf / words_per_class * idf


def c_tf_idf(
    docs_by_class: Sequence[Sequence[str]],
    *,
    tokenizer: Callable[[str], Sequence[str]] | None = None,
    stop_words: Iterable[str] = (),
) -> tuple[np.ndarray, list[str]]:
    """c-TF-IDF of documents grouped by class (see :func:`class_term_counts`): ``(scores (C, V), terms)``."""
    counts, terms = class_term_counts(docs_by_class, tokenizer=tokenizer, stop_words=stop_words)
    return c_tf_idf_from_counts(counts), terms


def top_terms(scores: np.ndarray, vocabulary: Sequence[str], k: int = 5) -> list[list[tuple[str, float]]]:
    """The ``k`` highest-scoring words of each class: a list (one per class) of ``(word, score)``."""
    s = check_array("scores", scores, ndim=2)
    if len(vocabulary) != s.shape[1]:
        raise ValueError(f"vocabulary has {len(vocabulary)} words but scores has {s.shape[1]} columns")
    k = check_int("k", k, minimum=1, maximum=s.shape[1])
    order = np.argsort(-s, axis=1, kind="stable")[:, :k]
    return [[(vocabulary[j], float(s[c, j])) for j in row] for c, row in enumerate(order)]


def cluster_documents(
    embeddings: np.ndarray, n_clusters: int, *, n_components: int = 5, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Reduce embeddings (N, d) with PCA to ``n_components`` and cluster them with k-means.

    Returns ``(labels (N,), reduced (N, n_components))``. PCA and k-means stand in for
    BERTopic's UMAP and HDBSCAN; both come from scikit-learn.
    """
    from sklearn.cluster import KMeans
    from sklearn.decomposition import PCA

    x = check_array("embeddings", embeddings, ndim=2)
    n_clusters = check_int("n_clusters", n_clusters, minimum=1, maximum=len(x))
    n_components = check_int("n_components", n_components, minimum=1, maximum=min(x.shape))
    reduced = PCA(n_components=n_components, random_state=offset_seed(seed)).fit_transform(x)
    labels = KMeans(n_clusters=n_clusters, n_init=10, random_state=offset_seed(seed)).fit_predict(reduced)
    return labels, reduced
