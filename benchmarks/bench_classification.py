"""Benchmarks of the text classification chapter's helpers (``nlp_helpers.classification``).

Rows (see CONTRIBUTING.md, "Benchmarks"):

1. ``NaiveBayes().fit`` + ``predict_log_proba`` on the polarity training split (7,464 snippets)
   and test split (2,132) vs scikit-learn's ``CountVectorizer(vocabulary=ours)`` +
   ``MultinomialNB``, both starting from the raw snippets (tokens are ``text.split()``).
   Target: identical predictions, log-probabilities equal to 1e-10, ours at most 2x sklearn's time.
2. The same with ``binary=True`` (``CountVectorizer(binary=True)``).
3. ``LogisticRegression(l2=3e-4)`` on binary word features vs scikit-learn's
   ``LogisticRegression(C=1 / (l2 n))`` (lbfgs) on the same sparse matrix.
   Target: >= 99.5% identical test predictions (both stop at a tolerance); time for information.
4. ``paired_bootstrap`` (10,000 samples, 2,132 test items) vs the plain loop of SLP3's rule.
   Target: identical p-value, ours >= 2x faster (drawing the 21M indices dominates both).

Times are the best of ``REPEATS`` runs. Run: ``python -m benchmarks.bench_classification``.
"""

from __future__ import annotations

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer  # noqa: E402
from sklearn.linear_model import LogisticRegression as SkLogisticRegression  # noqa: E402
from sklearn.naive_bayes import MultinomialNB  # noqa: E402

from benchmarks.timing import best_of
from nlp_helpers.classification.features import build_vocabulary, count_matrix  # noqa: E402
from nlp_helpers.classification.logistic_regression import LogisticRegression  # noqa: E402
from nlp_helpers.classification.naive_bayes import NaiveBayes  # noqa: E402
from nlp_helpers.classification.significance import paired_bootstrap  # noqa: E402
from nlp_helpers.data.polarity import polarity_split  # noqa: E402

REPEATS = 3


def bench_naive_bayes(train, test, binary: bool) -> dict:
    def ours_run():
        nb = NaiveBayes(binary=binary).fit([t.split() for t in train["text"]], train["label"])
        return nb, nb.predict_log_proba([t.split() for t in test["text"]])

    (nb, ours), t_ours = best_of(ours_run, REPEATS)

    def ref_run():
        vec = CountVectorizer(
            tokenizer=str.split, lowercase=False, token_pattern=None, binary=binary, vocabulary=nb.vocabulary_
        )
        model = MultinomialNB().fit(vec.transform(train["text"]), train["label"])
        return model.predict_log_proba(vec.transform(test["text"]))

    theirs, t_ref = best_of(ref_run, REPEATS)
    same = np.mean(np.argmax(ours, axis=1) == np.argmax(theirs, axis=1))
    diff = float(np.max(np.abs(ours - theirs)))
    return {
        "helper": f"nlp_helpers.classification.naive_bayes.NaiveBayes(binary={binary}) fit + predict",
        "reference": "sklearn CountVectorizer + MultinomialNB",
        "agreement": float(same),
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": "identical predictions, log-probabilities within 1e-10, ours <= 2x sklearn's time",
        "met": bool(same == 1.0 and diff <= 1e-10 and t_ours <= 2 * t_ref),
        "note": f"polarity train {len(train):,} / test {len(test):,} snippets, vocabulary {len(nb.vocabulary_):,}; "
        f"max |log-prob difference| {diff:.1e}",
    }


def bench_logistic(train, test) -> dict:
    docs_tr, docs_te = [t.split() for t in train["text"]], [t.split() for t in test["text"]]
    vocab = build_vocabulary(docs_tr)
    X_tr, X_te = count_matrix(docs_tr, vocab, binary=True), count_matrix(docs_te, vocab, binary=True)
    y = train["label"].to_numpy()
    l2 = 3e-4
    ours, t_ours = best_of(lambda: LogisticRegression(l2=l2).fit(X_tr, y), REPEATS)
    ref, t_ref = best_of(
        lambda: SkLogisticRegression(C=1 / (l2 * len(y)), tol=1e-6, max_iter=5000).fit(X_tr, y), REPEATS
    )
    same = float(np.mean(ours.predict(X_te) == ref.predict(X_te)))
    return {
        "helper": "nlp_helpers.classification.logistic_regression.LogisticRegression(l2=3e-4).fit",
        "reference": "sklearn LogisticRegression(C=1/(l2 n), lbfgs)",
        "agreement": same,
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": ">= 99.5% identical test predictions",
        "met": same >= 0.995,
        "note": f"binary word features, {X_tr.shape[0]:,} x {X_tr.shape[1]:,} sparse; ours {ours.n_iter_} "
        f"accelerated gradient steps; max |w difference| {np.max(np.abs(ours.coef_ - ref.coef_[0])):.1e}",
    }


def bench_bootstrap(test) -> dict:
    g = np.random.default_rng(0)
    gold = test["label"].to_numpy()
    a = np.where(g.random(len(gold)) < 0.78, gold, 1 - gold)
    b = np.where(g.random(len(gold)) < 0.76, gold, 1 - gold)

    def loop():
        generator, right_a, right_b = np.random.default_rng(1), a == gold, b == gold
        observed, hits = int(right_a.sum()) - int(right_b.sum()), 0
        for _ in range(10_000):
            idx = generator.integers(0, len(gold), size=len(gold))
            hits += int(right_a[idx].sum()) - int(right_b[idx].sum()) >= 2 * observed
        return hits / 10_000

    ours, t_ours = best_of(lambda: paired_bootstrap(gold, a, b, rng=np.random.default_rng(1)), REPEATS)
    ref, t_ref = best_of(loop, 1)
    return {
        "helper": "nlp_helpers.classification.significance.paired_bootstrap (10,000 samples)",
        "reference": "plain Python loop of SLP3's rule",
        "agreement": float(ours == ref),
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": "identical p-value, ours >= 2x faster",
        "met": bool(ours == ref and t_ref >= 2 * t_ours),
        "note": f"{len(gold):,} test items, p = {ours:.4f}; speed-up {t_ref / t_ours:.0f}x",
    }


def run() -> list[dict]:
    parts = polarity_split()
    train, test = parts["train"], parts["test"]
    return [
        bench_naive_bayes(train, test, False),
        bench_naive_bayes(train, test, True),
        bench_logistic(train, test),
        bench_bootstrap(test),
    ]


if __name__ == "__main__":
    for row in run():
        print(row)
