"""The RNN chapter's GRU-versus-LSTM comparison on the character language model, over several seeds.

Both models are the chapter's: a 128-dimensional tied embedding, one recurrent layer of 128 units,
200 Adam steps of 32 windows of 64 characters (lr 1e-2, clipping at 1) on the first quarter of the
training text of ``char_lm_split()``, scored by per-character perplexity on the first half of the
validation text. Seeds 0..N-1 (plus ``$NLP_SEED_OFFSET``); the CPU time of training is recorded
(one thread). A page has too little time to train both models for several seeds, so this script
writes ``nlp_helpers/rnn/gru_lstm_study.json``, read by :func:`nlp_helpers.rnn.gru_lm.gru_lstm_study`.

Run: ``OMP_NUM_THREADS=1 python -m benchmarks.seed_study_rnn_gru [n_seeds]`` (about 20 s of CPU per seed).
"""

from __future__ import annotations

import json
import sys
import time

import torch

from nlp_helpers.data.splits import char_lm_split, char_vocabulary
from nlp_helpers.rnn.charlm import CharLM, encode, perplexity, train_lm
from nlp_helpers.rnn.gru_lm import GRU_STUDY_FILE, CharGRULM
from nlp_helpers.seeds import manual_seed, seed


def run(n: int) -> list[dict]:
    split = char_lm_split()
    vocab = char_vocabulary(split["train"])
    train_ids = encode(split["train"][: len(split["train"]) // 4], vocab)
    valid_ids = encode(split["valid"][: len(split["valid"]) // 2], vocab)
    rows = []
    for s in range(n):
        for name, cls in [("LSTM", CharLM), ("GRU", CharGRULM)]:
            manual_seed(s)
            model = cls(len(vocab), embedding_dim=128, hidden_size=128, num_layers=1, tie_weights=True)
            start = time.process_time()
            train_lm(model, train_ids, steps=200, batch_size=32, seq_len=64, lr=1e-2, seed=s, progress=False)
            cpu = time.process_time() - start
            rows.append(
                {
                    "model": name,
                    "seed": seed(s),
                    "parameters": sum(p.numel() for p in model.parameters()),
                    "valid_perplexity": perplexity(model, valid_ids),
                    "cpu_seconds": round(cpu, 2),
                }
            )
            print(rows[-1], flush=True)
    return rows


if __name__ == "__main__":
    torch.set_num_threads(1)
    n_seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    GRU_STUDY_FILE.write_text(json.dumps({"runs": run(n_seeds)}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GRU_STUDY_FILE}")
