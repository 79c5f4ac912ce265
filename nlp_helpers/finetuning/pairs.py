"""Pairwise tasks with BERT: how a pair is packed, and cross-encoders against bi-encoders.

A *pair* task scores or labels two texts together: paraphrase or not (MRPC), entailment,
neutral or contradiction (SNLI, MultiNLI), or a graded similarity (STS, SimLex-999). Two designs:

* a **cross-encoder** packs both texts into one input, ``[CLS] a [SEP] b [SEP]`` with segment
  (token type) ids 0 for the first part and 1 for the second (:func:`pack_pair`), so every layer
  attends across the two texts; a head on the ``[CLS]`` vector gives the score (:class:`CrossEncoder`);
* a **bi-encoder** encodes each text alone (mean pooling, as Sentence-BERT) and compares the two
  vectors by their cosine (:class:`BiEncoder`); fine-tuning it is Sentence-BERT's regression objective.

Both copy the pretrained encoder, so fine-tuning never changes the model other code uses.
:func:`train_pair_model` fine-tunes either on scores in [0, 1]; :func:`pair_scores` scores pairs and
:func:`pair_metrics` measures them (Spearman's rho, ROC AUC); :func:`disjoint_pair_split` splits pairs so
that no item (word or document) of a test pair occurs in a training pair; :func:`pair_study` reads the
stored seed study that ``benchmarks/bert_pair_study.py`` makes with these functions.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import torch
from torch import nn

from nlp_helpers import seeds
from nlp_helpers._checks import check_array, check_choice, check_float, check_int, check_type
from nlp_helpers.bert.minilm import check_texts, load_minilm
from nlp_helpers.display import hide_progress

__all__ = [
    "STUDY_FILE",
    "pack_pair",
    "encode_pairs",
    "CrossEncoder",
    "BiEncoder",
    "train_pair_model",
    "pair_scores",
    "pair_metrics",
    "disjoint_pair_split",
    "pair_study",
]

STUDY_FILE = Path(__file__).with_name("pair_study.json")  # benchmarks/bert_pair_study.py


def pack_pair(tokenizer: Any, a: str, b: str) -> dict[str, list[int]]:
    """Pack two texts as BERT reads a pair: ``[CLS] a [SEP] b [SEP]``.

    Returns ``input_ids``, ``token_type_ids`` (0 up to and including the first ``[SEP]``, 1 after)
    and ``attention_mask`` (all 1), as lists: what ``tokenizer(a, b)`` returns, without truncation.

    >>> tok, _ = load_minilm()
    >>> tok.convert_ids_to_tokens(pack_pair(tok, "cat", "dog")["input_ids"])
    ['[CLS]', 'cat', '[SEP]', 'dog', '[SEP]']
    """
    if not callable(getattr(tokenizer, "tokenize", None)) or not hasattr(tokenizer, "cls_token_id"):
        raise TypeError(f"tokenizer must be a BERT tokenizer (tokenize, cls_token_id), got {type(tokenizer).__name__}")
    check_texts("a", [a])
    check_texts("b", [b])
    return _pack(tokenizer, a, b)


def _pack(tokenizer: Any, a: str, b: str) -> dict[str, list[int]]:
    ids_a = tokenizer.convert_tokens_to_ids(tokenizer.tokenize(a))
    ids_b = tokenizer.convert_tokens_to_ids(tokenizer.tokenize(b))
    cls, sep = tokenizer.cls_token_id, tokenizer.sep_token_id
    input_ids = [cls, *ids_a, sep, *ids_b, sep]
    token_type_ids = [0] * (len(ids_a) + 2) + [1] * (len(ids_b) + 1)
    return {"input_ids": input_ids, "token_type_ids": token_type_ids, "attention_mask": [1] * len(input_ids)}


def encode_pairs(a: Sequence[str], b: Sequence[str], *, max_length: int = 128) -> dict[str, torch.Tensor]:
    """A padded batch of packed pairs (tensors (B, T)), truncated to ``max_length`` pieces."""
    a, b = check_texts("a", a), check_texts("b", b)
    if len(a) != len(b):
        raise ValueError(f"a has {len(a)} texts but b has {len(b)}: one b per a")
    max_length = check_int("max_length", max_length, minimum=3, maximum=512)
    tokenizer, _ = load_minilm()
    return dict(tokenizer(a, b, padding=True, truncation=True, max_length=max_length, return_tensors="pt"))


def _encode_single(texts: list[str], max_length: int) -> dict[str, torch.Tensor]:
    tokenizer, _ = load_minilm()
    return dict(tokenizer(texts, padding=True, truncation=True, max_length=max_length, return_tensors="pt"))


class CrossEncoder(nn.Module):
    """A trainable copy of the encoder reading packed pairs, and a linear head on ``[CLS]`` (or the mean): one logit per pair."""

    def __init__(self, encoder: nn.Module | None = None, *, dropout: float = 0.1, pooling: str = "cls") -> None:
        super().__init__()
        self.pooling = check_choice("pooling", pooling, ("cls", "mean"))
        encoder = load_minilm()[1] if encoder is None else encoder
        check_type("encoder", encoder, nn.Module)
        self.encoder = copy.deepcopy(encoder)  # fine-tuning must not change the shared model
        self.dropout = nn.Dropout(check_float("dropout", dropout, minimum=0.0, maximum=1.0, max_inclusive=False))
        self.head = nn.Linear(self.encoder.config.hidden_size, 1)

    def forward(self, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        hidden = self.encoder(**batch).last_hidden_state
        if self.pooling == "cls":
            pooled = hidden[:, 0]  # (B, d): the [CLS] vector
        else:
            m = batch["attention_mask"][..., None].to(hidden.dtype)
            pooled = (hidden * m).sum(1) / m.sum(1)  # (B, d): mean over the pair's real tokens
        return self.head(self.dropout(pooled)).squeeze(-1)  # (B,)

    def encode(self, a: list[str], b: list[str], max_length: int) -> dict[str, torch.Tensor]:
        return encode_pairs(a, b, max_length=max_length)

    def score(self, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        """Relevance in [0, 1]: the sigmoid of the logit."""
        return torch.sigmoid(self(batch))


class BiEncoder(nn.Module):
    """A trainable copy of the encoder; each text is mean-pooled alone and a pair scores the cosine of its two vectors."""

    def __init__(self, encoder: nn.Module | None = None) -> None:
        super().__init__()
        encoder = load_minilm()[1] if encoder is None else encoder
        check_type("encoder", encoder, nn.Module)
        self.encoder = copy.deepcopy(encoder)

    def embed(self, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        hidden = self.encoder(**batch).last_hidden_state
        m = batch["attention_mask"][..., None].to(hidden.dtype)
        return (hidden * m).sum(1) / m.sum(1)  # (B, d): mean over real tokens

    def forward(self, batch: tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]]) -> torch.Tensor:
        return nn.functional.cosine_similarity(self.embed(batch[0]), self.embed(batch[1]), dim=-1)

    def encode(self, a: list[str], b: list[str], max_length: int) -> tuple[dict, dict]:
        return _encode_single(a, max_length), _encode_single(b, max_length)

    def score(self, batch: tuple[dict, dict]) -> torch.Tensor:
        """The cosine of the two texts' vectors, in [-1, 1]."""
        return self(batch)


def _check_pairs(a, b, scores=None) -> tuple[list[str], list[str], np.ndarray | None]:
    a, b = check_texts("a", a), check_texts("b", b)
    if len(a) != len(b):
        raise ValueError(f"a has {len(a)} texts but b has {len(b)}: one b per a")
    if scores is None:
        return a, b, None
    y = np.asarray(scores, dtype=float)
    if y.shape != (len(a),):
        raise ValueError(f"scores must have one value per pair, shape ({len(a)},), got {y.shape}")
    if not np.isfinite(y).all() or y.min() < 0 or y.max() > 1:
        raise ValueError("scores must be finite numbers in [0, 1] (rescale ratings first, e.g. SimLex's 0..10 / 10)")
    return a, b, y


def train_pair_model(
    model: CrossEncoder | BiEncoder,
    a: Sequence[str],
    b: Sequence[str],
    scores: Sequence[float],
    *,
    epochs: int = 4,
    batch_size: int = 16,
    lr: float = 5e-5,
    head_lr: float = 1e-3,
    max_length: int = 128,
    seed: int = 0,
    max_steps: int | None = None,
    after_step: Callable[[int], None] | None = None,
    progress: bool = True,
) -> list[float]:
    """Fine-tune every weight of ``model`` on pairs with gold ``scores`` in [0, 1]; return every step's loss.

    A cross-encoder learns with binary cross-entropy on soft labels (its sigmoid output against the score),
    a bi-encoder with the mean squared error between its cosine and the score (Sentence-BERT's regression
    objective). AdamW (weight decay 0.01) with ``lr`` for the pretrained encoder (BERT's usual 2e-5 to 5e-5)
    and the larger ``head_lr`` for the cross-encoder's new head, which starts from random weights.
    Each epoch visits the pairs in the order ``torch.randperm`` draws from ``seeds.torch_generator(seed)``,
    in batches of ``batch_size``; dropout is seeded with ``seeds.manual_seed(seed)``. Training stops after
    ``max_steps`` steps if given; ``after_step(step)`` (step counted from 1) runs after each update, e.g.
    to evaluate the model part-way. The model is left in eval mode.
    """
    check_type("model", model, (CrossEncoder, BiEncoder))
    a, b, y = _check_pairs(a, b, scores)
    epochs = check_int("epochs", epochs, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    max_length = check_int("max_length", max_length, minimum=3, maximum=512)
    seed = check_int("seed", seed, minimum=0)
    groups = [{"params": model.encoder.parameters(), "lr": check_float("lr", lr, minimum=0.0, min_inclusive=False)}]
    if isinstance(model, CrossEncoder):
        head_lr = check_float("head_lr", head_lr, minimum=0.0, min_inclusive=False)
        groups.append({"params": model.head.parameters(), "lr": head_lr})
    total = epochs * -(-len(a) // batch_size)
    total = total if max_steps is None else min(total, check_int("max_steps", max_steps, minimum=1))
    if after_step is not None and not callable(after_step):
        raise TypeError(f"after_step must be a function of the step, got {type(after_step).__name__}")
    return _train(model, a, b, torch.as_tensor(y, dtype=torch.float32), groups, epochs, batch_size, max_length,
                  seed, total, after_step, progress)  # fmt: skip


def _train(model, a, b, y, groups, epochs, batch_size, max_length, seed, total, after_step, progress) -> list[float]:
    from tqdm.auto import tqdm

    opt = torch.optim.AdamW(groups, weight_decay=0.01, fused=True)  # fused: one kernel for all weights
    order = seeds.torch_generator(seed)
    seeds.manual_seed(seed)  # dropout
    losses: list[float] = []
    with tqdm(total=total, desc="fine-tuning", disable=not progress or hide_progress()) as bar:
        for _ in range(epochs):
            for idx in torch.randperm(len(a), generator=order).split(batch_size):
                if len(losses) == total:
                    break
                model.train()
                rows = idx.tolist()
                out = model(model.encode([a[i] for i in rows], [b[i] for i in rows], max_length))
                if isinstance(model, CrossEncoder):
                    loss = nn.functional.binary_cross_entropy_with_logits(out, y[idx])
                else:
                    loss = nn.functional.mse_loss(out, y[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
                losses.append(loss.item())
                bar.update()
                if after_step is not None:
                    after_step(len(losses))
    model.eval()
    return losses


@torch.no_grad()
def pair_scores(
    model: CrossEncoder | BiEncoder,
    a: Sequence[str],
    b: Sequence[str],
    *,
    max_length: int = 128,
    batch_size: int = 64,
) -> np.ndarray:
    """The model's score of every pair (a[i], b[i]), shape (N,): a probability (cross) or a cosine (bi)."""
    check_type("model", model, (CrossEncoder, BiEncoder))
    a, b, _ = _check_pairs(a, b)
    max_length = check_int("max_length", max_length, minimum=3, maximum=512)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    model.eval()
    out = [
        model.score(model.encode(a[i : i + batch_size], b[i : i + batch_size], max_length))
        for i in range(0, len(a), batch_size)
    ]
    return torch.cat(out).numpy().astype(float)


def pair_metrics(scores: Sequence[float], gold: Sequence[float], *, threshold: float = 0.5) -> dict[str, float]:
    """Spearman's rho of ``scores`` with the ``gold`` ratings, and the ROC AUC of "similar" (gold >= threshold).

    Both are computed from ranks (tied values share their average rank): rho is Pearson's correlation of
    the two rank vectors, and the AUC is the Mann-Whitney statistic, the chance that a randomly chosen
    similar pair scores above a randomly chosen dissimilar one (a tie counts one half). They equal
    ``scipy.stats.spearmanr(scores, gold).statistic`` and ``sklearn.metrics.roc_auc_score(gold >= threshold,
    scores)``. ``scores`` and ``gold`` are 1-D, equally long and finite; each must vary, and the threshold
    must leave pairs on both sides, or the measures are undefined (``ValueError``).

    >>> pair_metrics([0.1, 0.4, 0.35, 0.8], [0.0, 0.2, 0.6, 0.9])
    {'spearman': 0.8, 'auc': 0.75}
    """
    s = check_array("scores", scores, ndim=1)
    g = check_array("gold", gold, shape=(len(s),))
    threshold = check_float("threshold", threshold)
    if len(s) < 2 or np.ptp(s) == 0 or np.ptp(g) == 0:
        raise ValueError("scores and gold must each have at least two different values (rho is undefined otherwise)")
    similar = g >= threshold
    if similar.all() or not similar.any():
        raise ValueError(f"threshold {threshold} puts every gold rating on one side: the AUC needs both classes")
    return _metrics(s, g, similar)


def _average_ranks(x: np.ndarray) -> np.ndarray:
    order = np.argsort(x, kind="stable")
    _, first, counts = np.unique(x[order], return_index=True, return_counts=True)
    ranks = np.empty(len(x))
    ranks[order] = np.repeat(first + (counts + 1) / 2, counts)  # tied values share their mean rank (from 1)
    return ranks


def _metrics(s: np.ndarray, g: np.ndarray, similar: np.ndarray) -> dict[str, float]:
    rs, rg = _average_ranks(s), _average_ranks(g)
    rho = float(np.corrcoef(rs, rg)[0, 1])
    n_pos, n_neg = int(similar.sum()), int((~similar).sum())
    auc = (rs[similar].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)  # Mann-Whitney U / (n_pos n_neg)
    # rounded to 12 decimals: exact values (0.8, not 0.7999999999999999) without changing any real result
    return {"spearman": round(rho, 12), "auc": round(float(auc), 12)}


def disjoint_pair_split(
    left: Sequence[str], right: Sequence[str], *, test_fraction: float = 0.4, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Split pairs so that no item of a test pair occurs in any training pair.

    Each distinct item (word or document) goes to the test side with probability ``test_fraction``;
    a pair whose two items are both test items is a test pair, both training items a training pair,
    and a mixed pair is dropped. Returns the indices ``(train, test)``, each sorted.
    """
    if len(left) != len(right) or len(left) == 0:
        raise ValueError(f"left and right must be equally long and non-empty, got {len(left)} and {len(right)}")
    test_fraction = check_float("test_fraction", test_fraction, minimum=0.0, maximum=1.0, min_inclusive=False)
    check_type("rng", rng, np.random.Generator)
    items = sorted(set(left) | set(right))
    is_test = dict(zip(items, rng.random(len(items)) < test_fraction))
    t = np.array([(is_test[x], is_test[y]) for x, y in zip(left, right)])
    return np.flatnonzero(~t[:, 0] & ~t[:, 1]), np.flatnonzero(t[:, 0] & t[:, 1])


def pair_study(path: Path | None = None) -> pd.DataFrame:
    """The stored seed study of ``benchmarks/bert_pair_study.py``: one row per (model, seed).

    Columns: Spearman's rho and AUC on the seed's test pairs, the same after the first ``early_steps``
    steps (``early_spearman``, ``early_auc``; NaN for the unchanged model), ``n_train``, ``n_test``,
    ``steps`` and every step's loss (``losses``). ``frame.attrs`` holds how it was made: ``command``,
    ``seeds``, ``epochs``, ``batch_size``, ``lr``, ``head_lr``, ``max_length``, ``test_fraction``,
    ``early_steps``, the torch version and CPU capability.
    """
    path = STUDY_FILE if path is None else Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: run `python -m benchmarks.bert_pair_study 10` to create it")
    data = json.loads(path.read_text())
    frame = pd.DataFrame(data["runs"])
    expected = {"model", "seed", "spearman", "auc", "n_train", "n_test", "steps", "losses", "seconds"}
    if not expected <= set(frame.columns):
        raise ValueError(f"{path} must have runs with the fields {sorted(expected)}, got {sorted(frame.columns)}")
    frame.attrs.update({k: v for k, v in data.items() if k != "runs"})
    return frame
