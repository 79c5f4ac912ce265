"""Tokenization: the helpers of the chapter ``book/tokenization.ipynb``.

One concept per module (import from the module itself; this file re-exports nothing):

* ``words``: rule-based word tokenization, case folding, stemming, lemmatizing, Heaps' law.
* ``bpe``: byte pair encoding, trained and applied from scratch, with GPT-2-style pre-tokenization.
* ``segmentation``: word segmentation of Chinese (MaxMatch, jieba) and its precision/recall/F1.
* ``edit_distance``: minimum edit distance by dynamic programming, with the alignment backtrace.
* ``exercises``: the checkers of the chapter's exercises.
"""
