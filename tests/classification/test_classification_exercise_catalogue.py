"""Catalogue of the exercises checked in ``nlp_helpers/classification/exercises.py`` (``naive_bayes`` and
``evaluation`` pages): requirements, correct answers in two styles (accepted) and one typical wrong answer or
more per requirement (rejected with a hint naming the mistake). The correct answers are the independent
solutions of ``test_classification_exercises.py``.

* ``f_beta(precision, recall, beta=1.0)``: (1 + b²) P R / (b² P + R), the harmonic mean for b = 1; ``beta``
  used, with the default 1.0; P and R not swapped; P = R = 0 gives 0.0 (no error).
* ``binary_likelihoods(docs, labels, alpha)``: {class: {word: P}}; each word at most once per document; add
  ``alpha`` to every count (``alpha`` used), alpha |V| in the denominator; the vocabulary of all classes
  together, an entry for every word in every class; each class sums to 1.
* ``macro_micro_f1(cm)``: the pair (macro, micro); macro = the mean of the per-class F1 (not the F1 of the
  mean precision and recall); a 0/0 score counts 0 and its class still counts; micro from summed TP, FP, FN;
  the input not modified.
* ``compare_feature_sets(...)``: a dict with acc_a, acc_b, p_value; A = naive Bayes on transformed training
  *and* test documents, B on the untransformed ones; p-value of "A better than B" from ``paired_bootstrap``
  with the given ``n_samples`` and ``seed``.
* ``approximate_randomization(gold, pred_a, pred_b, n_samples, seed)``: swaps item by item (pairs kept);
  one-sided (A better than B, not two-sided, not B better than A); ties count.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from nlp_helpers.classification.exercises import (
    check_approximate_randomization,
    check_binary_likelihoods,
    check_compare_feature_sets,
    check_f_beta,
    check_macro_micro_f1,
)
from nlp_helpers.classification.naive_bayes import NaiveBayes
from nlp_helpers.classification.significance import paired_bootstrap
from tests.classification.test_classification_exercises import (
    add_alpha_likelihoods,
    approximate_randomization,
    approximate_randomization_vectorised,
    binary_likelihoods,
    binary_likelihoods_matrix,
    compare_feature_sets,
    compare_feature_sets_lists,
    f_beta,
    f_beta_weighted_harmonic,
    macro_micro_f1,
    macro_micro_f1_loops,
)
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


# ------------------------------------------------------------------------------------------------ f_beta
def f_beta_arithmetic(precision, recall, beta=1.0):  # the arithmetic mean
    return (precision + recall) / 2


def f_beta_swapped(precision, recall, beta=1.0):  # P and R swapped
    return f_beta(recall, precision, beta)


def f_beta_divides_by_zero(precision, recall, beta=1.0):  # P = R = 0 not handled
    return (1 + beta**2) * precision * recall / (beta**2 * precision + recall)


def f_beta_always_f1(precision, recall, beta=1.0):  # "beta" not used
    return f_beta(precision, recall, 1.0)


def f_beta_no_default(precision, recall, beta):  # "beta=1.0": no default
    return f_beta(precision, recall, beta)


# ------------------------------------------------------------------------------------ binary_likelihoods
def binary_plain_counts(docs, labels, alpha=1.0):  # every occurrence counted
    return add_alpha_likelihoods(docs, labels, alpha)


def binary_unsmoothed(docs, labels, alpha=1.0):  # no alpha on the counts
    return binary_likelihoods(docs, labels, alpha=1e-300)


def binary_no_alpha_in_denominator(docs, labels, alpha=1.0):
    vocab = {w for doc in docs for w in doc}
    out = {}
    for c in set(labels):
        df = Counter(w for doc, lab in zip(docs, labels) if lab == c for w in set(doc))
        out[c] = {w: (df[w] + alpha) / sum(df.values()) for w in vocab}
    return out


def binary_class_vocabulary(docs, labels, alpha=1.0):  # each class's own words only
    out = {}
    for c in set(labels):
        df = Counter(w for doc, lab in zip(docs, labels) if lab == c for w in set(doc))
        out[c] = {w: (n + alpha) / (sum(df.values()) + alpha * len(df)) for w, n in df.items()}
    return out


def binary_per_document(docs, labels, alpha=1.0):  # Bernoulli-style denominator: documents of the class
    vocab = {w for doc in docs for w in doc}
    out = {}
    for c in set(labels):
        n_c = sum(lab == c for lab in labels)
        df = Counter(w for doc, lab in zip(docs, labels) if lab == c for w in set(doc))
        out[c] = {w: (df[w] + alpha) / (n_c + 2 * alpha) for w in vocab}
    return out


def binary_alpha_one(docs, labels, alpha=1.0):  # "alpha" not used: add-one whatever alpha is
    return binary_likelihoods(docs, labels, 1.0)


# ---------------------------------------------------------------------------------------- macro_micro_f1
def f1_of_mean_precision_and_recall(cm):
    cm = np.asarray(cm, dtype=float)
    tp = np.diag(cm)
    p, r = np.mean(tp / cm.sum(axis=0)), np.mean(tp / cm.sum(axis=1))
    return 2 * p * r / (p + r), macro_micro_f1(cm)[1]


def micro_as_macro(cm):
    macro = macro_micro_f1(cm)[0]
    return macro, macro


def skips_empty_classes(cm):  # a 0/0 class left out of the macro mean
    cm = np.asarray(cm, dtype=float)
    tp = np.diag(cm)
    den = 2 * tp + (cm.sum(axis=0) - tp) + (cm.sum(axis=1) - tp)
    with np.errstate(all="ignore"):
        return float(np.nanmean(2 * tp / den)), macro_micro_f1(cm)[1]


def nan_for_zero_over_zero(cm):
    cm = np.asarray(cm, dtype=float)
    tp = np.diag(cm)
    den = 2 * tp + (cm.sum(axis=0) - tp) + (cm.sum(axis=1) - tp)
    with np.errstate(all="ignore"):
        return float(np.mean(2 * tp / den)), macro_micro_f1(cm)[1]


def macro_micro_dict(cm):  # "the pair of floats"
    macro, micro = macro_micro_f1(cm)
    return {"macro": macro, "micro": micro}


def macro_micro_zeroes_the_diagonal(cm):  # "the input is not modified"
    tp = np.diag(cm).astype(float)
    np.fill_diagonal(cm, 0)  # cm now holds the errors only
    fp, fn = cm.sum(axis=0), cm.sum(axis=1)
    with np.errstate(all="ignore"):
        f1 = np.where(2 * tp + fp + fn > 0, 2 * tp / (2 * tp + fp + fn), 0.0)
    micro = 2 * tp.sum() / (2 * tp.sum() + fp.sum() + fn.sum())
    return float(f1.mean()), float(micro)


# ---------------------------------------------------------------------------------- compare_feature_sets
def _compare(train_docs, train_labels, test_docs, test_labels, transform, n_samples, seed, *, how="right"):
    model_a = NaiveBayes().fit([transform(d) for d in train_docs], train_labels)
    plain = train_docs if how != "both transformed" else [transform(d) for d in train_docs]
    plain_test = test_docs if how != "both transformed" else [transform(d) for d in test_docs]
    model_b = NaiveBayes().fit(plain, train_labels)
    pred_a = model_a.predict([transform(d) for d in test_docs] if how != "train only" else test_docs)
    pred_b = model_b.predict(plain_test)
    gold = np.asarray(test_labels)
    first, second = (pred_b, pred_a) if how == "swapped" else (pred_a, pred_b)
    rng = 0 if how == "own seed" else seed
    n_samples = 10_000 if how == "own n_samples" else n_samples
    return {
        "acc_a": float(np.mean(pred_a == gold)),
        "acc_b": float(np.mean(pred_b == gold)),
        "p_value": paired_bootstrap(gold, first, second, n_samples=n_samples, rng=rng),
    }


def compare_train_only_transform(*args):  # A predicts untransformed test documents
    return _compare(*args, how="train only")


def compare_swapped(*args):  # the p-value of "B is better than A"
    return _compare(*args, how="swapped")


def compare_b_transformed_too(*args):  # "on the untransformed documents as system B"
    return _compare(*args, how="both transformed")


def compare_own_seed(*args):  # "paired_bootstrap(..., rng=seed)": a seed of its own
    return _compare(*args, how="own seed")


def compare_own_n_samples(*args):  # "paired_bootstrap(..., n_samples=n_samples)": a number of its own
    return _compare(*args, how="own n_samples")


def compare_missing_p_value(*args):
    out = _compare(*args)
    del out["p_value"]
    return out


# ----------------------------------------------------------------------------- approximate_randomization
def _randomization(gold, a, b, n_samples, seed, *, test="one-sided"):
    gold = np.asarray(gold)
    right_a, right_b = (np.asarray(a) == gold) * 1.0, (np.asarray(b) == gold) * 1.0
    observed = right_a.mean() - right_b.mean()
    swap = np.random.default_rng(seed).random((n_samples, len(gold))) < 0.5
    deltas = np.where(swap, right_b - right_a, right_a - right_b).mean(axis=1)
    if test == "two-sided":
        return float(np.mean(np.abs(deltas) >= abs(observed)))
    if test == "strict":
        return float(np.mean(deltas > observed + 1e-12))
    return float(np.mean(deltas >= observed - 1e-12))


def randomization_b_better(gold, a, b, n_samples=10_000, seed=0):
    return approximate_randomization(gold, b, a, n_samples, seed)


def randomization_two_sided(gold, a, b, n_samples=10_000, seed=0):
    return _randomization(gold, a, b, n_samples, seed, test="two-sided")


def randomization_ties_excluded(gold, a, b, n_samples=10_000, seed=0):
    return _randomization(gold, a, b, n_samples, seed, test="strict")


def randomization_pooled_shuffle(gold, a, b, n_samples=10_000, seed=0):  # pairs not kept together
    gold = np.asarray(gold)
    right_a, right_b = (np.asarray(a) == gold) * 1.0, (np.asarray(b) == gold) * 1.0
    observed = right_a.mean() - right_b.mean()
    g = np.random.default_rng(seed)
    pooled = np.concatenate([right_a, right_b])
    hits = 0
    for _ in range(n_samples):
        perm = g.permutation(pooled)
        hits += perm[: len(gold)].mean() - perm[len(gold) :].mean() >= observed
    return hits / n_samples


CATALOGUE = {
    check_f_beta: Catalogue(
        correct=[f_beta, f_beta_weighted_harmonic],
        wrong=[
            Wrong(f_beta_arithmetic, "harmonic mean"),
            Wrong(f_beta_swapped, "swapped"),
            Wrong(f_beta_divides_by_zero, "dividing by zero"),
            Wrong(f_beta_always_f1, ("f_beta(0.9, 0.3, 2.0)", "beta**2")),
            Wrong(f_beta_no_default, ("(0.5, 1.0)", "'beta'")),
        ],
    ),
    check_binary_likelihoods: Catalogue(
        correct=[binary_likelihoods, binary_likelihoods_matrix],
        wrong=[
            Wrong(binary_plain_counts, "at most once per document"),
            Wrong(binary_unsmoothed, "add alpha"),
            Wrong(binary_no_alpha_in_denominator, "alpha * |V|"),
            Wrong(binary_class_vocabulary, "training vocabulary"),
            Wrong(binary_per_document, "sum to"),
            Wrong(binary_alpha_one, "alpha=0.5"),
        ],
    ),
    check_macro_micro_f1: Catalogue(
        correct=[macro_micro_f1, macro_micro_f1_loops],
        wrong=[
            Wrong(f1_of_mean_precision_and_recall, "F1 for every class first"),
            Wrong(micro_as_macro, "Micro"),
            Wrong(skips_empty_classes, ("0/0", "still counts")),
            Wrong(nan_for_zero_over_zero, "NaN"),
            Wrong(macro_micro_dict, "pair (macro, micro)"),
            Wrong(macro_micro_zeroes_the_diagonal, ("modified its input", "`cm`")),
        ],
    ),
    check_compare_feature_sets: Catalogue(
        correct=[compare_feature_sets, compare_feature_sets_lists],
        wrong=[
            Wrong(compare_train_only_transform, "transformed test"),
            Wrong(compare_swapped, "pred_a"),
            Wrong(compare_b_transformed_too, "untransformed"),
            Wrong(compare_own_seed, "rng=seed"),
            Wrong(compare_own_n_samples, "n_samples=n_samples"),
            Wrong(compare_missing_p_value, "'p_value'"),
        ],
    ),
    check_approximate_randomization: Catalogue(
        correct=[approximate_randomization, approximate_randomization_vectorised],
        wrong=[
            Wrong(randomization_b_better, "B is better than A"),
            Wrong(randomization_two_sided, "one-sided"),
            Wrong(randomization_ties_excluded, "ties"),
            Wrong(randomization_pooled_shuffle, "item by item"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
