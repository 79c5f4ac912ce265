"""Tokenization: the helpers of the chapter ``book/tokenization/``.

One concept per module (import from the module itself; this file re-exports nothing):

* ``words``: rule-based word tokenization, case folding, stemming, lemmatizing, Heaps' law.
* ``bpe``: byte pair encoding, trained and applied from scratch, with GPT-2's pre-tokenization pattern.
* ``byte_level``: byte-level BPE as in GPT-2 (the 256-byte alphabet and its printable characters).
* ``unigram``: Unigram language-model segmentation by Viterbi.
* ``unigram_train``: training a Unigram vocabulary: EM over all segmentations (forward-backward), pruning.
* ``lemmas``: a rule-based (Morphy-style) English lemmatizer checked against a word list.
* ``segmentation``: word segmentation of Chinese (MaxMatch, jieba) and its precision/recall/F1.
* ``edit_distance``: minimum edit distance by dynamic programming, with the alignment backtrace.
* ``exercises``: the checkers of the chapter's exercises.
"""
