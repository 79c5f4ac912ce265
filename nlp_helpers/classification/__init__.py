"""Text classification: the helpers of the chapter ``book/classification.ipynb``.

One concept per module (import from the module itself; this file re-exports nothing):

* ``features``: documents as token lists -> vocabulary, sparse count matrices, the negation
  trick (``didn't NOT_like NOT_this``).
* ``lexicon``: the VADER sentiment lexicon and lexicon-count features.
* ``naive_bayes``: multinomial and binary naive Bayes with add-alpha smoothing, in log space.
* ``logistic_regression``: sigmoid, cross-entropy, its gradient, binary logistic regression with
  L1/L2 regularisation, softmax and multinomial (softmax) regression.
* ``evaluation``: confusion matrices, precision, recall, F-beta, macro and micro averaging,
  k-fold cross-validation.
* ``significance``: the paired bootstrap test of "system A is better than system B".
* ``genres``: a three-class task (comedy, history or tragedy?) on passages of Shakespeare's plays.
* ``exercises``: the checkers of the chapter's exercises.
"""
