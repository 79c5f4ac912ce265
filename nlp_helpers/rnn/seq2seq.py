"""Encoder-decoder GRUs with optional dot-product attention, on a synthetic "translation" task.

Follows the lecture notes: the encoder reads the source and its final state is the
*context vector*; the decoder is a language model over the target that starts from
that state and also sees the context at every step ("concatenated with the input ...
to prevent it from diluting"). Training uses **teacher forcing** (the decoder reads
the true previous target token); at test time it reads its own previous prediction
(:meth:`Seq2Seq.greedy_decode`), so one mistake changes everything after it.

With ``attention=True`` the decoder also scores every encoder state against its
current state, ``score(s_i, h_j) = s_i · h_j``, turns the scores into weights with a
softmax over ``j`` and mixes the encoder states into a per-step context
``a_i = Σ_j α_ij h_j``; the output layer sees ``[s_i ; a_i]``. (The notes score the
*previous* decoder state ``s_{i−1}`` and feed the context into the next step, as
Bahdanau et al. do; scoring the current state, as Luong et al. 2015 do, lets the whole
teacher-forced decoder run in one call. The idea is the same.)

The task (:func:`reversal_task`): reverse a sequence of symbols. It needs the whole
input before the first output, and its alignment (output ``i`` ↔ input ``n − 1 − i``)
is known, so the attention heatmap can be checked by eye. Token ids: 0 = ``<pad>``,
1 = ``<s>``, 2 = ``</s>``, symbols from 3. Left out: beam search, bidirectional
encoders, subword vocabularies.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
import torch
from torch import Tensor, nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from nlp_helpers._checks import check_float, check_int, check_nonempty, check_type
from nlp_helpers.display import hide_progress
from nlp_helpers.rnn.gradients import clip_grad_norm
from nlp_helpers.seeds import rng as seeded_rng
from nlp_helpers.seeds import torch_generator

__all__ = [
    "PAD",
    "BOS",
    "EOS",
    "SPECIALS",
    "reversal_task",
    "make_batch",
    "dot_attention",
    "Seq2Seq",
    "train_seq2seq",
    "evaluate",
    "error_cascade",
    "STUDY_FILE",
    "source_reversal_study",
]

PAD, BOS, EOS = 0, 1, 2
SPECIALS = ["<pad>", "<s>", "</s>"]
STUDY_FILE = Path(__file__).with_name("source_reversal_study.json")  # benchmarks/seed_study_rnn.py


def reversal_task(
    n: int, min_len: int, max_len: int, n_symbols: int = 10, seed: int = 0
) -> list[tuple[list[int], list[int]]]:
    """``n`` pairs (source, target) with target = reversed source; lengths uniform in ``[min_len, max_len]``.

    Symbols are ids ``3 .. 3 + n_symbols − 1`` drawn uniformly.
    """
    n = check_int("n", n, minimum=1)
    min_len = check_int("min_len", min_len, minimum=1)
    max_len = check_int("max_len", max_len, minimum=min_len)
    n_symbols = check_int("n_symbols", n_symbols, minimum=2)
    rng = seeded_rng(check_int("seed", seed, minimum=0))
    pairs = []
    for length in rng.integers(min_len, max_len + 1, size=n):
        src = (rng.integers(0, n_symbols, size=length) + len(SPECIALS)).tolist()
        pairs.append((src, src[::-1]))
    return pairs


def make_batch(pairs: Sequence[tuple[Sequence[int], Sequence[int]]]) -> dict[str, Tensor]:
    """Pad a list of (source, target) id lists.

    Returns ``src (B, S)``, ``src_len (B,)``, ``tgt_in (B, T+1)`` = ``<s>`` + target (the decoder's
    teacher-forced input) and ``tgt_out (B, T+1)`` = target + ``</s>`` (what it must predict),
    padded with ``<pad>`` = 0.
    """
    pairs = check_nonempty("pairs", pairs)
    for i, (src, tgt) in enumerate(pairs):
        if len(src) == 0 or len(tgt) == 0:
            raise ValueError(f"pairs[{i}] has an empty source or target; both need at least one token")
        if min(src) < len(SPECIALS) or min(tgt) < len(SPECIALS):
            raise ValueError(f"pairs[{i}] uses a special id (< {len(SPECIALS)}) as a symbol")
    B, S, T = len(pairs), max(len(s) for s, _ in pairs), max(len(t) for _, t in pairs) + 1
    src = torch.full((B, S), PAD)
    tgt_in, tgt_out = torch.full((B, T), PAD), torch.full((B, T), PAD)
    for i, (s, t) in enumerate(pairs):
        src[i, : len(s)] = torch.as_tensor(s)
        tgt_in[i, : len(t) + 1] = torch.as_tensor([BOS, *t])
        tgt_out[i, : len(t) + 1] = torch.as_tensor([*t, EOS])
    return {"src": src, "src_len": torch.as_tensor([len(s) for s, _ in pairs]), "tgt_in": tgt_in, "tgt_out": tgt_out}


def dot_attention(queries: Tensor, states: Tensor, lengths: Tensor) -> tuple[Tensor, Tensor]:
    """Dot-product attention over encoder states, padding masked out.

    ``queries`` (B, T, H) (decoder states ``s_i``), ``states`` (B, S, H) (encoder states ``h_j``),
    ``lengths`` (B,) (real source lengths). ``α_ij = softmax_j(s_i · h_j)`` over ``j < length``;
    returns the contexts ``a_i = Σ_j α_ij h_j`` (B, T, H) and the weights ``α`` (B, T, S).
    """
    if queries.dim() != 3 or states.dim() != 3 or queries.shape[::2] != states.shape[::2]:
        raise ValueError(
            f"queries (B, T, H) and states (B, S, H) must share B and H, got "
            f"{tuple(queries.shape)} and {tuple(states.shape)}"
        )
    if lengths.shape != (states.shape[0],) or lengths.min() < 1 or lengths.max() > states.shape[1]:
        raise ValueError(f"lengths must hold {states.shape[0]} lengths in [1, {states.shape[1]}]")
    scores = queries @ states.transpose(1, 2)  # (B, T, S): s_i · h_j
    pad = torch.arange(states.shape[1])[None, None, :] >= lengths[:, None, None]
    weights = torch.softmax(scores.masked_fill(pad, float("-inf")), dim=-1)
    return weights @ states, weights


class Seq2Seq(nn.Module):
    """GRU encoder → GRU decoder (context vector at every step), optionally with dot-product attention."""

    def __init__(
        self, vocab_size: int, embedding_dim: int = 32, hidden_size: int = 64, attention: bool = False
    ) -> None:
        super().__init__()
        self.vocab_size = check_int("vocab_size", vocab_size, minimum=len(SPECIALS) + 1)
        embedding_dim = check_int("embedding_dim", embedding_dim, minimum=1)
        self.hidden_size = check_int("hidden_size", hidden_size, minimum=1)
        check_type("attention", attention, bool)
        self.attention = attention
        self.src_embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=PAD)
        self.tgt_embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=PAD)
        self.encoder = nn.GRU(embedding_dim, hidden_size, batch_first=True)
        self.decoder = nn.GRU(embedding_dim + hidden_size, hidden_size, batch_first=True)
        self.combine = nn.Linear(2 * hidden_size, hidden_size) if attention else None
        self.output = nn.Linear(hidden_size, vocab_size)

    def encode(self, src: Tensor, src_len: Tensor) -> tuple[Tensor, Tensor]:
        """src (B, S) -> encoder states (B, S, H) (zeros at padding) and the context vector h_S (B, H)."""
        check_type("src", src, Tensor)
        if src.dim() != 2 or src.dtype != torch.long:
            raise ValueError(
                f"src must be a (B, S) tensor of token ids (torch.long), got {tuple(src.shape)} {src.dtype}"
            )
        if src.shape[1] == 0:
            raise ValueError("src is empty (S = 0): the encoder needs at least one token")
        if src.min() < 0 or src.max() >= self.vocab_size:
            raise ValueError(f"src must contain ids in [0, {self.vocab_size - 1}]")
        if src_len.shape != (src.shape[0],) or src_len.min() < 1 or src_len.max() > src.shape[1]:
            raise ValueError(f"src_len must hold {src.shape[0]} lengths in [1, {src.shape[1]}]")
        packed = pack_padded_sequence(self.src_embedding(src), src_len.cpu(), batch_first=True, enforce_sorted=False)
        states, h_n = self.encoder(packed)
        states, _ = pad_packed_sequence(states, batch_first=True, total_length=src.shape[1])
        return states, h_n[0]

    def _decode_steps(self, tgt_in: Tensor, context: Tensor, state: Tensor, enc: Tensor, src_len: Tensor):
        """Run the decoder over given inputs (B, T); returns logits (B, T, V), new state, attention or None."""
        e = self.tgt_embedding(tgt_in)  # (B, T, d)
        x = torch.cat([e, context[:, None, :].expand(-1, e.shape[1], -1)], dim=-1)
        s, state = self.decoder(x, state)  # (B, T, H)
        weights = None
        if self.attention:
            a, weights = dot_attention(s, enc, src_len)
            s = torch.tanh(self.combine(torch.cat([s, a], dim=-1)))
        return self.output(s), state, weights

    def forward(self, src: Tensor, src_len: Tensor, tgt_in: Tensor) -> tuple[Tensor, Tensor | None]:
        """Teacher forcing: logits (B, T, V) for every target position, and attention (B, T, S) or None."""
        check_type("tgt_in", tgt_in, Tensor)
        if tgt_in.dim() != 2 or tgt_in.shape[0] != src.shape[0] or tgt_in.shape[1] == 0:
            raise ValueError(f"tgt_in must be (B, T) with B = {src.shape[0]} and T >= 1, got {tuple(tgt_in.shape)}")
        enc, context = self.encode(src, src_len)
        logits, _, weights = self._decode_steps(tgt_in, context, context[None], enc, src_len)
        return logits, weights

    @torch.no_grad()
    def greedy_decode(self, src: Tensor, src_len: Tensor, max_len: int) -> tuple[Tensor, Tensor | None]:
        """Test-time decoding: feed back the arg-max prediction, ``max_len`` steps.

        Returns predicted ids (B, max_len) (``</s>`` and whatever follows it are kept: compare
        position by position with ``tgt_out``) and the attention weights (B, max_len, S) or None.
        """
        max_len = check_int("max_len", max_len, minimum=1)
        self.eval()
        enc, context = self.encode(src, src_len)
        state, token = context[None], torch.full((src.shape[0], 1), BOS)
        preds, attn = [], []
        for _ in range(max_len):
            logits, state, weights = self._decode_steps(token, context, state, enc, src_len)
            token = logits.argmax(-1)  # (B, 1): the model's own guess is the next input
            preds.append(token)
            if weights is not None:
                attn.append(weights)
        return torch.cat(preds, 1), (torch.cat(attn, 1) if attn else None)


def train_seq2seq(
    model: Seq2Seq,
    pairs: Sequence[tuple[Sequence[int], Sequence[int]]],
    *,
    steps: int = 500,
    batch_size: int = 64,
    lr: float = 5e-3,
    clip: float | None = 1.0,
    seed: int = 0,
    progress: bool = True,
) -> pd.DataFrame:
    """Teacher-forced training with cross-entropy over the target tokens (``</s>`` included, padding ignored).

    Returns the history: ``step``, ``loss`` (nats per target token).
    """
    check_type("model", model, Seq2Seq)
    pairs = check_nonempty("pairs", pairs)
    steps = check_int("steps", steps, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    lr = check_float("lr", lr, minimum=0.0, min_inclusive=False)
    if clip is not None:
        clip = check_float("clip", clip, minimum=0.0, min_inclusive=False)
    from tqdm.auto import tqdm

    gen = torch_generator(check_int("seed", seed, minimum=0))
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    data = make_batch(pairs)  # pad once; each step takes random rows
    rows = []
    model.train()
    for step in tqdm(range(steps), desc="training seq2seq", disable=not progress or hide_progress(), leave=False):
        idx = torch.randint(0, len(pairs), (batch_size,), generator=gen)
        b = {k: v[idx] for k, v in data.items()}
        S, T = b["src_len"].max(), (b["tgt_out"] != PAD).sum(1).max()  # trim the batch's padding
        b = {
            "src": b["src"][:, :S],
            "src_len": b["src_len"],
            "tgt_in": b["tgt_in"][:, :T],
            "tgt_out": b["tgt_out"][:, :T],
        }
        logits, _ = model(b["src"], b["src_len"], b["tgt_in"])
        loss = nn.functional.cross_entropy(
            logits.reshape(-1, model.vocab_size), b["tgt_out"].reshape(-1), ignore_index=PAD
        )
        opt.zero_grad()
        loss.backward()
        if clip is not None:
            clip_grad_norm(model.parameters(), clip)
        opt.step()
        rows.append({"step": step + 1, "loss": loss.item()})
    model.eval()
    return pd.DataFrame(rows)


def _predictions(model: Seq2Seq, batch: dict[str, Tensor], teacher_forcing: bool) -> Tensor:
    """Predicted ids (B, T+1) aligned with ``tgt_out``, with or without the true history."""
    if teacher_forcing:
        with torch.no_grad():
            logits, _ = model(batch["src"], batch["src_len"], batch["tgt_in"])
        return logits.argmax(-1)
    preds, _ = model.greedy_decode(batch["src"], batch["src_len"], batch["tgt_out"].shape[1])
    return preds


def evaluate(
    model: Seq2Seq, pairs: Sequence[tuple[Sequence[int], Sequence[int]]], *, teacher_forcing: bool = False
) -> pd.DataFrame:
    """Per-pair results: ``length``, ``token_acc`` (share of target positions, ``</s>`` included, predicted
    right) and ``exact`` (the whole output right). Greedy decoding unless ``teacher_forcing``.
    """
    check_type("model", model, Seq2Seq)
    b = make_batch(check_nonempty("pairs", pairs))
    pred = _predictions(model, b, teacher_forcing)
    mask = b["tgt_out"] != PAD
    correct = (pred == b["tgt_out"]) & mask
    return pd.DataFrame(
        {
            "length": b["src_len"].numpy(),
            "token_acc": (correct.sum(1) / mask.sum(1)).numpy(),
            "exact": (correct.sum(1) == mask.sum(1)).numpy(),
        }
    )


def error_cascade(model: Seq2Seq, pairs: Sequence[tuple[Sequence[int], Sequence[int]]]) -> dict[str, float]:
    """Exposure bias in numbers, from greedy decoding of ``pairs``.

    ``p_error_after_correct``: P(position t wrong | every earlier position right);
    ``p_error_after_error``: P(position t wrong | some earlier position wrong);
    ``token_error_free`` / ``token_error_forced``: overall token error rate when decoding freely and
    with teacher forcing (the true history), on the same pairs.
    """
    check_type("model", model, Seq2Seq)
    b = make_batch(check_nonempty("pairs", pairs))
    mask = b["tgt_out"] != PAD
    wrong_free = (_predictions(model, b, False) != b["tgt_out"]) & mask
    wrong_forced = (_predictions(model, b, True) != b["tgt_out"]) & mask
    earlier = torch.cumsum(wrong_free.int(), 1) - wrong_free.int() > 0  # an error before position t
    after_ok, after_err = mask & ~earlier, mask & earlier
    rate = lambda w, m: (w & m).sum().item() / max(m.sum().item(), 1)  # noqa: E731
    return {
        "p_error_after_correct": rate(wrong_free, after_ok),
        "p_error_after_error": rate(wrong_free, after_err) if after_err.any() else float("nan"),
        "token_error_free": rate(wrong_free, mask),
        "token_error_forced": rate(wrong_forced, mask),
    }


def source_reversal_study() -> pd.DataFrame:
    """The chapter's source-reversal comparison over several seeds, as ``benchmarks/seed_study_rnn.py`` stored it.

    One row per (setting, seed): ``setting`` ("source reversed" or "source in order"), ``seed``,
    ``token_acc`` and ``exact <lengths>`` (share of exactly right outputs by source length).
    """
    if not STUDY_FILE.is_file():
        raise FileNotFoundError(f"{STUDY_FILE} is missing: run python -m benchmarks.seed_study_rnn")
    return pd.DataFrame(json.loads(STUDY_FILE.read_text(encoding="utf-8"))["runs"])
