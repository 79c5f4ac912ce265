"""Choosing the L2 weight by cross-validation, and the chapter's rebuilt classifiers."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression as SkLogisticRegression

from nlp_helpers.classification.evaluation import kfold_indices
from nlp_helpers.classification.naive_bayes import NaiveBayes
from nlp_helpers.classification.systems import (
    L2_GRID,
    genre_systems,
    polarity_features,
    polarity_systems,
    select_l2,
)
from nlp_helpers.data.polarity import polarity_split


def _data(n=300, d=20, seed=0):
    g = np.random.default_rng(seed)
    X = g.normal(size=(n, d))
    w = g.normal(size=d)
    y = (X @ w + g.normal(scale=2.0, size=n) > 0).astype(int)
    return X, y


def test_select_l2_agrees_with_scikit_learn_on_the_same_folds():
    X, y = _data()
    grid = [1e-4, 1e-2, 1.0]
    best, table = select_l2(X, y, grid, k=4, seed=3, max_iter=3000)
    ref = []
    for lam in grid:
        scores = []
        for train, test in kfold_indices(len(y), 4, 3):
            sk = SkLogisticRegression(C=1 / (lam * len(train)), tol=1e-10, max_iter=10_000)
            sk.fit(X[train], y[train])
            scores.append(np.mean(sk.predict(X[test]) == y[test]))
        ref.append(np.mean(scores))
    # same objective on the same folds: at most one borderline item per fold may differ
    np.testing.assert_allclose(table["mean"].to_numpy(), ref, atol=1 / 75 + 1e-12)
    assert best == grid[int(np.argmax(table["mean"].to_numpy()))]
    assert list(table.index) == grid and (table["sd"] >= 0).all()
    # a penalty of 1.0 shrinks the weights of this problem far too much
    assert table.loc[1.0, "mean"] < table.loc[1e-4, "mean"]


def test_select_l2_bad_inputs():
    X, y = _data(40, 3)
    with pytest.raises(ValueError, match="grid"):
        select_l2(X, y, [])
    with pytest.raises(ValueError, match=r"grid\[0\]"):
        select_l2(X, y, [-1.0])
    with pytest.raises(ValueError, match="y"):
        select_l2(X, y[:-1])
    with pytest.raises(ValueError, match="k"):
        select_l2(X, y, k=1)
    with pytest.raises(ValueError, match="X"):
        select_l2(np.zeros(40), y)


def test_polarity_features_follow_the_fixed_split():
    f = polarity_features()
    split = polarity_split()
    for part in ("train", "dev", "test"):
        assert f["X"][part].shape == (len(split[part]), len(f["vocabulary"]))
        assert f["X"][part].max() == 1  # word presence
        assert list(f["labels"][part]) == list(split[part]["label"])
    assert set(f["vocabulary"]) == {t for d in f["docs"]["train"] for t in d}


@pytest.mark.slow
def test_polarity_systems_rebuild_the_chapters_classifiers():
    s = polarity_systems()
    f = polarity_features()
    assert s["l2"] in L2_GRID
    nb = NaiveBayes().fit(f["docs"]["train"], f["labels"]["train"])
    assert (s["pred"]["naive Bayes"] == nb.predict(f["docs"]["test"])).all()
    assert set(s["pred"]) == {"naive Bayes", "NB + negation", "logistic regression", "LR + lexicon"}
    for pred in s["pred"].values():
        assert pred.shape == s["gold"].shape and 0.7 < np.mean(pred == s["gold"]) < 0.82


@pytest.mark.slow
def test_genre_systems_hold_out_whole_plays():
    g = genre_systems()
    assert set(g["pred"]) == {"softmax regression", "naive Bayes"}
    for pred in g["pred"].values():
        assert pred.shape == g["gold"].shape and np.mean(pred == g["gold"]) > 0.5  # chance is about 1/3
    assert list(g["models"]["softmax regression"].classes_) == ["comedy", "history", "tragedy"]
