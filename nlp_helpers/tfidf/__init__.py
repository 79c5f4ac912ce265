"""TF-IDF and vector semantics: the helpers of the chapter ``book/tfidf/``.

One concept per module (import from the module itself; this file re-exports nothing):

* ``bag_of_words``: tokenizing a corpus, a top-(n-1) vocabulary plus UNK, bag-of-words and one-hot vectors.
* ``similarity``: cosine similarity of sparse or dense vectors and its correlation with human judgements.
* ``weighting``: count matrices, term frequency, inverse document frequency, the ``TfIdf`` vectorizer.
* ``bm25``: the Okapi BM25 ranker (saturating TF, length normalisation, Robertson-Sparck Jones IDF).
* ``evaluation``: precision at k of a ranking, and its mean over queries.
* ``cooccurrence``: term-term co-occurrence counts, PMI and PPMI, nearest neighbours, truncated SVD (LSA).
* ``exercises``, ``bm25_exercises``, ``by_hand_exercises``, ``lsa_exercises``: the checkers of the chapter's exercises.
"""
