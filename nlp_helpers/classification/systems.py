"""The chapter's polarity classifiers, rebuilt on demand so that every section page runs on its own.

The logistic regression page chooses the L2 weight by k-fold cross-validation (:func:`select_l2`);
the evaluation page needs the same classifiers' test predictions without re-running that page.
:func:`polarity_features` and :func:`polarity_systems` rebuild them from the fixed polarity split,
cached within a process. Everything is deterministic except the fold assignment of
:func:`select_l2`, which goes through :mod:`nlp_helpers.seeds` (so ``NLP_SEED_OFFSET`` changes it).

Left out: hyper-parameters other than the L2 weight (the solver's step is set from the data).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from nlp_helpers._checks import check_float, check_int, check_nonempty
from nlp_helpers.classification.evaluation import accuracy, kfold_indices
from nlp_helpers.classification.features import build_vocabulary, count_matrix, mark_negation
from nlp_helpers.classification.genres import genre_split
from nlp_helpers.classification.lexicon import lexicon_counts, vader_lexicon
from nlp_helpers.classification.logistic_regression import LogisticRegression, SoftmaxRegression
from nlp_helpers.classification.naive_bayes import NaiveBayes
from nlp_helpers.data.polarity import polarity_split

__all__ = ["GENRE_L2", "GENRE_SOLVER", "L2_GRID", "genre_systems", "polarity_features", "polarity_systems", "select_l2"]

L2_GRID = (1e-5, 1e-4, 1e-3, 1e-2)  # the L2 weights the chapter's cross-validation compares
GENRE_L2 = 1e-3  # the genre classifier's L2 weight
# trained to its minimum (L-BFGS, largest gradient entry < 1e-6), as the softmax regression page's trainer is
GENRE_SOLVER = {"l2": GENRE_L2, "solver": "lbfgs", "tol": 1e-6, "max_iter": 1000}
CV_FOLDS, CV_MAX_ITER = 5, 120  # 120 accelerated steps: dev accuracy within 0.002 of convergence


@functools.lru_cache(maxsize=1)
def polarity_features() -> dict[str, Any]:
    """Token lists, 0/1 labels and binary word-presence matrices of the polarity split.

    Returns ``{"docs": {part: [[token, ...], ...]}, "labels": {part: (n,) int array},
    "vocabulary": word -> column, "X": {part: (n, |V|) csr_matrix}}`` for the parts
    ``train``, ``dev`` and ``test``; the vocabulary is the training set's. Cached: do not modify.
    """
    split = polarity_split()
    docs = {part: [text.split() for text in frame["text"]] for part, frame in split.items()}
    labels = {part: frame["label"].to_numpy() for part, frame in split.items()}
    vocabulary = build_vocabulary(docs["train"])
    X = {part: count_matrix(ds, vocabulary, binary=True) for part, ds in docs.items()}
    return {"docs": docs, "labels": labels, "vocabulary": vocabulary, "X": X}


def select_l2(
    X: Any,
    y: Any,
    grid: Sequence[float] = L2_GRID,
    *,
    k: int = CV_FOLDS,
    seed: int = 0,
    max_iter: int = CV_MAX_ITER,
) -> tuple[float, pd.DataFrame]:
    """Choose the L2 weight of :class:`LogisticRegression` by ``k``-fold cross-validated accuracy.

    ``X`` is (n, d) (dense or sparse), ``y`` the (n,) 0/1 labels. Every weight in ``grid`` is fitted
    on the same ``k`` folds (:func:`kfold_indices` with ``seed``). Returns the weight with the best
    mean accuracy and a DataFrame indexed by the weight with columns ``mean`` and ``sd`` (over folds).
    """
    grid = [check_float(f"grid[{i}]", v, minimum=0.0) for i, v in enumerate(check_nonempty("grid", grid))]
    if not sp.issparse(X):
        X = np.asarray(X, dtype=float)
    if getattr(X, "ndim", 2) != 2:
        raise ValueError(f"X must be a 2-d matrix (n, d), got {X.ndim} dimensions")
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},), got {y.shape}")
    k = check_int("k", k, minimum=2, maximum=X.shape[0])
    max_iter = check_int("max_iter", max_iter, minimum=1)
    return _select_l2(X, y, grid, k, check_int("seed", seed, minimum=0), max_iter)


def _select_l2(X, y, grid: list[float], k: int, seed: int, max_iter: int) -> tuple[float, pd.DataFrame]:
    scores = np.zeros((len(grid), k))  # (len(grid), k)
    for j, (train, test) in enumerate(kfold_indices(X.shape[0], k, seed)):
        for i, l2 in enumerate(grid):
            model = LogisticRegression(l2=l2, max_iter=max_iter).fit(X[train], y[train])
            scores[i, j] = accuracy(y[test], model.predict(X[test]))
    table = pd.DataFrame(
        {"mean": scores.mean(axis=1), "sd": scores.std(axis=1, ddof=1)}, index=pd.Index(grid, name="lambda")
    )
    return float(grid[int(np.argmax(table["mean"].to_numpy()))]), table


@functools.lru_cache(maxsize=1)
def polarity_systems() -> dict[str, Any]:
    """The chapter's four polarity classifiers and their test predictions.

    Returns ``{"l2": the L2 weight chosen by select_l2 on the training set, "gold": (n_test,) labels,
    "pred": {name: (n_test,) predictions}}`` for the systems ``naive Bayes``, ``NB + negation``,
    ``logistic regression`` (word presence) and ``LR + lexicon`` (word presence and the two VADER
    counts, standardised on the training set). Cached: do not modify.
    """
    f = polarity_features()
    docs, labels, X = f["docs"], f["labels"], f["X"]
    l2, _ = select_l2(X["train"], labels["train"])
    lex = {part: lexicon_counts(ds, vader_lexicon()) for part, ds in docs.items()}
    mean, sd = lex["train"].mean(axis=0), lex["train"].std(axis=0)
    X_lex = {part: sp.hstack([X[part], (lex[part] - mean) / sd]).tocsr() for part in X}
    neg_train = [mark_negation(d) for d in docs["train"]]
    pred = {
        "naive Bayes": NaiveBayes().fit(docs["train"], labels["train"]).predict(docs["test"]),
        "NB + negation": NaiveBayes().fit(neg_train, labels["train"]).predict([mark_negation(d) for d in docs["test"]]),
        "logistic regression": LogisticRegression(l2=l2).fit(X["train"], labels["train"]).predict(X["test"]),
        "LR + lexicon": LogisticRegression(l2=l2).fit(X_lex["train"], labels["train"]).predict(X_lex["test"]),
    }
    return {"l2": l2, "gold": labels["test"], "pred": pred}


@functools.lru_cache(maxsize=1)
def genre_systems() -> dict[str, Any]:
    """Softmax regression and naive Bayes on the Shakespeare genre task, with their test predictions.

    Returns ``{"vocabulary": word -> column, "models": {"softmax regression": SoftmaxRegression,
    "naive Bayes": NaiveBayes}, "gold": (n_test,) genres, "pred": {name: (n_test,) genres}}``. Softmax
    regression sees binary word presence with L2 weight :data:`GENRE_L2`, trained to its minimum
    (:data:`GENRE_SOLVER`). Cached: do not modify.
    """
    genres = genre_split()
    docs = {part: list(frame["tokens"]) for part, frame in genres.items()}
    y = {part: frame["genre"].to_numpy() for part, frame in genres.items()}
    vocabulary = build_vocabulary(docs["train"])
    X = {part: count_matrix(ds, vocabulary, binary=True) for part, ds in docs.items()}
    models = {
        "softmax regression": SoftmaxRegression(**GENRE_SOLVER).fit(X["train"], y["train"]),
        "naive Bayes": NaiveBayes().fit(docs["train"], y["train"]),
    }
    pred = {
        "softmax regression": models["softmax regression"].predict(X["test"]),
        "naive Bayes": models["naive Bayes"].predict(docs["test"]),
    }
    return {"vocabulary": vocabulary, "models": models, "gold": y["test"], "pred": pred}
