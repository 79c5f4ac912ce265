"""Multinomial naive Bayes for documents given as token lists, in log space.

Follows Jurafsky & Martin (SLP3, ch. 4): the prior is the share of training documents in each
class, the likelihood of word ``w`` in class ``c`` is add-alpha smoothed over the training
vocabulary ``V``,

    P(w | c) = (count(w, c) + alpha) / (sum_v count(v, c) + alpha |V|),

and a document is scored by ``log P(c) + sum_i log P(w_i | c)``. Test words outside ``V`` are
dropped. ``binary=True`` is binary multinomial naive Bayes: every document's counts are clipped at
1, in training and at test time. With the same inputs the model equals scikit-learn's
``MultinomialNB(alpha=alpha)`` fitted on ``CountVectorizer(binary=binary)`` counts of the training
vocabulary (tested to 1e-10).

Left out: Bernoulli naive Bayes (it also scores absent words), complement naive Bayes, learned priors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.special import logsumexp

from nlp_helpers._checks import check_float
from nlp_helpers.classification.features import build_vocabulary, check_docs, check_labels, count_matrix

__all__ = ["NaiveBayes"]


class NaiveBayes:
    """Multinomial (or binary multinomial) naive Bayes with add-``alpha`` smoothing.

    Attributes after :meth:`fit`: ``classes_`` (K,), ``vocabulary_`` (word -> column),
    ``class_count_`` (K,), ``feature_count_`` (K, V), ``class_log_prior_`` (K,) and
    ``feature_log_prob_`` (K, V), named as in scikit-learn.
    """

    def __init__(self, alpha: float = 1.0, binary: bool = False) -> None:
        self.alpha = check_float("alpha", alpha, minimum=0.0, min_inclusive=False)
        if not isinstance(binary, (bool, np.bool_)):
            raise TypeError(f"binary must be True or False, got {type(binary).__name__}")
        self.binary = bool(binary)

    def __repr__(self) -> str:
        return f"NaiveBayes(alpha={self.alpha}, binary={self.binary})"

    def fit(self, docs: Sequence[Sequence[str]], labels: Sequence[Any]) -> NaiveBayes:
        """Count words per class; ``docs`` is a list of token lists, ``labels`` one label per document."""
        docs = check_docs("docs", docs)
        labels = check_labels("labels", labels, len(docs))
        self.vocabulary_ = build_vocabulary(docs)
        self._fit(count_matrix(docs, self.vocabulary_, binary=self.binary), labels)
        return self

    def _fit(self, counts: sp.csr_matrix, labels: np.ndarray) -> None:
        self.classes_, y = np.unique(labels, return_inverse=True)
        onehot = np.eye(len(self.classes_))[y]  # (n, K)
        self.class_count_ = onehot.sum(axis=0)
        self.feature_count_ = np.asarray((counts.T @ onehot).T)  # (K, V)
        self.class_log_prior_ = np.log(self.class_count_ / self.class_count_.sum())
        smoothed = self.feature_count_ + self.alpha
        self.feature_log_prob_ = np.log(smoothed) - np.log(smoothed.sum(axis=1, keepdims=True))

    def _check_fitted(self) -> None:
        if not hasattr(self, "feature_log_prob_"):
            raise RuntimeError("this NaiveBayes is not fitted yet: call .fit(docs, labels) first")

    def joint_log_likelihood(self, docs: Sequence[Sequence[str]]) -> np.ndarray:
        """``log P(c) + sum_i log P(w_i | c)`` for every document and class: shape (n_docs, K).

        Unnormalised: ``exp`` of a row is ``P(c) P(doc | c)``, the numbers SLP3's worked example compares.
        """
        self._check_fitted()
        docs = check_docs("docs", docs)
        counts = count_matrix(docs, self.vocabulary_, binary=self.binary)
        return np.asarray(counts @ self.feature_log_prob_.T) + self.class_log_prior_

    def predict_log_proba(self, docs: Sequence[Sequence[str]]) -> np.ndarray:
        """``log P(c | doc)``, shape (n_docs, K): the joint log-likelihood normalised over classes."""
        joint = self.joint_log_likelihood(docs)
        return joint - logsumexp(joint, axis=1, keepdims=True)

    def predict_proba(self, docs: Sequence[Sequence[str]]) -> np.ndarray:
        """``P(c | doc)``, shape (n_docs, K); rows sum to 1."""
        return np.exp(self.predict_log_proba(docs))

    def predict(self, docs: Sequence[Sequence[str]]) -> np.ndarray:
        """The most probable class of each document, shape (n_docs,)."""
        joint = self.joint_log_likelihood(docs)
        return self.classes_[np.argmax(joint, axis=1)]

    def log_evidence(self, docs: Sequence[Sequence[str]]) -> np.ndarray:
        """``log P(doc) = log sum_c P(doc | c) P(c)``: naive Bayes read as a class-mixture language model."""
        return logsumexp(self.joint_log_likelihood(docs), axis=1)
