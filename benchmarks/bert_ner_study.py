"""The fine-tuning chapter's token-classification study: MiniLM heads on the tagging chapter's NER data.

The tagging chapter trains its taggers on the Universal NER English EWT *dev* split (2,001 sentences;
the train split is not shipped) and scores entity spans on the test split (2,077 sentences). This
script does the same with all-MiniLM-L6-v2: the encoder runs once on both splits (words split by the
treebank, labels on the first WordPiece of each word), then for seeds 0..N-1 (plus
``$NLP_SEED_OFFSET``) it trains a linear head on every token's frozen last-layer vector (3 epochs,
batches of 16, AdamW, lr 5e-3) and scores it with span precision, recall and F1
(``nlp_helpers.tagging.spans.span_f1``, the rules of conlleval and seqeval). Encoding the 4,078
sentences is most of the work; each seed then takes seconds. A page has 45 s, so the table is stored.

``SETTINGS`` also has the head with a fine-tuned copy of the top layer (as the chapter does for
sentences); it costs a few minutes of CPU per seed, so it runs only when named:
``python -m benchmarks.bert_ner_study 5 cache.pt tuned``.

It writes ``nlp_helpers/data/files/bert_ner_study.json``, which the chapter reads with
:func:`nlp_helpers.finetuning.token_labels.ner_study`.

Run: ``python -m benchmarks.bert_ner_study [n_seeds] [cache file] [tuned]`` (the cache keeps the
encoded sets for a rerun).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pandas as pd
import torch

from nlp_helpers.bert.minilm import load_minilm
from nlp_helpers.data.ud import uner_sentences
from nlp_helpers.finetuning.token_labels import (
    IGNORE_INDEX,
    STUDY_FILE,
    TokenClassifier,
    first_subword_labels,
    predict_tags,
    token_features,
    train_token_classifier,
)
from nlp_helpers.seeds import seed
from nlp_helpers.tagging.spans import span_f1

TAGS = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC"]
SETTINGS = {
    "MiniLM frozen + token head": {"top": False, "lr": 5e-3},
    "MiniLM top layer fine-tuned": {"top": True, "lr": 1e-3, "layer_lr": 1e-4},
}


def prepare(split: str) -> dict:
    sents = uner_sentences(split)
    feats = token_features([[w for w, _ in s] for s in sents])
    tag_id = {t: i for i, t in enumerate(TAGS)}
    labels = [
        [IGNORE_INDEX if x == IGNORE_INDEX else tag_id[x] for x in first_subword_labels(w, [t for _, t in s])]
        for w, s in zip(feats["word_ids"], sents)
    ]
    feats["labels"] = torch.tensor(labels)
    feats["gold"] = [[t for _, t in s] for s in sents]
    return feats


def run(n: int, name: str, train: dict, test: dict) -> dict:
    _, model = load_minilm()
    cfg = SETTINGS[name]
    start = time.perf_counter()
    clf = TokenClassifier(384, len(TAGS), model.encoder.layer[-1] if cfg["top"] else None)
    key = "penultimate" if cfg["top"] else "last"
    train_token_classifier(
        clf,
        train[key],
        train["attention_mask"],
        train["labels"],
        epochs=3,
        lr=cfg["lr"],
        layer_lr=cfg.get("layer_lr", 1e-4),
        seed=n,
        progress=False,
    )
    pred = predict_tags(clf, test[key], test["attention_mask"], test["word_ids"], [len(g) for g in test["gold"]], TAGS)
    s = span_f1(test["gold"], pred)
    row = {
        "model": name,
        "seed": seed(n),
        "precision": s.precision,
        "recall": s.recall,
        "f1": s.f1,
        "seconds": round(time.perf_counter() - start, 1),
    }
    print(row, flush=True)
    return row


def _write(rows: list[dict], train: dict, test: dict, encode_seconds: float) -> None:
    about = __doc__.split("\n\n")[0]
    STUDY_FILE.write_text(
        json.dumps(
            {
                "about": about,
                "train": "dev",
                "n_train": len(train["gold"]),
                "test": "test",
                "n_test": len(test["gold"]),
                "encode_seconds": encode_seconds,
                "torch": torch.__version__,
                "runs": rows,
            },
            indent=1,
        )
        + "\n"
    )


def main(n_seeds: int = 5, cache: str | None = None, tuned: bool = False) -> None:
    """Encode once (or load ``cache``, a ``torch.save`` file written on the first run), then train every seed.

    The file is rewritten after every run, so an interrupted study keeps what it has measured.
    """
    start = time.perf_counter()
    if cache and Path(cache).is_file():
        train, test, encode_seconds = torch.load(cache, weights_only=True)
    else:
        train, test = prepare("dev"), prepare("test")
        encode_seconds = round(time.perf_counter() - start, 1)
        if cache:
            torch.save((train, test, encode_seconds), cache)
    print(f"encoded both splits in {encode_seconds} s", flush=True)
    rows: list[dict] = []
    for name in list(SETTINGS)[: 2 if tuned else 1]:  # every seed of the cheap model first
        for n in range(n_seeds):
            rows.append(run(n, name, train, test))
            _write(rows, train, test, encode_seconds)
    print(pd.DataFrame(rows).groupby("model")[["precision", "recall", "f1", "seconds"]].agg(["mean", "std"]).T)


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 5,
        sys.argv[2] if len(sys.argv) > 2 else None,
        tuned=sys.argv[3:4] == ["tuned"],
    )
