"""A word-level masked language model: BERT's MLM head on top of the frozen MiniLM encoder.

all-MiniLM-L6-v2 ships its encoder without the output layer that turns a vector into
a probability for each of the 30,522 WordPieces (``nlp_helpers.bert.minilm``). This
module gives it one back, trained with BERT's own objective (Devlin et al., 2019,
section 3.1; ``nlp_helpers.bert.mlm``) on the shortened Wikipedia that gensim ships:

1. split the articles into sentences; the last :data:`HELD_OUT_ARTICLES` articles are
   held out for evaluation (a fixed data split, not seeded);
2. corrupt 15 % of the WordPieces of each training sentence (80/10/10), run the
   frozen encoder once, and keep the last-layer vectors at the selected positions;
3. train the head of ``transformers.BertForMaskedLM`` (:class:`MaskedLMHead`:
   dense + GELU + LayerNorm, then a decoder *tied* to the encoder's input word
   embeddings, plus a bias) with the cross-entropy at those positions.

The head is small (about 180,000 trainable numbers), so training takes about a minute
on one CPU core; :func:`prepare` stores it in a cache folder (``$NLP_BOOK_CACHE/bert_mlm``
or ``~/.cache/nlp-step-by-step/bert_mlm``, like the SmolLM2 cache) together with the
WordPiece counts of the training sentences (the unigram baseline). ``python -m
tools.train_bert_mlm`` runs it once; :func:`load_head` trains it if the cache is missing.

Left out: training the encoder itself (a real BERT pre-training run takes days on TPUs)
and whole-word masking.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch
from torch import nn

from nlp_helpers._checks import check_array, check_int, check_text, check_type
from nlp_helpers.bert.minilm import check_texts, load_minilm
from nlp_helpers.bert.mlm import IGNORE_INDEX, mask_tokens
from nlp_helpers.display import hide_progress
from nlp_helpers.seeds import manual_seed
from nlp_helpers.seeds import rng as seeded_rng

__all__ = [
    "HELD_OUT_ARTICLES",
    "wikipedia_sentences",
    "MaskedLMHead",
    "masked_features",
    "train_head",
    "top_fills",
    "cache_dir",
    "prepare",
    "load_head",
]

HELD_OUT_ARTICLES = 10  # the last 10 of the 105 articles are never trained on
_MARKER = "head.json"  # written last: its presence means the cache is complete


def wikipedia_sentences(split: str = "train", *, min_words: int = 8, max_words: int = 40) -> list[str]:
    """Sentences of the shipped Wikipedia, without wiki quote marks: ``split`` is ``"train"`` or ``"test"``."""
    from nlp_helpers.data.corpora import wikipedia_articles

    if split not in ("train", "test"):
        raise ValueError(f"split must be 'train' or 'test', got {split!r}")
    min_words = check_int("min_words", min_words, minimum=1)
    max_words = check_int("max_words", max_words, minimum=min_words)
    articles = wikipedia_articles()
    chosen = articles[:-HELD_OUT_ARTICLES] if split == "train" else articles[-HELD_OUT_ARTICLES:]
    out = []
    for _title, text in chosen:
        text = re.sub(r"'{2,}", "", text)
        for s in re.split(r"(?<=[.!?])\s+", text):
            s = " ".join(s.split())
            # whole prose sentences only: no table rows, lists or leftover markup
            if min_words <= len(s.split()) <= max_words and s[0].isupper() and not re.search(r"[|={}\[\]]", s):
                out.append(s)
    return out


class MaskedLMHead(nn.Module):
    """BERT's MLM head: ``h -> LayerNorm(GELU(h W + b)) E^T + bias`` with ``E`` the frozen word embeddings.

    Shapes: hidden (..., d_model) -> logits (..., vocab_size). Same layout as ``cls.predictions`` of
    ``transformers.BertForMaskedLM``, so its weights can be copied there.
    """

    def __init__(self, word_embeddings: torch.Tensor, eps: float = 1e-12) -> None:
        super().__init__()
        check_type("word_embeddings", word_embeddings, torch.Tensor)
        if word_embeddings.ndim != 2:
            raise ValueError(f"word_embeddings must be (vocab_size, d_model), got {tuple(word_embeddings.shape)}")
        V, d = word_embeddings.shape
        self.dense = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d, eps=eps)
        self.register_buffer("embeddings", word_embeddings.detach().clone())  # tied and frozen
        self.bias = nn.Parameter(torch.zeros(V))

    def forward(self, hidden: torch.Tensor) -> torch.Tensor:
        check_type("hidden", hidden, torch.Tensor)
        if hidden.shape[-1] != self.embeddings.shape[1]:
            raise ValueError(f"hidden must end in d_model={self.embeddings.shape[1]}, got {tuple(hidden.shape)}")
        h = self.norm(nn.functional.gelu(self.dense(hidden)))
        return h @ self.embeddings.T + self.bias  # (..., V)


def masked_features(
    texts: Sequence[str], seed: int = 0, *, max_length: int = 64, batch_size: int = 64
) -> tuple[np.ndarray, np.ndarray]:
    """Corrupt ``texts`` with BERT's recipe, run the frozen encoder; return (features (N, d), labels (N,)).

    One row per selected position: its last-layer vector and the original WordPiece id.
    """
    texts = check_texts("texts", texts)
    seed = check_int("seed", seed, minimum=0)
    max_length = check_int("max_length", max_length, minimum=3, maximum=512)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    tokenizer, model = load_minilm()
    rng = seeded_rng(seed)
    order = np.argsort([len(t) for t in texts], kind="stable")  # similar lengths per batch: little padding
    feats, labels = [], []
    for start in range(0, len(order), batch_size):
        enc = tokenizer([texts[i] for i in order[start : start + batch_size]], padding=True, truncation=True,
                        max_length=max_length, return_tensors="np")  # fmt: skip
        ids, lab = mask_tokens(enc["input_ids"], len(tokenizer), tokenizer.mask_token_id,
                               tokenizer.all_special_ids, rng)  # fmt: skip
        with torch.no_grad():
            out = model(input_ids=torch.from_numpy(ids), attention_mask=torch.from_numpy(enc["attention_mask"]))
        sel = lab != IGNORE_INDEX
        feats.append(out.last_hidden_state.numpy()[sel])
        labels.append(lab[sel])
    return np.concatenate(feats).astype(np.float32), np.concatenate(labels).astype(np.int64)


def train_head(
    features: np.ndarray,
    labels: np.ndarray,
    *,
    epochs: int = 4,
    batch_size: int = 256,
    lr: float = 2e-3,
    seed: int = 0,
    progress: bool = True,
) -> tuple[MaskedLMHead, list[float]]:
    """Train a :class:`MaskedLMHead` on (N, d) features and (N,) WordPiece labels; return it and its losses."""
    from tqdm.auto import tqdm

    X = check_array("features", features, ndim=2)
    y = np.asarray(labels)
    if y.shape != (len(X),) or y.dtype.kind not in "iu":
        raise ValueError(f"labels must be {len(X)} integer token ids, got {y.dtype} {y.shape}")
    epochs = check_int("epochs", epochs, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    _, model = load_minilm()
    manual_seed(seed)
    head = MaskedLMHead(model.embeddings.word_embeddings.weight)
    # start from the unigram distribution: the bias alone is then the baseline's log-probabilities
    counts = np.bincount(y, minlength=head.bias.numel()) + 0.1
    with torch.no_grad():
        head.bias.copy_(torch.from_numpy(np.log(counts / counts.sum())).float())
    opt = torch.optim.AdamW(head.parameters(), lr=lr, weight_decay=0.01)
    rng = seeded_rng(seed)
    Xt, yt = torch.from_numpy(X.astype(np.float32)), torch.from_numpy(y.astype(np.int64))
    losses = []
    steps = epochs * -(-len(X) // batch_size)
    for _ in tqdm(range(epochs), desc="MLM head", disable=not progress or hide_progress()):
        for batch in np.array_split(rng.permutation(len(X)), -(-len(X) // batch_size)):
            loss = nn.functional.cross_entropy(head(Xt[batch]), yt[batch])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
    assert len(losses) == steps
    head.eval()
    return head, losses


@torch.no_grad()
def top_fills(text: str, head: MaskedLMHead, k: int = 5) -> list[list[tuple[str, float]]]:
    """For each ``[MASK]`` in ``text``, the ``k`` most probable WordPieces and their probabilities."""
    text = check_text("text", text)
    check_type("head", head, MaskedLMHead)
    k = check_int("k", k, minimum=1)
    tokenizer, model = load_minilm()
    enc = tokenizer(text, return_tensors="pt")
    where = (enc["input_ids"][0] == tokenizer.mask_token_id).nonzero()[:, 0]
    if not len(where):
        raise ValueError(f"text must contain at least one [MASK], got {text!r}")
    probs = head(model(**enc).last_hidden_state[0, where]).softmax(-1)  # (n_masks, V)
    top = probs.topk(k, dim=-1)
    return [
        [(tokenizer.convert_ids_to_tokens(int(i)), float(p)) for p, i in zip(ps, ids)]
        for ps, ids in zip(top.values, top.indices)
    ]


def cache_dir() -> Path:
    """``$NLP_BOOK_CACHE/bert_mlm`` or ``~/.cache/nlp-step-by-step/bert_mlm``."""
    root = os.environ.get("NLP_BOOK_CACHE")
    base = Path(root).expanduser() if root else Path.home() / ".cache" / "nlp-step-by-step"
    return base / "bert_mlm"


def prepare(folder: str | Path | None = None, *, n_sentences: int = 4000, seed: int = 0, force: bool = False) -> Path:
    """Train the head on ``n_sentences`` training sentences and store it (and WordPiece counts) in ``folder``."""
    folder = cache_dir() if folder is None else Path(folder)
    n_sentences = check_int("n_sentences", n_sentences, minimum=10)
    if (folder / _MARKER).is_file() and not force:
        return folder
    tokenizer, _ = load_minilm()
    sentences = wikipedia_sentences("train")
    picked = seeded_rng(seed).permutation(len(sentences))[:n_sentences]
    chosen = [sentences[i] for i in sorted(picked)]
    features, labels = masked_features(chosen, seed)
    head, losses = train_head(features, labels, seed=seed)
    ids = tokenizer(sentences, add_special_tokens=False)["input_ids"]
    counts = np.bincount(np.concatenate([np.asarray(x, dtype=np.int64) for x in ids]), minlength=len(tokenizer))
    folder.mkdir(parents=True, exist_ok=True)
    state = {k: v for k, v in head.state_dict().items() if k != "embeddings"}
    torch.save(state, folder / "head.pt")
    np.save(folder / "unigram_counts.npy", counts)
    info = {"n_sentences": len(chosen), "n_positions": len(labels), "seed": seed, "final_loss": losses[-1]}
    (folder / _MARKER).write_text(json.dumps(info))
    return folder


def load_head(folder: str | Path | None = None) -> tuple[MaskedLMHead, np.ndarray, dict]:
    """``(head, unigram_counts (V,), info)`` from the cache; trains and stores them first if it is missing."""
    folder = prepare(folder)
    _, model = load_minilm()
    head = MaskedLMHead(model.embeddings.word_embeddings.weight)
    missing, unexpected = head.load_state_dict(torch.load(folder / "head.pt", weights_only=True), strict=False)
    if missing != ["embeddings"] or unexpected:  # the tied embeddings come from the encoder, nothing else may
        raise ValueError(f"{folder / 'head.pt'} does not hold an MLM head: missing {missing}, unexpected {unexpected}")
    head.eval()
    return head, np.load(folder / "unigram_counts.npy"), json.loads((folder / _MARKER).read_text())
