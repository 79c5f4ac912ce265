"""Checkers for the exercises of the page "Self-attention and one encoder layer by hand"
(``book/attention/self_attention.ipynb``).

* :func:`check_row_norm`: the worked example's normalisation ``(x - mean) / (s + eps)`` with the sample
  standard deviation, row by row.
* :func:`check_multi_head`: multi-head self-attention from its four weight matrices, compared with
  :func:`nlp_helpers.attention.self_attention.multi_head_attention` (itself tested against
  ``torch.nn.MultiheadAttention``).
* :func:`check_previous_token_head`: query and key matrices chosen by hand so that every token attends to the
  one before it, checked on sentences of every length with
  :func:`nlp_helpers.attention.self_attention.scaled_dot_product_attention`.

Each checker also computes the answers of typical mistakes, so that a wrong answer gets a hint naming its mistake.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from nlp_helpers.attention.self_attention import multi_head_attention, scaled_dot_product_attention, softmax
from nlp_helpers.attention.transformer import layer_norm
from nlp_helpers.exercises.checker import Checker, CheckResult
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["check_multi_head", "check_previous_token_head", "check_row_norm"]


def check_row_norm(fn: Callable) -> CheckResult:
    """``fn(x, eps=1e-4)``: each row as ``(x - mean) / (s + eps)`` with the sample standard deviation ``s``."""
    x = np.array(
        [[13.12, 12.47, 9.03, 10.35, 8.09, 10.36], [1.0, 2.0, 3.0, 4.0, 5.0, 7.0], [0.01, 0.02, 0.03, 0.04, 0.05, 0.07]]
    )  # the last row has a spread s ~ 0.02: there eps matters
    with Checker("The worked example's normalisation") as ex:
        got = np.asarray(ex.call(fn, x, 1e-4), dtype=float)
        if got.shape == x.shape and np.allclose(got, layer_norm(x, 1e-4), atol=1e-4):
            ex.fail(
                "this is torch's LayerNorm (population variance). The exercise divides by the sample standard "
                "deviation, which divides the squared deviations by d - 1."
            )
        if got.shape == x.shape and np.allclose(got, (x - x.mean()) / (x.std(ddof=1) + 1e-4), atol=1e-4):
            ex.fail("you normalised the whole matrix at once: normalise each row (token) on its own.")
        eps_inside = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, ddof=1, keepdims=True) + 1e-4)
        if got.shape == x.shape and np.allclose(got, eps_inside, rtol=1e-9, atol=0):
            ex.fail("you added eps inside the square root, as torch does; here it is added to s, outside the root.")
        ex.expect_close(
            got,
            layer_norm(x, 1e-4, ddof=1, eps_inside_sqrt=False),
            what="the normalised matrix",
            hint="normalise each row on its own, with the row's mean and its sample standard deviation.",
        )
    return ex.result


def _mha_variants(X, W_Q, W_K, W_V, W_O, n_heads) -> dict[str, np.ndarray]:
    """The answers of typical mistakes, each with the hint that names it."""
    T, d = X.shape
    d_h = d // n_heads
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V

    def heads(M, interleaved=False):
        if interleaved:  # head h takes columns h, h + n_heads, ...
            return [M[:, h::n_heads] for h in range(n_heads)]
        return [M[:, h * d_h : (h + 1) * d_h] for h in range(n_heads)]

    def attend(scale, axis=-1, interleaved=False, project=True):
        outs = []
        for q, k, v in zip(heads(Q, interleaved), heads(K, interleaved), heads(V, interleaved)):
            s = q @ k.T / scale
            w = np.exp(s - s.max(axis=axis, keepdims=True))
            w = w / w.sum(axis=axis, keepdims=True)
            outs.append(w @ v)
        Z = np.concatenate(outs, axis=1)
        return Z @ W_O if project else Z

    one_head = softmax(Q @ K.T / np.sqrt(d)) @ V @ W_O
    return {
        "Divide each head's scores by √d_h, the width of one head, not by √d_model.": attend(np.sqrt(d)),
        "Each head's scores need the division by √d_h before the softmax.": attend(1.0),
        "The softmax runs over the keys (each row of a head's score matrix sums to 1), not over the queries.": (
            attend(np.sqrt(d_h), axis=0)
        ),
        "Head h takes the contiguous block of columns h·d_h to (h+1)·d_h − 1 of Q, K and V, not every "
        "n_heads-th column.": attend(np.sqrt(d_h), interleaved=True),
        "After concatenating the heads, multiply by W_O.": attend(np.sqrt(d_h), project=False),
        "That is one head over the full width: split Q, K and V into n_heads heads first.": one_head,
    }


def check_multi_head(fn: Callable) -> CheckResult:
    """``fn(X, W_Q, W_K, W_V, W_O, n_heads)`` -> the ``(T, d_model)`` output of multi-head self-attention."""
    g = seeded_rng(31)
    cases = []
    for T, d, n_heads in [(5, 8, 2), (4, 12, 3), (3, 6, 1), (6, 8, 4)]:
        X = g.normal(size=(T, d))
        W = [g.normal(size=(d, d)) / np.sqrt(d) * 2 for _ in range(4)]
        cases.append((X, *W, n_heads))
    with Checker("Multi-head attention") as ex:
        for X, W_Q, W_K, W_V, W_O, n_heads in cases:
            what = f"multi_head(X of shape {X.shape}, ..., n_heads={n_heads})"
            got = ex.call(fn, X, W_Q, W_K, W_V, W_O, n_heads)
            if isinstance(got, tuple):
                ex.fail(f"{what} returned a tuple: return only the output array of shape {X.shape}.")
            want, _ = multi_head_attention(X, W_Q, W_K, W_V, W_O, n_heads)
            g_arr = np.asarray(got, dtype=float)
            if g_arr.shape == want.shape and not np.allclose(g_arr, want, rtol=1e-6, atol=1e-9):
                for hint, wrong in _mha_variants(X, W_Q, W_K, W_V, W_O, n_heads).items():
                    if wrong.shape == g_arr.shape and np.allclose(g_arr, wrong, rtol=1e-6, atol=1e-9):
                        ex.fail(f"{what} is not right. {hint}")
            ex.expect_close(
                got,
                want,
                what=what,
                hint="Project, split into heads, attend in each head with scores divided by √d_h, concatenate, "
                "then multiply by W_O.",
            )
        X, W_Q, W_K, W_V, W_O, _ = cases[0]
        ex.expect_raises(
            ValueError,
            fn,
            X,
            W_Q,
            W_K,
            W_V,
            W_O,
            3,
            what="multi_head(X with d_model = 8, ..., n_heads=3)",
            hint="8 columns cannot be split into 3 equal heads: check that n_heads divides d_model.",
        )
    return ex.result


PREVIOUS_WEIGHT = 0.9  # the weight on the previous token the exercise asks for


def _token_rows(words: np.ndarray, V: int, T_max: int) -> np.ndarray:
    """The exercise's inputs: row t is [one-hot of words[t] (V) | one-hot of t (T_max)]."""
    X = np.zeros((len(words), V + T_max))
    X[np.arange(len(words)), words] = 1.0
    X[np.arange(len(words)), V + np.arange(len(words))] = 1.0
    return X


def _sentences(V: int, T_max: int, g: np.random.Generator) -> list[np.ndarray]:
    """Every length 2..T_max with random words, then sentences that repeat one word (to catch heads that use words)."""
    random = [g.integers(0, V, size=n) for n in range(2, T_max + 1)]
    same = [np.full(n, w) for n in (2, T_max) for w in (0, V - 1)]
    return random + same


def _head_weights(pair, V: int, T_max: int, what: str, ex: Checker) -> tuple[np.ndarray, np.ndarray]:
    """The answer as two float arrays of shape (V + T_max, d_k), or a verdict naming what is wrong."""
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        ex.fail(f"{what} should return a pair (W_Q, W_K) of two arrays, got {type(pair).__name__}.")
    W_Q, W_K = (np.asarray(m, dtype=float) for m in pair)
    rows = V + T_max
    for name, m in (("W_Q", W_Q), ("W_K", W_K)):
        if m.ndim != 2 or m.shape[0] != rows:
            ex.fail(
                f"{what}: {name} has shape {m.shape}, but a token is a row of width V + T_max = {rows} "
                f"(its word's one-hot, then its position's): {name} needs {rows} rows."
            )
        if not np.isfinite(m).all():
            ex.fail(f"{what}: {name} holds inf or NaN; choose finite weights.")
    if W_Q.shape[1] != W_K.shape[1] or W_Q.shape[1] == 0:
        ex.fail(
            f"{what}: W_Q has {W_Q.shape[1]} columns and W_K {W_K.shape[1]}; queries and keys meet in a dot "
            "product, so both need the same width d_k >= 1."
        )
    return W_Q, W_K


def _diagnose(failures: list[tuple[np.ndarray, np.ndarray]], repeats_pass: bool) -> str:
    """Why the head misses the previous token, from the sentences ``(words, weights)`` on which it fails."""

    def where(words: np.ndarray, t: int) -> str:
        return f"in a sentence of {len(words)} tokens (words {words.tolist()}), position {t}"

    if repeats_pass:
        words, weights = failures[0]
        t = int(np.argmax(weights[np.arange(1, len(words)), np.arange(len(words) - 1)] < PREVIOUS_WEIGHT)) + 1
        return (
            f"{where(words, t)} puts only {weights[t, t - 1]:.2f} on position {t - 1}, though your head passes on "
            "sentences that repeat one word: it looks at the words. A previous-token head needs only the "
            "position part of x."
        )
    for words, weights in failures:
        for t in range(1, len(words) - 1):
            if weights[t, t + 1] >= PREVIOUS_WEIGHT:
                return (
                    f"{where(words, t)} attends to position {t + 1}, the next token: its query must match the "
                    "key of position t - 1."
                )
    for words, weights in failures:
        for t in range(1, len(words)):
            if weights[t, t] >= PREVIOUS_WEIGHT:
                return f"{where(words, t)} attends to itself: its query must match the key of position t - 1."
    words, weights = failures[-1]  # the longest sentence
    n = len(words)
    t = int(np.argmax(weights[np.arange(1, n), np.arange(n - 1)] < PREVIOUS_WEIGHT)) + 1
    w = weights[t]
    if (np.delete(w, t - 1) < w[t - 1]).all():
        return (
            f"{where(words, t)} gives the previous token the largest weight, but only {w[t - 1]:.2f}: the scores "
            f"are too close. The softmax shares the weight among all {n} keys, and the scores are divided by "
            "sqrt(d_k): make the previous token's score larger, the more so the longer the sentence."
        )
    return f"{where(words, t)} puts only {w[t - 1]:.2f} on position {t - 1}."


def check_previous_token_head(fn: Callable) -> CheckResult:
    """``fn(V, T_max)`` -> ``(W_Q, W_K)``: every token at position t >= 1 puts weight >= 0.9 on position t - 1."""
    g = seeded_rng(37)
    with Checker("A previous-token head") as ex:
        for V, T_max in [(3, 4), (1, 2), (10, 16), (40, 64)]:
            what = f"previous_token_head(V={V}, T_max={T_max})"
            W_Q, W_K = _head_weights(ex.call(fn, V, T_max), V, T_max, what, ex)
            sentences = _sentences(V, T_max, g)
            results = []
            for words in sentences:
                X = _token_rows(words, V, T_max)
                weights = scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ np.eye(V + T_max))[1]
                prev = weights[np.arange(1, len(words)), np.arange(len(words) - 1)]
                results.append((words, weights, prev))
            repeats_pass = all((prev >= PREVIOUS_WEIGHT).all() for words, _, prev in results if len(set(words)) == 1)
            failures = [(words, weights) for words, weights, prev in results if (prev < PREVIOUS_WEIGHT).any()]
            if failures:
                ex.fail(f"{what}: {_diagnose(sorted(failures, key=lambda f: len(f[0])), repeats_pass)}")
        for V, T_max, wrong in [(0, 4, "V=0"), (3, 1, "T_max=1")]:
            ex.expect_raises(
                ValueError,
                fn,
                V,
                T_max,
                what=f"previous_token_head({wrong})",
                hint="a vocabulary needs at least one word and a sentence with a previous token at least two "
                "positions: check that V is at least 1 and T_max at least 2.",
            )
    return ex.result
