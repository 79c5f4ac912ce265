"""Retrain the top layers of MiniLM with BERT's masked-LM head and store them for the BERT chapter.

``python -m tools.train_mlm [--out PATH] [--epochs N] [--patience P] [--sentences N] [--seed S]``

all-MiniLM-L6-v2 ships without its masked-LM output layer. This script
(``nlp_helpers.bert.fill_mask_training.train_fill_mask``) retrains its last two encoder layers and a
standard BERT MLM head (decoder tied to the frozen word embeddings) with 80/10/10 masking on the
training sentences of the shortened Wikipedia that gensim ships, measures the masked-LM loss on the
validation sentences after every pass and stops when it has not improved for ``--patience`` passes
(at most ``--epochs``), keeping the best pass. It saves the retrained parameters in float16 with the
WordPiece counts of the training sentences to ``nlp_helpers/data/files/bert_mlm/bert_mlm_delta.npz``
(about 7 MB) and a card (``bert_mlm_card.json`` beside it): the command, seed, passes, the validation
curve, the held-out top-k accuracy, CPU time, versions, commit and machine.

Deterministic up to float rounding: the masks and batch order come from ``seeds.rng(seed)``
and the head's initialisation from ``seeds.manual_seed(seed)`` (both add ``$NLP_SEED_OFFSET``).
The card of the shipped file gives its passes and CPU time; ``book/bert/pretraining.ipynb`` only
loads the result.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from nlp_helpers.bert import fill_mask
from nlp_helpers.bert.fill_mask_training import train_fill_mask
from tools.train_checkpoint import git_commit, machine


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.train_mlm", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=fill_mask.DELTA_PATH, help="where to write the .npz file")
    parser.add_argument("--epochs", type=int, default=1, help="at most this many passes (default 1)")
    parser.add_argument("--patience", type=int, default=2, help="stop after this many passes without improvement")
    parser.add_argument("--sentences", type=int, default=0, help="use only the first N training sentences (0: all)")
    parser.add_argument("--valid", type=int, default=0, help="use only the first N validation sentences (0: all)")
    parser.add_argument("--seed", type=int, default=0, help="seed (NLP_SEED_OFFSET is added)")
    parser.add_argument("--no-eval", action="store_true", help="skip the held-out top-k evaluation")
    args = parser.parse_args(argv)
    start, wall = time.process_time(), time.time()
    source = git_commit()
    sentences = fill_mask.wikipedia_sentences("train")
    valid = fill_mask.wikipedia_sentences("valid")
    if args.sentences:
        sentences = sentences[: args.sentences]
    if args.valid:
        valid = valid[: args.valid]
    run = train_fill_mask(sentences, epochs=args.epochs, patience=args.patience, seed=args.seed, valid_sentences=valid)
    path = fill_mask.save_delta(run.model, run.tokenizer, sentences, args.out)
    cpu = time.process_time() - start
    per_pass = np.array_split(np.asarray(run.losses), max(1, len(run.valid_losses) - 1))
    print(f"{len(sentences)} sentences, {len(run.losses)} steps, {len(run.valid_losses) - 1} passes (best {run.best_pass}),"
          f" validation loss {' -> '.join(f'{v:.3f}' for v in run.valid_losses)}, {cpu:.0f} s CPU")  # fmt: skip
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)")
    card = {
        "command": "python -m tools.train_mlm " + " ".join(argv if argv is not None else sys.argv[1:]),
        "seed": args.seed,
        "seed_offset": int(os.environ.get("NLP_SEED_OFFSET", "0") or 0),
        "max_passes": args.epochs,
        "patience": args.patience,
        "passes_run": len(run.valid_losses) - 1,
        "best_pass": run.best_pass,
        "train_sentences": len(sentences),
        "valid_sentences": len(valid),
        "steps": len(run.losses),
        "train_loss_per_pass": [round(float(c.mean()), 4) for c in per_pass if len(c)],
        "train_loss_per_step": [round(float(v), 5) for v in run.losses],
        "valid_loss_per_pass": [round(v, 4) for v in run.valid_losses],
        "cpu_seconds": round(cpu),
        "wall_seconds": round(time.time() - wall),
        **source,
        "machine": machine(),
    }
    if not args.no_eval:
        card["test"] = fill_mask.topk_accuracy(fill_mask.wikipedia_sentences("test")[:500], seed=0, path=path)
        print(card["test"])
    (path.parent / fill_mask.CARD_PATH.name).write_text(json.dumps(card, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
