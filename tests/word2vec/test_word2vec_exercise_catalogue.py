"""Catalogue of the word2vec chapter's exercises: requirements, correct answers in several styles (accepted)
and typical wrong answers (rejected with a hint naming the mistake).

* ``cbow_probabilities``: sum of the context rows (a repeated id counts twice); softmax stable for large
  scores; a distribution over V words; W1, W2 unchanged.
* ``noise_probs``: count ** power normalised; the ``power`` argument is used (1 and 0 too).
* ``train_cbow_ns``: h is the mean of the context rows (so each row gets 1/|context| of grad h); repeated
  noise words and repeated context words update twice; gradients from the parameters before the step; the
  loss in natural log, its mean over the examples; (W_in, W_out, mean_loss) returned; the given arrays
  unchanged.
* ``nearest_words``: cosine (not the dot product); never the word itself; most similar first; exactly topn
  words, as strings; KeyError for an unknown word.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.word2vec import exercises as ex
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test
from tests.word2vec.test_word2vec_exercises import cbow_probabilities, nearest_words, noise_probs, train_cbow_ns


def cbow_loop(context_ids, W1, W2):
    h = np.zeros(W1.shape[1])
    for i in context_ids:
        h = h + W1[i]
    scores = h @ W2
    scores = scores - np.max(scores)
    return np.exp(scores) / np.sum(np.exp(scores))


def cbow_unique_context(context_ids, W1, W2):
    return cbow_probabilities(sorted(set(context_ids)), W1, W2)


def cbow_unstable(context_ids, W1, W2):
    scores = np.asarray(W1)[list(context_ids)].sum(axis=0) @ np.asarray(W2)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.exp(scores) / np.exp(scores).sum()


def cbow_mean_not_sum(context_ids, W1, W2):
    scores = np.asarray(W1)[list(context_ids)].mean(axis=0) @ np.asarray(W2)
    e = np.exp(scores - scores.max())
    return e / e.sum()


def noise_loop(counts, power=0.75):
    weights = [float(c) ** power for c in counts]
    total = sum(weights)
    return np.array([w / total for w in weights])


def noise_unigram(counts, power=0.75):
    return np.asarray(counts) / np.sum(counts)


def noise_ignores_power(counts, power=0.75):
    return noise_probs(counts, 0.75)


def train_closed_form(*args):
    return train_cbow_ns(*args)


def train_autograd(examples, negatives, W_in, W_out, lr):
    import torch

    W_in, W_out = torch.tensor(np.array(W_in, float)), torch.tensor(np.array(W_out, float))
    losses = []
    for (context, centre), negs in zip(examples, negatives):
        a, b = W_in.clone().requires_grad_(True), W_out.clone().requires_grad_(True)
        h = a[list(context)].mean(0)
        loss = (
            -torch.nn.functional.logsigmoid(b[centre] @ h) - torch.nn.functional.logsigmoid(-(b[list(negs)] @ h)).sum()
        )
        loss.backward()
        losses.append(loss.item())
        W_in, W_out = (a - lr * a.grad).detach(), (b - lr * b.grad).detach()
    return W_in.numpy(), W_out.numpy(), float(np.mean(losses))


def train_sum_gradient_to_every_context_row(*args):
    return train_cbow_ns(*args, divide=False)


def train_fancy_index_update(*args):
    return train_cbow_ns(*args, add_at=False)


def train_in_place(examples, negatives, W_in, W_out, lr):
    new_in, new_out, loss = train_cbow_ns(examples, negatives, W_in, W_out, lr)
    W_in[:] = new_in
    return new_in, new_out, loss


def train_no_loss(*args):
    return train_cbow_ns(*args)[:2]


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _cbow_pass(examples, negatives, W_in, W_out, lr, *, fancy_context=False, sequential=False, log=np.log, mean=True):
    """One pass written out, with a switch per typical slip (each breaks one stated requirement)."""
    W_in, W_out = np.array(W_in, dtype=float), np.array(W_out, dtype=float)
    losses = []
    for (context, centre), negs in zip(examples, negatives):
        context, negs = list(context), list(negs)
        h = W_in[context].mean(axis=0)
        s_c, s_n = W_out[centre] @ h, W_out[negs] @ h
        losses.append(-log(_sigmoid(s_c)) - log(_sigmoid(-s_n)).sum())
        g_c, g_n = _sigmoid(s_c) - 1, _sigmoid(s_n)
        grad_h = g_c * W_out[centre] + g_n @ W_out[negs]
        W_out[centre] -= lr * g_c * h
        np.add.at(W_out, negs, -lr * np.outer(g_n, h))
        if sequential:  # dL/dh from the output vectors *after* their step
            grad_h = g_c * W_out[centre] + g_n @ W_out[negs]
        if fancy_context:  # a repeated context id keeps only one of its updates
            W_in[context] -= lr * grad_h / len(context)
        else:
            np.add.at(W_in, context, -lr * grad_h / len(context))
    return W_in, W_out, float(np.mean(losses) if mean else np.sum(losses))


def train_written_out(*args):
    return _cbow_pass(*args)


def train_fancy_index_context(*args):  # "a context word that occurs twice receives two updates"
    return _cbow_pass(*args, fancy_context=True)


def train_gradients_after_the_step(*args):  # "compute them all from the parameters before the example's update"
    return _cbow_pass(*args, sequential=True)


def train_loss_in_bits(*args):  # "(natural log)"
    return _cbow_pass(*args, log=np.log2)


def train_total_loss(*args):  # "the mean of the examples' losses"
    return _cbow_pass(*args, mean=False)


def nearest_sorted_pairs(word, words, vectors, topn):
    if word not in words:
        raise KeyError(f"unknown word {word!r}")
    v = vectors[words.index(word)]
    scored = []
    for w, row in zip(words, vectors):
        if w != word:
            scored.append((-(row @ v) / (np.linalg.norm(row) * np.linalg.norm(v)), w))
    return [w for _, w in sorted(scored)[:topn]]


def nearest_dot_product(word, words, vectors, topn):
    sims = vectors @ vectors[words.index(word)]
    return [words[i] for i in np.argsort(-sims) if words[i] != word][:topn]


def nearest_keeps_itself(word, words, vectors, topn):
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    return [words[i] for i in np.argsort(-(unit @ unit[words.index(word)]))][:topn]


def nearest_no_error(word, words, vectors, topn):
    return nearest_words(word, words, vectors, topn) if word in words else []


def nearest_least_similar_first(word, words, vectors, topn):
    return nearest_words(word, words, vectors, topn)[::-1]


def cbow_mutates_w1(context_ids, W1, W2):
    hidden = W1[list(context_ids)].sum(axis=0)
    W1 *= 0.5  # shrinks the caller's matrix in place after reading it
    return _softmax(hidden @ W2)


def cbow_scores_only(context_ids, W1, W2):
    return np.asarray(W1)[list(context_ids)].sum(axis=0) @ np.asarray(W2)


def noise_unnormalised(counts, power=0.75):
    return np.asarray(counts, dtype=float) ** power


def nearest_two_always(word, words, vectors, topn):  # "the topn other words": topn not used
    return nearest_words(word, words, vectors, 2)


def nearest_row_numbers(word, words, vectors, topn):
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    sims = unit @ unit[words.index(word)]
    return [int(i) for i in np.argsort(-sims) if words[i] != word][:topn]


def _softmax(scores):
    e = np.exp(scores - scores.max())
    return e / e.sum()


# ----- one call of the page's helper is not an answer: the checker switches the helper off
def cbow_by_the_helper(context_ids, W1, W2):
    from nlp_helpers.word2vec.softmax import cbow_forward

    return cbow_forward(context_ids, W1, W2)["probs"]


def noise_by_the_helper(counts, power=0.75):
    from nlp_helpers.word2vec.corpus import noise_distribution

    return noise_distribution(counts, power)


def nearest_by_the_helper(word, words, vectors, topn):
    from nlp_helpers.word2vec.evaluation import WordVectors

    return [w for w, _ in WordVectors(list(words), np.asarray(vectors, dtype=float)).most_similar(word, topn)]


CATALOGUE = {
    ex.check_cbow_probabilities: Catalogue(
        correct=[cbow_probabilities, cbow_loop],
        wrong=[
            Wrong(cbow_unique_context, "twice"),
            Wrong(cbow_unstable, "Subtract the largest"),
            Wrong(cbow_mean_not_sum, "sum"),
            Wrong(cbow_mutates_w1, ("modified its input", "`W1`")),
            Wrong(cbow_scores_only, "softmax"),
            Wrong(cbow_by_the_helper, ("`cbow_forward`", "build it yourself")),
        ],
    ),
    ex.check_noise_probs: Catalogue(
        correct=[noise_probs, noise_loop],
        wrong=[
            Wrong(noise_unigram, "0.75"),
            Wrong(noise_ignores_power, "power argument"),
            Wrong(noise_unnormalised, "divide by the sum"),
            Wrong(noise_by_the_helper, ("`noise_distribution`", "build it yourself")),
        ],
    ),
    ex.check_train_cbow_ns: Catalogue(
        correct=[train_closed_form, train_autograd, train_written_out],
        wrong=[
            Wrong(train_sum_gradient_to_every_context_row, ("mean", "W_in")),
            Wrong(train_fancy_index_update, ("Accumulate the repeats", "W_out")),
            Wrong(train_in_place, ("modified its input", "`W_in`")),
            Wrong(train_no_loss, "tuple"),
            Wrong(train_fancy_index_context, ("W_in", "occurs twice is updated twice")),
            Wrong(train_gradients_after_the_step, "before that example's update"),
            Wrong(train_loss_in_bits, ("mean loss", "natural log")),
            Wrong(train_total_loss, ("mean loss", "Average")),
        ],
    ),
    ex.check_nearest_words: Catalogue(
        correct=[nearest_words, nearest_sorted_pairs],
        wrong=[
            Wrong(nearest_dot_product, "cosine"),
            Wrong(nearest_keeps_itself, "itself"),
            Wrong(nearest_no_error, "KeyError"),
            Wrong(nearest_least_similar_first, ("wrong order", "most similar first")),
            Wrong(nearest_row_numbers, ("strings", "row numbers")),
            Wrong(nearest_two_always, "exactly topn"),
            Wrong(nearest_by_the_helper, ("most_similar", "build it yourself")),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
