"""A word-level fill-mask model: MiniLM with its top layers retrained for BERT's masked-LM objective.

all-MiniLM-L6-v2 ships its encoder without the output layer that turns a vector into a
probability for each of its 30,522 WordPieces, and its last layers were trained for
sentence embeddings, not for filling blanks (``nlp_helpers.bert.minilm``). A new head on
the *frozen* encoder learns little. This module therefore retrains the top
:data:`TRAINED_LAYERS` encoder layers together with the standard BERT MLM head
(``transformers.BertForMaskedLM``'s ``cls.predictions``: dense + GELU + LayerNorm, then a
decoder *tied* to the frozen input word embeddings, plus a bias), with BERT's recipe
(``nlp_helpers.bert.mlm.mask_tokens``: 15 % of the tokens, 80/10/10) on the shortened
Wikipedia that gensim ships:

1. split the articles into sentences; the last :data:`HELD_OUT_ARTICLES` articles are held
   out for evaluation (``"test"``) and the :data:`VALID_ARTICLES` before them for deciding when
   to stop (``"valid"``), a fixed data split, not seeded;
2. train with :func:`nlp_helpers.bert.fill_mask_training.train_fill_mask` (``python -m tools.train_mlm`` runs it once): after every
   pass over the training sentences it measures the masked-LM loss on the validation sentences,
   stops once that has not improved for ``patience`` passes, and keeps the best pass;
3. store only what changed, in float16 (:func:`save_delta`), in
   ``nlp_helpers/data/files/bert_mlm/bert_mlm_delta.npz``, with the WordPiece counts of the training
   sentences (the unigram baseline);
4. :func:`load_fill_mask` rebuilds a ``BertForMaskedLM`` from the installed MiniLM plus that
   file in about a second: ``transformers.pipeline("fill-mask", ...)`` works on it.

Left out: pre-training the lower layers (days of TPU time for a real BERT) and whole-word masking.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from nlp_helpers._checks import check_int, check_text, check_type
from nlp_helpers.bert.minilm import check_texts, minilm_path, quiet_loading
from nlp_helpers.bert.mlm import IGNORE_INDEX, mask_tokens
from nlp_helpers.seeds import rng as seeded_rng

__all__ = [
    "HELD_OUT_ARTICLES",
    "VALID_ARTICLES",
    "TRAINED_LAYERS",
    "DELTA_PATH",
    "CARD_PATH",
    "training_card",
    "wikipedia_sentences",
    "trained_parameter_names",
    "new_fill_mask_model",
    "masked_logits",
    "length_batches",
    "wordpiece_counts",
    "save_delta",
    "load_fill_mask",
    "top_fills",
    "topk_accuracy",
    "unigram_topk_accuracy",
]

HELD_OUT_ARTICLES = 10  # the last 10 articles are never trained on: the test sentences
VALID_ARTICLES = 10  # the 10 before them decide when training stops: the validation sentences
TRAINED_LAYERS = 2  # encoder layers 4 and 5 (of 0-5) are retrained; the rest stays as shipped
DELTA_PATH = Path(__file__).resolve().parents[1] / "data" / "files" / "bert_mlm" / "bert_mlm_delta.npz"
CARD_PATH = DELTA_PATH.with_name("bert_mlm_card.json")  # how the stored delta was made (tools/train_mlm.py)


def wikipedia_sentences(split: str = "train", *, min_words: int = 8, max_words: int = 40) -> list[str]:
    """Prose sentences of the shipped Wikipedia (wiki quote marks removed).

    ``split`` is ``"train"`` (all articles but the last ``VALID_ARTICLES + HELD_OUT_ARTICLES``),
    ``"valid"`` (the ``VALID_ARTICLES`` before the last ones) or ``"test"`` (the last ``HELD_OUT_ARTICLES``).
    """
    from nlp_helpers.data.corpora import wikipedia_articles

    if split not in ("train", "valid", "test"):
        raise ValueError(f"split must be 'train', 'valid' or 'test', got {split!r}")
    min_words = check_int("min_words", min_words, minimum=1)
    max_words = check_int("max_words", max_words, minimum=min_words)
    if split == "train":
        chosen = wikipedia_articles()[: -(VALID_ARTICLES + HELD_OUT_ARTICLES)]
    elif split == "valid":
        chosen = wikipedia_articles()[-(VALID_ARTICLES + HELD_OUT_ARTICLES) : -HELD_OUT_ARTICLES]
    else:  # the same articles, cleaning only the last ones unless the whole dump is already in memory
        chosen = (
            wikipedia_articles()[-HELD_OUT_ARTICLES:] if wikipedia_articles.cache_info().currsize else _last_articles()
        )
    out = []
    for _title, text in chosen:
        text = re.sub(r"'{2,}", "", text)
        for s in re.split(r"(?<=[.!?])\s+", text):
            s = " ".join(s.split())
            # whole prose sentences only: no table rows, lists or leftover markup
            if min_words <= len(s.split()) <= max_words and s[0].isupper() and not re.search(r"[|={}\[\]]", s):
                out.append(s)
    return out


def _last_articles() -> list[tuple[str, str]]:
    """``wikipedia_articles()[-HELD_OUT_ARTICLES:]`` without cleaning the whole dump: markup is removed
    from the end backwards until enough articles pass the length rule (the cleaning is most of the cost)."""
    import bz2

    from gensim.corpora.wikicorpus import extract_pages, filter_wiki

    from nlp_helpers.data.corpora import WIKIPEDIA_DUMP, gensim_data_path

    with bz2.open(gensim_data_path(WIKIPEDIA_DUMP), "rb") as fh:
        pages = [(title, text) for title, text, _ in extract_pages(fh, filter_namespaces=("0",))]
    chosen: list[tuple[str, str]] = []
    for title, text in reversed(pages):
        if text.lstrip().lower().startswith("#redirect"):
            continue
        plain = re.sub(r"\n{3,}", "\n\n", filter_wiki(text)).strip()
        if len(plain) > 500:  # the rule of wikipedia_articles
            chosen.append((title, plain))
            if len(chosen) == HELD_OUT_ARTICLES:
                break
    return chosen[::-1]


def trained_parameter_names(model: Any) -> list[str]:
    """Names of the parameters :func:`train_fill_mask` changes (and :func:`save_delta` stores).

    Those of the top :data:`TRAINED_LAYERS` encoder layers and of the head's transform and bias;
    the decoder's weight is the (frozen) word-embedding matrix, so it is not among them.
    """
    if not all(hasattr(model, a) for a in ("bert", "cls", "config", "named_parameters")):
        raise TypeError(f"model must be a transformers BertForMaskedLM, got {type(model).__name__}")
    n_layers = model.config.num_hidden_layers
    prefixes = [f"bert.encoder.layer.{i}." for i in range(n_layers - TRAINED_LAYERS, n_layers)]
    prefixes += ["cls.predictions.transform.", "cls.predictions.bias"]
    return [n for n, _ in model.named_parameters() if any(n.startswith(p) for p in prefixes)]


def new_fill_mask_model() -> tuple[Any, Any]:
    """``(tokenizer, BertForMaskedLM)``: the installed MiniLM encoder with a fresh (untrained) MLM head.

    The decoder is tied to the word embeddings; only the parameters named by the top
    :data:`TRAINED_LAYERS` layers and the head's transform and bias require gradients.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import AutoTokenizer, BertForMaskedLM

    path = minilm_path()
    with quiet_loading():  # "some weights were newly initialised" is expected: the head is new
        tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
        model = BertForMaskedLM.from_pretrained(path, local_files_only=True, attn_implementation="eager")
    trainable = set(trained_parameter_names(model))
    for name, p in model.named_parameters():
        p.requires_grad_(name in trainable)
    model.eval()
    return tokenizer, model


def masked_logits(model: Any, input_ids: torch.Tensor, attention_mask: torch.Tensor, where: torch.Tensor):
    """Logits (N, V) at the N positions where the boolean (B, T) ``where`` is True (the head runs only there)."""
    check_type("input_ids", input_ids, torch.Tensor)
    check_type("where", where, torch.Tensor)
    if where.dtype != torch.bool or where.shape != input_ids.shape:
        raise ValueError(f"where must be a boolean tensor of shape {tuple(input_ids.shape)}")
    hidden = model.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state  # (B, T, d)
    return model.cls(hidden[where])  # (N, V): 30,522 scores only where a prediction is needed


def length_batches(tokenizer: Any, texts: list[str], batch_size: int, max_length: int) -> list[dict[str, np.ndarray]]:
    """Tokenized numpy batches of ``texts`` sorted by length (little padding), in a fixed order."""
    lengths = [len(x) for x in tokenizer(texts, truncation=True, max_length=max_length)["input_ids"]]
    order = np.argsort(lengths, kind="stable")
    return [
        dict(
            tokenizer(
                [texts[i] for i in order[s : s + batch_size]],
                padding=True,
                truncation=True,
                max_length=max_length,
                return_tensors="np",
            )
        )  # fmt: skip
        for s in range(0, len(texts), batch_size)
    ]


def wordpiece_counts(tokenizer: Any, sentences: list[str]) -> np.ndarray:
    """How often each WordPiece id occurs in ``sentences`` (no special tokens), an array of length ``len(tokenizer)``."""
    ids = tokenizer(sentences, add_special_tokens=False)["input_ids"]
    return np.bincount(np.concatenate([np.asarray(x, dtype=np.int64) for x in ids]), minlength=len(tokenizer))


def save_delta(model: Any, tokenizer: Any, sentences: Sequence[str], path: str | Path = DELTA_PATH) -> Path:
    """Store the retrained parameters (float16) and the WordPiece counts of ``sentences`` in an ``.npz`` file."""
    sentences = check_texts("sentences", sentences)
    path = Path(path)
    named = dict(model.named_parameters())
    arrays = {n: named[n].detach().numpy().astype(np.float16) for n in trained_parameter_names(model)}
    counts = wordpiece_counts(tokenizer, sentences)
    nz = np.flatnonzero(counts)
    arrays["unigram_ids"], arrays["unigram_counts"] = nz.astype(np.int32), counts[nz].astype(np.int32)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)
    return path


def training_card(path: str | Path = CARD_PATH) -> dict[str, Any]:
    """The card of the stored fill-mask model: command, seed, passes, loss curves, test top-k, CPU time, machine."""
    check_type("path", path, (str, Path))
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing; train the model with: python -m tools.train_mlm")
    card = json.loads(path.read_text(encoding="utf-8"))
    missing = {"command", "seed", "passes_run", "best_pass", "valid_loss_per_pass", "train_loss_per_step"} - set(card)
    if missing:
        raise ValueError(f"{path} is not a fill-mask training card: it lacks {sorted(missing)}")
    return card


@functools.lru_cache(maxsize=2)
def load_fill_mask(path: str | Path = DELTA_PATH) -> tuple[Any, Any, np.ndarray]:
    """``(tokenizer, BertForMaskedLM, unigram_counts (V,))``: MiniLM plus the stored delta, in eval mode (cached)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing; train it with: python -m tools.train_mlm")
    tokenizer, model = new_fill_mask_model()
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    counts = np.zeros(len(tokenizer), dtype=np.int64)
    counts[arrays.pop("unigram_ids")] = arrays.pop("unigram_counts")
    expected = set(trained_parameter_names(model))
    if set(arrays) != expected:
        raise ValueError(f"{path} does not hold the fill-mask delta: {sorted(set(arrays) ^ expected)[:4]} differ")
    named = dict(model.named_parameters())
    with torch.no_grad():
        for name, value in arrays.items():
            named[name].copy_(torch.from_numpy(value.astype(np.float32)))
    for p in model.parameters():
        p.requires_grad_(False)
    return tokenizer, model, counts


@torch.no_grad()
def top_fills(text: str, k: int = 5, *, path: str | Path = DELTA_PATH) -> list[list[tuple[str, float]]]:
    """For each ``[MASK]`` in ``text``, the ``k`` most probable WordPieces and their probabilities."""
    text = check_text("text", text)
    k = check_int("k", k, minimum=1)
    tokenizer, model, _ = load_fill_mask(path)
    enc = tokenizer(text, return_tensors="pt", truncation=True, max_length=512)
    where = enc["input_ids"] == tokenizer.mask_token_id
    if not where.any():
        raise ValueError(f"text must contain at least one [MASK], got {text!r}")
    top = masked_logits(model, enc["input_ids"], enc["attention_mask"], where).softmax(-1).topk(k, dim=-1)
    return [
        [(tokenizer.convert_ids_to_tokens(int(i)), float(p)) for p, i in zip(ps, ids)]
        for ps, ids in zip(top.values, top.indices)
    ]


@torch.no_grad()
def topk_accuracy(
    texts: Sequence[str],
    seed: int = 0,
    ks: Sequence[int] = (1, 5),
    *,
    batch_size: int = 64,
    path: str | Path = DELTA_PATH,
) -> dict[str, float]:
    """Mask ``texts`` with BERT's recipe (seeded) and score the model: top-k accuracy at the selected positions.

    Also returns the unigram baseline's top-k accuracy on the same positions and ``n`` (positions scored).
    """
    texts = check_texts("texts", texts)
    seed = check_int("seed", seed, minimum=0)
    ks = [check_int("ks item", k, minimum=1) for k in ks]
    tokenizer, model, counts = load_fill_mask(path)
    rng = seeded_rng(seed)
    ranks, targets = [], []
    for enc in length_batches(tokenizer, texts, check_int("batch_size", batch_size, minimum=1), 128):
        inputs, labels = mask_tokens(enc["input_ids"], len(tokenizer), tokenizer.mask_token_id,
                                     tokenizer.all_special_ids, rng)  # fmt: skip
        where = torch.from_numpy(labels != IGNORE_INDEX)
        if not where.any():
            continue
        logits = masked_logits(model, torch.from_numpy(inputs), torch.from_numpy(enc["attention_mask"]), where)
        target = torch.from_numpy(labels)[where]
        ranks.append((logits > logits.gather(1, target[:, None])).sum(1).numpy())  # 0 = the best guess
        targets.append(target.numpy())
    rank, target = np.concatenate(ranks), np.concatenate(targets)
    result = {f"top-{k}": float(np.mean(rank < k)) for k in ks}
    result |= {f"unigram top-{k}": unigram_topk_accuracy(counts, target, k) for k in ks}
    return result | {"n": float(len(target))}


def unigram_topk_accuracy(counts: np.ndarray, targets: np.ndarray, k: int) -> float:
    """Share of ``targets`` among the ``k`` most frequent ids of ``counts`` (ties: smaller id first)."""
    counts, targets = np.asarray(counts), np.asarray(targets)
    if counts.ndim != 1 or counts.dtype.kind not in "iuf" or (counts < 0).any():
        raise ValueError(f"counts must be a 1-d array of non-negative counts, got {counts.dtype} {counts.shape}")
    if targets.size == 0 or targets.dtype.kind not in "iu" or targets.min() < 0 or targets.max() >= len(counts):
        raise ValueError(f"targets must be a non-empty array of ids in [0, {len(counts)})")
    k = check_int("k", k, minimum=1, maximum=len(counts))
    best = np.argsort(-counts, kind="stable")[:k]
    return float(np.isin(targets, best).mean())
