"""Words and text normalization: the helpers of the chapter ``book/words/``.

One concept per module (import from the module itself; this file re-exports nothing):

* ``words``: rule-based word tokenization, case folding, stemming, lemmatizing, Heaps' law.
* ``lemmas``: a rule-based (Morphy-style) English lemmatizer checked against a word list.
* ``segmentation``: word segmentation of Chinese (MaxMatch, jieba) and its precision/recall/F1.
* ``edit_distance``: minimum edit distance by dynamic programming, with the alignment backtrace.
* ``exercises``: the checkers of the chapter's exercises.
"""
