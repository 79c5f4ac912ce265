"""Word2vec: the helpers of the chapter ``book/word2vec/`` (its index and section pages).

One concept per module (import from the module itself; this file re-exports nothing):

* ``corpus``: the vocabulary, subsampling of frequent words, the noise distribution, skip-gram and CBOW examples.
* ``sgns``: skip-gram and CBOW with negative sampling: loss, hand-derived gradients, the ``Word2Vec`` model.
* ``softmax``: the full-softmax CBOW and skip-gram objectives of the worked example.
* ``evaluation``: ``WordVectors``: neighbours, analogies, WordSim353/SimLex-999 and the Google analogy set.
* ``fasttext``: fastText's character n-grams hashed into buckets.
* ``bias``: a gender direction, projections on it and the WEAT (effect size, permutation p-value).
* ``exercises``, ``evaluation_exercises``, ``bias_exercises``, ``extensions_exercises``: the checkers of the
  chapter's exercises (a ``<page>_exercises`` module for each page's newer exercises).
"""
