"""Checkers for the exercises of the page "Conditional random fields" (``book/tagging/crf.ipynb``).

* :func:`check_forward_by_hand`: the forward and backward tables of a two-word, two-tag CRF filled in by hand
  (a value, not a function), compared with a brute-force sum over the four tag sequences.
* :func:`check_crf_marginals`: ``log Z`` and the marginals ``P(s_t = j | w)`` of a CRF with start and end
  scores, compared with a brute-force sum over all tag sequences.

Each checker also computes the answers of typical mistakes, so that a wrong answer gets a hint naming its mistake.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from nlp_helpers.exercises.checker import Checker, CheckResult

__all__ = ["check_crf_marginals", "check_forward_by_hand"]

HAND_E = np.array([[1.0, 0.0], [0.0, 2.0]])  # 2 words x tags (A, B)
HAND_T = np.array([[0.0, -1.0], [1.0, 0.0]])  # row = previous tag
HAND_KEYS = ("alpha2_A", "alpha2_B", "log_z", "p1_A")


def _lse(x, axis=None):
    m = np.max(x, axis=axis, keepdims=True)
    out = m + np.log(np.exp(x - m).sum(axis=axis, keepdims=True))
    return np.squeeze(out, axis=axis) if axis is not None else float(out.squeeze())


def _brute(E, T, start=None, end=None):
    """log Z and the marginals by enumerating every tag sequence."""
    n, K = E.shape
    start = np.zeros(K) if start is None else start
    end = np.zeros(K) if end is None else end
    paths = list(itertools.product(range(K), repeat=n))
    scores = np.array(
        [start[p[0]] + end[p[-1]] + E[range(n), p].sum() + sum(T[a, b] for a, b in zip(p[:-1], p[1:])) for p in paths]
    )
    log_z = _lse(scores)
    marg = np.zeros((n, K))
    for p, s in zip(paths, scores):
        marg[range(n), p] += np.exp(s - log_z)
    return log_z, marg


def _hand_values(kind: str = "right") -> dict[str, float]:
    E, T = HAND_E, (HAND_T.T if kind == "transposed" else HAND_T)
    if kind == "max":
        a2 = np.max(E[0][:, None] + T, axis=0) + E[1]
        return {"alpha2_A": a2[0], "alpha2_B": a2[1], "log_z": float(a2.max()), "p1_A": np.nan}
    a2 = _lse(E[0][:, None] + T, axis=0) + (0 if kind == "no_emission" else E[1])
    log_z, marg = _brute(E, T)
    return {"alpha2_A": a2[0], "alpha2_B": a2[1], "log_z": float(_lse(a2)), "p1_A": marg[0, 0]}


def _not_yet():
    raise NotImplementedError


def check_forward_by_hand(forward_by_hand: object) -> CheckResult:
    """``forward_by_hand``: dict of alpha_2(A), alpha_2(B), log Z and P(s_1 = A | w) for the page's 2 x 2 CRF."""
    want = _hand_values()
    with Checker("The forward algorithm by hand") as ex:
        if forward_by_hand is ...:
            ex.call(_not_yet)  # the stub: "not yet"
        ex.expect(
            isinstance(forward_by_hand, dict),
            f"forward_by_hand should be a dict with the keys {list(HAND_KEYS)}, got {type(forward_by_hand).__name__}.",
        )
        missing = [k for k in HAND_KEYS if k not in forward_by_hand]
        ex.expect(not missing, f"forward_by_hand is missing the keys {missing}.")
        ex.expect(
            all(
                isinstance(forward_by_hand[k], (int, float)) and not isinstance(forward_by_hand[k], bool)
                for k in HAND_KEYS
            ),
            "Every value should be a number (a float, or an expression such as 1 + math.log(2)).",
        )
        got = {k: float(forward_by_hand[k]) for k in HAND_KEYS}
        alphas = ("alpha2_A", "alpha2_B")
        hints = {
            "max": "You took the maximum over the previous tag: that is Viterbi. The forward algorithm sums, "
            "log of the sum of exp, over it.",
            "no_emission": "alpha_2(j) ends with the emission score E[2, j] of the second word: you left it out.",
            "transposed": "T[i, j] scores the step from the previous tag i to the next tag j: read the transition "
            "from row i, column j.",
        }
        for kind, hint in hints.items():
            values = _hand_values(kind)
            if all(np.isclose(got[k], values[k], atol=2e-3) for k in alphas):
                ex.fail(hint)
        for key, hint in [
            ("alpha2_A", "alpha_2(A) = log(exp(alpha_1(A) + T[A, A]) + exp(alpha_1(B) + T[B, A])) + E[2, A]."),
            ("alpha2_B", "alpha_2(B) = log(exp(alpha_1(A) + T[A, B]) + exp(alpha_1(B) + T[B, B])) + E[2, B]."),
            ("log_z", "log Z = log(exp(alpha_2(A)) + exp(alpha_2(B))): the last column, summed."),
            (
                "p1_A",
                "P(s_1 = A | w) = exp(alpha_1(A) + beta_1(A) - log Z), with beta_1(A) summing over the second tag "
                "T[A, j] + E[2, j]; it is a probability between 0 and 1.",
            ),
        ]:
            ex.expect_close(got[key], want[key], what=key, hint=hint, rtol=0, atol=2e-3)
    return ex.result


def _problems():
    rng = np.random.default_rng(29)
    out = []
    for n, K, scale in [(1, 3, 1.0), (3, 2, 1.0), (4, 3, 1.0), (5, 2, 1.0), (3, 3, 300.0)]:
        out.append(tuple(scale * rng.normal(size=s) for s in [(n, K), (K, K), (K,), (K,)]))
    return out


def check_crf_marginals(fn: Callable) -> CheckResult:
    """``fn(emissions, transitions, start, end)`` -> ``(log_z, marginals)``, marginals of shape ``(n, K)``."""
    with Checker("CRF marginals with start and end scores") as ex:
        for E, T, start, end in _problems():
            n, K = E.shape
            what = f"crf_marginals(emissions of shape {E.shape}, ...)"
            got = ex.call(fn, E, T, start, end)
            ex.expect(
                isinstance(got, tuple) and len(got) == 2,
                f"{what} should return a tuple (log_z, marginals), got {type(got).__name__}.",
            )
            log_z, marg = got
            want_z, want_m = _brute(E, T, start, end)
            ex.expect(
                np.all(np.isfinite(np.asarray(marg, dtype=float))) and np.isfinite(float(log_z)),
                f"{what} returned inf or NaN for scores of a few hundred: add in log space and use log-sum-exp "
                "(subtract the largest value before exp).",
            )
            for args, hint in [
                ((E, T, None, end), "You left out the start scores: the first tag's score includes start[j]."),
                ((E, T, start, None), "You left out the end scores: the last tag's score includes end[j]."),
                ((E, T, None, None), "The start and end scores are part of every path's score: add both."),
            ]:
                z_wrong, _ = _brute(*args)
                if np.isclose(float(log_z), z_wrong, rtol=1e-6, atol=1e-9) and not np.isclose(z_wrong, want_z):
                    ex.fail(f"{what}: {hint}")
            ex.expect_close(
                float(log_z),
                want_z,
                what=f"log Z of {what}",
                hint="Forward: alpha_1 = start + E[0], alpha_t(j) = logsumexp_i(alpha_{t-1}(i) + T[i, j]) + E[t, j], "
                "log Z = logsumexp_j(alpha_n(j) + end[j]).",
            )
            m = np.asarray(marg, dtype=float)
            if m.shape == want_m.shape and np.allclose(m, np.log(want_m + 1e-300), atol=1e-6) and n > 0:
                ex.fail(f"{what}: return the marginals as probabilities, not log probabilities.")
            local = np.exp(E - _lse(E, axis=1)[:, None])
            if m.shape == want_m.shape and np.allclose(m, local, atol=1e-6) and not np.allclose(local, want_m):
                ex.fail(
                    f"{what}: a softmax of each word's emissions ignores the transitions; the marginal sums over "
                    "whole paths (forward times backward)."
                )
            ex.expect_close(
                m,
                want_m,
                what=f"the marginals of {what}",
                hint="P(s_t = j | w) = exp(alpha_t(j) + beta_t(j) - log Z), with beta_n(j) = end[j]; each row sums to 1.",
                rtol=1e-6,
                atol=1e-8,
            )
    return ex.result
