"""The Viterbi algorithm: the best tag sequence of a first-order model, in log space.

Follows SLP3 ch. 17 (Jurafsky and Martin): a trellis ``v[t, j]`` holds the best log score of any
path that ends in state ``j`` at time ``t``; a back-pointer remembers which state it came from. The
same code decodes a hidden Markov model (log probabilities) and a linear-chain CRF (unnormalised log
potentials): only the meaning of the three score arrays changes. Leaves out: beam pruning, higher
orders (a trigram model is run on pairs of tags), end-of-sentence scores (add them to the last
emission row).
"""

from __future__ import annotations

import numpy as np

from nlp_helpers._checks import check_array

__all__ = ["viterbi", "viterbi_trellis"]


def _check(log_start, log_trans, log_emissions):
    # -inf is a legal log probability (an impossible transition); NaN and +inf are not.
    log_emissions = check_array("log_emissions", log_emissions, ndim=2, finite=False)
    T, K = log_emissions.shape
    if T == 0 or K == 0:
        raise ValueError(f"log_emissions must have at least one time step and one state, got shape {(T, K)}")
    log_start = check_array("log_start", log_start, shape=(K,), finite=False)
    log_trans = check_array("log_trans", log_trans, shape=(K, K), finite=False)
    for name, arr in (("log_start", log_start), ("log_trans", log_trans), ("log_emissions", log_emissions)):
        if np.isnan(arr).any() or np.isposinf(arr).any():
            raise ValueError(f"{name} must not contain NaN or +inf (log scores may be -inf)")
    return log_start, log_trans, log_emissions


def viterbi_trellis(log_start, log_trans, log_emissions) -> tuple[np.ndarray, np.ndarray]:
    """The Viterbi trellis and back-pointers.

    Args:
        log_start: (K,) log score of starting in each state.
        log_trans: (K, K) log score of moving from state ``i`` (row) to state ``j`` (column).
        log_emissions: (T, K) log score of the observation at time ``t`` in state ``j``.

    Returns:
        ``(v, back)``: ``v`` (T, K) best log score of a path ending in ``j`` at ``t``; ``back`` (T, K)
        int, the previous state on that path (``back[0]`` is -1).
    """
    return _trellis(*_check(log_start, log_trans, log_emissions))


def viterbi(log_start, log_trans, log_emissions) -> tuple[list[int], float]:
    """The highest-scoring state sequence and its log score.

    Args:
        log_start: (K,) log score of starting in each state.
        log_trans: (K, K) log score of moving from state ``i`` (row) to state ``j`` (column).
        log_emissions: (T, K) log score of the observation at time ``t`` in state ``j``.

    Returns:
        ``(best_path, best_log_score)``: a list of T state indices and the path's total log score
        ``log_start[s0] + log_emissions[0, s0] + sum_t (log_trans[s(t-1), s(t)] + log_emissions[t, s(t)])``.
        Ties go to the lowest state index.

    >>> viterbi([0.0, -1.0], [[-1.0, -2.0], [-2.0, -1.0]], [[0.0, 0.0], [-3.0, 0.0]])
    ([0, 1], -2.0)
    """
    return _decode(*_trellis(*_check(log_start, log_trans, log_emissions)))


def _trellis(log_start, log_trans, log_emissions):
    T, K = log_emissions.shape
    v = np.empty((T, K))
    back = np.full((T, K), -1, dtype=np.int64)
    v[0] = log_start + log_emissions[0]
    for t in range(1, T):
        cand = v[t - 1][:, None] + log_trans  # (K prev, K next)
        back[t] = cand.argmax(axis=0)
        v[t] = cand[back[t], np.arange(K)] + log_emissions[t]
    return v, back


def _decode(v, back):
    T = v.shape[0]
    path = [int(v[-1].argmax())]
    for t in range(T - 1, 0, -1):
        path.append(int(back[t, path[-1]]))
    path.reverse()
    return path, float(v[-1].max())
