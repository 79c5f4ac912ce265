"""Train the BERT chapter's masked-LM head once and store it in the cache folder.

``python -m tools.train_bert_mlm [--dir DIR] [--force] [--sentences N]``

all-MiniLM-L6-v2 ships without its masked-LM output layer; this script trains one on the
frozen encoder (``nlp_helpers.bert.fill_mask``) over sentences of the shortened Wikipedia that
gensim ships, and saves it to ``$NLP_BOOK_CACHE/bert_mlm`` (default
``~/.cache/nlp-step-by-step/bert_mlm``). About two minutes of one CPU core; the chapter
``book/bert.ipynb`` loads the result (and runs this training itself if the cache is missing).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from nlp_helpers.bert import fill_mask


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.train_bert_mlm", description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=None, help=f"cache folder (default: {fill_mask.cache_dir()})")
    parser.add_argument("--force", action="store_true", help="train again even if the cache is complete")
    parser.add_argument("--sentences", type=int, default=4000, help="training sentences (default 4000)")
    parser.add_argument("--seed", type=int, default=0, help="seed (NLP_SEED_OFFSET is added)")
    args = parser.parse_args(argv)
    start = time.process_time()
    folder = fill_mask.prepare(args.dir, n_sentences=args.sentences, seed=args.seed, force=args.force)
    print(f"MLM head in {folder} ({time.process_time() - start:.0f} s CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
