"""A feature-based linear-chain CRF tagger, trained with torch autograd.

The emission score of tag ``k`` at token ``t`` is the sum of the weights ``W[f, k]`` of the token's
active features ``f`` (:func:`nlp_helpers.tagging.features.token_features`), i.e. the CRF's local
feature functions ``f_k(y_t, x, t)`` as indicator features paired with each tag; the transition
scores are the features ``<y_(t-1), y_t>``. Training minimises the negative log-likelihood (with L2
weight decay) by Adam, as one trains logistic regression. Features seen fewer than ``min_count``
times in training are dropped. Leaves out: L-BFGS training (CRFsuite's default), gazetteers.
"""

from __future__ import annotations

from collections import Counter

import torch
from torch import nn

from nlp_helpers._checks import check_int
from nlp_helpers.tagging.features import token_features
from nlp_helpers.tagging.training import TorchTagger

__all__ = ["FeatureCRFTagger"]


class _FeatureScorer(nn.Module):
    def __init__(self, n_features: int, n_tags: int) -> None:
        super().__init__()
        self.weights = nn.EmbeddingBag(n_features, n_tags, mode="sum")  # W: (n_features, K)
        nn.init.zeros_(self.weights.weight)

    def forward(self, batch):
        flat, offsets, lengths = batch
        scores = self.weights(flat, offsets)  # (total tokens, K)
        B, T = len(lengths), max(lengths)
        out = scores.new_zeros(B, T, scores.shape[1])
        mask = torch.arange(T)[None, :] < torch.tensor(lengths)[:, None]
        out[mask] = scores
        return out  # (B, T, K)


class FeatureCRFTagger(TorchTagger):
    """A linear-chain CRF over hand-written features (``crf=False`` gives a per-token log-linear model).

    Args:
        min_count: keep features seen at least this often in training.
        Other arguments as :class:`nlp_helpers.tagging.training.TorchTagger`.
    """

    def __init__(
        self,
        min_count: int = 1,
        crf: bool = True,
        epochs: int = 5,
        lr: float = 0.05,
        batch_size: int = 32,
        weight_decay: float = 0.0,
        seed: int = 0,
    ) -> None:
        super().__init__(crf=crf, epochs=epochs, lr=lr, batch_size=batch_size, weight_decay=weight_decay, seed=seed)
        self.min_count = check_int("min_count", min_count, minimum=1)
        self._cache: dict[tuple[str, ...], list[list[str]]] = {}

    def _prepare(self, sentences) -> None:
        words = [[w for w, _ in s] for s in sentences]
        self._cache = {tuple(ws): [token_features(ws, i) for i in range(len(ws))] for ws in words}
        counts = Counter(f for feats in self._cache.values() for fs in feats for f in fs)
        kept = sorted(f for f, c in counts.items() if c >= self.min_count)
        self.feature_index = {f: i for i, f in enumerate(kept)}

    def _encode(self, words):
        index = self.feature_index
        cached = self._cache.get(tuple(words))  # the training sentences' features, computed once
        feats = cached if cached is not None else [token_features(words, i) for i in range(len(words))]
        return [[index[f] for f in fs if f in index] for fs in feats]

    def fit(self, sentences, progress: bool = False) -> FeatureCRFTagger:
        """Train on ``sentences`` (lists of ``(word, tag)`` pairs); ``progress`` shows a tqdm bar."""
        try:
            return super().fit(sentences, progress)
        finally:
            self._cache = {}

    def _collate(self, encoded):
        tokens = [ids for sent in encoded for ids in sent]
        offsets = torch.tensor([0] + [len(ids) for ids in tokens[:-1]]).cumsum(0)
        flat = torch.tensor([f for ids in tokens for f in ids], dtype=torch.long)
        return flat, offsets, [len(sent) for sent in encoded]

    def _build(self) -> nn.Module:
        return _FeatureScorer(len(self.feature_index), len(self.tags))
