"""Bengio et al.'s (2003) fixed-window neural language model, in PyTorch.

The model predicts word ``t`` from the ``k`` words before it (an n-gram model with n = k + 1)::

    e_j = E[w_{t-j}]                          # (d,)  embedding of each context word
    h   = tanh(W [e_k; ...; e_1] + b)         # (H,)  W is (H, k d): W_1 e_1 + ... + W_k e_k
    z   = U h + c                             # (V,)  scores of every vocabulary word
    P(w_t | context) = softmax(z)[w_t]

as in Jurafsky & Martin (SLP3, ch. 6/7) and the lecture notes. Sentences are padded with ``k``
start symbols ``<s>`` and end with ``</s>``, which is predicted; ``<s>`` never is. This matches how
:class:`nlp_helpers.ngram.models.NGramLM` scores a sentence, so perplexities on the same sentences and
vocabulary are comparable token for token. Unknown words map to ``<UNK>``.

What is left out: Bengio et al.'s direct connections from the embeddings to the output, their
parallel training, and the importance-sampled softmax of later work; training uses Adam with a
linearly decaying learning rate instead of plain SGD.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
from torch import nn
from tqdm.auto import tqdm

from nlp_helpers._checks import check_array, check_float, check_int, check_nonempty, check_type
from nlp_helpers.data.splits import BOS, EOS, UNK
from nlp_helpers.display import hide_progress
from nlp_helpers.seeds import manual_seed, torch_generator

__all__ = ["WindowLM", "lm_vocabulary", "token_logprobs", "train_window_lm", "window_examples"]


def lm_vocabulary(words: Sequence[str]) -> list[str]:
    """The model's vocabulary: ``[<s>, </s>, <UNK>, *words]`` (the order :class:`NGramLM` uses)."""
    words = check_nonempty("words", words)
    for i, w in enumerate(words):
        if not isinstance(w, str):
            raise TypeError(f"words[{i}] must be a str, got {type(w).__name__}")
    return [BOS, EOS, UNK, *[w for w in dict.fromkeys(words) if w not in (BOS, EOS, UNK)]]


def _windows(sentences, stoi, k):
    unk = stoi[UNK]
    ids, targets = [], []
    for s in sentences:
        padded = np.array([stoi[BOS]] * k + [stoi.get(w, unk) for w in s] + [stoi[EOS]], dtype=np.int64)
        # row t holds padded[t : t + k], the k words before target padded[t + k]
        ids.append(np.lib.stride_tricks.sliding_window_view(padded[:-1], k))
        targets.append(padded[k:])
    return np.concatenate(ids), np.concatenate(targets)


def window_examples(
    sentences: Sequence[Sequence[str]], vocabulary: Sequence[str], k: int = 3
) -> tuple[np.ndarray, np.ndarray]:
    """(contexts ``(N, k)``, targets ``(N,)``) token ids for every word and ``</s>`` of ``sentences``.

    ``vocabulary`` is the output of :func:`lm_vocabulary`; ids are positions in it.
    """
    sentences = check_nonempty("sentences", sentences)
    for i, s in enumerate(sentences):
        if isinstance(s, str):
            raise TypeError(f"sentences[{i}] must be a list of tokens, got a str; split it into words first")
    vocabulary = check_nonempty("vocabulary", vocabulary)
    if vocabulary[:3] != [BOS, EOS, UNK]:
        raise ValueError("vocabulary must start with <s>, </s>, <UNK>: build it with lm_vocabulary(words)")
    k = check_int("k", k, minimum=1)
    return _windows(sentences, {w: i for i, w in enumerate(vocabulary)}, k)


class WindowLM(nn.Module):
    """Embedding -> concatenation -> tanh hidden layer -> softmax over the vocabulary.

    ``forward(contexts)`` takes ``(B, k)`` token ids and returns logits ``(B, V)``.
    The weights are initialised by torch's defaults after ``manual_seed(seed)``.
    """

    def __init__(self, vocab_size: int, k: int = 3, dim: int = 32, hidden: int = 64, seed: int = 0) -> None:
        super().__init__()
        self.vocab_size = check_int("vocab_size", vocab_size, minimum=2)
        self.k = check_int("k", k, minimum=1)
        self.dim = check_int("dim", dim, minimum=1)
        self.hidden = check_int("hidden", hidden, minimum=1)
        manual_seed(check_int("seed", seed, minimum=0))
        self.embed = nn.Embedding(self.vocab_size, self.dim)  # E: (V, d)
        self.hid = nn.Linear(self.k * self.dim, self.hidden)  # W: (H, k d), b: (H,)
        self.out = nn.Linear(self.hidden, self.vocab_size)  # U: (V, H), c: (V,)

    def forward(self, contexts: torch.Tensor) -> torch.Tensor:
        check_type("contexts", contexts, torch.Tensor)
        if contexts.ndim != 2 or contexts.shape[1] != self.k or contexts.dtype != torch.int64:
            raise ValueError(
                f"contexts must be an int64 tensor of shape (B, {self.k}), got {tuple(contexts.shape)} {contexts.dtype}"
            )
        if contexts.numel() and (contexts.min() < 0 or contexts.max() >= self.vocab_size):
            raise ValueError(f"contexts must hold token ids in 0..{self.vocab_size - 1}")
        e = self.embed(contexts).flatten(1)  # (B, k d): [e_1; ...; e_k]
        return self.out(torch.tanh(self.hid(e)))  # (B, V)


def _check_examples(model, contexts, targets):
    check_type("model", model, WindowLM)
    contexts = check_array("contexts", contexts, ndim=2, dtype=np.int64)
    targets = check_array("targets", targets, ndim=1, dtype=np.int64)
    if len(contexts) != len(targets) or len(targets) == 0:
        raise ValueError(
            f"contexts and targets must have the same, non-zero length; got {len(contexts)} and {len(targets)}"
        )
    if targets.min() < 0 or targets.max() >= model.vocab_size:
        raise ValueError(f"targets must hold token ids in 0..{model.vocab_size - 1}")
    return torch.from_numpy(contexts), torch.from_numpy(targets)


def train_window_lm(
    model: WindowLM,
    contexts,
    targets,
    *,
    steps: int = 500,
    batch_size: int = 1024,
    lr: float = 1e-2,
    seed: int = 0,
    progress: bool = True,
) -> list[float]:
    """Adam on the cross-entropy for ``steps`` mini-batches drawn in shuffled passes over the data.

    The learning rate decays linearly from ``lr`` to 0. Returns the training loss (nats) of every step.
    """
    X, Y = _check_examples(model, contexts, targets)
    steps = check_int("steps", steps, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    lr = check_float("lr", lr, minimum=0.0, min_inclusive=False)
    gen = torch_generator(check_int("seed", seed, minimum=0))
    return _train(model, X, Y, steps, batch_size, lr, gen, progress)


def _train(model, X, Y, steps, batch_size, lr, gen, progress):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: 1.0 - s / steps)  # linear decay to 0
    model.train()
    losses, order, pos = [], torch.randperm(len(Y), generator=gen), 0
    for _ in tqdm(range(steps), disable=not progress or hide_progress(), desc="window LM", unit="step"):
        if pos + batch_size > len(Y) and pos > 0:  # start a new shuffled pass
            order, pos = torch.randperm(len(Y), generator=gen), 0
        idx = order[pos : pos + batch_size]
        pos += batch_size
        loss = nn.functional.cross_entropy(model(X[idx]), Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        losses.append(loss.item())
    return losses


@torch.no_grad()
def token_logprobs(model: WindowLM, contexts, targets, batch_size: int = 8192) -> np.ndarray:
    """Natural-log probability the model gives each target ``(N,)``; perplexity is ``exp(-mean)``."""
    X, Y = _check_examples(model, contexts, targets)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    model.eval()
    out = [
        torch.log_softmax(model(X[i : i + batch_size]), dim=-1).gather(1, Y[i : i + batch_size, None])[:, 0]
        for i in range(0, len(Y), batch_size)
    ]
    return torch.cat(out).numpy().astype(np.float64)
