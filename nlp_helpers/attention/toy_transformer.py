"""A tiny encoder-decoder transformer that learns to reverse a string, in seconds, on a CPU.

The attention chapter uses it to see the decoder at work on something trained:
the shifted-right decoder input, masked self-attention, cross-attention (reversal
makes it an anti-diagonal), the final linear layer tied to the embedding matrix,
and the logit lens (the tied unembedding applied to every layer's output).

* :class:`ReversalTask` - random strings over ``a..h`` and their reversals, as ids;
* :class:`TinyTransformer` - ``torch.nn.TransformerEncoderLayer``/``DecoderLayer``
  (post-norm, ReLU, dropout 0) with learned absolute position embeddings and a tied output layer;
* :func:`train_reversal` - Adam with a decaying learning rate, cross-entropy, a tqdm bar; about 3 s of CPU time;
* :func:`numpy_forward` - the same model recomputed with :mod:`nlp_helpers.attention.transformer`
  from the torch weights; returns the logits, every attention matrix and every layer's output;
* :func:`logit_lens` - what each decoder layer would predict if it were the last.

Left out: padding and variable lengths (the chapter shows padding masks in numpy),
beam search, label smoothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from nlp_helpers._checks import check_array, check_float, check_int, check_nonempty, check_text, check_type
from nlp_helpers.attention.self_attention import causal_mask
from nlp_helpers.attention.transformer import (
    decoder_layer,
    decoder_params_from_torch,
    encoder_layer,
    encoder_params_from_torch,
)
from nlp_helpers.display import hide_progress
from nlp_helpers.seeds import manual_seed
from nlp_helpers.seeds import rng as seeded_rng

__all__ = ["ReversalTask", "TinyTransformer", "train_reversal", "greedy_decode", "numpy_forward", "logit_lens"]

BOS = "<s>"


@dataclass(frozen=True)
class ReversalTask:
    """Strings of ``length`` symbols; the target is the string reversed. Token 0 is ``<s>``."""

    length: int = 6
    symbols: str = "abcdefgh"

    def __post_init__(self) -> None:
        check_int("length", self.length, minimum=1)
        check_text("symbols", self.symbols, allow_empty=False)
        if len(set(self.symbols)) != len(self.symbols):
            raise ValueError(f"symbols must not repeat a character, got {self.symbols!r}")

    @property
    def vocab(self) -> list[str]:
        return [BOS, *self.symbols]

    def batch(self, rng: np.random.Generator, batch_size: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """``(src, tgt_in, tgt_out)`` id tensors of shape ``(batch_size, length)``.

        ``tgt_in`` is the target shifted right: ``<s>`` then all but the last target token
        (teacher forcing: the decoder sees the true previous tokens, never the one it predicts).
        """
        check_type("rng", rng, np.random.Generator)
        batch_size = check_int("batch_size", batch_size, minimum=1)
        src = rng.integers(1, len(self.vocab), size=(batch_size, self.length))
        tgt_out = src[:, ::-1].copy()
        tgt_in = np.concatenate([np.zeros((batch_size, 1), dtype=int), tgt_out[:, :-1]], axis=1)
        return tuple(torch.as_tensor(a, dtype=torch.long) for a in (src, tgt_in, tgt_out))

    def encode(self, text: str) -> list[int]:
        bad = sorted(set(text) - set(self.symbols))
        if bad or len(text) != self.length:
            raise ValueError(f"text must be {self.length} symbols from {self.symbols!r}, got {text!r}")
        return [self.vocab.index(c) for c in text]

    def decode(self, ids) -> list[str]:
        ids = check_array("ids", ids, ndim=1, dtype=int)
        if ids.size and (ids.min() < 0 or ids.max() >= len(self.vocab)):
            raise ValueError(f"ids must lie in [0, {len(self.vocab)}), got {ids.tolist()}")
        return [self.vocab[int(i)] for i in ids]


class TinyTransformer(nn.Module):
    """Encoder-decoder transformer with a shared, tied embedding and learned positions."""

    def __init__(
        self,
        vocab_size: int,
        d_model: int = 32,
        n_heads: int = 2,
        n_encoder: int = 1,
        n_decoder: int = 2,
        d_ff: int = 64,
        max_len: int = 16,
        embed_std: float | None = None,
    ) -> None:
        super().__init__()
        for name, value in (
            ("vocab_size", vocab_size),
            ("d_model", d_model),
            ("n_heads", n_heads),
            ("n_encoder", n_encoder),
            ("n_decoder", n_decoder),
            ("d_ff", d_ff),
            ("max_len", max_len),
        ):
            check_int(name, value, minimum=0 if name in ("n_encoder", "n_decoder") else 1)
        if d_model % n_heads:
            raise ValueError(f"d_model ({d_model}) must be divisible by n_heads ({n_heads})")
        if embed_std is not None:
            embed_std = check_float("embed_std", embed_std, minimum=0.0, min_inclusive=False)
        self.d_model, self.n_heads = d_model, n_heads
        self.embed = nn.Embedding(vocab_size, d_model)  # also the output layer (weight tying)
        self.pos = nn.Embedding(max_len, d_model)  # learned absolute positions
        layer = dict(d_model=d_model, nhead=n_heads, dim_feedforward=d_ff, dropout=0.0, batch_first=True)
        self.encoder = nn.ModuleList(nn.TransformerEncoderLayer(**layer) for _ in range(n_encoder))
        self.decoder = nn.ModuleList(nn.TransformerDecoderLayer(**layer) for _ in range(n_decoder))
        if embed_std is not None:
            # nn.Embedding starts at N(0, 1). With the tied output layer the logits are h . e_v, where the
            # layer-normed h has norm ~sqrt(d_model): with unit-variance embeddings the initial logits have
            # sd ~sqrt(d_model) and the initial loss is far above ln(vocab_size). embed_std = d_model**-0.5
            # makes the logits O(1) and the initial loss close to ln(vocab_size).
            nn.init.normal_(self.embed.weight, std=embed_std)
            nn.init.normal_(self.pos.weight, std=embed_std)

    def embed_tokens(self, ids: torch.Tensor) -> torch.Tensor:
        if not isinstance(ids, torch.Tensor) or ids.dtype not in (torch.long, torch.int) or ids.ndim != 2:
            raise TypeError(
                f"ids must be a (B, T) torch tensor of integer token ids, got {getattr(ids, 'dtype', type(ids).__name__)}"
            )
        V, max_len = self.embed.num_embeddings, self.pos.num_embeddings
        if ids.shape[1] > max_len or (ids.numel() and (int(ids.min()) < 0 or int(ids.max()) >= V)):
            raise ValueError(
                f"ids must hold at most max_len={max_len} positions of ids in [0, {V}), got shape "
                f"{tuple(ids.shape)} with values {ids.flatten()[:10].tolist()}"
            )
        # No sqrt(d_model) factor (the paper scales the tied embeddings by it): at this size it drowns the
        # learned positions, which reversal needs, and training then fails for some seeds.
        return self.embed(ids) + self.pos(torch.arange(ids.shape[1]))

    def forward(self, src: torch.Tensor, tgt_in: torch.Tensor) -> torch.Tensor:
        """Logits ``(B, T, vocab)`` for every target position."""
        memory = self.embed_tokens(src)
        for layer in self.encoder:
            memory = layer(memory)
        h = self.embed_tokens(tgt_in)
        mask = nn.Transformer.generate_square_subsequent_mask(tgt_in.shape[1])
        for layer in self.decoder:
            h = layer(h, memory, tgt_mask=mask, tgt_is_causal=True)
        return h @ self.embed.weight.T  # tied output layer


def train_reversal(
    task: ReversalTask | None = None,
    steps: int = 300,
    batch_size: int = 64,
    seed: int = 0,
    lr: float = 1e-2,
    progress: bool = True,
    embed_std: float | None = None,
) -> tuple[TinyTransformer, list[float]]:
    """Train a :class:`TinyTransformer` on ``task``; returns the model (in eval mode) and the loss per step.

    ``embed_std``: standard deviation of the initial token and position embeddings (``None``: torch's
    default, 1; ``d_model**-0.5`` starts the tied output layer near the uniform distribution).
    """
    from tqdm.auto import tqdm

    task = ReversalTask() if task is None else task
    check_type("task", task, ReversalTask)
    steps = check_int("steps", steps, minimum=1)
    lr = check_float("lr", lr, minimum=0.0, min_inclusive=False)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    manual_seed(seed)
    rng = seeded_rng(seed)
    model = TinyTransformer(len(task.vocab), max_len=task.length, embed_std=embed_std)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    # Linear decay to 10% of lr: fast progress early, no late loss spikes from a large step size.
    schedule = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: 1.0 - 0.9 * step / steps)
    losses = []
    for _ in tqdm(range(steps), desc="training the reversal transformer", disable=not progress or hide_progress()):
        src, tgt_in, tgt_out = task.batch(rng, batch_size)
        logits = model(src, tgt_in)
        loss = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        schedule.step()
        losses.append(loss.item())
    return model.eval(), losses


@torch.no_grad()
def greedy_decode(model: TinyTransformer, src_ids, steps: int | None = None) -> list[int]:
    """Generate one token at a time: start from ``<s>``, append the argmax, feed the longer prefix back.

    This is how a trained decoder is used; training instead feeds the whole shifted-right target at
    once (teacher forcing), which the causal mask makes equivalent position by position.
    """
    src_arr = _check_ids(model, "src_ids", src_ids)
    src = torch.as_tensor(src_arr)[None]
    steps = src.shape[1] if steps is None else check_int("steps", steps, minimum=1, maximum=model.pos.num_embeddings)
    out = [0]  # <s>
    for _ in range(steps):
        logits = model(src, torch.as_tensor([out]))
        out.append(int(logits[0, -1].argmax()))
    return out[1:]


def _check_ids(model: TinyTransformer, name: str, ids) -> np.ndarray:
    """A 1-D int array of 1..max_len token ids in [0, vocab_size) for ``model``."""
    check_type("model", model, TinyTransformer)
    arr = check_array(name, ids, ndim=1, dtype=int)
    V, max_len = model.embed.num_embeddings, model.pos.num_embeddings
    if not 1 <= len(arr) <= max_len or arr.min() < 0 or arr.max() >= V:
        raise ValueError(f"{name} must hold 1 to {max_len} ids in [0, {V}), got {arr.tolist()}")
    return arr


def numpy_forward(model: TinyTransformer, src_ids, tgt_ids) -> dict[str, np.ndarray | list]:
    """Recompute ``model`` on one example with the numpy layers of :mod:`nlp_helpers.attention.transformer`.

    ``src_ids``, ``tgt_ids``: 1-D id sequences (``tgt_ids`` is the shifted-right decoder input).
    Returns ``logits (T, V)``, ``encoder_self (L_enc, H, S, S)``, ``decoder_self (L_dec, H, T, T)``,
    ``cross (L_dec, H, T, S)`` and ``decoder_states``: the decoder input and each layer's output.
    """
    src, tgt = _check_ids(model, "src_ids", src_ids), _check_ids(model, "tgt_ids", tgt_ids)
    E = model.embed.weight.detach().double().numpy()
    P = model.pos.weight.detach().double().numpy()
    memory = E[src] + P[: len(src)]
    enc_w = []
    for layer in model.encoder:
        memory, w = encoder_layer(memory, encoder_params_from_torch(layer), model.n_heads, eps=layer.norm1.eps)
        enc_w.append(w)
    h = E[tgt] + P[: len(tgt)]
    states, self_w, cross_w = [h], [], []
    for layer in model.decoder:
        h, ws, wc = decoder_layer(
            h,
            memory,
            decoder_params_from_torch(layer),
            model.n_heads,
            self_mask=causal_mask(len(tgt)),
            eps=layer.norm1.eps,
        )
        states.append(h)
        self_w.append(ws)
        cross_w.append(wc)
    return {
        "logits": h @ E.T,
        "encoder_self": np.stack(enc_w),
        "decoder_self": np.stack(self_w),
        "cross": np.stack(cross_w),
        "decoder_states": states,
    }


def logit_lens(states: list[np.ndarray], E: np.ndarray) -> np.ndarray:
    """Argmax token id of ``state @ E^T`` for every state ``(T, d_model)``: shape ``(len(states), T)``.

    With a tied output layer, ``E^T`` is the model's own "unembedding", so any intermediate
    residual-stream state can be read as a guess at the next token.
    """
    E = check_array("E", E, ndim=2)
    states = check_nonempty("states", states)
    out = []
    for i, s in enumerate(states):
        s = check_array(f"states[{i}]", s, shape=(None, E.shape[1]))
        out.append(np.argmax(s @ E.T, axis=-1))
    return np.stack(out)
