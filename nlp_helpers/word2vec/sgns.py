"""Word2vec: skip-gram and CBOW with negative sampling, trained in PyTorch with hand-derived gradients.

Follows Mikolov et al. (2013, "Distributed Representations of Words and Phrases")
and the reference C tool as gensim re-implements it: a frequency-sorted
vocabulary with ``min_count``, subsampling of frequent words, a *reduced* random
window per centre word, ``k`` negatives drawn from the unigram distribution
raised to 0.75, and a learning rate decaying linearly from ``alpha`` to
``min_alpha``.

What is different: updates are applied to mini-batches of (centre, context)
pairs with ``Tensor.index_add_`` (vectorised, no Python loop per pair) instead
of one pair at a time in lock-free threads. The gradients are the closed forms
derived in the chapter (:func:`sgns_gradients`); the tests check them against
autograd and finite differences. Left out: hierarchical softmax, phrases, and
the full-softmax models (those live in :mod:`nlp_helpers.word2vec.softmax`).

Names: ``V`` vocabulary size, ``d`` embedding width, ``B`` batch of pairs,
``k`` negatives per pair. ``W_in`` (V, d) holds the vectors of the *given*
words (the rows we keep as embeddings), ``W_out`` (V, d) those of the
*predicted* words.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

import numpy as np
import torch
from tqdm.auto import tqdm

from nlp_helpers._checks import check_choice, check_float, check_int, check_nonempty, check_type
from nlp_helpers.display import hide_progress
from nlp_helpers.seeds import rng as seeded_rng
from nlp_helpers.seeds import torch_generator
from nlp_helpers.word2vec.corpus import (
    Vocabulary,
    build_vocab,
    cbow_examples,
    encode_corpus,
    keep_probabilities,
    noise_table,
    skipgram_pairs,
)
from nlp_helpers.word2vec.evaluation import WordVectors

__all__ = ["Word2Vec", "sgns_gradients", "sgns_loss", "sgns_shared_gradients", "sgns_shared_loss"]


# --------------------------------------------------------------------------- loss and gradients
def sgns_loss(v: torch.Tensor, u_pos: torch.Tensor, u_neg: torch.Tensor) -> torch.Tensor:
    """Skip-gram negative-sampling loss of each example, shape (B,).

    ``L = -log σ(u_pos·v) - Σ_i log σ(-u_neg_i·v)`` with ``v`` (B, d) the given word's input vector,
    ``u_pos`` (B, d) the true context word's output vector and ``u_neg`` (B, k, d) the negatives'.
    """
    _check_sgns_shapes(v, u_pos, u_neg)
    pos = (v * u_pos).sum(-1)  # (B,)
    neg = torch.bmm(u_neg, v.unsqueeze(-1)).squeeze(-1)  # (B, k)
    return -torch.nn.functional.logsigmoid(pos) - torch.nn.functional.logsigmoid(-neg).sum(-1)


def sgns_gradients(
    v: torch.Tensor, u_pos: torch.Tensor, u_neg: torch.Tensor, neg_mask: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Closed-form gradients of :func:`sgns_loss` for each example: ``(dL/dv, dL/du_pos, dL/du_neg, L)``.

    ``dL/du_pos = (σ(u_pos·v) - 1) v``, ``dL/du_neg_i = σ(u_neg_i·v) v`` and
    ``dL/dv = (σ(u_pos·v) - 1) u_pos + Σ_i σ(u_neg_i·v) u_neg_i``. ``neg_mask`` (B, k), if given,
    is 1 for negatives to use and 0 for those to skip (a negative that drew the true context word).
    Shapes: (B, d), (B, d), (B, k, d), (B,).
    """
    _check_sgns_shapes(v, u_pos, u_neg)
    if neg_mask is not None and tuple(neg_mask.shape) != tuple(u_neg.shape[:2]):
        raise ValueError(f"neg_mask must have shape (B, k) = {tuple(u_neg.shape[:2])}, got {tuple(neg_mask.shape)}")
    pos = (v * u_pos).sum(-1)  # (B,)
    neg = torch.bmm(u_neg, v.unsqueeze(-1)).squeeze(-1)  # (B, k)
    g_pos = torch.sigmoid(pos) - 1.0  # (B,)  in (-1, 0): pull together
    g_neg = torch.sigmoid(neg)  # (B, k)  in (0, 1): push apart
    loss_neg = -torch.nn.functional.logsigmoid(-neg)
    if neg_mask is not None:
        g_neg = g_neg * neg_mask
        loss_neg = loss_neg * neg_mask
    loss = -torch.nn.functional.logsigmoid(pos) + loss_neg.sum(-1)
    grad_v = g_pos.unsqueeze(-1) * u_pos + torch.bmm(g_neg.unsqueeze(1), u_neg).squeeze(1)
    grad_pos = g_pos.unsqueeze(-1) * v
    grad_neg = g_neg.unsqueeze(-1) * v.unsqueeze(1)
    return grad_v, grad_pos, grad_neg, loss


def sgns_shared_loss(v: torch.Tensor, u_pos: torch.Tensor, u_noise: torch.Tensor, k: int) -> torch.Tensor:
    """SGNS loss when a batch shares one pool of ``N`` noise words, each weighted ``k/N``, shape (B,).

    ``L_b = -log σ(u_pos_b·v_b) - (k/N) Σ_j log σ(-u_noise_j·v_b)``. Its expectation over the pool is the
    expectation of :func:`sgns_loss` with ``k`` negatives, but it is computed with one matrix product.
    Shapes: ``v``, ``u_pos`` (B, d); ``u_noise`` (N, d).
    """
    _check_shared_shapes(v, u_pos, u_noise)
    k = check_int("k", k, minimum=1)
    scores = v @ u_noise.T  # (B, N)
    weight = k / u_noise.shape[0]
    pos = (v * u_pos).sum(-1)
    return -torch.nn.functional.logsigmoid(pos) - weight * torch.nn.functional.logsigmoid(-scores).sum(-1)


def sgns_shared_gradients(
    v: torch.Tensor,
    u_pos: torch.Tensor,
    u_noise: torch.Tensor,
    k: int,
    noise_mask: torch.Tensor | None = None,
    *,
    with_loss: bool = True,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor | None]:
    """Closed-form gradients of the *sum over the batch* of :func:`sgns_shared_loss`.

    Returns ``(dL/dv (B, d), dL/du_pos (B, d), dL/du_noise (N, d), L (B,))``: the same formulas as
    :func:`sgns_gradients` with each noise term weighted ``k/N``; a noise word's gradient sums over the
    batch. ``noise_mask`` (B, N) is 0 where pair ``b`` must skip noise word ``j`` (it is the true word).
    ``with_loss=False`` skips computing ``L`` (returned as ``None``), which saves time in training.
    """
    _check_shared_shapes(v, u_pos, u_noise)
    k = check_int("k", k, minimum=1)
    if noise_mask is not None and tuple(noise_mask.shape) != (v.shape[0], u_noise.shape[0]):
        raise ValueError(
            f"noise_mask must have shape (B, N) = {(v.shape[0], u_noise.shape[0])}, got {tuple(noise_mask.shape)}"
        )
    weight = k / u_noise.shape[0]
    pos = (v * u_pos).sum(-1)  # (B,)
    scores = v @ u_noise.T  # (B, N)
    g_pos = torch.sigmoid(pos) - 1.0  # (B,)
    g_noise = torch.sigmoid(scores) * weight  # (B, N)
    if noise_mask is not None:
        g_noise = g_noise * noise_mask
    loss = None
    if with_loss:
        loss_noise = -torch.nn.functional.logsigmoid(-scores) * weight
        if noise_mask is not None:
            loss_noise = loss_noise * noise_mask
        loss = -torch.nn.functional.logsigmoid(pos) + loss_noise.sum(-1)
    grad_v = torch.addmm(g_pos.unsqueeze(-1) * u_pos, g_noise, u_noise)  # (B, d)
    grad_pos = g_pos.unsqueeze(-1) * v  # (B, d)
    grad_noise = g_noise.T @ v  # (N, d): every pair's push on each noise word, summed
    return grad_v, grad_pos, grad_noise, loss


def _check_tensors(**tensors: torch.Tensor) -> None:
    for name, t in tensors.items():
        check_type(name, t, torch.Tensor)


def _check_shared_shapes(v: torch.Tensor, u_pos: torch.Tensor, u_noise: torch.Tensor) -> None:
    _check_tensors(v=v, u_pos=u_pos, u_noise=u_noise)
    if v.ndim != 2 or u_pos.shape != v.shape:
        raise ValueError(f"v and u_pos must both have shape (B, d); got {tuple(v.shape)} and {tuple(u_pos.shape)}")
    if u_noise.ndim != 2 or u_noise.shape[1] != v.shape[1] or u_noise.shape[0] == 0:
        raise ValueError(f"u_noise must have shape (N, d) with N >= 1 and d = {v.shape[1]}, got {tuple(u_noise.shape)}")


def _check_sgns_shapes(v: torch.Tensor, u_pos: torch.Tensor, u_neg: torch.Tensor) -> None:
    _check_tensors(v=v, u_pos=u_pos, u_neg=u_neg)
    if v.ndim != 2 or u_pos.shape != v.shape:
        raise ValueError(f"v and u_pos must both have shape (B, d); got {tuple(v.shape)} and {tuple(u_pos.shape)}")
    if u_neg.ndim != 3 or u_neg.shape[0] != v.shape[0] or u_neg.shape[2] != v.shape[1]:
        raise ValueError(f"u_neg must have shape (B, k, d) = ({v.shape[0]}, k, {v.shape[1]}), got {tuple(u_neg.shape)}")


# --------------------------------------------------------------------------- the model
class Word2Vec(WordVectors):
    """Skip-gram (``sg=True``) or CBOW (``sg=False``) with negative sampling; settings named as in gensim.

    ``fit(sentences)`` trains on lists of tokens and fills ``words``/``vectors`` (the rows of
    ``W_in``), so every :class:`~nlp_helpers.word2vec.evaluation.WordVectors` method works afterwards.
    CBOW averages the context vectors (gensim's ``cbow_mean=1``).

    Training takes ``batch_size`` pairs at a time; each batch shares ``noise_pool`` noise words,
    each weighted ``negative / noise_pool`` (:func:`sgns_shared_gradients`), so the expected update
    is that of ``negative`` noise words per pair. ``seed`` fixes the initial vectors, the windows,
    the subsampling and the noise draws: the same seed gives the same vectors. The generators are
    built by :mod:`nlp_helpers.seeds`, so ``$NLP_SEED_OFFSET`` is added to ``seed``.
    """

    def __init__(
        self,
        *,
        sg: bool = True,
        dim: int = 100,
        window: int = 5,
        negative: int = 5,
        min_count: int = 5,
        subsample: float = 1e-3,
        epochs: int = 5,
        alpha: float = 0.025,
        min_alpha: float = 1e-4,
        ns_exponent: float = 0.75,
        batch_size: int = 256,
        noise_pool: int = 16,
        seed: int = 0,
    ) -> None:
        check_choice("sg", sg, (True, False, 0, 1))
        self.sg = bool(sg)
        self.dim = check_int("dim", dim, minimum=1)
        self.window = check_int("window", window, minimum=1)
        self.negative = check_int("negative", negative, minimum=1)
        self.min_count = check_int("min_count", min_count, minimum=1)
        self.subsample = check_float("subsample", subsample, minimum=0.0, maximum=1.0)
        self.epochs = check_int("epochs", epochs, minimum=1)
        self.alpha = check_float("alpha", alpha, minimum=0.0, min_inclusive=False)
        self.min_alpha = check_float("min_alpha", min_alpha, minimum=0.0, maximum=self.alpha)
        self.ns_exponent = check_float("ns_exponent", ns_exponent, minimum=0.0)
        self.batch_size = check_int("batch_size", batch_size, minimum=1)
        self.noise_pool = check_int("noise_pool", noise_pool, minimum=1)
        self.seed = check_int("seed", seed, minimum=0)
        self.vocab: Vocabulary | None = None
        self.loss_history: list[float] = []
        self.train_seconds = 0.0
        super().__init__([], np.zeros((0, self.dim), dtype=np.float32))

    def fit(self, sentences: Iterable[Sequence[str]], *, progress: bool = True) -> Word2Vec:
        """Build the vocabulary and train for ``epochs`` passes; records ``loss_history`` (mean loss per chunk)."""
        sentences = check_nonempty("sentences", sentences)
        start = time.perf_counter()
        self.vocab = build_vocab(sentences, self.min_count)
        rng = seeded_rng(self.seed)  # seed + $NLP_SEED_OFFSET (nlp_helpers.seeds)
        gen = torch_generator(self.seed)
        V, d = len(self.vocab), self.dim
        # word2vec.c's initialisation: small uniform input vectors, zero output vectors.
        self.W_in = (torch.rand(V, d, generator=gen) - 0.5) / d
        self.W_out = torch.zeros(V, d)
        table = torch.from_numpy(noise_table(self.vocab.counts, self.ns_exponent))
        keep = keep_probabilities(self.vocab.counts, self.subsample)
        ids, sent_ids = encode_corpus(sentences, self.vocab)
        if not (sent_ids[1:] == sent_ids[:-1]).any():
            raise ValueError(
                "sentences give no (word, context) pair: every sentence has at most one word "
                f"seen min_count={self.min_count} times"
            )
        n_expected = int(keep[ids].sum()) * self.epochs  # centres to process, for the learning-rate schedule
        done, self.loss_history = 0, []
        bar = tqdm(
            total=n_expected,
            disable=not progress or hide_progress(),
            unit="word",
            desc="word2vec " + ("sg" if self.sg else "cbow"),
        )
        for _epoch in range(self.epochs):
            kept = rng.random(len(ids)) < keep[ids]  # subsampling: drop frequent words, fresh each epoch
            step = self._epoch_sg if self.sg else self._epoch_cbow
            done = step(ids[kept], sent_ids[kept], rng, gen, table, done, n_expected, bar)
        bar.total = bar.n  # the total was an estimate (subsampling is random)
        bar.close()
        self.words = list(self.vocab.words)
        self.vectors = self.W_in.numpy().copy()
        self._reset_index()
        self.train_seconds = time.perf_counter() - start
        return self

    def _lr(self, done: int, total: int) -> float:
        return max(self.min_alpha, self.alpha - (self.alpha - self.min_alpha) * done / max(total, 1))

    def _noise(self, table: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
        return table[torch.randint(len(table), (self.noise_pool,), generator=gen)]  # (N,)

    def _update(self, rows_in, grad_in, c, noise, g_pos, g_noise, lr) -> None:
        self.W_in.index_add_(0, rows_in, grad_in, alpha=-lr)
        self.W_out.index_add_(0, c, g_pos, alpha=-lr)
        self.W_out.index_add_(0, noise, g_noise, alpha=-lr)

    def _epoch_sg(self, ids, sent_ids, rng, gen, table, done, total, bar) -> int:
        centres, contexts = skipgram_pairs(ids, sent_ids, self.window, rng)
        order = torch.from_numpy(rng.permutation(len(centres)))
        centres, contexts = torch.from_numpy(centres)[order], torch.from_numpy(contexts)[order]
        per_pair = len(ids) / max(len(centres), 1)  # centre words per pair, to advance the schedule
        losses = []
        for lo in range(0, len(centres), self.batch_size):
            c, o = centres[lo : lo + self.batch_size], contexts[lo : lo + self.batch_size]
            noise = self._noise(table, gen)
            lr = self._lr(done, total)
            # As in word2vec.c, the *context* word is the input and the centre word is predicted;
            # over a corpus the two roles are symmetric.
            mask = (noise.unsqueeze(0) != c.unsqueeze(1)).float()  # skip a noise word equal to the true one
            g_v, g_pos, g_noise, loss = sgns_shared_gradients(
                self.W_in.index_select(0, o),
                self.W_out.index_select(0, c),
                self.W_out.index_select(0, noise),
                self.negative,
                mask,
                with_loss=(lo // self.batch_size) % self._loss_every == 0,
            )
            self._update(o, g_v, c, noise, g_pos, g_noise, lr)
            if loss is not None:
                losses.append(float(loss.mean()))
            n_words = round((lo + len(c)) * per_pair) - round(lo * per_pair)
            done += n_words
            bar.update(n_words)
        self._log_losses(losses)
        return done

    def _epoch_cbow(self, ids, sent_ids, rng, gen, table, done, total, bar) -> int:
        ctx, centres = cbow_examples(ids, sent_ids, self.window, rng)
        order = torch.from_numpy(rng.permutation(len(centres)))
        ctx, centres = torch.from_numpy(ctx)[order], torch.from_numpy(centres)[order]
        losses = []
        for lo in range(0, len(centres), self.batch_size):
            cx, c = ctx[lo : lo + self.batch_size], centres[lo : lo + self.batch_size]
            present = cx >= 0  # (B, 2w)
            n_ctx = present.sum(1, keepdim=True)  # (B, 1)
            h = (self.W_in[cx.clamp(min=0)] * present.unsqueeze(-1)).sum(1) / n_ctx  # (B, d): mean of context vectors
            noise = self._noise(table, gen)
            lr = self._lr(done, total)
            mask = (noise.unsqueeze(0) != c.unsqueeze(1)).float()
            g_h, g_pos, g_noise, loss = sgns_shared_gradients(
                h,
                self.W_out.index_select(0, c),
                self.W_out.index_select(0, noise),
                self.negative,
                mask,
                with_loss=(lo // self.batch_size) % self._loss_every == 0,
            )
            # h is the mean of the context vectors, so the true gradient of each is dL/dh / n_ctx; word2vec.c
            # and gensim add the undivided dL/dh to each (a larger step that trains faster). We do the same.
            g_ctx = g_h.unsqueeze(1).expand(-1, cx.shape[1], -1)[present]
            self._update(cx[present], g_ctx, c, noise, g_pos, g_noise, lr)
            if loss is not None:
                losses.append(float(loss.mean()))
            done += len(c)
            bar.update(len(c))
        self._log_losses(losses)
        return done

    _loss_every = 8  # batches between loss evaluations (the loss is not needed for the update)

    def _log_losses(self, losses: list[float], per_epoch: int = 50) -> None:
        # Keep ~50 points per epoch for the loss curve: the mean loss of consecutive batches.
        if not losses:  # subsampling left no pair in this epoch (tiny corpora): nothing to log
            return
        for chunk in np.array_split(np.asarray(losses), min(per_epoch, len(losses))):
            self.loss_history.append(float(chunk.mean()))
