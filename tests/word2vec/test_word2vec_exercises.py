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


def sgns_loss_one(v, u_pos, u_negs):
    return float(np.logaddexp(0, -(u_pos @ v)) + np.logaddexp(0, u_negs @ v).sum())


def sgns_grad_v(v, u_pos, u_negs):
    return (_sigmoid(u_pos @ v) - 1) * u_pos + _sigmoid(u_negs @ v) @ u_negs


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
    assert ex.check_sgns_loss_one(sgns_loss_one).passed
    assert ex.check_sgns_grad_v(sgns_grad_v).passed
    assert ex.check_nearest_words(nearest_words).passed


def test_stubs_are_not_yet():
    def stub(*args, **kwargs):
        raise NotImplementedError

    for check in (
        ex.check_cbow_probabilities,
        ex.check_noise_probs,
        ex.check_sgns_loss_one,
        ex.check_sgns_grad_v,
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

    def naive_loss(v, u_pos, u_negs):
        return float(-np.log(_sigmoid(u_pos @ v)) - np.log(_sigmoid(-(u_negs @ v))).sum())

    with np.errstate(divide="ignore", over="ignore"):
        r = ex.check_sgns_loss_one(naive_loss)
    assert r.status == "wrong" and "logaddexp" in r.message
    r = ex.check_sgns_loss_one(lambda v, u, n: float(np.logaddexp(0, -(u @ v)) + np.logaddexp(0, -(n @ v)).sum()))
    assert r.status == "wrong"

    r = ex.check_sgns_grad_v(lambda v, u, n: (1 - _sigmoid(u @ v)) * u + _sigmoid(n @ v) @ n)
    assert r.status == "wrong" and "signs" in r.message

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
