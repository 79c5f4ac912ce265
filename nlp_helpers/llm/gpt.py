"""TinyGPT: a character-level decoder-only transformer small enough to train on a laptop in seconds.

The architecture of GPT-2 (Radford et al., 2019) as laid out in nanoGPT, scaled down:
token + learned position embeddings, ``n_layers`` pre-LayerNorm blocks of causal
multi-head self-attention and a GELU MLP, a final LayerNorm, and a language-
modelling head **tied** to the token embedding (logits = h E^T). Built from
``torch.nn`` modules; attention uses ``torch.nn.functional.scaled_dot_product_attention``
with a causal mask (tested equal to ``torch.nn.MultiheadAttention``).

Also here: :class:`CharTokenizer` (characters <-> ids, same ``encode``/``decode``
interface as a Hugging Face tokenizer, so :func:`nlp_helpers.sampling.generate.generate`
works on both), :func:`get_batch` (random windows for teacher forcing),
:func:`estimate_loss` and :func:`train`.

The training recipe of large models is there as options, all off by default:
``TinyGPTConfig(dropout=..., scaled_init=True)`` and ``train(..., warmup=..., cosine=True,
label_smoothing=...)`` (see :mod:`nlp_helpers.llm.recipe`). Left out: a key/value
cache (generation recomputes the last ``block_size`` characters, which is cheap at this size).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from nlp_helpers._checks import check_array, check_float, check_int, check_nonempty, check_text, check_type
from nlp_helpers.display import hide_progress
from nlp_helpers.llm.recipe import scaled_init_std, warmup_cosine
from nlp_helpers.seeds import torch_generator

__all__ = [
    "CharTokenizer",
    "TinyGPTConfig",
    "CausalSelfAttention",
    "Block",
    "TinyGPT",
    "get_batch",
    "estimate_loss",
    "train",
]


class CharTokenizer:
    """Maps each character of a fixed alphabet to an id (its position in the sorted alphabet)."""

    def __init__(self, chars: Sequence[str]) -> None:
        chars = check_nonempty("chars", chars)
        if any(not isinstance(c, str) or len(c) != 1 for c in chars):
            raise ValueError("chars must be single characters")
        if len(set(chars)) != len(chars):
            raise ValueError("chars must not contain duplicates")
        self.chars = list(chars)
        self.stoi = {c: i for i, c in enumerate(self.chars)}
        # Lookup table from code point to id (-1 = unknown): encodes megabytes in milliseconds.
        self._table = np.full(max(map(ord, self.chars)) + 1, -1, dtype=np.int64)
        self._table[[ord(c) for c in self.chars]] = np.arange(len(self.chars))

    @classmethod
    def from_text(cls, text: str) -> CharTokenizer:
        """The tokenizer whose alphabet is the sorted set of characters of ``text``."""
        check_text("text", text, allow_empty=False)
        return cls(sorted(set(text)))

    @property
    def vocab_size(self) -> int:
        return len(self.chars)

    def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
        """Ids of the characters of ``text`` (``add_special_tokens`` is accepted for HF compatibility; there are none)."""
        return self.encode_array(text).tolist()

    def encode_array(self, text: str) -> np.ndarray:
        """Like :meth:`encode` but returns an int64 array ``(len(text),)``."""
        check_text("text", text)
        try:
            raw = text.encode("utf-32-le")
        except UnicodeEncodeError as exc:
            raise ValueError(
                f"text contains {exc.object[exc.start : exc.end]!r}, a lone surrogate, which is not a character"
            ) from None
        codes = np.frombuffer(raw, dtype=np.uint32).astype(np.int64)
        ids = np.where(codes < len(self._table), self._table[np.minimum(codes, len(self._table) - 1)], -1)
        if (ids < 0).any():
            unknown = sorted({text[i] for i in np.flatnonzero(ids < 0)[:20]})
            raise ValueError(f"text contains characters outside the tokenizer's alphabet: {unknown}")
        return ids

    def decode(self, ids: Sequence[int]) -> str:
        """The text of a sequence of ids."""
        if isinstance(ids, torch.Tensor):
            ids = ids.tolist()
        if isinstance(ids, (str, bytes)):
            raise TypeError("ids must be a sequence of int token ids, not a str")
        arr = np.asarray(ids)
        if arr.size and arr.dtype.kind not in "iu":
            raise TypeError(f"ids must be integer token ids, got dtype {arr.dtype}")
        arr = check_array("ids", arr, ndim=1, dtype=np.int64)
        if arr.size and (arr.min() < 0 or arr.max() >= self.vocab_size):  # -1 must not silently mean the last char
            raise ValueError(f"ids must be in [0, {self.vocab_size}), got {arr.tolist()[:10]}...")
        return "".join(self.chars[i] for i in arr.tolist())


@dataclass(frozen=True)
class TinyGPTConfig:
    """Hyper-parameters: ``vocab_size`` (V), ``block_size`` (context T), ``n_layers``, ``n_heads``, ``d_model``.

    ``dropout``: probability of dropping attention weights, each sublayer's output and the
    input embeddings while training (0 = none); ``scaled_init``: start each residual
    branch's output layer with GPT-2's ``0.02 / sqrt(2 n_layers)`` instead of 0.02.
    """

    vocab_size: int
    block_size: int = 64
    n_layers: int = 2
    n_heads: int = 4
    d_model: int = 128
    dropout: float = 0.0
    scaled_init: bool = False

    def __post_init__(self) -> None:
        check_int("vocab_size", self.vocab_size, minimum=2)
        check_int("block_size", self.block_size, minimum=1)
        check_int("n_layers", self.n_layers, minimum=1)
        check_int("n_heads", self.n_heads, minimum=1)
        check_int("d_model", self.d_model, minimum=1)
        if self.d_model % self.n_heads:
            raise ValueError(f"d_model ({self.d_model}) must be divisible by n_heads ({self.n_heads})")
        check_float("dropout", self.dropout, minimum=0.0, maximum=1.0, max_inclusive=False)
        check_type("scaled_init", self.scaled_init, bool)


class CausalSelfAttention(nn.Module):
    """Multi-head self-attention where position t only attends to positions <= t."""

    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.0) -> None:
        super().__init__()
        d_model, n_heads = check_int("d_model", d_model, minimum=1), check_int("n_heads", n_heads, minimum=1)
        if d_model % n_heads:
            raise ValueError(f"d_model ({d_model}) must be divisible by n_heads ({n_heads})")
        self.n_heads = n_heads
        self.dropout = check_float("dropout", dropout, minimum=0.0, maximum=1.0, max_inclusive=False)
        self.qkv = nn.Linear(d_model, 3 * d_model)  # W_Q, W_K, W_V stacked: one matmul
        self.proj = nn.Linear(d_model, d_model)  # W_O

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dim() != 3 or x.shape[-1] != self.qkv.in_features:
            raise ValueError(f"x must have shape (B, T, {self.qkv.in_features}), got {tuple(x.shape)}")
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        # (B, T, C) -> (B, n_heads, T, d_k): each head attends independently.
        q, k, v = (t.view(B, T, self.n_heads, C // self.n_heads).transpose(1, 2) for t in (q, k, v))
        p = self.dropout if self.training else 0.0  # dropout on the attention weights
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True, dropout_p=p)  # softmax(QK^T/sqrt(d_k) + mask) V
        return _dropout(self.proj(y.transpose(1, 2).reshape(B, T, C)), self.dropout, self.training)


def _dropout(x: torch.Tensor, p: float, training: bool) -> torch.Tensor:
    """Dropout that draws no random numbers when ``p == 0`` (so the default model trains as before)."""
    return F.dropout(x, p, training) if p > 0 and training else x


class Block(nn.Module):
    """Pre-LayerNorm transformer block: x + attention(LN(x)), then x + MLP(LN(x))."""

    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = CausalSelfAttention(d_model, n_heads, dropout)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))
        self.dropout = self.attn.dropout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln1(x))
        return x + _dropout(self.mlp(self.ln2(x)), self.dropout, self.training)


class TinyGPT(nn.Module):
    """Decoder-only transformer language model: ids ``(B, T)`` -> next-token logits ``(B, T, V)``."""

    def __init__(self, config: TinyGPTConfig) -> None:
        super().__init__()
        if not isinstance(config, TinyGPTConfig):
            raise TypeError(f"config must be a TinyGPTConfig, got {type(config).__name__}")
        self.config = config
        self.block_size = config.block_size  # read by nlp_helpers.sampling.generate.generate to crop the context
        self.tok_emb = nn.Embedding(config.vocab_size, config.d_model)  # E: (V, d_model)
        self.pos_emb = nn.Embedding(config.block_size, config.d_model)  # P: (block_size, d_model)
        self.blocks = nn.ModuleList(
            Block(config.d_model, config.n_heads, config.dropout) for _ in range(config.n_layers)
        )
        self.ln_f = nn.LayerNorm(config.d_model)
        self.lm_head = nn.Linear(config.d_model, config.vocab_size, bias=False)
        self.lm_head.weight = self.tok_emb.weight  # weight tying: unembedding = E^T
        self.apply(self._init)
        if config.scaled_init:  # GPT-2: the 2N branches that add to the residual stream start smaller
            for block in self.blocks:
                for out in (block.attn.proj, block.mlp[2]):
                    nn.init.normal_(out.weight, std=scaled_init_std(config.n_layers))

    @staticmethod
    def _init(module: nn.Module) -> None:
        # GPT-2's initialisation: small normal weights keep the initial logits near 0,
        # so the first loss is close to ln V (a uniform guess).
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, std=0.02)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)

    def forward(self, ids: torch.Tensor, targets: torch.Tensor | None = None):
        """Logits ``(B, T, V)``; with ``targets`` ``(B, T)`` also the mean cross-entropy: ``(logits, loss)``."""
        _check_token_ids("ids", ids, self.config.vocab_size)
        if ids.dim() != 2:
            raise ValueError(f"ids must have shape (B, T), got {tuple(ids.shape)}")
        B, T = ids.shape
        if T > self.block_size:
            raise ValueError(f"ids has {T} positions but the context (block_size) is {self.block_size}")
        if targets is not None:
            _check_token_ids("targets", targets, self.config.vocab_size, ignore_index=-100)
            if targets.shape != ids.shape:
                raise ValueError(f"targets must have the shape of ids {tuple(ids.shape)}, got {tuple(targets.shape)}")
        x = self.tok_emb(ids) + self.pos_emb(torch.arange(T, device=ids.device))  # (B, T, d_model)
        x = _dropout(x, self.config.dropout, self.training)
        for block in self.blocks:
            x = block(x)
        logits = self.lm_head(self.ln_f(x))  # (B, T, V)
        if targets is None:
            return logits
        loss = F.cross_entropy(logits.reshape(B * T, -1), targets.reshape(B * T))
        return logits, loss

    def num_parameters(self) -> int:
        """Number of distinct trainable parameters (the tied matrix counted once)."""
        return sum(p.numel() for p in self.parameters())


def _check_token_ids(name: str, ids: torch.Tensor, vocab_size: int, ignore_index: int | None = None) -> None:
    """Integer token ids in [0, vocab_size) (or ``ignore_index``): caught here, not as an IndexError inside torch."""
    if not isinstance(ids, torch.Tensor) or ids.dtype not in (torch.long, torch.int):
        raise TypeError(
            f"{name} must be a torch tensor of integer token ids (torch.long), got "
            f"{ids.dtype if isinstance(ids, torch.Tensor) else type(ids).__name__}"
        )
    real = ids if ignore_index is None else ids[ids != ignore_index]
    if real.numel() and (int(real.min()) < 0 or int(real.max()) >= vocab_size):
        raise ValueError(
            f"{name} must be token ids in [0, {vocab_size}), got values in [{int(real.min())}, {int(real.max())}]"
        )


def get_batch(data: torch.Tensor, block_size: int, batch_size: int, generator: torch.Generator | None = None):
    """Random windows of ``data`` (1-D ids): inputs ``x`` ``(B, T)`` and targets ``y`` = ``x`` shifted by one.

    This is teacher forcing: at every position the model sees the true previous
    characters and is scored on the true next one.
    """
    if not isinstance(data, torch.Tensor) or data.dim() != 1:
        raise TypeError("data must be a 1-D torch tensor of token ids")
    block_size = check_int("block_size", block_size, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    if len(data) <= block_size:
        raise ValueError(f"data has {len(data)} tokens, need more than block_size={block_size}")
    starts = torch.randint(len(data) - block_size, (batch_size,), generator=generator)
    offsets = torch.arange(block_size)
    x = data[starts[:, None] + offsets]
    y = data[starts[:, None] + offsets + 1]
    return x, y


@torch.no_grad()
def estimate_loss(model: TinyGPT, data: torch.Tensor, batch_size: int = 64, n_batches: int = 8, seed: int = 0) -> float:
    """Mean cross-entropy (nats per token) on ``n_batches`` fixed random windows of ``data``."""
    gen = torch_generator(check_int("seed", seed, minimum=0))
    n_batches = check_int("n_batches", n_batches, minimum=1)
    was_training = model.training
    model.eval()
    losses = [model(*get_batch(data, model.block_size, batch_size, gen))[1].item() for _ in range(n_batches)]
    model.train(was_training)
    return float(np.mean(losses))


def train(
    model: TinyGPT,
    train_data: torch.Tensor,
    valid_data: torch.Tensor,
    steps: int,
    batch_size: int = 32,
    lr: float = 3e-3,
    eval_every: int = 100,
    seed: int = 0,
    progress: bool = True,
    warmup: int = 0,
    cosine: bool = False,
    label_smoothing: float = 0.0,
    stop_after: int | None = None,
) -> list[dict[str, float]]:
    """Train with AdamW on random windows; return the history ``[{step, train_loss, valid_loss, seconds}]``.

    The training loss is the mean of the last ``eval_every`` steps (with label smoothing,
    the smoothed loss); the validation loss is :func:`estimate_loss` on fixed windows of
    ``valid_data``. The recipe options, off by default: ``warmup`` steps of linear warm-up,
    ``cosine`` decay of the learning rate to a tenth of ``lr`` at the last step (see
    :func:`nlp_helpers.llm.recipe.warmup_cosine`), and ``label_smoothing`` in [0, 1).
    ``stop_after``: end after this many steps, with the schedule of all ``steps`` (the start of a longer run).
    """
    check_type("model", model, TinyGPT)
    steps = check_int("steps", steps, minimum=1)
    eval_every = check_int("eval_every", eval_every, minimum=1)
    lr = check_float("lr", lr, minimum=0.0, min_inclusive=False)
    gen = torch_generator(check_int("seed", seed, minimum=0))
    warmup = check_int("warmup", warmup, minimum=0, maximum=steps)
    check_type("cosine", cosine, bool)
    smoothing = check_float("label_smoothing", label_smoothing, minimum=0.0, maximum=1.0, max_inclusive=False)
    last = steps if stop_after is None else check_int("stop_after", stop_after, minimum=1, maximum=steps)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    floor = 0.1 if cosine else 1.0
    history = [{"step": 0, "train_loss": math.nan, "valid_loss": estimate_loss(model, valid_data), "seconds": 0.0}]
    bar = range(1, last + 1)
    if progress and not hide_progress():  # no frozen bar on the web page
        from tqdm.auto import tqdm

        bar = tqdm(bar, desc="training TinyGPT", unit="step")
    start, recent = time.perf_counter(), []
    model.train()
    for step in bar:
        x, y = get_batch(train_data, model.block_size, batch_size, gen)
        logits, loss = model(x, y)
        if smoothing > 0:
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1), label_smoothing=smoothing)
        if warmup or cosine:
            for group in opt.param_groups:
                group["lr"] = lr * warmup_cosine(step - 1, steps, warmup, floor)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # keeps the high learning rate stable
        opt.step()
        recent.append(loss.item())
        if step % eval_every == 0 or step == last:
            row = {
                "step": step,
                "train_loss": float(np.mean(recent)),
                "valid_loss": estimate_loss(model, valid_data),
                "seconds": time.perf_counter() - start,
            }
            history.append(row)
            recent = []
            if hasattr(bar, "set_postfix"):  # a tqdm bar, not the plain range
                bar.set_postfix(valid=f"{row['valid_loss']:.2f}")
    model.eval()
    return history
