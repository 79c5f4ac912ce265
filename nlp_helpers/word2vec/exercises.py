"""Checkers for the exercises of the word2vec chapter (``book/word2vec.ipynb``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import rng as seeded_rng
from nlp_helpers.word2vec.corpus import noise_distribution
from nlp_helpers.word2vec.evaluation import WordVectors
from nlp_helpers.word2vec.sgns import sgns_gradients, sgns_loss
from nlp_helpers.word2vec.softmax import cbow_forward

__all__ = [
    "check_cbow_probabilities",
    "check_noise_probs",
    "check_sgns_loss_one",
    "check_sgns_grad_v",
    "check_nearest_words",
]

# The chapter's worked example: vocabulary the, cat, sat, on, mat.
W1 = np.array([[2, 0, 1], [0, 0, 2], [1, 2, 0], [0, 2, 2], [2, 1, 0]], dtype=float)
W2 = np.array([[0, 1, 1, 1, 0], [1, 1, 0, 0, 1], [0, -1, 0, -1, -1]], dtype=float)


def check_cbow_probabilities(cbow_probabilities: Callable) -> CheckResult:
    """``cbow_probabilities(context_ids, W1, W2)`` -> the (V,) softmax over the centre word."""
    with Checker("CBOW forward pass") as ex:
        got = ex.call(cbow_probabilities, [0, 2], W1, W2)
        ex.expect_close(
            got,
            cbow_forward([0, 2], W1, W2)["probs"],
            what="cbow_probabilities([0, 2], W1, W2)",
            hint="Sum the rows W1[i] of the context words, multiply by W2, then apply the softmax.",
        )
        got = ex.call(cbow_probabilities, [3, 3], W1, W2)
        ex.expect_close(
            got,
            cbow_forward([3, 3], W1, W2)["probs"],
            what="cbow_probabilities([3, 3], W1, W2)",
            hint="A context word that appears twice is added twice (one-hot rows are summed, not a set).",
        )
        rng = seeded_rng(0)
        big1, big2 = rng.normal(size=(50, 8)) * 30, rng.normal(size=(8, 50)) * 30
        got = ex.call(cbow_probabilities, [1, 7, 9], big1, big2)
        ex.expect_close(
            got,
            cbow_forward([1, 7, 9], big1, big2)["probs"],
            what="probabilities for large scores",
            hint="Subtract the largest score before exponentiating, or exp() overflows to inf and you get NaN.",
            rtol=1e-5,
            atol=1e-9,
        )
    return ex.result


def check_noise_probs(noise_probs: Callable) -> CheckResult:
    """``noise_probs(counts, power=0.75)`` -> P(w) proportional to count(w)**power."""
    counts = np.array([150, 70, 70, 50, 20, 1])
    with Checker("The noise distribution") as ex:
        got = ex.call(noise_probs, counts)
        ex.expect_close(
            got,
            noise_distribution(counts, 0.75),
            what="noise_probs(counts)",
            hint="Raise each count to the power 0.75 (the default), then divide by the sum.",
        )
        got = ex.call(noise_probs, counts, power=1.0)
        ex.expect_close(
            got,
            counts / counts.sum(),
            what="noise_probs(counts, power=1.0)",
            hint="Use the power argument instead of a hard-coded 0.75.",
        )
        got = ex.call(noise_probs, counts, power=0.0)
        ex.expect_close(
            got,
            np.full(6, 1 / 6),
            what="noise_probs(counts, power=0.0)",
            hint="With power 0 every word is equally likely.",
        )
    return ex.result


def _as_torch(v, u_pos, u_negs):
    return (
        torch.tensor(v, dtype=torch.float64)[None],
        torch.tensor(u_pos, dtype=torch.float64)[None],
        torch.tensor(u_negs, dtype=torch.float64)[None],
    )


def _sgns_case(seed: int):
    rng = seeded_rng(seed)
    return rng.normal(size=4), rng.normal(size=4), rng.normal(size=(3, 4))


def check_sgns_loss_one(sgns_loss_one: Callable) -> CheckResult:
    """``sgns_loss_one(v, u_pos, u_negs)`` -> the SGNS loss of one (word, context, k negatives) example."""
    with Checker("The skip-gram negative-sampling loss") as ex:
        for seed in (0, 1):
            v, u, n = _sgns_case(seed)
            got = ex.call(sgns_loss_one, v, u, n)
            ex.expect_close(
                got,
                float(sgns_loss(*_as_torch(v, u, n))[0]),
                what=f"the loss of example {seed}",
                hint="-log σ(u_pos·v) minus the sum over negatives of log σ(-u_neg·v).",
            )
        # A badly wrong pair: u_pos·v = -900 and one negative with u_neg·v = +900 (each costs 900 nats).
        v, u = np.array([30.0, 30.0, 0.0, 0.0]), np.array([-15.0, -15.0, 0.0, 1.0])
        n = np.array([[15.0, 15.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [-1.0, 0.0, 0.0, 0.0]])
        got = ex.call(sgns_loss_one, v, u, n)
        ex.expect_close(
            got,
            float(sgns_loss(*_as_torch(v, u, n))[0]),
            what="the loss with very large dot products",
            hint="-log σ(x) = log(1 + e^(-x)); compute it as np.logaddexp(0, -x) so it never overflows.",
            rtol=1e-6,
        )
    return ex.result


def check_sgns_grad_v(sgns_grad_v: Callable) -> CheckResult:
    """``sgns_grad_v(v, u_pos, u_negs)`` -> dL/dv, shape (d,)."""
    with Checker("The gradient of the SGNS loss") as ex:
        for seed in (3, 4):
            v, u, n = _sgns_case(seed)
            got = ex.call(sgns_grad_v, v, u, n)
            want = sgns_gradients(*_as_torch(v, u, n))[0][0].numpy()
            ex.expect_close(
                got,
                want,
                what=f"dL/dv for example {seed}",
                hint="(σ(u_pos·v) - 1) u_pos + Σ_i σ(u_neg_i·v) u_neg_i: note the signs.",
            )
    return ex.result


def check_nearest_words(nearest_words: Callable) -> CheckResult:
    """``nearest_words(word, words, vectors, topn)`` -> the topn other words by cosine similarity."""
    words = ["cat", "dog", "car", "truck", "kitten"]
    vectors = np.array([[1.0, 0.1], [0.9, 0.3], [0.1, 1.0], [0.2, 5.0], [0.5, 0.02]])
    wv = WordVectors(words, vectors)
    with Checker("Cosine nearest neighbours") as ex:
        got = ex.call(nearest_words, "cat", words, vectors, 2)
        ex.expect_equal(
            list(got),
            [w for w, _ in wv.most_similar("cat", 2)],
            what='nearest_words("cat", ..., 2)',
            hint="Use the cosine (divide by both norms), not the raw dot product: "
            "'kitten' has a short vector but points the same way as 'cat'.",
        )
        got = ex.call(nearest_words, "truck", words, vectors, 4)
        ex.expect_equal(
            list(got),
            [w for w, _ in wv.most_similar("truck", 4)],
            what='nearest_words("truck", ..., 4)',
            hint="Leave the query word itself out of the answer and sort from most to least similar.",
        )
        ex.expect_raises(
            KeyError,
            nearest_words,
            "zebra",
            words,
            vectors,
            2,
            what='nearest_words("zebra", ...)',
            hint="Raise KeyError naming the word when it is not in `words`.",
        )
    return ex.result
