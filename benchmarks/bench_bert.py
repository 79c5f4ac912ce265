"""The BERT chapter's helpers against their references: agreement and time, on the same inputs.

Rows:

* ``wordpiece.wordpiece_tokenize`` (pure Python) vs the model's Rust ``tokenizers`` pipeline and
  vs Hugging Face's pure-Python ``BertTokenizerLegacy``, on every sentence of the Lee corpora;
  target: identical tokens, within 5x the Python reference's time (Rust is far faster; ours is
  for teaching).
* ``bert.sentence_embeddings`` vs ``sentence_transformers.SentenceTransformer.encode`` (if
  installed) on the 50 Lee documents; target: max |diff| <= 1e-5, within 1.5x its time.

Run: ``python -m benchmarks.bench_bert``.
"""

from __future__ import annotations

import re

import numpy as np

from benchmarks.timing import best_of
from nlp_helpers.bert import minilm as bert
from nlp_helpers.bert.wordpiece import load_vocab, wordpiece_tokenize
from nlp_helpers.data.corpora import lee_background, lee_documents


def _best(fn, repeat: int = 3) -> float:
    return best_of(fn, repeat)[1]


def _wordpiece_rows() -> list[dict]:
    from tokenizers import Tokenizer
    from transformers.models.bert import BertTokenizerLegacy

    path = bert.minilm_path()
    vocab = load_vocab(path / "vocab.txt")
    rust = Tokenizer.from_file(str(path / "tokenizer.json"))
    rust.no_padding()
    rust.no_truncation()
    legacy = BertTokenizerLegacy.from_pretrained(path, local_files_only=True)
    texts = [s for d in lee_background() + lee_documents() for s in re.split(r"(?<=[.!?])\s+", d) if s]
    ours = [wordpiece_tokenize(t, vocab) for t in texts]
    t_ours = _best(lambda: [wordpiece_tokenize(t, vocab) for t in texts])
    rows = []
    for name, tokenize, slower in [
        ("tokenizers (Rust, tokenizer.json)", lambda t: rust.encode(t, add_special_tokens=False).tokens, None),
        ("transformers BertTokenizerLegacy (Python)", legacy.tokenize, 5.0),
    ]:
        agree = sum(o == tokenize(t) for o, t in zip(ours, texts))
        t_ref = _best(lambda: [tokenize(t) for t in texts])
        met = agree == len(texts) and (slower is None or t_ours <= slower * t_ref)
        rows.append(
            {
                "helper": "wordpiece.wordpiece_tokenize",
                "reference": name,
                "agreement": f"{agree}/{len(texts)} sentences identical",
                "ours_s": t_ours,
                "reference_s": t_ref,
                "target": "identical" + ("" if slower is None else f", time <= {slower:g}x"),
                "met": met,
                "note": f"{sum(map(len, ours)):,} tokens from the Lee corpora",
            }
        )
    return rows


def _sentence_embedding_row() -> list[dict]:
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        return []
    docs = list(lee_documents())
    reference = SentenceTransformer(str(bert.minilm_path()), device="cpu", local_files_only=True)
    ours = bert.sentence_embeddings(docs)
    ref = reference.encode(docs, batch_size=32, convert_to_numpy=True)
    diff = float(np.abs(ours - ref).max())
    t_ours = _best(lambda: bert.sentence_embeddings(docs), repeat=2)
    t_ref = _best(lambda: reference.encode(docs, batch_size=32), repeat=2)
    return [
        {
            "helper": "bert.sentence_embeddings",
            "reference": "sentence_transformers.SentenceTransformer.encode",
            "agreement": f"max |diff| {diff:.1e}",
            "ours_s": t_ours,
            "reference_s": t_ref,
            "target": "|diff| <= 1e-5, time <= 1.5x",
            "met": diff <= 1e-5 and t_ours <= 1.5 * t_ref,
            "note": "50 Lee documents, up to 256 tokens, mean pooling + L2 normalisation",
        }
    ]


def run() -> list[dict]:
    return _wordpiece_rows() + _sentence_embedding_row()


if __name__ == "__main__":
    for row in run():
        print(row)
