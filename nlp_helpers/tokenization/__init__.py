"""Subword tokenization: the helpers of the chapter ``book/tokenization/``.

One concept per module (import from the module itself; this file re-exports nothing):

* ``bpe``: byte pair encoding, trained and applied from scratch, with GPT-2's pre-tokenization pattern.
* ``byte_level``: byte-level BPE as in GPT-2 (the 256-byte alphabet and its printable characters).
* ``unigram``: Unigram language-model segmentation by Viterbi.
* ``unigram_train``: training a Unigram vocabulary: EM over all segmentations (forward-backward), pruning.
* ``exercises``: the checkers of the exercises of the BPE and Unigram pages.
* ``tokenizers_exercises``: the checker of the exercise of the production-tokenizers page.

Word tokenization, normalization, word segmentation and edit distance are the earlier chapter's
(``nlp_helpers/words/``).
"""
