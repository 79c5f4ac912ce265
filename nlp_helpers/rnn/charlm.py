"""A character-level LSTM language model with tied input/output embeddings.

Follows the lecture notes (section 7, "RNN LM with weight tying"):

    e_t = Eᵀ w_t,   h_t = LSTM(e_t, h_{t-1}),   P(w_{t+1} | w_{≤t}) = softmax(E h_t + c)

The same matrix ``E`` (``(V, d_model)``) embeds the input characters and scores the
output characters, so ``d_model`` must equal the LSTM's hidden size. Layers are kept as
separate one-layer ``nn.LSTM`` modules so :meth:`CharLM.layer_states` can return every
layer's hidden states (what ELMo combines). Training (:func:`train_lm`) uses random
windows of ``seq_len`` characters (truncated backpropagation through time, state reset
per window), Adam and gradient clipping; evaluation (:func:`char_logprobs`,
:func:`perplexity`) carries the state across the whole text, scoring every character
after the first, the same characters an n-gram model's ``token_logprobs`` scores.
:func:`generate` samples with a temperature; :func:`contextual_word_vector` builds
ELMo-style word vectors from a forward and a backward model.

Left out: dropout schedules, mixed precision, beam search (the sampling chapter).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
import torch
from torch import Tensor, nn

from nlp_helpers._checks import check_float, check_int, check_nonempty, check_text, check_type
from nlp_helpers.display import hide_progress
from nlp_helpers.rnn.gradients import clip_grad_norm
from nlp_helpers.seeds import torch_generator

__all__ = [
    "encode",
    "decode",
    "CharLM",
    "train_lm",
    "char_logprobs",
    "perplexity",
    "generate",
    "contextual_word_vector",
]


def encode(text: str, vocab: Sequence[str]) -> Tensor:
    """Character ids of ``text`` (1-D ``torch.long``); ``vocab`` lists the characters in id order."""
    check_text("text", text, allow_empty=False)
    stoi = {ch: i for i, ch in enumerate(check_nonempty("vocab", vocab))}
    unknown = sorted(set(text) - stoi.keys())
    if unknown:
        raise ValueError(f"text contains characters that are not in vocab: {unknown[:10]!r}")
    return torch.tensor([stoi[ch] for ch in text], dtype=torch.long)


def decode(ids: Sequence[int] | Tensor, vocab: Sequence[str]) -> str:
    """The text of a sequence of character ids."""
    return "".join(vocab[int(i)] for i in ids)


class CharLM(nn.Module):
    """Embedding → ``num_layers`` LSTM layers → output scores (tied to the embedding by default).

    ``tie_weights=True`` needs ``embedding_dim == hidden_size``; with ``False`` the output layer is
    a separate ``nn.Linear(hidden_size, vocab_size)``.
    """

    def __init__(
        self,
        vocab_size: int,
        embedding_dim: int = 128,
        hidden_size: int = 128,
        num_layers: int = 1,
        tie_weights: bool = True,
    ) -> None:
        super().__init__()
        self.vocab_size = check_int("vocab_size", vocab_size, minimum=2)
        embedding_dim = check_int("embedding_dim", embedding_dim, minimum=1)
        self.hidden_size = check_int("hidden_size", hidden_size, minimum=1)
        self.num_layers = check_int("num_layers", num_layers, minimum=1)
        check_type("tie_weights", tie_weights, bool)
        if tie_weights and embedding_dim != hidden_size:
            raise ValueError(
                f"tie_weights=True needs embedding_dim == hidden_size (the output scores use E h_t), "
                f"got embedding_dim={embedding_dim}, hidden_size={hidden_size}"
            )
        self.tie_weights = tie_weights
        self.embedding = nn.Embedding(self.vocab_size, embedding_dim)  # E: (V, d_model)
        self.layers = nn.ModuleList(
            nn.LSTM(embedding_dim if i == 0 else hidden_size, hidden_size, batch_first=True) for i in range(num_layers)
        )
        if tie_weights:
            self.output_bias = nn.Parameter(torch.zeros(self.vocab_size))  # c
        else:
            self.output = nn.Linear(hidden_size, self.vocab_size)

    def _check_ids(self, ids: Tensor) -> Tensor:
        check_type("ids", ids, Tensor)
        if ids.dtype != torch.long or ids.dim() != 2:
            raise ValueError(
                f"ids must be a (B, T) tensor of character ids (torch.long), got {tuple(ids.shape)} {ids.dtype}"
            )
        if ids.shape[1] == 0:
            raise ValueError("ids is an empty sequence (T = 0): the model needs at least one character")
        if ids.min() < 0 or ids.max() >= self.vocab_size:
            raise ValueError(
                f"ids must lie in [0, {self.vocab_size - 1}], got [{ids.min().item()}, {ids.max().item()}]"
            )
        return ids

    def layer_states(self, ids: Tensor, state: list | None = None) -> tuple[list[Tensor], list]:
        """Hidden states of every layer: ``[embeddings (B, T, d), layer 1 (B, T, H), ...]`` and the final states."""
        x = self.embedding(self._check_ids(ids))
        outputs, finals = [x], []
        for i, lstm in enumerate(self.layers):
            x, final = lstm(x, None if state is None else state[i])
            outputs.append(x)
            finals.append(final)
        return outputs, finals

    def forward(self, ids: Tensor, state: list | None = None) -> tuple[Tensor, list]:
        """ids (B, T) -> (logits (B, T, V) for the *next* character at every position, final states)."""
        outputs, finals = self.layer_states(ids, state)
        h = outputs[-1]
        logits = h @ self.embedding.weight.T + self.output_bias if self.tie_weights else self.output(h)
        return logits, finals


def _check_ids_1d(name: str, ids: Tensor, vocab_size: int, min_len: int) -> Tensor:
    check_type(name, ids, Tensor)
    if ids.dim() != 1 or ids.dtype != torch.long:
        raise ValueError(f"{name} must be a 1-D tensor of character ids (torch.long), e.g. encode(text, vocab)")
    if len(ids) < min_len:
        raise ValueError(f"{name} has {len(ids)} characters; at least {min_len} are needed")
    if ids.min() < 0 or ids.max() >= vocab_size:
        raise ValueError(f"{name} must contain ids in [0, {vocab_size - 1}]")
    return ids


def train_lm(
    model: CharLM,
    train_ids: Tensor,
    *,
    valid_ids: Tensor | None = None,
    steps: int = 500,
    batch_size: int = 32,
    seq_len: int = 64,
    lr: float = 3e-3,
    clip: float | None = 1.0,
    eval_every: int = 50,
    seed: int = 0,
    progress: bool = True,
    cosine: bool = False,
    stop_after: int | None = None,
) -> pd.DataFrame:
    """Train on random windows of ``seq_len + 1`` characters; return the history.

    Each step: ``batch_size`` windows, cross-entropy of the next character at every position,
    Adam, gradients clipped to norm ``clip`` (``None``: no clipping). Every ``eval_every`` steps
    (and at the end) the mean loss on 32 fixed windows of ``valid_ids`` is recorded.
    Columns: ``step``, ``train_loss``, ``valid_loss`` (NaN between evaluations), in nats per character.
    ``cosine``: lower the learning rate from ``lr`` to ``lr / 10`` along a cosine over the ``steps``
    (a long run ends on small, careful steps); ``stop_after``: end after this many steps, keeping the
    schedule of all ``steps`` (the start of a longer run).
    """
    check_type("model", model, CharLM)
    steps = check_int("steps", steps, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    seq_len = check_int("seq_len", seq_len, minimum=1)
    lr = check_float("lr", lr, minimum=0.0, min_inclusive=False)
    eval_every = check_int("eval_every", eval_every, minimum=1)
    check_type("cosine", cosine, bool)
    last = steps if stop_after is None else check_int("stop_after", stop_after, minimum=1, maximum=steps)
    if clip is not None:
        clip = check_float("clip", clip, minimum=0.0, min_inclusive=False)
    train_ids = _check_ids_1d("train_ids", train_ids, model.vocab_size, seq_len + 1)
    from tqdm.auto import tqdm

    gen = torch_generator(check_int("seed", seed, minimum=0))
    valid_batch = None
    if valid_ids is not None:
        valid_ids = _check_ids_1d("valid_ids", valid_ids, model.vocab_size, seq_len + 1)
        starts = torch.randint(0, len(valid_ids) - seq_len, (32,), generator=gen)
        valid_batch = torch.stack([valid_ids[s : s + seq_len + 1] for s in starts])  # (32, T+1)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    rows = []
    bar = tqdm(range(last), desc="training the LM", disable=not progress or hide_progress(), leave=False)
    for step in bar:
        model.train()
        if cosine:  # 1 at the first step, 0.1 at the last
            for group in opt.param_groups:
                group["lr"] = lr * (0.1 + 0.45 * (1 + math.cos(math.pi * step / max(steps - 1, 1))))
        starts = torch.randint(0, len(train_ids) - seq_len, (batch_size,), generator=gen)
        batch = torch.stack([train_ids[s : s + seq_len + 1] for s in starts])  # (B, T+1)
        logits, _ = model(batch[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, model.vocab_size), batch[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        if clip is not None:
            clip_grad_norm(model.parameters(), clip)
        opt.step()
        row = {"step": step + 1, "train_loss": loss.item(), "valid_loss": math.nan}
        if valid_batch is not None and ((step + 1) % eval_every == 0 or step + 1 == last):
            model.eval()
            with torch.no_grad():
                v_logits, _ = model(valid_batch[:, :-1])
                row["valid_loss"] = nn.functional.cross_entropy(
                    v_logits.reshape(-1, model.vocab_size), valid_batch[:, 1:].reshape(-1)
                ).item()
            bar.set_postfix(valid_loss=f"{row['valid_loss']:.3f}")
        rows.append(row)
    model.eval()
    return pd.DataFrame(rows)


def char_logprobs(model: CharLM, ids: Tensor, *, streams: int = 32, chunk: int = 256) -> np.ndarray:
    """Natural-log probability of every character after the first: ``ln P(ids[t] | ids[:t])``, ``t = 1..N−1``.

    The text is cut into ``streams`` contiguous pieces scored in parallel; within a piece the
    state is carried across chunks of ``chunk`` characters, so each character is conditioned on
    everything before it in its piece (each piece starts from the zero state).
    """
    check_type("model", model, CharLM)
    ids = _check_ids_1d("ids", ids, model.vocab_size, 2)
    streams = check_int("streams", streams, minimum=1)
    chunk = check_int("chunk", chunk, minimum=1)
    n_pred = len(ids) - 1
    streams = min(streams, n_pred)
    L = math.ceil(n_pred / streams)
    padded = torch.cat([ids, ids.new_zeros(streams * L + 1 - len(ids))])
    inputs = padded[:-1].view(streams, L)  # stream s reads ids[s·L : (s+1)·L]
    targets = padded[1:].view(streams, L)
    out = torch.empty(streams, L)
    state = None
    model.eval()
    with torch.no_grad():
        for a in range(0, L, chunk):
            logits, state = model(inputs[:, a : a + chunk], state)
            logp = torch.log_softmax(logits, dim=-1)
            out[:, a : a + chunk] = logp.gather(-1, targets[:, a : a + chunk, None]).squeeze(-1)
    return out.reshape(-1)[:n_pred].numpy().astype(np.float64)


def perplexity(model: CharLM, ids: Tensor, **kwargs) -> float:
    """Per-character perplexity ``exp(−mean ln P)`` over the characters after the first (see :func:`char_logprobs`)."""
    return float(np.exp(-char_logprobs(model, ids, **kwargs).mean()))


def generate(
    model: CharLM, vocab: Sequence[str], prompt: str, n_chars: int = 200, temperature: float = 1.0, seed: int = 0
) -> str:
    """Sample ``n_chars`` characters after ``prompt``; returns the continuation only.

    ``temperature`` divides the logits before the softmax: < 1 sharpens, > 1 flattens; 0 means
    greedy (always the most likely character).
    """
    check_type("model", model, CharLM)
    vocab = list(vocab)
    if len(vocab) != model.vocab_size:
        raise ValueError(f"vocab has {len(vocab)} characters but the model has vocab_size={model.vocab_size}")
    ids = encode(check_text("prompt", prompt, allow_empty=False), vocab)
    n_chars = check_int("n_chars", n_chars, minimum=1)
    temperature = check_float("temperature", temperature, minimum=0.0)
    gen = torch_generator(check_int("seed", seed, minimum=0))
    model.eval()
    out = []
    with torch.no_grad():
        logits, state = model(ids[None])
        for _ in range(n_chars):
            last = logits[0, -1]
            if temperature == 0:
                nxt = int(last.argmax())
            else:
                nxt = int(torch.multinomial(torch.softmax(last / temperature, -1), 1, generator=gen))
            out.append(nxt)
            logits, state = model(torch.tensor([[nxt]]), state)
    return decode(out, vocab)


def contextual_word_vector(
    forward_lm: CharLM,
    backward_lm: CharLM,
    vocab: Sequence[str],
    sentence: str,
    start: int,
    end: int,
    weights: Sequence[float] | None = None,
) -> np.ndarray:
    """ELMo-style vector of the word ``sentence[start:end]`` from a forward and a backward character LM.

    For every layer ``j`` (0 = the character embeddings, then each LSTM layer) the forward
    model's state after the word's last character and the backward model's state after
    reading (right to left) the word's first character are concatenated, ``[h→_j ; h←_j]``;
    layer 0 uses the mean embedding of the word's characters. The layers are combined as
    ``Σ_j s_j [h→_j ; h←_j]`` with ``s = softmax(weights)`` (default: equal weights),
    ELMo's task-specific weighting without the scale γ. Returns a ``(2·d_model,)`` array.
    """
    check_type("forward_lm", forward_lm, CharLM)
    check_type("backward_lm", backward_lm, CharLM)
    check_text("sentence", sentence, allow_empty=False)
    start = check_int("start", start, minimum=0)
    end = check_int("end", end, minimum=start + 1, maximum=len(sentence))
    n_layers = forward_lm.num_layers + 1
    if backward_lm.num_layers + 1 != n_layers or backward_lm.hidden_size != forward_lm.hidden_size:
        raise ValueError("forward_lm and backward_lm must have the same number of layers and hidden size")
    s = torch.softmax(
        torch.zeros(n_layers) if weights is None else torch.as_tensor(np.asarray(weights, dtype=np.float32)), 0
    )
    if s.shape != (n_layers,):
        raise ValueError(f"weights must have {n_layers} numbers (one per layer), got {len(weights)}")
    ids = encode(sentence, vocab)[None]
    with torch.no_grad():
        fwd, _ = forward_lm.layer_states(ids)
        bwd, _ = backward_lm.layer_states(ids.flip(1))  # reads the sentence right to left
    n = ids.shape[1]
    layers = []
    for j in range(n_layers):
        if j == 0:  # context-free: the word's own characters
            f, b = fwd[0][0, start:end].mean(0), bwd[0][0, n - end : n - start].mean(0)
        else:
            f, b = fwd[j][0, end - 1], bwd[j][0, n - 1 - start]
        layers.append(torch.cat([f, b]))
    return (s[:, None] * torch.stack(layers)).sum(0).numpy()
