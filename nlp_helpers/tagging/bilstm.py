"""A bidirectional LSTM tagger (Huang et al., 2015; Lample et al., 2016), with a softmax or CRF output.

Each token is the concatenation of three embeddings: its lower-cased word (words seen fewer than
``min_count`` times in training share an ``<unk>`` vector, which is how the model learns what to do
with new words), its short word shape (capitalisation, digits: ``Xx``, ``d``) and its last three
letters. A one-layer BiLSTM reads the sentence both ways; a linear layer maps each position's two
states to K emission scores. With ``crf=True`` a :class:`~nlp_helpers.tagging.crf.CRFLayer` scores
the tag sequence (BiLSTM-CRF), otherwise each token gets its own softmax. Leaves out: character
LSTMs/CNNs, pretrained embeddings, dropout schedules and early stopping.
"""

from __future__ import annotations

from collections import Counter

import torch
from torch import nn

from nlp_helpers._checks import check_int
from nlp_helpers.tagging.features import word_shape
from nlp_helpers.tagging.training import TorchTagger

__all__ = ["BiLSTMTagger"]

UNK, PAD = "<unk>", "<pad>"


class _BiLSTMScorer(nn.Module):
    def __init__(self, sizes: tuple[int, int, int], dims: tuple[int, int, int], hidden: int, n_tags: int):
        super().__init__()
        self.embeddings = nn.ModuleList(nn.Embedding(n, d, padding_idx=0) for n, d in zip(sizes, dims))
        self.lstm = nn.LSTM(sum(dims), hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, n_tags)

    def forward(self, batch):
        ids, lengths = batch  # ids: (3, B, T) word, shape and suffix indices
        x = torch.cat([emb(i) for emb, i in zip(self.embeddings, ids)], dim=-1)  # (B, T, sum(dims))
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        h, _ = self.lstm(packed)
        h, _ = nn.utils.rnn.pad_packed_sequence(h, batch_first=True)  # (B, T, 2 * hidden)
        return self.out(h)  # (B, T, K)


class BiLSTMTagger(TorchTagger):
    """A BiLSTM(-CRF) tagger over word, shape and suffix embeddings.

    Args:
        word_dim, hidden: word embedding size and LSTM state size per direction.
        min_count: words seen fewer times in training become ``<unk>``.
        Other arguments as :class:`nlp_helpers.tagging.training.TorchTagger`.
    """

    def __init__(
        self,
        word_dim: int = 50,
        hidden: int = 50,
        min_count: int = 2,
        crf: bool = True,
        epochs: int = 5,
        lr: float = 0.01,
        batch_size: int = 32,
        weight_decay: float = 0.0,
        seed: int = 0,
    ) -> None:
        super().__init__(crf=crf, epochs=epochs, lr=lr, batch_size=batch_size, weight_decay=weight_decay, seed=seed)
        self.word_dim = check_int("word_dim", word_dim, minimum=1)
        self.hidden = check_int("hidden", hidden, minimum=1)
        self.min_count = check_int("min_count", min_count, minimum=1)

    def _prepare(self, sentences) -> None:
        words = Counter(w.lower() for s in sentences for w, _ in s)
        shapes = Counter(word_shape(w, short=True) for s in sentences for w, _ in s)
        suffixes = Counter(w.lower()[-3:] for s in sentences for w, _ in s)

        def vocab(counts: Counter, min_count: int) -> dict[str, int]:
            kept = sorted(k for k, c in counts.items() if c >= min_count)
            return {k: i for i, k in enumerate([PAD, UNK, *kept])}

        self.vocabs = (vocab(words, self.min_count), vocab(shapes, 1), vocab(suffixes, self.min_count))

    def _encode(self, words):
        keys = ([w.lower() for w in words], [word_shape(w, short=True) for w in words], [w.lower()[-3:] for w in words])
        return tuple([v.get(k, 1) for k in ks] for v, ks in zip(self.vocabs, keys))

    def _collate(self, encoded):
        lengths = [len(x[0]) for x in encoded]
        ids = torch.zeros(3, len(encoded), max(lengths), dtype=torch.long)
        for b, x in enumerate(encoded):
            for f in range(3):
                ids[f, b, : lengths[b]] = torch.tensor(x[f])
        return ids, torch.tensor(lengths)

    def _build(self) -> nn.Module:
        sizes = tuple(len(v) for v in self.vocabs)
        return _BiLSTMScorer(sizes, (self.word_dim, 8, 16), self.hidden, len(self.tags))
