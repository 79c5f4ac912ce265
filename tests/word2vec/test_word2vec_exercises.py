"""The word2vec checkers accept the reference answers and reject typical wrong ones."""

from __future__ import annotations

import numpy as np
import pytest

from nlp_helpers.word2vec import exercises as ex


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


# --- reference answers, written independently of nlp_helpers
def cbow_probabilities(context_ids, W1, W2):
    scores = np.asarray(W1)[list(context_ids)].sum(axis=0) @ np.asarray(W2)
    e = np.exp(scores - scores.max())
    return e / e.sum()


def noise_probs(counts, power=0.75):
    w = np.asarray(counts, dtype=float) ** power
    return w / w.sum()


def train_cbow_ns(examples, negatives, W_in, W_out, lr, *, divide=True, add_at=True):
    """One pass of CBOW with negative sampling, closed-form gradients (the flags make typical mistakes)."""
    W_in, W_out = np.array(W_in, dtype=float), np.array(W_out, dtype=float)
    total = 0.0
    for (context, centre), negs in zip(examples, negatives):
        context, negs = list(context), list(negs)
        h = W_in[context].mean(axis=0)
        u_c, u_n = W_out[centre].copy(), W_out[negs].copy()
        s_c, s_n = u_c @ h, u_n @ h
        total += np.logaddexp(0, -s_c) + np.logaddexp(0, s_n).sum()
        g_c, g_n = _sigmoid(s_c) - 1, _sigmoid(s_n)
        grad_h = g_c * u_c + g_n @ u_n
        W_out[centre] -= lr * g_c * h
        if add_at:
            np.add.at(W_out, negs, -lr * np.outer(g_n, h))
        else:
            W_out[negs] -= lr * np.outer(g_n, h)
        np.add.at(W_in, context, -lr * grad_h / (len(context) if divide else 1))
    return W_in, W_out, total / len(examples)


def nearest_words(word, words, vectors, topn):
    if word not in words:
        raise KeyError(word)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    sims = unit @ unit[words.index(word)]
    order = [i for i in np.argsort(-sims) if words[i] != word]
    return [words[i] for i in order[:topn]]


def test_reference_answers_pass():
    assert ex.check_cbow_probabilities(cbow_probabilities).passed
    assert ex.check_noise_probs(noise_probs).passed
    assert ex.check_train_cbow_ns(train_cbow_ns).passed
    assert ex.check_nearest_words(nearest_words).passed


def test_stubs_are_not_yet():
    def stub(*args, **kwargs):
        raise NotImplementedError

    for check in (
        ex.check_cbow_probabilities,
        ex.check_noise_probs,
        ex.check_train_cbow_ns,
        ex.check_nearest_words,
    ):
        assert check(stub).status == "not yet"


def test_typical_mistakes_are_rejected():
    def unique_context(context_ids, W1, W2):  # treats the context as a set
        return cbow_probabilities(sorted(set(context_ids)), W1, W2)

    def unstable(context_ids, W1, W2):  # no max subtraction
        scores = np.asarray(W1)[list(context_ids)].sum(axis=0) @ np.asarray(W2)
        return np.exp(scores) / np.exp(scores).sum()

    with np.errstate(over="ignore", invalid="ignore"):
        r = ex.check_cbow_probabilities(unstable)
    assert r.status == "wrong" and "Subtract the largest" in r.message
    r = ex.check_cbow_probabilities(unique_context)
    assert r.status == "wrong" and "twice" in r.message

    r = ex.check_noise_probs(lambda counts, power=0.75: np.asarray(counts) / np.sum(counts))
    assert r.status == "wrong" and "0.75" in r.message
    r = ex.check_noise_probs(lambda counts, power=0.75: noise_probs(counts, 0.75))
    assert r.status == "wrong" and "power argument" in r.message

    r = ex.check_train_cbow_ns(lambda *a: train_cbow_ns(*a, divide=False))
    assert r.status == "wrong" and "mean" in r.message and "W_in" in r.message
    r = ex.check_train_cbow_ns(lambda *a: train_cbow_ns(*a, add_at=False))
    assert r.status == "wrong" and "Accumulate the repeats" in r.message and "W_out" in r.message

    def in_place(examples, negatives, W_in, W_out, lr):
        new_in, new_out, loss = train_cbow_ns(examples, negatives, W_in, W_out, lr)
        W_in[:] = new_in
        return new_in, new_out, loss

    r = ex.check_train_cbow_ns(in_place)
    assert r.status == "wrong" and "copy" in r.message
    r = ex.check_train_cbow_ns(lambda *a: train_cbow_ns(*a)[:2])
    assert r.status == "wrong" and "tuple" in r.message

    def dot_product_neighbours(word, words, vectors, topn):
        sims = vectors @ vectors[words.index(word)]
        return [words[i] for i in np.argsort(-sims) if words[i] != word][:topn]

    r = ex.check_nearest_words(dot_product_neighbours)
    assert r.status == "wrong" and "cosine" in r.message

    def keeps_itself(word, words, vectors, topn):
        unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        return [words[i] for i in np.argsort(-(unit @ unit[words.index(word)]))][:topn]

    r = ex.check_nearest_words(keeps_itself)
    assert r.status == "wrong"

    def no_error(word, words, vectors, topn):
        return nearest_words(word, words, vectors, topn) if word in words else []

    r = ex.check_nearest_words(no_error)
    assert r.status == "wrong" and "KeyError" in r.message


def test_strict_mode_raises(monkeypatch):
    monkeypatch.setenv("NLP_EXERCISES_STRICT", "1")
    with pytest.raises(AssertionError):
        ex.check_noise_probs(lambda counts, power=0.75: np.ones(len(counts)))
