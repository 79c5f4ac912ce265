"""Token classification with BERT: word labels on WordPieces, a per-token head, tags read back per word.

Sequence-labelling data gives one label per *word*, but BERT reads WordPieces: *Sanitas* becomes
``san ##itas`` and every input gains ``[CLS]`` and ``[SEP]``. The convention of Devlin et al. (2019,
Sect. 5.3) puts the word's label on its **first piece** and the ignore label ``-100`` (skipped by
``torch.nn.functional.cross_entropy``) on the other pieces and on the special tokens. At prediction
time each word takes the tag predicted for its first piece.

* :func:`first_subword_labels` / :func:`word_predictions`: the alignment and its inverse, from a fast
  tokenizer's ``word_ids()`` (``None`` for special tokens and padding);
* :func:`token_features`: MiniLM run once on pre-split sentences (last and penultimate layers);
* :class:`TokenClassifier`, :func:`train_token_classifier`, :func:`predict_tags`: a linear head on every
  token's vector, optionally after a trainable copy of the top layer (as ``nlp_helpers.finetuning.classifier``
  does for sentences).

Entity-level scores are ``nlp_helpers.tagging.spans.span_f1``. Left out: a CRF on top of the pieces,
labelling every piece (BIO continuation labels) and full fine-tuning of all six layers.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import torch
from torch import nn

from nlp_helpers._checks import check_int, check_type
from nlp_helpers.bert.minilm import load_minilm
from nlp_helpers.finetuning.classifier import fit_minibatches, run_bert_layer, training_settings

__all__ = [
    "IGNORE_INDEX",
    "STUDY_FILE",
    "first_subword_labels",
    "word_predictions",
    "token_features",
    "TokenClassifier",
    "train_token_classifier",
    "predict_tags",
    "ner_study",
]

IGNORE_INDEX = -100
STUDY_FILE = Path(__file__).parents[1] / "data" / "files" / "bert_ner_study.json"  # benchmarks/bert_ner_study.py


def _check_word_ids(word_ids) -> list[int | None]:
    if isinstance(word_ids, (str, bytes)) or not isinstance(word_ids, Sequence):
        raise TypeError(f"word_ids must be a list of word indices or None, got {type(word_ids).__name__}")
    out = []
    for i, w in enumerate(word_ids):
        if w is not None and (isinstance(w, bool) or not isinstance(w, (int, np.integer)) or w < 0):
            raise ValueError(f"word_ids[{i}] must be a word index >= 0 or None (special token), got {w!r}")
        out.append(None if w is None else int(w))
    return out


def first_subword_labels(word_ids: Sequence[int | None], word_labels: Sequence, *, ignore=IGNORE_INDEX) -> list:
    """One label per piece: the word's label on its first piece, ``ignore`` on later pieces and special tokens.

    ``word_ids`` is a fast tokenizer's ``encoding.word_ids()`` (``None`` for ``[CLS]``, ``[SEP]``, padding);
    ``word_labels`` has one label (a tag string or a class index) per word.

    >>> first_subword_labels([None, 0, 1, 1, None], ["B-LOC", "O"])
    [-100, 'B-LOC', 'O', -100, -100]
    """
    word_ids = _check_word_ids(word_ids)
    if isinstance(word_labels, (str, bytes)) or not isinstance(word_labels, Sequence):
        raise TypeError(f"word_labels must be a list with one label per word, got {type(word_labels).__name__}")
    used = [w for w in word_ids if w is not None]
    if used and max(used) >= len(word_labels):
        raise ValueError(f"word_ids refer to word {max(used)} but word_labels has only {len(word_labels)} labels")
    return _first_subword_labels(word_ids, list(word_labels), ignore)


def _first_subword_labels(word_ids: list[int | None], word_labels: list, ignore) -> list:
    labels, previous = [], None
    for w in word_ids:
        labels.append(word_labels[w] if w is not None and w != previous else ignore)
        previous = w
    return labels


def word_predictions(word_ids: Sequence[int | None], piece_predictions: Sequence, n_words: int, *, missing="O") -> list:
    """Read piece predictions back per word: each word takes its first piece's prediction.

    Words with no piece (cut off by truncation) get ``missing``.

    >>> word_predictions([None, 0, 1, 1, None], ["O", "B-LOC", "O", "I-LOC", "O"], 3)
    ['B-LOC', 'O', 'O']
    """
    word_ids = _check_word_ids(word_ids)
    if len(piece_predictions) != len(word_ids):
        raise ValueError(
            f"piece_predictions has {len(piece_predictions)} entries but word_ids has {len(word_ids)} pieces"
        )
    n_words = check_int("n_words", n_words, minimum=0)
    if any(w is not None and w >= n_words for w in word_ids):
        raise ValueError(f"word_ids refer to words beyond n_words = {n_words}")
    out = [missing] * n_words
    seen: set[int] = set()
    for w, p in zip(word_ids, piece_predictions):
        if w is not None and w not in seen:
            out[w] = p.item() if isinstance(p, np.generic) else p
            seen.add(w)
    return out


def _check_sentences(sentences) -> list[list[str]]:
    if isinstance(sentences, str) or not isinstance(sentences, Sequence) or not sentences:
        raise ValueError("sentences must be a non-empty list of sentences, each a non-empty list of words")
    for i, s in enumerate(sentences):
        if isinstance(s, str) or not isinstance(s, Sequence) or not s:
            raise ValueError(f"sentences[{i}] must be a non-empty list of words, got {s!r:.60}")
        if not all(isinstance(w, str) and w for w in s):
            raise TypeError(f"sentences[{i}] must contain non-empty word strings")
    return [list(s) for s in sentences]


@torch.no_grad()
def token_features(
    sentences: Sequence[Sequence[str]], *, max_length: int = 128, batch_size: int = 32
) -> dict[str, object]:
    """Run MiniLM once on pre-split sentences (lists of words).

    Returns ``penultimate`` and ``last`` hidden states (N, T, 384), ``attention_mask`` (N, T) and
    ``word_ids`` (N lists, one entry per position, ``None`` at special tokens and padding), rows in the
    order of ``sentences``, right-padded to the longest. Sentences are run in batches of similar length.
    """
    sentences = _check_sentences(sentences)
    max_length = check_int("max_length", max_length, minimum=3, maximum=512)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    tokenizer, model = load_minilm()
    enc_all = tokenizer(sentences, is_split_into_words=True, truncation=True, max_length=max_length)
    lengths = np.array([len(ids) for ids in enc_all["input_ids"]])
    T, d = int(lengths.max()), model.config.hidden_size
    feats: dict[str, object] = {
        "penultimate": torch.zeros(len(sentences), T, d),
        "last": torch.zeros(len(sentences), T, d),
        "attention_mask": torch.zeros(len(sentences), T, dtype=torch.long),
        "word_ids": [enc_all.word_ids(i) + [None] * (T - lengths[i]) for i in range(len(sentences))],
    }
    order = np.argsort(lengths, kind="stable")
    for start in range(0, len(sentences), batch_size):
        idx = order[start : start + batch_size]
        enc = tokenizer(
            [sentences[i] for i in idx],
            is_split_into_words=True,
            truncation=True,
            max_length=max_length,
            padding=True,
            return_tensors="pt",
        )
        out = model(**enc, output_hidden_states=True)
        t, rows, real = enc["input_ids"].shape[1], torch.as_tensor(idx), enc["attention_mask"][..., None]
        feats["penultimate"][rows, :t] = out.hidden_states[-2] * real
        feats["last"][rows, :t] = out.last_hidden_state * real
        feats["attention_mask"][rows, :t] = enc["attention_mask"]
    return feats


class TokenClassifier(nn.Module):
    """A linear head on every token (B, T, d_model) -> logits (B, T, n_tags), optionally after a trainable top layer."""

    def __init__(self, d_model: int, n_tags: int, top_layer: nn.Module | None = None) -> None:
        super().__init__()
        d_model = check_int("d_model", d_model, minimum=1)
        n_tags = check_int("n_tags", n_tags, minimum=2)
        self.top_layer = None if top_layer is None else copy.deepcopy(top_layer)  # the pretrained model stays intact
        self.head = nn.Linear(d_model, n_tags)

    def forward(self, hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        check_type("hidden", hidden, torch.Tensor)
        if hidden.ndim != 3 or hidden.shape[-1] != self.head.in_features:
            raise ValueError(f"hidden must be (B, T, {self.head.in_features}), got {tuple(hidden.shape)}")
        if self.top_layer is not None:
            hidden = run_bert_layer(self.top_layer, hidden, attention_mask)
        return self.head(hidden)


def train_token_classifier(
    model: TokenClassifier,
    hidden: torch.Tensor,
    attention_mask: torch.Tensor,
    labels: torch.Tensor,
    *,
    epochs: int = 3,
    batch_size: int = 16,
    lr: float = 1e-3,
    layer_lr: float = 1e-4,
    seed: int = 0,
    progress: bool = True,
) -> list[float]:
    """Train with AdamW and token-level cross-entropy (``-100`` positions ignored); return every step's loss.

    ``labels`` is (B, T) of tag indices, ``-100`` where no loss is wanted (later pieces, special tokens,
    padding). The head learns with ``lr``, the top layer (if any) with the smaller ``layer_lr``.
    """
    check_type("labels", labels, torch.Tensor)
    check_type("attention_mask", attention_mask, torch.Tensor)
    if labels.shape != hidden.shape[:2] or attention_mask.shape != hidden.shape[:2]:
        raise ValueError(
            f"labels {tuple(labels.shape)} and attention_mask {tuple(attention_mask.shape)} must both be "
            f"(B, T) = {tuple(hidden.shape[:2])}"
        )
    n_tags = model.head.out_features
    kept = labels[labels != IGNORE_INDEX]
    if kept.numel() == 0:
        raise ValueError("labels must have at least one position that is not -100: there is nothing to train on")
    if kept.min() < 0 or kept.max() >= n_tags:
        raise ValueError(
            f"labels must be tag indices in [0, {n_tags}) or -100, got {int(kept.min())}..{int(kept.max())}"
        )
    groups, epochs, batch_size, seed = training_settings(
        model, epochs=epochs, batch_size=batch_size, lr=lr, layer_lr=layer_lr, seed=seed
    )
    labels = labels.long()

    def batch_loss(idx: torch.Tensor) -> torch.Tensor:
        T = int(attention_mask[idx].sum(1).max())  # right padding: later columns are all padding
        logits = model(hidden[idx, :T], attention_mask[idx, :T])
        return nn.functional.cross_entropy(logits.flatten(0, 1), labels[idx, :T].flatten())

    return fit_minibatches(
        model,
        len(labels),
        batch_loss,
        groups=groups,
        epochs=epochs,
        batch_size=batch_size,
        seed=seed,
        progress=progress,
    )


@torch.no_grad()
def predict_tags(
    model: TokenClassifier,
    hidden: torch.Tensor,
    attention_mask: torch.Tensor,
    word_ids: Sequence[Sequence[int | None]],
    n_words: Sequence[int],
    tag_names: Sequence[str],
    *,
    batch_size: int = 64,
) -> list[list[str]]:
    """The predicted tag of every word: the argmax of its first piece's logits, read back per word."""
    if not (len(word_ids) == len(n_words) == len(hidden)):
        raise ValueError(
            f"word_ids ({len(word_ids)}), n_words ({len(n_words)}) and hidden ({len(hidden)}) must describe "
            "the same sentences"
        )
    if len(tag_names) != model.head.out_features:
        raise ValueError(f"tag_names has {len(tag_names)} names but the head predicts {model.head.out_features} tags")
    model.eval()
    best = torch.cat(
        [
            model(hidden[i : i + batch_size], attention_mask[i : i + batch_size]).argmax(-1)
            for i in range(0, len(hidden), batch_size)
        ]
    ).numpy()
    names = np.asarray(tag_names, dtype=object)
    return [word_predictions(w, list(names[b]), n) for w, b, n in zip(word_ids, best, n_words)]


def ner_study(path: Path | None = None) -> pd.DataFrame:
    """The stored seed study of ``benchmarks/bert_ner_study.py``: one row per (model, seed), span P/R/F1 on the test set."""
    path = STUDY_FILE if path is None else Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: run `python -m benchmarks.bert_ner_study 5` to create it")
    data = json.loads(path.read_text())
    frame = pd.DataFrame(data["runs"])
    expected = {"model", "seed", "precision", "recall", "f1", "seconds"}
    if not expected <= set(frame.columns):
        raise ValueError(f"{path} must have runs with the fields {sorted(expected)}, got {sorted(frame.columns)}")
    frame.attrs.update({k: v for k, v in data.items() if k != "runs"})
    return frame
