"""Masked language modelling (BERT's pre-training objective) and a small masked LM to train in seconds.

BERT learns by filling in blanks (Devlin et al., 2019, section 3.1):

1. **select** 15 % of the tokens, never the special tokens (``[CLS]``, ``[SEP]``,
   ``[PAD]``); each position is chosen independently with probability ``p``, as
   Hugging Face's ``DataCollatorForLanguageModeling`` does (Google's original code
   picks exactly ``round(p * n)`` positions per sequence);
2. **corrupt** the selected tokens: 80 % become ``[MASK]``, 10 % a random token,
   10 % stay as they are - so the model cannot assume that an unmasked token is
   correct, and still sees real tokens at the positions it must predict;
3. compute the cross-entropy **only at the selected positions** (labels elsewhere
   are ``-100``, PyTorch's ``ignore_index``).

:class:`TinyMaskedLM` is a bidirectional Transformer encoder (no causal mask) that
:func:`train_masked_lm` trains with exactly this recipe; the BERT chapter trains it
on characters of a Shakespeare play in a few seconds and compares it with the
unigram baseline (:func:`unigram_baseline`).

Left out: whole-word and span masking (SpanBERT), dynamic padding, and the
next-sentence objective (``nlp_helpers.bert.nsp.nsp_pairs`` builds its data).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import torch
from torch import nn

from nlp_helpers._checks import check_array, check_float, check_int, check_type
from nlp_helpers.display import hide_progress
from nlp_helpers.seeds import manual_seed
from nlp_helpers.seeds import rng as seeded_rng

__all__ = [
    "IGNORE_INDEX",
    "select_positions",
    "corrupt",
    "mask_tokens",
    "masked_lm_loss",
    "TinyMaskedLM",
    "train_masked_lm",
    "evaluate_masked_lm",
    "unigram_baseline",
]

IGNORE_INDEX = -100  # label of positions that do not count in the loss


def _check_rng(rng: object) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator (np.random.default_rng(seed)), got {type(rng).__name__}")
    return rng


def _check_ids(name: str, ids: object) -> np.ndarray:
    arr = np.asarray(ids)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must be an array of integer token ids, got dtype {arr.dtype}")
    if arr.ndim not in (1, 2) or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty (T,) or (B, T) array, got shape {arr.shape}")
    return arr.astype(np.int64)


def select_positions(
    ids: np.ndarray, special_ids: Iterable[int], rng: np.random.Generator, p: float = 0.15
) -> np.ndarray:
    """Boolean array like ``ids``: True where a token is chosen for prediction (never a special token)."""
    ids = _check_ids("ids", ids)
    p = check_float("p", p, minimum=0.0, maximum=1.0)
    rng = _check_rng(rng)
    special = np.isin(ids, _special_ids(special_ids))
    return (rng.random(ids.shape) < p) & ~special


def _special_ids(special_ids: Iterable[int]) -> np.ndarray:
    if isinstance(special_ids, (str, bytes)) or not isinstance(special_ids, Iterable):
        raise TypeError(f"special_ids must be a list of int token ids, got {type(special_ids).__name__}")
    return np.array([check_int("special_ids item", s, minimum=0) for s in special_ids], dtype=np.int64)


def corrupt(ids: np.ndarray, selected: np.ndarray, u: np.ndarray, random_ids: np.ndarray, mask_id: int) -> np.ndarray:
    """Apply the 80/10/10 rule with given uniform draws ``u`` in [0, 1) (all arrays shaped like ``ids``).

    At a selected position: ``u < 0.8`` -> ``mask_id``; ``0.8 <= u < 0.9`` -> ``random_ids``;
    otherwise the token is kept. Unselected positions are never changed.
    """
    ids = _check_ids("ids", ids)
    shape = ids.shape
    selected = np.asarray(selected)
    if selected.dtype != bool or selected.shape != shape:
        raise ValueError(f"selected must be a boolean array of shape {shape}, got {selected.dtype} {selected.shape}")
    u = check_array("u", u, shape=shape)
    if ((u < 0) | (u >= 1)).any():
        raise ValueError("u must contain uniform draws in [0, 1)")
    random_ids = _check_ids("random_ids", random_ids)
    if random_ids.shape != shape:
        raise ValueError(f"random_ids must have shape {shape}, got {random_ids.shape}")
    mask_id = check_int("mask_id", mask_id, minimum=0)
    out = ids.copy()
    out[selected & (u < 0.8)] = mask_id
    swap = selected & (u >= 0.8) & (u < 0.9)
    out[swap] = random_ids[swap]
    return out


def mask_tokens(
    ids: np.ndarray,
    vocab_size: int,
    mask_id: int,
    special_ids: Iterable[int],
    rng: np.random.Generator,
    p: float = 0.15,
) -> tuple[np.ndarray, np.ndarray]:
    """BERT's corruption of a (T,) or (B, T) array of token ids: returns ``(inputs, labels)``.

    ``labels`` holds the original id at the selected positions and ``IGNORE_INDEX``
    (-100) elsewhere. Random replacements are drawn uniformly from the non-special
    ids (BERT draws from the whole vocabulary; excluding ``[CLS]``/``[PAD]`` avoids
    planting a fake special token). Padding must be listed in ``special_ids``.
    """
    ids = _check_ids("ids", ids)
    vocab_size = check_int("vocab_size", vocab_size, minimum=2)
    mask_id = check_int("mask_id", mask_id, minimum=0, maximum=vocab_size - 1)
    special = sorted(set(_special_ids(special_ids).tolist()) | {mask_id})
    if ids.min() < 0 or ids.max() >= vocab_size:
        raise ValueError(f"ids must lie in [0, vocab_size={vocab_size}), got values in [{ids.min()}, {ids.max()}]")
    ordinary = np.setdiff1d(np.arange(vocab_size), special)
    if ordinary.size == 0:
        raise ValueError("every id is special: there is no ordinary token to predict or to sample")
    rng = _check_rng(rng)
    selected = select_positions(ids, special, rng, p)
    inputs = corrupt(ids, selected, rng.random(ids.shape), rng.choice(ordinary, size=ids.shape), mask_id)
    labels = np.where(selected, ids, IGNORE_INDEX)
    return inputs, labels


def masked_lm_loss(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy over the selected positions only: logits (B, T, V), labels (B, T) with -100 elsewhere."""
    check_type("logits", logits, torch.Tensor)
    check_type("labels", labels, torch.Tensor)
    if logits.ndim != 3 or labels.shape != logits.shape[:2]:
        raise ValueError(
            f"logits must be (B, T, V) and labels (B, T); got {tuple(logits.shape)} and {tuple(labels.shape)}"
        )
    if labels.dtype not in (torch.long, torch.int):
        raise TypeError(f"labels must hold integer token ids (torch.long), got {labels.dtype}")
    selected = labels[labels != IGNORE_INDEX]
    if not selected.numel():
        raise ValueError("labels selects no position (all are -100): the loss would be NaN")
    if int(selected.min()) < 0 or int(selected.max()) >= logits.shape[-1]:
        raise ValueError(
            f"labels must be token ids in [0, {logits.shape[-1]}) or -100, "
            f"got values in [{int(selected.min())}, {int(selected.max())}]"
        )
    return nn.functional.cross_entropy(
        logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=IGNORE_INDEX
    )


class TinyMaskedLM(nn.Module):
    """A small BERT: token + learned position embeddings, a bidirectional Transformer encoder, a vocabulary head.

    Shapes: ids (B, T) -> logits (B, T, V). No causal mask: every token sees the whole block.
    """

    def __init__(
        self,
        vocab_size: int,
        block_size: int,
        *,
        d_model: int = 64,
        n_heads: int = 4,
        n_layers: int = 2,
        pad_id: int = 0,
    ) -> None:
        super().__init__()
        self.vocab_size = check_int("vocab_size", vocab_size, minimum=2)
        self.block_size = check_int("block_size", block_size, minimum=1)
        d_model = check_int("d_model", d_model, minimum=1)
        n_heads = check_int("n_heads", n_heads, minimum=1)
        if d_model % n_heads:
            raise ValueError(f"d_model ({d_model}) must be divisible by n_heads ({n_heads})")
        self.pad_id = check_int("pad_id", pad_id, minimum=0, maximum=vocab_size - 1)
        self.tok = nn.Embedding(vocab_size, d_model)
        self.pos = nn.Embedding(block_size, d_model)
        layer = nn.TransformerEncoderLayer(
            d_model, n_heads, 4 * d_model, dropout=0.0, activation="gelu", batch_first=True, norm_first=True
        )
        self.encoder = nn.TransformerEncoder(
            layer, check_int("n_layers", n_layers, minimum=1), enable_nested_tensor=False
        )
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab_size)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        check_type("ids", ids, torch.Tensor)
        if ids.ndim != 2 or ids.shape[1] > self.block_size:
            raise ValueError(f"ids must be (B, T) with T <= block_size={self.block_size}, got {tuple(ids.shape)}")
        if ids.dtype not in (torch.long, torch.int):
            raise TypeError(f"ids must hold integer token ids (torch.long), got {ids.dtype}")
        if ids.numel() and (int(ids.min()) < 0 or int(ids.max()) >= self.vocab_size):
            raise ValueError(
                f"ids must be token ids in [0, {self.vocab_size}), got values in [{int(ids.min())}, {int(ids.max())}]"
            )
        x = self.tok(ids) + self.pos(torch.arange(ids.shape[1], device=ids.device))  # (B, T, d_model)
        x = self.encoder(x, src_key_padding_mask=ids == self.pad_id)  # keys that are padding get no attention
        return self.head(self.norm(x))  # (B, T, V)


def train_masked_lm(
    model: TinyMaskedLM,
    blocks: np.ndarray,
    *,
    mask_id: int,
    special_ids: Iterable[int],
    steps: int = 300,
    batch_size: int = 32,
    lr: float = 3e-3,
    p: float = 0.15,
    seed: int = 0,
    progress: bool = True,
) -> list[float]:
    """Train ``model`` on random batches of ``blocks`` (N, T) corrupted by :func:`mask_tokens`; return the losses."""
    from tqdm.auto import tqdm

    blocks = _check_ids("blocks", blocks)
    if blocks.ndim != 2:
        raise ValueError(f"blocks must be (N, T), got shape {blocks.shape}")
    steps = check_int("steps", steps, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    lr = check_float("lr", lr, minimum=0.0, min_inclusive=False)
    p = check_float("p", p, minimum=0.0, maximum=1.0, min_inclusive=False)  # p = 0 would never select a position
    special = _special_ids(special_ids).tolist()
    seed = check_int("seed", seed, minimum=0)
    rng = seeded_rng(seed)
    manual_seed(seed)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    model.train()
    losses = []
    for _ in tqdm(range(steps), desc="masked LM", disable=not progress or hide_progress()):
        batch = blocks[rng.integers(0, len(blocks), batch_size)]
        inputs, labels = mask_tokens(batch, model.vocab_size, mask_id, special, rng, p)
        if (labels == IGNORE_INDEX).all():
            continue  # nothing was selected in this (tiny) batch
        loss = masked_lm_loss(model(torch.from_numpy(inputs)), torch.from_numpy(labels))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    model.eval()
    return losses


@torch.no_grad()
def evaluate_masked_lm(model: nn.Module, inputs: np.ndarray, labels: np.ndarray) -> dict[str, float]:
    """Accuracy and mean cross-entropy (nats) of ``model`` at the positions where ``labels != -100``."""
    inputs, labels = _check_ids("inputs", inputs), np.asarray(labels)
    if labels.shape != inputs.shape:
        raise ValueError(f"labels must have the shape of inputs {inputs.shape}, got {labels.shape}")
    model.eval()
    logits = model(torch.from_numpy(inputs))
    lab = torch.from_numpy(labels.astype(np.int64))
    sel = lab != IGNORE_INDEX
    return {
        "accuracy": float((logits.argmax(-1)[sel] == lab[sel]).float().mean()),
        "cross_entropy": float(masked_lm_loss(logits, lab)),
    }


def unigram_baseline(train_ids: np.ndarray, labels: np.ndarray, vocab_size: int) -> dict[str, float]:
    """The best context-free guess: predict the most frequent training token, score with unigram probabilities.

    Add-one smoothing keeps the cross-entropy finite for tokens unseen in training.
    """
    train_ids = _check_ids("train_ids", train_ids).ravel()
    vocab_size = check_int("vocab_size", vocab_size, minimum=2)
    if train_ids.min() < 0 or train_ids.max() >= vocab_size:
        raise ValueError(
            f"train_ids must lie in [0, vocab_size={vocab_size}), got values in [{train_ids.min()}, {train_ids.max()}]"
        )
    labels = np.asarray(labels)
    targets = labels[labels != IGNORE_INDEX]
    if targets.size == 0:
        raise ValueError("labels selects no position (all are -100)")
    if targets.dtype.kind not in "iu" or targets.min() < 0 or targets.max() >= vocab_size:
        raise ValueError(
            f"labels must be token ids in [0, vocab_size={vocab_size}) or -100, got {np.unique(targets)[:10].tolist()}"
        )
    counts = np.bincount(train_ids, minlength=vocab_size) + 1.0
    probs = counts / counts.sum()
    return {
        "accuracy": float(np.mean(targets == counts.argmax())),
        "cross_entropy": float(-np.mean(np.log(probs[targets]))),
    }
