"""The linear-chain conditional random field (Lafferty et al., 2001): path scores, log Z, a torch layer.

A linear-chain CRF scores a tag sequence ``y`` for words ``x`` with a sum of local scores,
``s(x, y) = start[y_0] + sum_t E[t, y_t] + sum_t A[y_(t-1), y_t] + end[y_(T-1)]``, where the
emission scores ``E`` (T, K) come from weighted features of the words (or from a neural network)
and ``A`` (K, K) holds transition scores. It normalises over *all* K**T sequences,
``P(y | x) = exp s(x, y) / Z(x)``, and the forward algorithm computes ``log Z`` in O(T K**2) time,
with the same recursion as Viterbi but log-sum-exp in place of max (SLP3 ch. 17).

``crf_path_score`` and ``crf_log_partition`` are numpy (float64), for teaching and tests;
:class:`CRFLayer` is the batched torch version whose negative log-likelihood is trained with
autograd (the gradient of ``log Z`` is the expected feature count, which autograd finds for us).
Leaves out: higher-order CRFs, constrained transitions (e.g. forbidding ``O -> I-PER``).
"""

from __future__ import annotations

import itertools

import numpy as np
import torch
from torch import nn

from nlp_helpers._checks import check_array, check_int
from nlp_helpers.tagging.viterbi import viterbi

__all__ = ["CRFLayer", "crf_log_partition", "crf_path_score"]


def _check(emissions, transitions, start_transitions, end_transitions):
    emissions = check_array("emissions", emissions, ndim=2)
    T, K = emissions.shape
    if T == 0 or K == 0:
        raise ValueError(f"emissions must have at least one time step and one tag, got shape {(T, K)}")
    transitions = check_array("transitions", transitions, shape=(K, K))
    start = (
        np.zeros(K) if start_transitions is None else check_array("start_transitions", start_transitions, shape=(K,))
    )
    end = np.zeros(K) if end_transitions is None else check_array("end_transitions", end_transitions, shape=(K,))
    return emissions, transitions, start, end


def crf_path_score(emissions, transitions, tags, start_transitions=None, end_transitions=None) -> float:
    """The unnormalised log score ``s(x, y)`` of one tag sequence.

    Args:
        emissions: (T, K) emission scores.
        transitions: (K, K) score of tag ``i`` (row) followed by tag ``j`` (column).
        tags: T tag indices in ``[0, K)``.
        start_transitions, end_transitions: optional (K,) scores of the first and last tag (0 if None).
    """
    emissions, transitions, start, end = _check(emissions, transitions, start_transitions, end_transitions)
    T, K = emissions.shape
    if isinstance(tags, (str, bytes)) or len(tags) != T:
        raise ValueError(f"tags must be a sequence of {T} tag indices (one per row of emissions)")
    tags = [check_int(f"tags[{t}]", y, minimum=0, maximum=K - 1) for t, y in enumerate(tags)]
    score = start[tags[0]] + end[tags[-1]] + emissions[np.arange(T), tags].sum()
    return float(score + sum(transitions[a, b] for a, b in itertools.pairwise(tags)))


def crf_log_partition(emissions, transitions, start_transitions=None, end_transitions=None) -> float:
    """``log Z``: the log of the summed ``exp`` score of all K**T tag sequences, by the forward algorithm.

    Args:
        emissions: (T, K) emission scores.
        transitions: (K, K) score of tag ``i`` (row) followed by tag ``j`` (column).
        start_transitions, end_transitions: optional (K,) scores of the first and last tag (0 if None).

    >>> round(crf_log_partition([[0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]), 6)  # log 2: two one-tag paths
    0.693147
    """
    return _forward(*_check(emissions, transitions, start_transitions, end_transitions))


def _logsumexp(x: np.ndarray, axis: int) -> np.ndarray:
    m = x.max(axis=axis, keepdims=True)  # subtract the max so exp never overflows
    return (m + np.log(np.exp(x - m).sum(axis=axis, keepdims=True))).squeeze(axis)


def _forward(emissions, transitions, start, end) -> float:
    alpha = start + emissions[0]  # (K,): log-sum of all paths ending in each tag
    for t in range(1, emissions.shape[0]):
        alpha = _logsumexp(alpha[:, None] + transitions, axis=0) + emissions[t]
    return float(_logsumexp(alpha + end, axis=0))


class CRFLayer(nn.Module):
    """A batched linear-chain CRF output layer with learned transition, start and end scores.

    Args:
        n_tags: K, the number of tags.

    Shapes: ``emissions`` (B, T, K) float, ``tags`` (B, T) long, ``mask`` (B, T) bool with each row
    a prefix of ``True`` (the real tokens; every sentence has at least one).
    """

    def __init__(self, n_tags: int) -> None:
        super().__init__()
        self.n_tags = check_int("n_tags", n_tags, minimum=1)
        self.transitions = nn.Parameter(torch.zeros(n_tags, n_tags))
        self.start = nn.Parameter(torch.zeros(n_tags))
        self.end = nn.Parameter(torch.zeros(n_tags))

    def _check(self, emissions: torch.Tensor, mask: torch.Tensor) -> None:
        if emissions.dim() != 3 or emissions.shape[2] != self.n_tags:
            raise ValueError(f"emissions must have shape (B, T, {self.n_tags}), got {tuple(emissions.shape)}")
        if mask.shape != emissions.shape[:2] or mask.dtype != torch.bool:
            raise ValueError(f"mask must be a bool tensor of shape {tuple(emissions.shape[:2])}")
        if not bool(mask[:, 0].all()):
            raise ValueError("mask must mark at least the first token of every sentence")

    def log_partition(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """(B,) log Z of each sentence (the forward algorithm, batched)."""
        self._check(emissions, mask)
        alpha = self.start + emissions[:, 0]  # (B, K)
        for t in range(1, emissions.shape[1]):
            nxt = torch.logsumexp(alpha.unsqueeze(2) + self.transitions, dim=1) + emissions[:, t]
            alpha = torch.where(mask[:, t, None], nxt, alpha)  # padded steps keep alpha
        return torch.logsumexp(alpha + self.end, dim=1)

    def path_score(self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """(B,) score s(x, y) of the given tags."""
        self._check(emissions, mask)
        m = mask.to(emissions.dtype)
        emit = emissions.gather(2, tags.unsqueeze(2)).squeeze(2)  # (B, T)
        trans = self.transitions[tags[:, :-1], tags[:, 1:]] * m[:, 1:]
        last = tags.gather(1, (mask.sum(1, keepdim=True) - 1)).squeeze(1)
        return self.start[tags[:, 0]] + (emit * m).sum(1) + trans.sum(1) + self.end[last]

    def neg_log_likelihood(self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Mean over the batch of ``log Z - s(x, y)``: the loss to minimise."""
        return (self.log_partition(emissions, mask) - self.path_score(emissions, tags, mask)).mean()

    @torch.no_grad()
    def decode(self, emissions: torch.Tensor, mask: torch.Tensor) -> list[list[int]]:
        """The best tag sequence of each sentence (Viterbi), as lists of tag indices."""
        self._check(emissions, mask)
        trans = self.transitions.double().numpy()
        start, end = self.start.double().numpy(), self.end.double().numpy()
        out = []
        for em, n in zip(emissions.double().numpy(), mask.sum(1).tolist()):
            em = em[:n].copy()
            em[-1] += end
            out.append(viterbi(start, trans, em)[0])
        return out
