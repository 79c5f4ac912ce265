"""Evaluating classifiers: confusion matrix, precision, recall, F-beta, macro/micro averages, k-fold CV.

Follows Jurafsky & Martin (SLP3, ch. 4). The confusion matrix has gold classes in rows and
predicted classes in columns (scikit-learn's convention; SLP3's figures show the transpose).
For class ``c``: precision = TP / (TP + FP), recall = TP / (TP + FN) and

    F_beta = (1 + beta^2) P R / (beta^2 P + R),

so beta > 1 favours recall and beta = 1 is the harmonic mean of P and R. Macro-averaging takes the
mean of the per-class scores; micro-averaging sums the per-class binary (one-vs-rest) confusion
matrices first and scores the sum. A score whose denominator is 0 is 0 (scikit-learn's
``zero_division=0``). Results equal ``sklearn.metrics`` (tested).

Left out: weighted averages, ROC/PR curves, multi-label classification.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from nlp_helpers._checks import check_choice, check_float, check_int, check_nonempty
from nlp_helpers.seeds import rng as seeded_rng

__all__ = [
    "accuracy",
    "confusion_matrix",
    "cross_validate",
    "kfold_indices",
    "one_vs_rest_matrices",
    "precision_recall_fscore",
]


def _check_pair(gold: Any, pred: Any) -> tuple[np.ndarray, np.ndarray]:
    for name, value in (("gold", gold), ("pred", pred)):
        if isinstance(value, (str, bytes)):
            raise TypeError(f"{name} must be a sequence of labels, not a single {type(value).__name__}")
    g, p = np.asarray(check_nonempty("gold", gold)), np.asarray(check_nonempty("pred", pred))
    if g.ndim != 1 or p.ndim != 1:
        raise ValueError(f"gold and pred must be 1-d sequences of labels, got shapes {g.shape} and {p.shape}")
    if len(g) != len(p):
        raise ValueError(f"gold has {len(g)} labels but pred has {len(p)}")
    return g, p


def accuracy(gold: Sequence[Any], pred: Sequence[Any]) -> float:
    """Share of items whose predicted label equals the gold label."""
    g, p = _check_pair(gold, pred)
    return float(np.mean(g == p))


def confusion_matrix(gold: Sequence[Any], pred: Sequence[Any], labels: Sequence[Any] | None = None) -> np.ndarray:
    """Counts ``C[i, j]`` of items with gold label ``labels[i]`` predicted as ``labels[j]``: shape (K, K).

    ``labels`` defaults to the sorted union of the labels in ``gold`` and ``pred``.
    """
    g, p = _check_pair(gold, pred)
    labels = np.unique(np.concatenate([g, p])) if labels is None else np.asarray(check_nonempty("labels", labels))
    index = {lab: i for i, lab in enumerate(labels.tolist())}
    if len(index) != len(labels):
        raise ValueError("labels must not repeat a label")
    missing = {x for x in np.concatenate([g, p]).tolist() if x not in index}
    if missing:
        raise ValueError(f"labels does not list {sorted(map(str, missing))[:5]}, which occur in gold or pred")
    return _confusion(np.array([index[x] for x in g.tolist()]), np.array([index[x] for x in p.tolist()]), len(labels))


def _confusion(g: np.ndarray, p: np.ndarray, k: int) -> np.ndarray:
    cm = np.zeros((k, k), dtype=int)
    np.add.at(cm, (g, p), 1)
    return cm


def one_vs_rest_matrices(cm: Any) -> np.ndarray:
    """Per-class binary confusion matrices ``[[TP, FN], [FP, TN]]`` from a (K, K) matrix: shape (K, 2, 2).

    Summing them over classes gives the pooled matrix micro-averaging scores.
    """
    cm = check_array_counts(cm)
    tp = np.diag(cm)
    fn, fp = cm.sum(axis=1) - tp, cm.sum(axis=0) - tp
    tn = cm.sum() - tp - fn - fp
    return np.stack([np.stack([tp, fn], axis=1), np.stack([fp, tn], axis=1)], axis=1)


def check_array_counts(cm: Any) -> np.ndarray:
    """Check that ``cm`` is a square matrix of non-negative counts; return it as an int array."""
    arr = np.asarray(cm)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or arr.shape[0] == 0:
        raise ValueError(f"cm must be a square (K, K) confusion matrix, got shape {arr.shape}")
    if arr.dtype.kind not in "iuf" or not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr != np.round(arr)):
        raise ValueError("cm must contain non-negative whole counts")
    return arr.astype(int)


def _safe_div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    return np.divide(num, den, out=np.zeros_like(num), where=den > 0)


def _scores(tp: Any, fn: Any, fp: Any, beta: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    precision, recall = _safe_div(tp, np.add(tp, fp)), _safe_div(tp, np.add(tp, fn))
    b2 = beta * beta
    return precision, recall, _safe_div((1 + b2) * precision * recall, b2 * precision + recall)


def precision_recall_fscore(
    gold: Sequence[Any],
    pred: Sequence[Any],
    *,
    beta: float = 1.0,
    average: str | None = None,
    labels: Sequence[Any] | None = None,
) -> dict[str, Any]:
    """Precision, recall and F-beta per class (``average=None``) or averaged (``"macro"``, ``"micro"``).

    Returns ``{"precision", "recall", "f", "labels"}``; per-class values are arrays of shape (K,)
    in the order of ``labels`` (default: sorted labels). For binary tasks, ``labels=[1]`` scores the
    positive class alone.
    """
    beta = check_float("beta", beta, minimum=0.0, min_inclusive=False)
    check_choice("average", average, [None, "macro", "micro"])
    g, p = _check_pair(gold, pred)
    all_labels = np.unique(np.concatenate([g, p]))
    chosen = all_labels if labels is None else np.asarray(check_nonempty("labels", labels))
    union = np.unique(np.concatenate([all_labels, chosen]))
    ovr = one_vs_rest_matrices(confusion_matrix(g, p, labels=union))[np.searchsorted(union, chosen)]  # (K, 2, 2)
    tp, fn, fp = ovr[:, 0, 0], ovr[:, 0, 1], ovr[:, 1, 0]
    if average == "micro":
        precision, recall, f = _scores(tp.sum(), fn.sum(), fp.sum(), beta)
        return {"precision": float(precision), "recall": float(recall), "f": float(f), "labels": chosen}
    precision, recall, f = _scores(tp, fn, fp, beta)
    if average == "macro":
        return {
            "precision": float(precision.mean()),
            "recall": float(recall.mean()),
            "f": float(f.mean()),
            "labels": chosen,
        }
    return {"precision": precision, "recall": recall, "f": f, "labels": chosen}


def kfold_indices(n: int, k: int = 10, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """Shuffle ``range(n)`` with ``nlp_helpers.seeds.rng(seed)`` and cut it into ``k`` folds.

    Returns ``k`` pairs ``(train_idx, test_idx)``; every item is in exactly one test fold, and fold
    sizes differ by at most one.
    """
    n = check_int("n", n, minimum=2)
    k = check_int("k", k, minimum=2, maximum=n)
    seed = check_int("seed", seed, minimum=0)
    order = seeded_rng(seed).permutation(n)
    folds = np.array_split(order, k)
    return [(np.sort(np.concatenate(folds[:i] + folds[i + 1 :])), np.sort(fold)) for i, fold in enumerate(folds)]


def cross_validate(
    fit_predict: Callable[[list, list, list], Sequence[Any]],
    docs: Sequence[Any],
    labels: Sequence[Any],
    *,
    k: int = 10,
    seed: int = 0,
    metric: Callable[[Sequence[Any], Sequence[Any]], float] = accuracy,
) -> np.ndarray:
    """k-fold cross-validation: ``metric(gold, fit_predict(train_docs, train_labels, test_docs))`` per fold.

    Returns the ``k`` scores, shape (k,); report their mean and standard deviation.
    """
    if not callable(fit_predict) or not callable(metric):
        raise TypeError("fit_predict and metric must be functions")
    docs, labels = check_nonempty("docs", docs), check_nonempty("labels", labels)
    if len(docs) != len(labels):
        raise ValueError(f"docs has {len(docs)} items but labels has {len(labels)}")
    scores = []
    for train, test in kfold_indices(len(docs), k, seed):
        pred = fit_predict([docs[i] for i in train], [labels[i] for i in train], [docs[i] for i in test])
        scores.append(metric([labels[i] for i in test], list(pred)))
    return np.asarray(scores, dtype=float)
