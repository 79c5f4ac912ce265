"""N-gram language models: the helpers of the chapter ``book/ngram.ipynb``.

One concept per module (import from the module itself; this file re-exports nothing):

* ``counts``: the vocabulary, sentence padding and n-gram count tables in numpy.
* ``models``: smoothed n-gram models (Laplace, add-k, interpolation, absolute discounting, Kneser-Ney),
  perplexity, generation, and stupid backoff.
* ``modified_kn``: modified Kneser-Ney (three discounts per order, estimated from counts of counts).
* ``good_turing``: counts of counts and the Good-Turing re-estimated counts c*.
* ``bpc``: bits per character, which compares models over different tokenizers.
* ``overlap``: the longest n-gram a generated text shares with the training text.
* ``exercises``: the checkers of the chapter's exercises.
"""
