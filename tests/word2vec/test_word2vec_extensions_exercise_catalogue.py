"""Catalogue of the exercises of ``book/word2vec/extensions.ipynb`` (checkers in
``nlp_helpers/word2vec/extensions_exercises.py``).

* ``char_ngrams(word, minn, maxn)``: the word wrapped in ``<`` and ``>``; every n from minn to maxn, both
  included; shortest first, left to right; repeats kept; a word too short for minn gives []; minn > maxn
  raises ``ValueError``.
* ``hs_grads(v, U, nodes, bits)``: L = -Σ log σ(s_i u_{n_i}·v) with s_i = +1 for bit 0 and -1 for bit 1;
  returns (loss in natural log, dL/dv with the shape of v, dL/dU with the shape of U and zero rows off the path).
* ``oov_vector(word, ngram_vectors, minn, maxn)``: the mean (not the sum) of the rows
  ``fnv1a(ngram.encode()) % len(ngram_vectors)`` over the n-grams of ``<word>``, bytes sign-extended as in
  fastText; no n-gram raises ``ValueError``.
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.word2vec import extensions_exercises as ex
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


# ------------------------------------------------------------------------------------------- char_ngrams
def char_ngrams(word, minn, maxn):
    if minn > maxn:
        raise ValueError("minn must not exceed maxn")
    w = f"<{word}>"
    return [w[i : i + n] for n in range(minn, maxn + 1) for i in range(len(w) - n + 1)]


def char_ngrams_loop(word, minn, maxn):
    if not 1 <= minn <= maxn:
        raise ValueError("need 1 <= minn <= maxn")
    out = []
    n = minn
    while n <= maxn:
        start = 0
        while start + n <= len(word) + 2:
            out.append(("<" + word + ">")[start : start + n])
            start += 1
        n += 1
    return out


def ngrams_no_marks(word, minn, maxn):
    if minn > maxn:
        raise ValueError
    return [word[i : i + n] for n in range(minn, maxn + 1) for i in range(len(word) - n + 1)]


def ngrams_by_position(word, minn, maxn):
    if minn > maxn:
        raise ValueError
    w = f"<{word}>"
    return [w[i : i + n] for i in range(len(w)) for n in range(minn, maxn + 1) if i + n <= len(w)]


def ngrams_maxn_excluded(word, minn, maxn):
    if minn > maxn:
        raise ValueError
    w = f"<{word}>"
    return [w[i : i + n] for n in range(minn, maxn) for i in range(len(w) - n + 1)]


def ngrams_no_error(word, minn, maxn):
    w = f"<{word}>"
    return [w[i : i + n] for n in range(minn, maxn + 1) for i in range(len(w) - n + 1)]


def ngrams_as_set(word, minn, maxn):
    return set(char_ngrams(word, minn, maxn))


def ngrams_too_short_raises(word, minn, maxn):  # "a word too short for minn gives an empty list"
    if len(word) + 2 < minn:
        raise ValueError(f"{word!r} is too short for n-grams of {minn} characters")
    return char_ngrams(word, minn, maxn)


def ngrams_too_short_whole_word(word, minn, maxn):  # the same requirement: [] rather than the marked word
    return char_ngrams(word, minn, maxn) or [f"<{word}>"]


# -------------------------------------------------------------------------------------------- hs_grads
def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def hs_grads(v, U, nodes, bits):
    signs = np.where(np.asarray(bits) == 0, 1.0, -1.0)  # (L,): go left with σ(u·v)
    scores = signs * (U[nodes] @ v)  # (L,)
    loss = np.logaddexp(0, -scores).sum()
    g = -(1 - _sigmoid(scores)) * signs  # dL/d(u·v) per node
    grad_v = g @ U[nodes]
    grad_U = np.zeros_like(U, dtype=float)
    np.add.at(grad_U, nodes, np.outer(g, v))
    return float(loss), grad_v, grad_U


def hs_grads_torch(v, U, nodes, bits):
    import torch

    tv = torch.tensor(v, requires_grad=True)
    tU = torch.tensor(U, requires_grad=True)
    loss = torch.tensor(0.0, dtype=torch.float64)
    for n, b in zip(nodes, bits):
        s = tU[n] @ tv
        loss = loss - torch.nn.functional.logsigmoid(s if b == 0 else -s)
    loss.backward()
    return loss.item(), tv.grad.numpy(), tU.grad.numpy()


def hs_loss_in_bits(v, U, nodes, bits):  # "the loss (a float, natural log)"
    loss, grad_v, grad_U = hs_grads(v, U, nodes, bits)
    return loss / np.log(2), grad_v, grad_U


def hs_swapped_branches(v, U, nodes, bits):
    return hs_grads(v, U, nodes, [1 - b for b in bits])


def hs_log_probability(v, U, nodes, bits):
    loss, gv, gU = hs_grads(v, U, nodes, bits)
    return -loss, -gv, -gU


def hs_ascent(v, U, nodes, bits):
    loss, gv, gU = hs_grads(v, U, nodes, bits)
    return loss, -gv, -gU


def hs_path_rows_only(v, U, nodes, bits):
    loss, gv, gU = hs_grads(v, U, nodes, bits)
    return loss, gv, gU[nodes]


def hs_forgets_sign_in_gradient(v, U, nodes, bits):
    signs = np.where(np.asarray(bits) == 0, 1.0, -1.0)
    scores = signs * (U[nodes] @ v)
    g = -(1 - _sigmoid(scores))  # the chain rule's factor s is missing
    grad_U = np.zeros_like(U, dtype=float)
    np.add.at(grad_U, nodes, np.outer(g, v))
    return float(np.logaddexp(0, -scores).sum()), g @ U[nodes], grad_U


# ------------------------------------------------------------------------------------------ oov_vector
def _fnv1a(data):
    h = 2166136261
    for byte in data:
        byte = byte - 256 if byte >= 128 else byte
        h = ((h ^ (byte & 0xFFFFFFFF)) * 16777619) % 2**32
    return h


def oov_vector(word, ngram_vectors, minn=3, maxn=6):
    grams = char_ngrams(word, minn, maxn)
    if not grams:
        raise ValueError(f"{word!r} has no n-grams of length {minn}..{maxn}")
    rows = [_fnv1a(g.encode("utf-8")) % len(ngram_vectors) for g in grams]
    return np.asarray(ngram_vectors)[rows].mean(axis=0)


def oov_vector_gensim_hash(word, ngram_vectors, minn=3, maxn=6):
    from gensim.models.fasttext import ft_ngram_hashes

    rows = ft_ngram_hashes(word, minn, maxn, len(ngram_vectors))
    if not rows:
        raise ValueError("no n-grams")
    return np.mean([ngram_vectors[r] for r in rows], axis=0)


def oov_sum(word, ngram_vectors, minn=3, maxn=6):
    return oov_vector(word, ngram_vectors, minn, maxn) * len(char_ngrams(word, minn, maxn))


def oov_unsigned_bytes(word, ngram_vectors, minn=3, maxn=6):
    grams = char_ngrams(word, minn, maxn)
    if not grams:
        raise ValueError("no n-grams")
    rows = [ex._fnv_unsigned(g.encode()) % len(ngram_vectors) for g in grams]
    return np.asarray(ngram_vectors)[rows].mean(axis=0)


def oov_no_marks(word, ngram_vectors, minn=3, maxn=6):
    grams = ngrams_no_marks(word, minn, maxn)
    if not grams:
        raise ValueError("no n-grams")
    return np.asarray(ngram_vectors)[[_fnv1a(g.encode()) % len(ngram_vectors) for g in grams]].mean(axis=0)


def oov_nan_for_short(word, ngram_vectors, minn=3, maxn=6):
    grams = char_ngrams(word, minn, maxn)
    rows = [_fnv1a(g.encode()) % len(ngram_vectors) for g in grams]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(ngram_vectors)[rows].sum(axis=0) / len(rows)


CATALOGUE = {
    ex.check_char_ngrams: Catalogue(
        correct=[char_ngrams, char_ngrams_loop],
        wrong=[
            Wrong(ngrams_no_marks, "< and >"),
            Wrong(ngrams_by_position, "wrong order"),
            Wrong(ngrams_maxn_excluded, "both included"),
            Wrong(ngrams_no_error, "ValueError"),
            Wrong(ngrams_as_set, "list"),
            Wrong(ngrams_too_short_raises, "too short for minn gives an empty list"),
            Wrong(ngrams_too_short_whole_word, "too short for minn gives an empty list"),
        ],
    ),
    ex.check_hs_grads: Catalogue(
        correct=[hs_grads, hs_grads_torch],
        wrong=[
            Wrong(hs_swapped_branches, "bit 0 goes left"),
            Wrong(hs_loss_in_bits, "natural log"),
            Wrong(hs_log_probability, "not log p"),
            Wrong(hs_ascent, "wrong sign"),
            Wrong(hs_path_rows_only, "shape of U"),
            Wrong(hs_forgets_sign_in_gradient, "grad_v is wrong"),
        ],
    ),
    ex.check_oov_vector: Catalogue(
        correct=[oov_vector, oov_vector_gensim_hash],
        wrong=[
            Wrong(oov_sum, "you summed them"),
            Wrong(oov_unsigned_bytes, "signed"),
            Wrong(oov_no_marks, "mean of the rows"),
            Wrong(oov_nan_for_short, "ValueError"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
