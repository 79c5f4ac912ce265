"""Checkers for the exercises of the word2vec chapter (``book/word2vec/``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import rng as seeded_rng
from nlp_helpers.word2vec.corpus import noise_distribution
from nlp_helpers.word2vec.evaluation import WordVectors
from nlp_helpers.word2vec.softmax import cbow_forward

__all__ = [
    "check_cbow_probabilities",
    "check_noise_probs",
    "check_train_cbow_ns",
    "check_nearest_words",
]

# The chapter's worked example: vocabulary the, cat, sat, on, mat.
W1 = np.array([[2, 0, 1], [0, 0, 2], [1, 2, 0], [0, 2, 2], [2, 1, 0]], dtype=float)
W2 = np.array([[0, 1, 1, 1, 0], [1, 1, 0, 0, 1], [0, -1, 0, -1, -1]], dtype=float)


def check_cbow_probabilities(cbow_probabilities: Callable) -> CheckResult:
    """``cbow_probabilities(context_ids, W1, W2)`` -> the (V,) softmax over the centre word."""
    with Checker("CBOW forward pass", forbidden={"cbow_forward": cbow_forward}) as ex:
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
    with Checker("The noise distribution", forbidden={"noise_distribution": noise_distribution}) as ex:
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


def _cbow_ns_reference(examples, negatives, W_in, W_out, lr, *, mean_grad=True, add_at=True):
    """One pass of CBOW with negative sampling, example by example, with autograd for the gradients.

    ``mean_grad=False`` / ``add_at=False`` reproduce two typical mistakes, to name them in hints.
    """
    W_in = torch.tensor(np.asarray(W_in, dtype=float))
    W_out = torch.tensor(np.asarray(W_out, dtype=float))
    total = 0.0
    for (context, centre), negs in zip(examples, negatives):
        ctx = torch.tensor(list(context))
        negs = torch.tensor(list(negs))
        rows_in = W_in[ctx].clone().requires_grad_(True)
        u_c = W_out[centre].clone().requires_grad_(True)
        u_n = W_out[negs].clone().requires_grad_(True)
        h = rows_in.mean(0)
        loss = -torch.nn.functional.logsigmoid(u_c @ h) - torch.nn.functional.logsigmoid(-(u_n @ h)).sum()
        loss.backward()
        total += loss.item()
        with torch.no_grad():
            g_in = rows_in.grad * (1 if mean_grad else len(ctx))
            W_in.index_add_(0, ctx, -lr * g_in)
            W_out[centre] -= lr * u_c.grad
            if add_at:
                W_out.index_add_(0, negs, -lr * u_n.grad)
            else:
                W_out[negs] -= lr * u_n.grad
    return W_in.numpy(), W_out.numpy(), total / len(examples)


def _cbow_ns_case(seed: int):
    rng = seeded_rng(seed)
    V, d, k = 7, 4, 3
    examples = [([0, 2], 1), ([1, 3, 3], 2), ([4, 5], 6), ([2, 6, 0, 1], 3), ([5], 4)]
    negatives = rng.integers(V, size=(len(examples), k))
    negatives[1] = [0, 0, 5]  # a noise word drawn twice
    return examples, negatives, rng.normal(size=(V, d)) * 0.5, rng.normal(size=(V, d)) * 0.5


def check_train_cbow_ns(train_cbow_ns: Callable) -> CheckResult:
    """``train_cbow_ns(examples, negatives, W_in, W_out, lr)`` -> (W_in, W_out, mean loss) after one pass."""
    examples, negatives, W_in, W_out = _cbow_ns_case(0)
    W_in0, W_out0 = W_in.copy(), W_out.copy()
    want = _cbow_ns_reference(examples, negatives, W_in, W_out, 0.1)
    with Checker("The CBOW negative-sampling training loop") as ex:
        got = ex.call(train_cbow_ns, examples, negatives, W_in, W_out, 0.1)
        if not (isinstance(got, tuple) and len(got) == 3):
            ex.fail("train_cbow_ns should return a tuple (W_in, W_out, mean_loss).")
        if not (np.array_equal(W_in, W_in0) and np.array_equal(W_out, W_out0)):
            ex.fail("Your function changed the arrays it was given: copy W_in and W_out first.")
        g_in, g_out, g_loss = (np.asarray(x, dtype=float) for x in got)
        close = lambda x, y: x.shape == y.shape and np.allclose(x, y, rtol=1e-6, atol=1e-9)  # noqa: E731
        no_mean = _cbow_ns_reference(examples, negatives, W_in, W_out, 0.1, mean_grad=False)
        if not close(g_in, want[0]) and close(g_in, no_mean[0]) and close(g_out, no_mean[1]):
            ex.fail(
                "W_in after one pass is off: h is the *mean* of m context rows, so each row's gradient is "
                "dL/dh divided by m (word2vec.c adds the undivided dL/dh; here we want the true gradient)."
            )
        no_add_at = _cbow_ns_reference(examples, negatives, W_in, W_out, 0.1, add_at=False)
        if not close(g_out, want[1]) and close(g_out, no_add_at[1]):
            ex.fail(
                "W_out after one pass is off: a noise word drawn twice for one example must move twice, but an "
                "update through an index array with repeats keeps only one of them. Accumulate the repeats."
            )
        ex.expect_close(
            g_out,
            want[1],
            what="W_out after one pass",
            hint="Derive the gradient of the example's loss with respect to u_c and to each noise vector, and "
            "compute every update of an example from the parameters before that example's update.",
        )
        ex.expect_close(
            g_in,
            want[0],
            what="W_in after one pass",
            hint="Derive dL/dh (the centre word's and every noise word's terms), then how much of it reaches each "
            "of the m context rows that h averages (with u_c and the noise vectors as they were before this "
            "example's update); a context word that occurs twice is updated twice.",
        )
        ex.expect_close(
            g_loss,
            want[2],
            what="the mean loss over the pass",
            hint="Average -log σ(u_c·h) - Σ log σ(-u_n·h) (natural log) over the examples, each computed with "
            "the parameters *before* that example's update; h is the mean of the context rows of W_in.",
        )
    return ex.result


def check_nearest_words(nearest_words: Callable) -> CheckResult:
    """``nearest_words(word, words, vectors, topn)`` -> the topn other words by cosine similarity."""
    words = ["cat", "dog", "car", "truck", "kitten"]
    vectors = np.array([[1.0, 0.1], [0.9, 0.3], [0.1, 1.0], [0.2, 5.0], [0.5, 0.02]])
    wv = WordVectors(words, vectors)
    with Checker("Cosine nearest neighbours", forbidden={"WordVectors.most_similar": WordVectors.most_similar}) as ex:
        got = list(ex.call(nearest_words, "cat", words, vectors, 2))
        want = [w for w, _ in wv.most_similar("cat", 2)]
        if not all(isinstance(w, str) for w in got):
            ex.fail(
                f'nearest_words("cat", ..., 2) should be {want}, got {got}: return the words themselves '
                "(strings from `words`), not their row numbers."
            )
        if "cat" in got:
            ex.fail(
                f'nearest_words("cat", ..., 2) should be {want}, got {got}: leave the query word itself out '
                "(its cosine with itself is always 1)."
            )
        if sorted(got) == sorted(want) and got != want:
            ex.fail(
                f'nearest_words("cat", ..., 2) should be {want}, got {got}: the right words in the wrong order. '
                "Return them most similar first (sort by decreasing cosine)."
            )
        ex.expect_equal(
            got,
            want,
            what='nearest_words("cat", ..., 2)',
            hint="Use the cosine (divide by both norms), not the raw dot product: "
            "'kitten' has a short vector but points the same way as 'cat'.",
        )
        got = ex.call(nearest_words, "truck", words, vectors, 4)
        ex.expect(
            len(got) == 4,
            f'nearest_words("truck", ..., 4) returned {len(got)} words: return exactly topn of them.',
        )
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
