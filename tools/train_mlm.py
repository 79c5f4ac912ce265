"""Retrain the top layers of MiniLM with BERT's masked-LM head and store them for the BERT chapter.

``python -m tools.train_mlm [--out PATH] [--epochs N] [--sentences N] [--seed S]``

all-MiniLM-L6-v2 ships without its masked-LM output layer. This script
(``nlp_helpers.bert.fill_mask.train_fill_mask``) retrains its last two encoder layers and a
standard BERT MLM head (decoder tied to the frozen word embeddings) with 80/10/10 masking
on the training sentences of the shortened Wikipedia that gensim ships (all but the last 10
articles), then saves the retrained parameters in float16 with the WordPiece counts of the
training sentences to ``nlp_helpers/data/files/bert_mlm/bert_mlm_delta.npz`` (about 7 MB).

Deterministic up to float rounding: the masks and batch order come from ``seeds.rng(seed)``
and the head's initialisation from ``seeds.manual_seed(seed)`` (both add ``$NLP_SEED_OFFSET``;
the shipped file was made with ``--epochs 3`` and offset 0). Three epochs took 819 s of CPU time (one core,
``OMP_NUM_THREADS=1``) and write a 6.9 MB file; ``book/bert/pretraining.ipynb`` only loads the result.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from nlp_helpers.bert import fill_mask


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.train_mlm", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=fill_mask.DELTA_PATH, help="where to write the .npz file")
    parser.add_argument("--epochs", type=int, default=1, help="passes over the training sentences (default 1)")
    parser.add_argument("--sentences", type=int, default=0, help="use only the first N sentences (0: all)")
    parser.add_argument("--seed", type=int, default=0, help="seed (NLP_SEED_OFFSET is added)")
    parser.add_argument("--no-eval", action="store_true", help="skip the held-out evaluation")
    args = parser.parse_args(argv)
    start = time.process_time()
    sentences = fill_mask.wikipedia_sentences("train")
    if args.sentences:
        sentences = sentences[: args.sentences]
    tokenizer, model, losses = fill_mask.train_fill_mask(sentences, epochs=args.epochs, seed=args.seed)
    path = fill_mask.save_delta(model, tokenizer, sentences, args.out)
    n = len(losses) // 10 or 1
    print(f"{len(sentences)} sentences, {len(losses)} steps, loss {sum(losses[:n]) / n:.2f} -> "
          f"{sum(losses[-n:]) / n:.2f}, {time.process_time() - start:.0f} s CPU")  # fmt: skip
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)")
    if not args.no_eval:
        print(fill_mask.topk_accuracy(fill_mask.wikipedia_sentences("test")[:500], seed=0, path=path))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
