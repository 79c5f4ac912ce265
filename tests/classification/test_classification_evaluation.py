"""Evaluation: sklearn.metrics parity, SLP3's urgent/normal/spam example, k-fold cross-validation."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import metrics as skm

from nlp_helpers.classification.evaluation import (
    accuracy,
    check_array_counts,
    confusion_matrix,
    cross_validate,
    kfold_indices,
    one_vs_rest_matrices,
    precision_recall_fscore,
)

SPAM_CM = np.array([[8, 5, 3], [10, 60, 30], [1, 50, 200]])  # gold urgent/normal/spam in rows


def _expand(cm):
    k = len(cm)
    return np.repeat(np.repeat(np.arange(k), k), cm.ravel()), np.repeat(np.tile(np.arange(k), k), cm.ravel())


def test_slp3_three_class_example():
    gold, pred = _expand(SPAM_CM)
    np.testing.assert_array_equal(confusion_matrix(gold, pred), SPAM_CM)
    per = precision_recall_fscore(gold, pred)
    assert [round(v, 2) for v in per["precision"]] == [0.42, 0.52, 0.86]
    assert [round(v, 2) for v in per["recall"]] == [0.50, 0.60, 0.80]
    assert round(precision_recall_fscore(gold, pred, average="micro")["precision"], 2) == 0.73
    assert round(precision_recall_fscore(gold, pred, average="macro")["precision"], 2) == 0.60
    pooled = one_vs_rest_matrices(SPAM_CM).sum(axis=0)
    np.testing.assert_array_equal(pooled[0], [268, 99])  # TP, FN pooled
    np.testing.assert_array_equal(pooled[1, 0], 99)  # FP pooled = FN pooled in single-label tasks


@pytest.mark.parametrize("beta", [1.0, 0.5, 2.0])
@pytest.mark.parametrize("average", [None, "macro", "micro"])
def test_equals_sklearn_metrics(beta, average):
    g = np.random.default_rng(3)
    gold, pred = g.integers(0, 4, 300), g.integers(0, 4, 300)
    pred[:5] = 3  # make sure every label occurs
    ours = precision_recall_fscore(gold, pred, beta=beta, average=average)
    p, r, f, _ = skm.precision_recall_fscore_support(gold, pred, beta=beta, average=average, zero_division=0)
    np.testing.assert_allclose(ours["precision"], p, rtol=1e-12)
    np.testing.assert_allclose(ours["recall"], r, rtol=1e-12)
    np.testing.assert_allclose(ours["f"], f, rtol=1e-12)
    np.testing.assert_array_equal(confusion_matrix(gold, pred), skm.confusion_matrix(gold, pred))
    assert accuracy(gold, pred) == skm.accuracy_score(gold, pred)


def test_zero_division_and_label_subsets():
    gold, pred = ["a", "a", "b"], ["a", "a", "a"]
    out = precision_recall_fscore(gold, pred, labels=["b"])
    assert out["precision"][0] == 0.0 and out["f"][0] == 0.0  # never predicted: 0, not NaN
    p, r, f, _ = skm.precision_recall_fscore_support(gold, pred, labels=["a", "c"], average="macro", zero_division=0)
    ours = precision_recall_fscore(gold, pred, labels=["a", "c"], average="macro")
    np.testing.assert_allclose([ours["precision"], ours["recall"], ours["f"]], [p, r, f])
    np.testing.assert_array_equal(confusion_matrix(gold, pred, labels=["b", "a"]), [[0, 1], [0, 2]])


def test_kfold_partitions_and_cross_validate():
    folds = kfold_indices(23, k=5, seed=1)
    tests = np.concatenate([te for _, te in folds])
    np.testing.assert_array_equal(np.sort(tests), np.arange(23))
    assert {len(te) for _, te in folds} <= {4, 5}
    for tr, te in folds:
        assert not set(tr) & set(te) and len(tr) + len(te) == 23
    docs, labels = list(range(20)), [i % 2 for i in range(20)]
    seen = []

    def fit_predict(train_docs, train_labels, test_docs):
        seen.append(len(test_docs))
        return [d % 2 for d in test_docs]  # a perfect classifier

    scores = cross_validate(fit_predict, docs, labels, k=4, seed=0)
    np.testing.assert_array_equal(scores, np.ones(4))
    assert seen == [5, 5, 5, 5]


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="pred"):
        accuracy([1, 2], [1])
    with pytest.raises(TypeError, match="gold"):
        accuracy("ab", "ab")
    with pytest.raises(ValueError, match="labels"):
        confusion_matrix([1, 2], [1, 3], labels=[1, 2])
    with pytest.raises(ValueError, match="average"):
        precision_recall_fscore([1], [1], average="weighted")
    with pytest.raises(ValueError, match="beta"):
        precision_recall_fscore([1], [1], beta=0)
    with pytest.raises(ValueError, match="cm"):
        check_array_counts([[1, 2]])
    with pytest.raises(ValueError, match="cm"):
        one_vs_rest_matrices([[1, -2], [0, 1]])
    with pytest.raises(ValueError, match="k"):
        kfold_indices(5, k=6)
    with pytest.raises(TypeError, match="fit_predict"):
        cross_validate(None, [1, 2], [1, 2])
    with pytest.raises(ValueError, match="labels"):
        cross_validate(lambda a, b, c: c, [1, 2, 3], [1, 2], k=2)
