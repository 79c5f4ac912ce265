"""Character language models over several seeds: the LLM chapter's bits-per-character table.

The LLM chapter trains its TinyGPT once (a notebook has a time budget); this script repeats
that training with seeds 0..N-1 (plus ``$NLP_SEED_OFFSET``, see ``nlp_helpers.seeds``) and
trains the RNN chapter's LSTM language model with the same seeds, so the chapter can report
mean ± sd and compare like with like. Every model reads the same text: the first quarter of
``char_lm_split()["train"]`` (as in the RNN chapter), the 84-character alphabet of the whole
training text, and is scored on every character after the first of ``char_lm_split()["valid"]``.

* TinyGPT (``nlp_helpers.llm.gpt``): 2 layers, 4 heads, d_model = 64, context 64,
  500 AdamW steps of 16 windows, learning rate 3e-3; scored with sliding windows, stride 32
  (``nlp_helpers.llm.bpc.char_logprobs``). The chapter's settings.
* LSTM (``nlp_helpers.rnn.charlm.CharLM``): 128 units, tied embedding, 200 Adam steps of
  32 windows of 64 characters, learning rate 1e-2; scored by ``char_logprobs`` of that module.
  The RNN chapter's settings.
* Kneser-Ney 3-, 5- and 7-gram models (``nlp_helpers.ngram.models.NGramLM``) fitted on the same
  quarter: deterministic, ``seed`` = -1.

It appends rows ``model, seed, bpc, cpu_s, kernel`` (``kernel`` = ``$ATEN_CPU_CAPABILITY`` or
``native``) to ``nlp_helpers/data/files/tinygpt_seed_study.csv``, which the chapter reads with
``nlp_helpers.llm.bpc.seed_study()``; rows of the same kernel are replaced.

Run: ``python -m benchmarks.seed_study_tinygpt [n_seeds]`` (about 30 s of CPU per seed), and again
with ``ATEN_CPU_CAPABILITY=default`` for the other kernel path.
"""

from __future__ import annotations

import math
import os
import sys
import time

import numpy as np
import pandas as pd
import torch

from nlp_helpers.data.splits import char_lm_split, char_vocabulary
from nlp_helpers.llm.bpc import SEED_STUDY_FILE, bits_per_character
from nlp_helpers.llm.gpt import CharTokenizer, TinyGPT, TinyGPTConfig, train
from nlp_helpers.ngram.models import NGramLM
from nlp_helpers.rnn.charlm import CharLM, encode, train_lm
from nlp_helpers.rnn.charlm import char_logprobs as lstm_logprobs
from nlp_helpers.seeds import manual_seed, seed

TINYGPT = {"block_size": 64, "n_layers": 2, "n_heads": 4, "d_model": 64}
TINYGPT_TRAIN = {"steps": 500, "batch_size": 16, "lr": 3e-3}
LSTM_TRAIN = {"steps": 200, "batch_size": 32, "seq_len": 64, "lr": 1e-2}


def data() -> tuple[str, str, list[str]]:
    """The RNN chapter's texts: a quarter of the training split, the validation split, the alphabet."""
    split = char_lm_split()
    vocab = char_vocabulary(split["train"])
    return split["train"][: len(split["train"]) // 4], split["valid"], vocab


def tinygpt_bpc(n: int, train_text: str, valid_text: str, vocab: list[str]) -> float:
    chars = CharTokenizer(vocab)
    train_ids = torch.from_numpy(chars.encode_array(train_text))
    valid_ids = torch.from_numpy(chars.encode_array(valid_text))
    manual_seed(n)
    model = TinyGPT(TinyGPTConfig(vocab_size=len(vocab), **TINYGPT))
    train(model, train_ids, valid_ids, eval_every=TINYGPT_TRAIN["steps"], seed=n, progress=False, **TINYGPT_TRAIN)
    return bits_per_character(model, valid_ids, stride=32)


def lstm_bpc(n: int, train_text: str, valid_text: str, vocab: list[str]) -> float:
    manual_seed(n)
    lm = CharLM(len(vocab), embedding_dim=128, hidden_size=128, num_layers=1, tie_weights=True)
    train_lm(lm, encode(train_text, vocab), seed=n, progress=False, **LSTM_TRAIN)
    return float(-lstm_logprobs(lm, encode(valid_text, vocab)).mean() / math.log(2))


def run(n_seeds: int = 5) -> pd.DataFrame:
    torch.set_num_threads(1)
    train_text, valid_text, vocab = data()
    kernel = os.environ.get("ATEN_CPU_CAPABILITY", "native") or "native"
    rows = []
    for order in (3, 5, 7):
        start = time.process_time()
        lm = NGramLM(order, "kneser_ney").fit([list(train_text)], vocabulary=vocab)
        bits = lm.token_logprobs([list(valid_text)])[1:-1]  # log2 P; drop character 0 and </s>
        rows.append({"model": f"Kneser-Ney {order}-gram", "seed": -1, "bpc": float(-bits.mean())})
        rows[-1]["cpu_s"] = time.process_time() - start
    for n in range(n_seeds):
        for name, fn in (("TinyGPT", tinygpt_bpc), ("LSTM", lstm_bpc)):
            start = time.process_time()
            bpc = fn(n, train_text, valid_text, vocab)
            rows.append({"model": name, "seed": seed(n), "bpc": bpc, "cpu_s": time.process_time() - start})
            print(rows[-1], flush=True)
    new = pd.DataFrame(rows).assign(kernel=kernel)
    if SEED_STUDY_FILE.exists():
        old = pd.read_csv(SEED_STUDY_FILE)
        new = pd.concat([old[old.kernel != kernel], new], ignore_index=True)
    new.to_csv(SEED_STUDY_FILE, index=False, float_format="%.5f")
    return new


if __name__ == "__main__":
    table = run(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
    print(table.groupby(["model", "kernel"]).bpc.agg(["mean", "std", "min", "max", "count"]).round(4))
    print(np.round(table.groupby("model").cpu_s.mean(), 1))
