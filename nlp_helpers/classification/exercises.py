"""Checkers for the exercises of the text classification chapter (``book/classification/``).

Each checker calls the student's function on small inputs (the SLP3 sentiment toy corpus, the
SLP3 urgent/normal/spam confusion matrix, slices of the polarity data), compares the answer with
this package's helpers, tests an edge case students forget, and names the likely mistake.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

import numpy as np

from nlp_helpers.classification.evaluation import precision_recall_fscore
from nlp_helpers.classification.features import mark_negation
from nlp_helpers.classification.naive_bayes import NaiveBayes
from nlp_helpers.classification.significance import paired_bootstrap
from nlp_helpers.exercises.checker import Checker, CheckResult

__all__ = [
    "check_approximate_randomization",
    "check_binary_likelihoods",
    "check_compare_feature_sets",
    "check_f_beta",
    "check_macro_micro_f1",
]

TOY = [
    ("-", "just plain boring"),
    ("-", "entirely predictable and lacks energy"),
    ("-", "no surprises and very few laughs"),
    ("+", "very powerful"),
    ("+", "the most fun film of the summer"),
]
# SLP3's three-class example, gold classes in rows (urgent, normal, spam), predictions in columns.
SPAM_CM = np.array([[8, 5, 3], [10, 60, 30], [1, 50, 200]])


def _f(p: float, r: float, beta: float) -> float:
    return 0.0 if p == 0 and r == 0 else (1 + beta**2) * p * r / (beta**2 * p + r)


def check_f_beta(f_beta: Callable) -> CheckResult:
    """``f_beta(precision, recall, beta=1.0)`` = (1 + b^2) P R / (b^2 P + R), and 0 when P = R = 0."""
    with Checker("F-beta from precision and recall") as ex:
        got = ex.call(f_beta, 0.5, 1.0)
        ex.expect_close(
            got,
            2 / 3,
            what="f_beta(0.5, 1.0)",
            hint="With beta = 1 this is the harmonic mean 2PR / (P + R), not the arithmetic mean.",
        )
        for p, r, beta in [(0.42, 0.5, 1.0), (0.9, 0.3, 2.0), (0.9, 0.3, 0.5), (1.0, 1.0, 3.0)]:
            want = _f(p, r, beta)
            got = ex.call(f_beta, p, r, beta)
            if beta != 1 and abs(float(got) - _f(r, p, beta)) < 1e-9 and abs(want - _f(r, p, beta)) > 1e-6:
                ex.fail(
                    f"f_beta({p}, {r}, {beta}) gave {float(got):.4f}, the value with P and R swapped. "
                    "beta > 1 weighs recall more: the beta^2 multiplies P in the denominator."
                )
            ex.expect_close(
                got,
                want,
                what=f"f_beta({p}, {r}, {beta})",
                hint="Use (1 + beta**2) * P * R / (beta**2 * P + R).",
                reveal=(p, r) != (0.9, 0.3),  # F2 and F0.5 of P = 0.9, R = 0.3 are worked out by hand first
            )
        got, error = ex.try_call(f_beta, 0.0, 0.0)
        if isinstance(error, ZeroDivisionError):
            ex.fail(
                "f_beta(0.0, 0.0) raised ZeroDivisionError. A classifier that finds nothing right scores 0: "
                "return 0.0 instead of dividing by zero."
            )
        if error is not None:
            ex.fail(f"calling f_beta(0.0, 0.0) raised {type(error).__name__}: {error}.")
        ex.expect_close(
            got,
            0.0,
            what="f_beta(0.0, 0.0)",
            hint="A classifier that finds nothing right scores 0: return 0.0 instead of dividing by zero.",
        )
    return ex.result


# Snippets with words repeated inside one document, where binary and plain counts differ.
REPEATS = [
    ("+", "fun fun fun and very very good"),
    ("+", "good film"),
    ("-", "dull dull and long"),
    ("-", "boring film , very boring"),
]


def check_binary_likelihoods(binary_likelihoods: Callable) -> CheckResult:
    """``binary_likelihoods(docs, labels, alpha)`` -> {class: {word: P(word | class)}} of binary naive Bayes."""
    with Checker("Likelihoods of binary naive Bayes") as ex:
        docs, labels = [t.split() for _, t in REPEATS], [c for c, _ in REPEATS]
        for alpha in (1.0, 0.5):
            got = ex.call(binary_likelihoods, docs, labels, alpha)
            ex.expect(
                isinstance(got, dict) and set(got) == {"+", "-"},
                "binary_likelihoods should return a dict with one entry per class ('+' and '-').",
            )
            nb = NaiveBayes(alpha=alpha, binary=True).fit(docs, labels)
            plain = NaiveBayes(alpha=alpha).fit(docs, labels)
            for k, c in enumerate(nb.classes_):
                ex.expect(
                    isinstance(got[c], dict) and set(got[c]) == set(nb.vocabulary_),
                    f"got[{c!r}] should have one probability for each of the {len(nb.vocabulary_)} words of the "
                    "training vocabulary (all classes together), also for words never seen in that class.",
                )
                want = {w: float(np.exp(nb.feature_log_prob_[k, j])) for w, j in nb.vocabulary_.items()}
                counted = {w: float(np.exp(plain.feature_log_prob_[k, j])) for w, j in plain.vocabulary_.items()}
                unseen = "dull" if c == "+" else "fun"
                if abs(float(got[c][unseen])) < 1e-12:
                    ex.fail(f"got[{c!r}][{unseen!r}] is 0: add alpha to every count, also for unseen words.")
                word = "fun" if c == "+" else "boring"
                if abs(float(got[c][word]) - counted[word]) < 1e-9:
                    ex.fail(
                        f"got[{c!r}][{word!r}] = {float(got[c][word]):.4f}, the value with plain counts: binary naive "
                        f"Bayes counts {word!r} at most once per document (clip each document's counts at 1 "
                        "before adding them up)."
                    )
                total = sum(float(v) for v in got[c].values())
                ex.expect(
                    abs(total - 1) < 1e-9,
                    f"the probabilities of class {c!r} sum to {total:.4f}, not 1: the denominator is the number "
                    "of clipped word counts in the class (each word once per document) + alpha * |V|.",
                )
                for w in sorted(want):
                    ex.expect_close(
                        got[c][w],
                        want[w],
                        what=f"binary_likelihoods(..., alpha={alpha})[{c!r}][{w!r}]",
                        hint="(number of documents of class c that contain w + alpha) / "
                        "(sum of those numbers over V + alpha |V|).",
                        reveal=False,  # P(fun | +) with alpha = 1 is worked out by hand first
                    )
    return ex.result


def check_macro_micro_f1(macro_micro_f1: Callable) -> CheckResult:
    """``macro_micro_f1(cm)`` -> (macro F1, micro F1) for a confusion matrix with gold classes in rows."""
    with Checker("Macro- and micro-averaged F1") as ex:
        rng = np.random.default_rng(0)
        cases = [
            SPAM_CM,
            np.array([[50, 2], [10, 3]]),
            rng.integers(0, 20, size=(4, 4)),
            np.array([[5, 0, 1], [2, 0, 0], [0, 0, 4]]),
        ]
        for cm in cases:
            gold = np.repeat(np.repeat(np.arange(len(cm)), len(cm)), cm.ravel())
            pred = np.repeat(np.tile(np.arange(len(cm)), len(cm)), cm.ravel())
            macro = precision_recall_fscore(gold, pred, average="macro", labels=range(len(cm)))["f"]
            micro = precision_recall_fscore(gold, pred, average="micro", labels=range(len(cm)))["f"]
            got = ex.call(macro_micro_f1, cm.copy())
            ex.expect(
                isinstance(got, (tuple, list)) and len(got) == 2,
                f"macro_micro_f1 should return a pair (macro, micro), got {type(got).__name__}.",
            )
            ex.expect(
                all(np.isfinite(float(v)) for v in got),
                f"macro_micro_f1({cm.tolist()}) returned {got}: a class that is never predicted has "
                "precision 0 (not NaN); a 0/0 score counts as 0.",
            )
            macro_of_means = precision_recall_fscore(gold, pred, average="macro", labels=range(len(cm)))
            p, r = macro_of_means["precision"], macro_of_means["recall"]
            if p + r > 0 and abs(float(got[0]) - macro) > 1e-9 and abs(float(got[0]) - 2 * p * r / (p + r)) < 1e-9:
                ex.fail(
                    "your macro F1 is the F1 of the macro precision and macro recall. Macro-averaging "
                    "computes F1 for every class first, then takes the mean of those F1 scores."
                )
            ex.expect_close(
                got[0],
                macro,
                what=f"macro F1 of {cm.tolist()}",
                hint="Per class: P = TP / column sum, R = TP / row sum, F1 = 2PR / (P + R); then average.",
            )
            ex.expect_close(
                got[1],
                micro,
                what=f"micro F1 of {cm.tolist()}",
                hint="Micro: sum TP, FP and FN over the classes first, then compute one P, R and F1.",
            )
        # A class never gold and never predicted (TP = FP = FN = 0): its F1 is 0/0, which counts as 0
        # and still enters the macro mean, so the macro F1 is 2/3 (and micro F1 is 1).
        empty = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 0]])
        got = ex.call(macro_micro_f1, empty.copy())
        ex.expect(
            isinstance(got, (tuple, list)) and len(got) == 2,
            f"macro_micro_f1 should return a pair (macro, micro), got {type(got).__name__}.",
        )
        macro_empty = float(got[0])
        if abs(macro_empty - 1.0) < 1e-9:
            ex.fail(
                f"macro_micro_f1({empty.tolist()}) gave macro F1 1.0: you skipped the third class, which is "
                "never gold and never predicted. Its F1 is 0/0, which counts as 0, and it still counts in the "
                "macro average: (1 + 1 + 0) / 3 = 2/3."
            )
        ex.expect(
            np.isfinite(macro_empty),
            f"macro_micro_f1({empty.tolist()}) gave macro F1 {macro_empty}: the third class has "
            "TP = FP = FN = 0, so its F1 is 0/0; count it as 0 instead of NaN.",
        )
        ex.expect_close(
            macro_empty,
            2 / 3,
            what=f"macro F1 of {empty.tolist()}",
            hint="A 0/0 score counts as 0 and the class still counts: (1 + 1 + 0) / 3.",
        )
        ex.expect_close(got[1], 1.0, what=f"micro F1 of {empty.tolist()}", hint="Every item is right.")
    return ex.result


def _reference_compare(train_docs, train_labels, test_docs, test_labels, transform, n_samples, seed):
    a = NaiveBayes().fit([transform(d) for d in train_docs], train_labels).predict([transform(d) for d in test_docs])
    b = NaiveBayes().fit(train_docs, train_labels).predict(test_docs)
    gold = np.asarray(test_labels)
    return {
        "acc_a": float(np.mean(a == gold)),
        "acc_b": float(np.mean(b == gold)),
        "p_value": paired_bootstrap(gold, a, b, n_samples=n_samples, rng=seed),
    }


def check_compare_feature_sets(compare_feature_sets: Callable) -> CheckResult:
    """``compare_feature_sets(train_docs, train_labels, test_docs, test_labels, transform, n_samples, seed)``."""
    from nlp_helpers.data.polarity import polarity_split

    with Checker("Naive Bayes with and without a feature transform, with a bootstrap test") as ex:
        parts = polarity_split()
        train, test = parts["train"].iloc[:2000], parts["test"].iloc[:600]
        tr_docs, te_docs = [t.split() for t in train["text"]], [t.split() for t in test["text"]]
        tr_y, te_y = train["label"].tolist(), test["label"].tolist()

        def bigrams(doc):
            return doc + [a + "_" + b for a, b in pairwise(doc)]

        for transform, name in [(mark_negation, "mark_negation"), (bigrams, "bigrams")]:
            want = ex.reference(_reference_compare, tr_docs, tr_y, te_docs, te_y, transform, 2000, 7)
            got = ex.call(compare_feature_sets, tr_docs, tr_y, te_docs, te_y, transform, 2000, 7)
            ex.expect(
                isinstance(got, dict) and {"acc_a", "acc_b", "p_value"} <= set(got),
                "compare_feature_sets should return a dict with keys 'acc_a', 'acc_b' and 'p_value'.",
            )
            if abs(float(got["acc_a"]) - want["acc_b"]) < 1e-12 and abs(want["acc_a"] - want["acc_b"]) > 1e-12:
                ex.fail(
                    f"with transform={name}, acc_a equals the accuracy of the plain model: apply the transform "
                    "to the test documents too (A = naive Bayes on transformed training *and* test documents)."
                )
            ex.expect_close(
                got["acc_a"],
                want["acc_a"],
                what=f"acc_a (transform={name})",
                hint="Fit NaiveBayes() on the transformed training documents, predict the transformed test ones.",
            )
            ex.expect_close(
                got["acc_b"],
                want["acc_b"],
                what=f"acc_b (transform={name})",
                hint="B is NaiveBayes() on the untransformed documents.",
            )
            swapped = 1.0 - want["p_value"]
            if abs(float(got["p_value"]) - want["p_value"]) > 1e-9 and abs(float(got["p_value"]) - swapped) < 0.05:
                ex.fail(
                    "your p-value looks like the one of 'B is better than A': pass pred_a (the transformed "
                    "model) before pred_b to paired_bootstrap."
                )
            ex.expect_close(
                got["p_value"],
                want["p_value"],
                what=f"p_value (transform={name})",
                hint="Use paired_bootstrap(gold, pred_a, pred_b, n_samples=n_samples, rng=seed).",
            )
    return ex.result


def _approximate_randomization(gold, a, b, n_samples: int, seed: int, two_sided: bool = False) -> float:
    """Reference: swap A's and B's output on each item with probability 1/2; p = share with delta' >= delta."""
    right_a, right_b = (np.asarray(a) == gold).astype(float), (np.asarray(b) == gold).astype(float)
    observed = right_a.mean() - right_b.mean()
    swap = np.random.default_rng(seed).random((n_samples, len(gold))) < 0.5  # (B, n)
    deltas = np.where(swap, right_b - right_a, right_a - right_b).mean(axis=1)
    if two_sided:
        return float(np.mean(np.abs(deltas) >= abs(observed) - 1e-12))
    return float(np.mean(deltas >= observed - 1e-12))


def _systems(n: int, acc_a: float, acc_b: float, seed: int):
    g = np.random.default_rng(seed)
    gold = g.integers(0, 2, n)
    return gold, np.where(g.random(n) < acc_a, gold, 1 - gold), np.where(g.random(n) < acc_b, gold, 1 - gold)


def check_approximate_randomization(approximate_randomization: Callable) -> CheckResult:
    """``approximate_randomization(gold, pred_a, pred_b, n_samples, seed)`` -> p-value of "A is better than B"."""
    with Checker("Approximate randomization test") as ex:
        gold, a, b = _systems(400, 0.78, 0.76, 5)  # accuracy .78 vs .74: p about 0.14
        want = ex.reference(_approximate_randomization, gold, a, b, 40000, 123)
        got = float(ex.call(approximate_randomization, gold, a, b, 5000, 0))
        ex.expect(0.0 <= got <= 1.0, f"a p-value is a probability, got {got}.")
        # Monte Carlo error of 5,000 samples: sd <= 0.007 here, so 0.035 is five sd.
        if abs(got - want) > 0.035:
            if abs(got - _approximate_randomization(gold, b, a, 40000, 123)) < 0.035:
                ex.fail(
                    f"got p = {got:.3f}, the p-value of 'B is better than A' (want about {want:.3f}): count "
                    "the shuffled differences delta' = acc(A') - acc(B') that are >= the observed one."
                )
            if abs(got - _approximate_randomization(gold, a, b, 40000, 123, two_sided=True)) < 0.035:
                ex.fail(
                    f"got p = {got:.3f}, the two-sided p-value (want about {want:.3f}): the question is "
                    "one-sided, 'is A better?', so compare delta' >= delta, not |delta'| >= |delta|."
                )
            ex.fail(
                f"got p = {got:.3f} but the test gives about {want:.3f}. For every sample, swap A's and B's "
                "outputs on each item independently with probability 1/2 (the pairs stay together), "
                "recompute delta' and count delta' >= delta(x)."
            )
        same = float(ex.call(approximate_randomization, gold, a, a, 500, 0))
        ex.expect(
            same > 0.99,
            f"two identical systems should give p = 1, got {same}: swapping the outputs of an "
            "item on which A and B agree changes nothing, so every delta' is 0. Swap item by item (keep each "
            "item's pair together; do not pool and shuffle all outputs), and count ties (delta' == delta) "
            "as reaching the observed difference.",
        )
        gold2, a2, b2 = _systems(300, 1.0, 0.6, 2)
        strong = float(ex.call(approximate_randomization, gold2, a2, b2, 2000, 0))
        ex.expect(
            strong < 0.01, f"a perfect A against a B with 60% accuracy on 300 items should give p < 0.01, got {strong}."
        )
    return ex.result
