"""Catalogue of the exercises of ``book/attention/self_attention.ipynb`` and ``book/attention/transformer.ipynb``.

* ``row_norm(x, eps)``: per row, the sample standard deviation (ddof=1), eps added outside the square root;
  x left unchanged.
* ``multi_head(X, W_Q, W_K, W_V, W_O, n_heads)``: contiguous column blocks per head; scores divided by
  sqrt(d_h), not sqrt(d_model); softmax over the keys; heads concatenated then times W_O; one array returned;
  ValueError when n_heads does not divide d_model; inputs unchanged.
* ``previous_token_head(V, T_max)``: a pair (W_Q, W_K) of shape (V + T_max, d_k); weight >= 0.9 on position
  t - 1 for every t >= 1, every length 2..T_max and any words; ValueError for V < 1 or T_max < 2.
* ``decoder_block(x, ...)``: pre-norm (x + f(LN(x))), not post-norm; the residual adds x, not LN(x); both
  residuals; the causal mask (token t sees 0..t, not the future); LN with the population variance; scores divided
  by sqrt(d_h); from numpy primitives (the package's attention, normalisation and layer functions switched off).
"""

from __future__ import annotations

import numpy as np

from nlp_helpers.attention.self_attention import causal_mask, multi_head_attention
from nlp_helpers.attention.self_attention_exercises import (
    check_multi_head,
    check_previous_token_head,
    check_row_norm,
)
from nlp_helpers.attention.transformer_exercises import check_decoder_block
from tests.exercise_helpers import Catalogue, Wrong, catalogue_test


# ---------------------------------------------------------------- row norm
def row_norm_vectorised(x, eps=1e-4):
    return (x - x.mean(-1, keepdims=True)) / (x.std(-1, ddof=1, keepdims=True) + eps)


def row_norm_loop(x, eps=1e-4):
    out = np.empty_like(x, dtype=float)
    for i, row in enumerate(x):
        s = np.sqrt(((row - row.mean()) ** 2).sum() / (len(row) - 1))
        out[i] = (row - row.mean()) / (s + eps)
    return out


def row_norm_eps_inside(x, eps=1e-4):
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, ddof=1, keepdims=True) + eps)


def row_norm_torch(x, eps=1e-4):
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + eps)


def row_norm_whole(x, eps=1e-4):
    return (x - x.mean()) / (x.std(ddof=1) + eps)


def row_norm_in_place(x, eps=1e-4):
    x -= x.mean(-1, keepdims=True)
    x /= x.std(-1, ddof=1, keepdims=True) + eps
    return x


# ---------------------------------------------------------------- multi-head attention
def _softmax_rows(s):
    w = np.exp(s - s.max(1, keepdims=True))
    return w / w.sum(1, keepdims=True)


def mh_loop(X, W_Q, W_K, W_V, W_O, n_heads, scale_by=None, axis_keys=True, project=True, interleave=False):
    d = X.shape[1]
    if d % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_h = d // n_heads
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V
    outs = []
    for i in range(n_heads):
        c = slice(i, None, n_heads) if interleave else slice(i * d_h, (i + 1) * d_h)
        s = Q[:, c] @ K[:, c].T / np.sqrt(scale_by or d_h)
        w = _softmax_rows(s) if axis_keys else _softmax_rows(s.T).T
        outs.append(w @ V[:, c])
    Z = np.concatenate(outs, 1)
    return Z @ W_O if project else Z


def mh_reshape(X, W_Q, W_K, W_V, W_O, n_heads):
    T, d = X.shape
    if d % n_heads:
        raise ValueError("n_heads must divide d_model")
    d_h = d // n_heads
    q, k, v = ((X @ W).reshape(T, n_heads, d_h).transpose(1, 0, 2) for W in (W_Q, W_K, W_V))
    s = q @ k.transpose(0, 2, 1) / np.sqrt(d_h)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return (w @ v).transpose(1, 0, 2).reshape(T, d) @ W_O


def mh_package_tuple(X, W_Q, W_K, W_V, W_O, n_heads):
    return multi_head_attention(X, W_Q, W_K, W_V, W_O, n_heads)


def mh_no_check(X, W_Q, W_K, W_V, W_O, n_heads):
    d_h = X.shape[1] // n_heads
    return mh_loop(X, W_Q, W_K, W_V, W_O, X.shape[1] // d_h)


# ---------------------------------------------------------------- previous-token head
def prev_loop(V, T_max):
    if V < 1 or T_max < 2:
        raise ValueError("V >= 1 and T_max >= 2")
    s = np.sqrt(T_max) * (np.log(9 * (T_max - 1)) + 1)
    W_Q, W_K = np.zeros((V + T_max, T_max)), np.zeros((V + T_max, T_max))
    for t in range(1, T_max):
        W_Q[V + t, t - 1] = s
    for j in range(T_max):
        W_K[V + j, j] = 1.0
    return W_Q, W_K


def prev_shifted_keys(V, T_max, offset=1, scale=100.0, word_bias=0.0, rows=None, check=True):
    """Queries are the positions (times a large constant), the key of position j offers position j + offset."""
    if check and (V < 1 or T_max < 2):
        raise ValueError("V >= 1 and T_max >= 2")
    d_k = T_max + 2  # column T_max: the key of the last position; column T_max + 1: word 0
    W_Q, W_K = np.zeros((V + T_max, d_k)), np.zeros((V + T_max, d_k))
    W_Q[V:, :T_max] = scale * np.eye(T_max)
    for j in range(T_max):
        if 0 <= j + offset <= T_max:
            W_K[V + j, j + offset] = 1.0
    if word_bias:  # every word also asks for word 0
        W_Q[:V, T_max + 1] = word_bias
        W_K[0, T_max + 1] = 1.0
    if rows is not None:
        W_Q, W_K = W_Q[-rows:], W_K[-rows:]
    return W_Q, W_K


def prev_list_of_lists(V, T_max):
    return tuple(m.tolist() for m in prev_shifted_keys(V, T_max))


# ---------------------------------------------------------------- decoder block
def _ln(x):
    return (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5)


def _causal_mha(x, W_Q, W_K, W_V, W_O, n_heads, mask="causal"):
    T, d = x.shape
    d_h = d // n_heads
    Q, K, V = x @ W_Q, x @ W_K, x @ W_V
    allowed = {
        "causal": np.tril(np.ones((T, T), bool)),
        "none": np.ones((T, T), bool),
        "future": np.triu(np.ones((T, T), bool)),
    }
    outs = []
    for i in range(n_heads):
        c = slice(i * d_h, (i + 1) * d_h)
        s = np.where(allowed[mask], Q[:, c] @ K[:, c].T / np.sqrt(d_h), -np.inf)
        outs.append(_softmax_rows(s) @ V[:, c])
    return np.concatenate(outs, 1) @ W_O


def block_ok(x, W_Q, W_K, W_V, W_O, W1, b1, W2, b2, n_heads, mask="causal", form="pre"):
    def ffn(h):
        return np.maximum(0, h @ W1 + b1) @ W2 + b2

    if form == "post":
        h = _ln(x + _causal_mha(x, W_Q, W_K, W_V, W_O, n_heads, mask))
        return _ln(h + ffn(h))
    if form == "ln_residual":
        x = _ln(x)
        h = x + _causal_mha(x, W_Q, W_K, W_V, W_O, n_heads, mask)
        return h + ffn(_ln(h))
    h = x + _causal_mha(_ln(x), W_Q, W_K, W_V, W_O, n_heads, mask)
    return h + ffn(_ln(h))


def block_einsum(x, W_Q, W_K, W_V, W_O, W1, b1, W2, b2, n_heads):  # all heads at once
    T, d = x.shape
    d_h = d // n_heads

    def norm(h, eps=1e-5):
        mu = h.mean(-1, keepdims=True)
        return (h - mu) / np.sqrt(((h - mu) ** 2).mean(-1, keepdims=True) + eps)

    def heads(m):  # (T, d) -> (n_heads, T, d_h)
        return m.reshape(T, n_heads, d_h).transpose(1, 0, 2)

    z = norm(x)
    q, k, v = heads(z @ W_Q), heads(z @ W_K), heads(z @ W_V)
    s = np.einsum("htd,hsd->hts", q, k) / np.sqrt(d_h) + np.triu(np.full((T, T), -np.inf), k=1)
    w = np.exp(s - s.max(-1, keepdims=True))
    a = np.einsum("hts,hsd->htd", w / w.sum(-1, keepdims=True), v).transpose(1, 0, 2).reshape(T, d)
    h = x + a @ W_O
    return h + np.maximum(0, norm(h) @ W1 + b1) @ W2 + b2


def block_sample_variance(x, W_Q, W_K, W_V, W_O, W1, b1, W2, b2, n_heads):  # "population variance"
    def ln(h):
        return (h - h.mean(1, keepdims=True)) / np.sqrt(h.var(1, ddof=1, keepdims=True) + 1e-5)

    h = x + _causal_mha(ln(x), W_Q, W_K, W_V, W_O, n_heads)
    return h + np.maximum(0, ln(h) @ W1 + b1) @ W2 + b2


def block_scaled_by_d_model(x, W_Q, W_K, W_V, W_O, W1, b1, W2, b2, n_heads):  # "scores divided by sqrt(d_h)"
    shrink = np.sqrt((x.shape[1] // n_heads) / x.shape[1])  # q . k / sqrt(d_model) = (q * shrink) . k / sqrt(d_h)
    h = x + _causal_mha(_ln(x), W_Q * shrink, W_K, W_V, W_O, n_heads)
    return h + np.maximum(0, _ln(h) @ W1 + b1) @ W2 + b2


def block_no_attention_residual(x, W_Q, W_K, W_V, W_O, W1, b1, W2, b2, n_heads):  # "adds its output to the stream"
    h = _causal_mha(_ln(x), W_Q, W_K, W_V, W_O, n_heads)
    return h + np.maximum(0, _ln(x + h) @ W1 + b1) @ W2 + b2


def block_package(x, W_Q, W_K, W_V, W_O, W1, b1, W2, b2, n_heads):  # "no package functions"
    a = multi_head_attention(_ln(x), W_Q, W_K, W_V, W_O, n_heads, causal_mask(len(x)))[0]
    h = x + a
    return h + np.maximum(0, _ln(h) @ W1 + b1) @ W2 + b2


CATALOGUE = {
    check_row_norm: Catalogue(
        correct=[row_norm_vectorised, row_norm_loop],
        wrong=[
            Wrong(row_norm_eps_inside, "inside the square root"),
            Wrong(row_norm_torch, "population variance"),
            Wrong(row_norm_whole, "each row"),
            Wrong(row_norm_in_place, "modified its input"),
        ],
    ),
    check_multi_head: Catalogue(
        correct=[mh_loop, mh_reshape],
        wrong=[
            Wrong(lambda *a: mh_loop(*a, scale_by=a[0].shape[1]), "not by √d_model"),
            Wrong(lambda *a: mh_loop(*a, axis_keys=False), "over the keys"),
            Wrong(lambda *a: mh_loop(*a, project=False), "multiply by W_O"),
            Wrong(lambda *a: mh_loop(*a, interleave=True), "contiguous block"),
            Wrong(mh_package_tuple, "returned a tuple"),
            Wrong(mh_no_check, "n_heads divides d_model"),
        ],
    ),
    check_previous_token_head: Catalogue(
        correct=[prev_loop, prev_shifted_keys, prev_list_of_lists],
        wrong=[
            Wrong(lambda V, T: prev_shifted_keys(V, T, offset=-1), "next token"),
            Wrong(lambda V, T: prev_shifted_keys(V, T, offset=0), "attends to itself"),
            Wrong(lambda V, T: prev_shifted_keys(V, T, scale=3.0), "too close"),
            Wrong(lambda V, T: prev_shifted_keys(V, T, word_bias=100.0), "looks at the words"),
            Wrong(lambda V, T: prev_shifted_keys(V, T, rows=T), ("V + T_max", "rows")),
            Wrong(lambda V, T: prev_shifted_keys(V, T)[0], "pair"),
            Wrong(
                lambda V, T: prev_shifted_keys(max(V, 1), max(T, 2), check=False),
                ("V is at least 1", "T_max at least 2"),
            ),
        ],
    ),
    check_decoder_block: Catalogue(
        correct=[block_ok, block_einsum],
        wrong=[
            Wrong(block_package, ("`causal_mask`", "build it yourself")),
            Wrong(block_sample_variance, "population"),
            Wrong(block_scaled_by_d_model, "sqrt(d_h)"),
            Wrong(block_no_attention_residual, "residual connection"),
            Wrong(lambda *a: block_ok(*a, mask="none"), "causal mask"),
            Wrong(lambda *a: block_ok(*a, mask="future"), "wrong way round"),
            Wrong(lambda *a: block_ok(*a, form="post"), "post-norm"),
            Wrong(lambda *a: block_ok(*a, form="ln_residual"), "not its normalised copy"),
        ],
    ),
}

test_catalogue = catalogue_test(CATALOGUE)
