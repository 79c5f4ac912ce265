"""The RNN chapter's GRU-versus-LSTM comparison on the character language model, over several seeds.

Three models, all the chapter's character LM (tied embedding, one recurrent layer, output bias),
trained alike: 200 Adam steps of 32 windows of 64 characters (lr 1e-2, clipping at 1) on the first
quarter of the training text of ``char_lm_split()``, scored on the first half of the validation text
(every character after the first, the state carried across the text):

* ``LSTM, 128 units``: the chapter's model;
* ``GRU, 128 units``: the same hidden size (three gate blocks instead of four, so fewer parameters);
* ``GRU, 147 units``: the same number of parameters as the LSTM (to within 0.1 %), which
  separates "which cell" from "how many parameters".

Seeds 0..N-1 (plus ``$NLP_SEED_OFFSET``); seed 0 of the LSTM is the run on the chapter's page. The CPU
time of training is recorded (one thread; it depends on the machine and its load). A page has too
little time to train all three for several seeds, so this script writes
``nlp_helpers/rnn/gru_lstm_study.json``, read by :func:`nlp_helpers.rnn.gru_lm.gru_lstm_study`
(give another path as the second argument to write elsewhere, e.g. to compare kernels).

Run: ``OMP_NUM_THREADS=1 python -m benchmarks.seed_study_rnn_gru [n_seeds] [out.json]``
(about 30 s of CPU per seed on an idle laptop core).
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from pathlib import Path

import torch

from nlp_helpers.data.splits import char_lm_split, char_vocabulary
from nlp_helpers.rnn.charlm import CharLM, char_logprobs, encode, train_lm
from nlp_helpers.rnn.gru_lm import GRU_STUDY_FILE, CharGRULM
from nlp_helpers.seeds import manual_seed, seed

CONFIGS = [("LSTM, 128 units", CharLM, 128), ("GRU, 128 units", CharGRULM, 128), ("GRU, 147 units", CharGRULM, 147)]


def run(seeds: list[int], models: list[str] | None = None) -> list[dict]:
    """Train and score the models named in ``models`` (default: all of ``CONFIGS``) for each seed number."""
    split = char_lm_split()
    vocab = char_vocabulary(split["train"])
    train_ids = encode(split["train"][: len(split["train"]) // 4], vocab)
    valid_ids = encode(split["valid"][: len(split["valid"]) // 2], vocab)
    rows = []
    for s in seeds:
        for name, cls, size in CONFIGS:
            if models is not None and name not in models:
                continue
            manual_seed(s)
            model = cls(len(vocab), embedding_dim=size, hidden_size=size, num_layers=1, tie_weights=True)
            start = time.process_time()
            train_lm(model, train_ids, steps=200, batch_size=32, seq_len=64, lr=1e-2, seed=s, progress=False)
            cpu = time.process_time() - start
            nats = float(-char_logprobs(model, valid_ids).mean())
            rows.append(
                {
                    "model": name,
                    "seed": seed(s),
                    "parameters": sum(p.numel() for p in model.parameters()),
                    "valid_bits_per_char": nats / math.log(2),
                    "valid_perplexity": math.exp(nats),
                    "cpu_seconds": round(cpu, 2),
                }
            )
            print(rows[-1], flush=True)
    return rows


if __name__ == "__main__":
    torch.set_num_threads(1)
    n_seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else GRU_STUDY_FILE
    about = __doc__.split("\n\n")[0]
    kernels = os.environ.get("ATEN_CPU_CAPABILITY", "native")
    runs = run(list(range(n_seeds)))
    out.write_text(json.dumps({"about": about, "kernels": kernels, "runs": runs}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")
