"""Helpers of the chapter *Sequence labelling: parts of speech and named entities* (``book/tagging/``).

One idea per module (import from the module itself; this package re-exports nothing):

* ``baseline``: tag accuracy, the ambiguity statistics of a tagged corpus, the most-frequent-tag tagger.
* ``viterbi``: the Viterbi algorithm in log space for any first-order model (HMM or linear-chain CRF).
* ``hmm``: ``HMMTagger``, a bigram hidden Markov model tagger in the style of TnT (Brants, 2000):
  interpolated transitions, a suffix model for unknown words.
* ``spans``: IOB2 tags to entity spans and span-level precision/recall/F1 (as conlleval and seqeval).
* ``features``: word shapes and the hand-written feature templates of a feature-based CRF.
* ``crf``: the linear-chain CRF: score of a path, the forward algorithm for log Z (numpy), and a
  batched torch layer trained with autograd.
* ``training``: the batching, training loop and decoding shared by the torch taggers.
* ``crf_tagger``: a feature-based linear-chain CRF tagger (the features of ``features``).
* ``bilstm``: a BiLSTM tagger over word, shape and suffix embeddings, with a softmax or CRF output.
* ``exercises``: the checkers of the chapter's exercises.
"""
