"""The training loop and batching shared by the chapter's torch taggers (feature CRF, BiLSTM).

A subclass says how to build vocabularies from the training sentences (``_prepare``), how to turn
one sentence into tensors (``_encode``), how to build its network (``_build``, returning a module
whose ``forward(batch)`` gives (B, T, K) emission scores) and nothing else. This base class pads
sentences into mini-batches (sorted by length so little is padding), trains with Adam on the CRF's
negative log-likelihood (``crf=True``) or the per-token cross-entropy (``crf=False``), shows a
progress bar, and decodes with Viterbi or a per-token argmax.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from nlp_helpers._checks import check_float, check_int
from nlp_helpers.display import hide_progress
from nlp_helpers.seeds import manual_seed, torch_generator
from nlp_helpers.tagging.baseline import check_tagged_sentences
from nlp_helpers.tagging.crf import CRFLayer

__all__ = ["TorchTagger"]


class TorchTagger:
    """Base class: ``fit(sentences)`` on ``(word, tag)`` lists, then ``tag(words)``/``tag_many(list)``.

    Args:
        crf: a CRF output layer (Viterbi decoding) if True, else independent softmax per token.
        epochs, lr, batch_size, weight_decay: Adam training settings.
        seed: experiment number for :mod:`nlp_helpers.seeds` (initialisation and shuffling).
    """

    def __init__(
        self,
        crf: bool = True,
        epochs: int = 5,
        lr: float = 0.01,
        batch_size: int = 32,
        weight_decay: float = 0.0,
        seed: int = 0,
    ) -> None:
        if not isinstance(crf, bool):
            raise TypeError(f"crf must be True or False, got {crf!r}")
        self.crf = crf
        self.epochs = check_int("epochs", epochs, minimum=1)
        self.lr = check_float("lr", lr, minimum=0.0, min_inclusive=False)
        self.batch_size = check_int("batch_size", batch_size, minimum=1)
        self.weight_decay = check_float("weight_decay", weight_decay, minimum=0.0)
        self.seed = check_int("seed", seed, minimum=0)
        self.tags: list[str] = []
        self.losses: list[float] = []

    # ----- to override -----
    def _prepare(self, sentences: list[list[tuple[str, str]]]) -> None:
        raise NotImplementedError

    def _encode(self, words: list[str]) -> Any:
        raise NotImplementedError

    def _collate(self, encoded: list[Any]) -> Any:
        raise NotImplementedError

    def _build(self) -> nn.Module:
        raise NotImplementedError

    # ----- training -----
    def fit(self, sentences, progress: bool = False) -> TorchTagger:
        """Train on ``sentences`` (lists of ``(word, tag)`` pairs); ``progress`` shows a tqdm bar."""
        sentences = [s for s in check_tagged_sentences("sentences", sentences) if s]
        if not sentences:
            raise ValueError("sentences must contain at least one non-empty sentence")
        self.tags = sorted({t for s in sentences for _w, t in s})
        self._tag_index = {t: i for i, t in enumerate(self.tags)}
        self._prepare(sentences)
        manual_seed(self.seed)
        self.net = self._build()
        self.head = CRFLayer(len(self.tags)) if self.crf else None
        data = [(self._encode([w for w, _ in s]), [self._tag_index[t] for _, t in s]) for s in sentences]
        self._train(data, progress)
        return self

    def _parameters(self):
        params = list(self.net.parameters())
        return params + (list(self.head.parameters()) if self.head is not None else [])

    def _train(self, data, progress: bool) -> None:
        from tqdm.auto import tqdm

        opt = torch.optim.Adam(self._parameters(), lr=self.lr, weight_decay=self.weight_decay)
        gen = torch_generator(self.seed)
        order = sorted(range(len(data)), key=lambda i: len(data[i][1]))
        batches = [order[i : i + self.batch_size] for i in range(0, len(order), self.batch_size)]
        self.losses = []
        bar = tqdm(
            total=self.epochs * len(batches), desc="training", disable=not progress or hide_progress(), leave=False
        )
        # The batches keep their members across epochs (only their order changes), so each is
        # padded and turned into tensors once.
        prepared = [self._batch([data[i] for i in b]) for b in batches]
        self.net.train()
        for _epoch in range(self.epochs):
            total = 0.0
            for b in torch.randperm(len(batches), generator=gen).tolist():
                loss = self._loss(*prepared[b])
                opt.zero_grad()
                loss.backward()
                opt.step()
                total += float(loss.detach()) * len(batches[b])
                bar.update(1)
            self.losses.append(total / len(data))
        bar.close()
        self.net.eval()

    def _batch(self, items) -> tuple[Any, torch.Tensor, torch.Tensor]:
        encoded = [x for x, _ in items]
        lengths = torch.tensor([self._length(x) for x in encoded])
        mask = torch.arange(int(lengths.max()))[None, :] < lengths[:, None]  # (B, T)
        tags = torch.zeros(mask.shape, dtype=torch.long)
        for row, (_x, y) in enumerate(items):
            tags[row, : len(y)] = torch.tensor(y)
        return self._collate(encoded), tags, mask

    def _loss(self, inputs, tags: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        emissions = self.net(inputs)
        if self.head is not None:
            return self.head.neg_log_likelihood(emissions, tags, mask)
        return nn.functional.cross_entropy(emissions[mask], tags[mask])

    def _emissions(self, encoded: list[Any]) -> tuple[torch.Tensor, torch.Tensor]:
        lengths = torch.tensor([self._length(x) for x in encoded])
        mask = torch.arange(int(lengths.max()))[None, :] < lengths[:, None]  # (B, T)
        return self.net(self._collate(encoded)), mask

    def _length(self, encoded: Any) -> int:
        return len(encoded[0]) if isinstance(encoded, tuple) else len(encoded)

    # ----- tagging -----
    def tag(self, words) -> list[str]:
        """The tags of one sentence (a list of words)."""
        return self.tag_many([words])[0]

    @torch.no_grad()
    def tag_many(self, sentences, batch_size: int = 256) -> list[list[str]]:
        """The tags of many sentences (each a list of words), decoded in batches."""
        if not self.tags:
            raise RuntimeError("call fit(sentences) before tagging")
        if isinstance(sentences, str) or not isinstance(sentences, (list, tuple)):
            raise TypeError(f"sentences must be a list of word lists, got {type(sentences).__name__}")
        for i, words in enumerate(sentences):
            if (
                isinstance(words, str)
                or not isinstance(words, (list, tuple))
                or not all(isinstance(w, str) for w in words)
            ):
                raise TypeError(f"sentences[{i}] must be a list of word strings")
        out: list[list[str]] = [[] for _ in sentences]
        todo = [i for i, s in enumerate(sentences) if s]
        for start in range(0, len(todo), batch_size):
            idx = todo[start : start + batch_size]
            emissions, mask = self._emissions([self._encode(list(sentences[i])) for i in idx])
            if self.head is not None:
                paths = self.head.decode(emissions, mask)
            else:
                paths = [row[:n].tolist() for row, n in zip(emissions.argmax(2), mask.sum(1).tolist())]
            for i, path in zip(idx, paths):
                out[i] = [self.tags[k] for k in path]
        return out
