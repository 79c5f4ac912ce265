"""The chapter's checkers accept the reference solutions, reject typical mistakes with a hint, never crash."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from nlp_helpers.classification.exercises import (
    check_approximate_randomization,
    check_binary_likelihoods,
    check_compare_feature_sets,
    check_f_beta,
    check_macro_micro_f1,
)
from nlp_helpers.classification.naive_bayes import NaiveBayes
from nlp_helpers.classification.significance import paired_bootstrap
from nlp_helpers.exercises.checker import STRICT_ENV


@pytest.fixture(autouse=True)
def lenient(monkeypatch):
    """These tests look at the feedback a student sees, so strict mode (raise on wrong) is off."""
    monkeypatch.delenv(STRICT_ENV, raising=False)


# ----- reference solutions (the same as in book/classification/*.ipynb) -------------------------
def f_beta(precision, recall, beta=1.0):
    if precision == 0 and recall == 0:
        return 0.0
    b2 = beta**2
    return (1 + b2) * precision * recall / (b2 * precision + recall)


def add_alpha_likelihoods(docs, labels, alpha=1.0):
    vocab = {w for doc in docs for w in doc}
    out = {}
    for c in set(labels):
        counts = Counter(w for doc, lab in zip(docs, labels) if lab == c for w in doc)
        total = sum(counts.values()) + alpha * len(vocab)
        out[c] = {w: (counts[w] + alpha) / total for w in vocab}
    return out


def binary_likelihoods(docs, labels, alpha=1.0):
    vocab = {w for doc in docs for w in doc}
    out = {}
    for c in set(labels):
        df = Counter(w for doc, lab in zip(docs, labels) if lab == c for w in set(doc))
        total = sum(df.values()) + alpha * len(vocab)
        out[c] = {w: (df[w] + alpha) / total for w in vocab}
    return out


def binary_likelihoods_matrix(docs, labels, alpha=1.0):
    """A second correct style: a 0/1 document-word matrix, summed per class."""
    vocab = sorted({w for doc in docs for w in doc})
    col = {w: j for j, w in enumerate(vocab)}
    present = np.zeros((len(docs), len(vocab)))
    for i, doc in enumerate(docs):
        present[i, [col[w] for w in doc]] = 1
    labels = np.asarray(labels)
    out = {}
    for c in np.unique(labels):
        df = present[labels == c].sum(axis=0) + alpha
        out[str(c)] = dict(zip(vocab, (df / df.sum()).tolist()))
    return out


def macro_micro_f1_loops(cm):
    """A second correct style: plain loops over the classes."""
    k = len(cm)
    f1s, tp_all, fp_all, fn_all = [], 0, 0, 0
    for i in range(k):
        tp = cm[i][i]
        fp = sum(cm[j][i] for j in range(k)) - tp
        fn = sum(cm[i][j] for j in range(k)) - tp
        f1s.append(0.0 if 2 * tp + fp + fn == 0 else 2 * tp / (2 * tp + fp + fn))
        tp_all, fp_all, fn_all = tp_all + tp, fp_all + fp, fn_all + fn
    micro = 0.0 if 2 * tp_all + fp_all + fn_all == 0 else 2 * tp_all / (2 * tp_all + fp_all + fn_all)
    return sum(f1s) / k, float(micro)


def macro_micro_f1(cm):
    cm = np.asarray(cm, dtype=float)
    tp = np.diag(cm)
    fp, fn = cm.sum(axis=0) - tp, cm.sum(axis=1) - tp

    def f1(tp, fp, fn):
        return np.divide(2 * tp, 2 * tp + fp + fn, out=np.zeros_like(tp), where=2 * tp + fp + fn > 0)

    return float(f1(tp, fp, fn).mean()), float(
        f1(tp.sum(keepdims=True), fp.sum(keepdims=True), fn.sum(keepdims=True))[0]
    )


def compare_feature_sets(train_docs, train_labels, test_docs, test_labels, transform, n_samples=10_000, seed=0):
    model_a = NaiveBayes().fit([transform(d) for d in train_docs], train_labels)
    model_b = NaiveBayes().fit(train_docs, train_labels)
    pred_a = model_a.predict([transform(d) for d in test_docs])
    pred_b = model_b.predict(test_docs)
    gold = np.asarray(test_labels)
    return {
        "acc_a": float(np.mean(pred_a == gold)),
        "acc_b": float(np.mean(pred_b == gold)),
        "p_value": paired_bootstrap(gold, pred_a, pred_b, n_samples=n_samples, rng=seed),
    }


def approximate_randomization(gold, pred_a, pred_b, n_samples=10_000, seed=0):
    gold = np.asarray(gold)
    right_a = (np.asarray(pred_a) == gold).astype(float)
    right_b = (np.asarray(pred_b) == gold).astype(float)
    observed = right_a.mean() - right_b.mean()
    generator = np.random.default_rng(seed)
    count = 0
    for _ in range(n_samples):
        swap = generator.random(len(gold)) < 0.5
        delta = np.where(swap, right_b - right_a, right_a - right_b).mean()
        count += delta >= observed - 1e-12
    return count / n_samples


def f_beta_weighted_harmonic(precision, recall, beta=1.0):
    # F as a weighted harmonic mean: 1 / (alpha / P + (1 - alpha) / R), alpha = 1 / (1 + beta^2)
    if precision == 0 or recall == 0:
        return 0.0
    alpha = 1 / (1 + beta * beta)
    return 1 / (alpha / precision + (1 - alpha) / recall)


def compare_feature_sets_lists(train_docs, train_labels, test_docs, test_labels, transform, n_samples=10_000, seed=0):
    transformed = NaiveBayes().fit(list(map(transform, train_docs)), train_labels)
    plain = NaiveBayes().fit(train_docs, train_labels)
    pred_a = list(transformed.predict(list(map(transform, test_docs))))
    pred_b = list(plain.predict(test_docs))
    n = len(test_labels)
    return {
        "acc_a": sum(p == g for p, g in zip(pred_a, test_labels)) / n,
        "acc_b": sum(p == g for p, g in zip(pred_b, test_labels)) / n,
        "p_value": float(paired_bootstrap(list(test_labels), pred_a, pred_b, n_samples=n_samples, rng=seed)),
    }


def approximate_randomization_vectorised(gold, pred_a, pred_b, n_samples=10_000, seed=0):
    right_a = np.equal(pred_a, gold).astype(float)
    right_b = np.equal(pred_b, gold).astype(float)
    swaps = np.random.default_rng(seed).random((n_samples, len(right_a))) < 0.5  # same draws as one row at a time
    deltas = np.where(swaps, right_b - right_a, right_a - right_b).mean(axis=1)
    return float(np.mean(deltas >= right_a.mean() - right_b.mean() - 1e-12))


CASES = [
    (check_f_beta, f_beta),
    (check_f_beta, f_beta_weighted_harmonic),
    (check_compare_feature_sets, compare_feature_sets_lists),
    (check_approximate_randomization, approximate_randomization_vectorised),
    (check_macro_micro_f1, macro_micro_f1),
    (check_macro_micro_f1, macro_micro_f1_loops),
    (check_binary_likelihoods, binary_likelihoods),
    (check_binary_likelihoods, binary_likelihoods_matrix),
    (check_compare_feature_sets, compare_feature_sets),
    (check_approximate_randomization, approximate_randomization),
]


def _stub(*args, **kwargs):
    raise NotImplementedError


@pytest.mark.parametrize("checker", sorted({c for c, _ in CASES}, key=lambda c: c.__name__))
def test_stub_is_not_yet_and_unusable_answers_are_wrong(checker):
    assert checker(_stub).status == "not yet"
    for bad in (
        lambda *a, **k: None,
        lambda *a, **k: float("nan"),
        lambda *a, **k: "0.5",
        lambda *a, **k: [],
        lambda *a, **k: np.full((3, 3), np.nan),
        42,
    ):
        result = checker(bad)
        assert result.status == "wrong", (bad, str(result))


# The right answers above and the typical wrong ones are judged in test_classification_exercise_catalogue.py.
