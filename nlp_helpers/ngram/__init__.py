"""N-gram language models: the helpers of the chapter ``book/ngram.ipynb``.

One concept per module (import from the module itself; this file re-exports nothing):

* ``counts``: the vocabulary, sentence padding and n-gram count tables in numpy.
* ``models``: smoothed n-gram models (Laplace, add-k, interpolation, absolute discounting, Kneser-Ney),
  perplexity, generation, and stupid backoff.
* ``exercises``: the checkers of the chapter's exercises.
"""
