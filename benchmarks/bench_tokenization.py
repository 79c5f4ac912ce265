"""Benchmarks of the subword-tokenization chapter's helpers against reference implementations.

Rows (see CONTRIBUTING.md, "Benchmarks"):

1. ``BPE.train`` (incremental pair counts + lazy heap) vs the straightforward algorithm that
   re-counts every pair after every merge (``train_merges_naive``), same corpus, same merges.
   Target: ours at least 5x faster.
2. ``BPE.train`` vs Hugging Face ``tokenizers``' ``BpeTrainer`` (Rust) on the same pre-tokenized
   corpus. Target: identical merge lists (speed is reported, not targeted).
3. ``BPE.encode`` vs Hugging Face's ``BPE`` model loaded with our merges. Target: identical tokens.

The edit-distance row is the words chapter's (``benchmarks/bench_words.py``).

Run: ``python -m benchmarks.bench_tokenization``.
"""

from __future__ import annotations

import json
from collections import Counter

from benchmarks.timing import agreement, timed
from nlp_helpers.data.corpora import lee_background  # noqa: E402
from nlp_helpers.tokenization.bpe import BPE, pretokenize, train_merges_naive  # noqa: E402


def bench_bpe_vs_naive(docs: list[str], num_merges: int) -> dict:
    ours, t_ours = timed(BPE.train, docs, num_merges)

    def naive():
        return train_merges_naive(Counter(c for d in docs for c in pretokenize(d)), num_merges)

    ref, t_ref = timed(naive)
    speedup = t_ref / t_ours
    return {
        "helper": "nlp_helpers.tokenization.bpe.BPE.train",
        "reference": "train_merges_naive (recount all pairs per merge)",
        "agreement": agreement(ours.merges, ref),
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": ">= 5x faster than the naive recount",
        "met": speedup >= 5 and ours.merges == ref,
        "note": f"{num_merges} merges on {len(docs)} Lee news documents; speed-up {speedup:.1f}x",
    }


def _hf_train(chunks: list[str], num_merges: int) -> list[tuple[str, str]]:
    from tokenizers import Tokenizer, models, trainers

    tok = Tokenizer(models.BPE())
    alphabet = {ch for c in chunks for ch in c}
    trainer = trainers.BpeTrainer(vocab_size=len(alphabet) + num_merges, show_progress=False)
    tok.train_from_iterator(chunks, trainer)
    return [tuple(m) for m in json.loads(tok.to_str())["model"]["merges"]]


def bench_bpe_vs_huggingface(docs: list[str], num_merges: int) -> dict:
    ours, t_ours = timed(BPE.train, docs, num_merges)
    ref, t_ref = timed(lambda: _hf_train([c for d in docs for c in pretokenize(d)], num_merges))
    agree = agreement(ours.merges, ref)
    return {
        "helper": "nlp_helpers.tokenization.bpe.BPE.train",
        "reference": "tokenizers.trainers.BpeTrainer",
        "agreement": agree,
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": "identical merge list",
        "met": agree == 1.0,
        "note": f"{num_merges} merges, all {len(docs)} Lee news documents; Rust is {t_ours / t_ref:.1f}x faster",
    }


def bench_encode_vs_huggingface(docs: list[str], num_merges: int) -> dict:
    from tokenizers import Tokenizer, models

    bpe = BPE.train(docs, num_merges)
    hf = Tokenizer(models.BPE(vocab=dict(bpe.vocab), merges=list(bpe.merges)))
    texts = docs[:100]

    def ours_encode():
        fresh = BPE(bpe.merges, bpe.alphabet)  # empty cache: time the real work
        return [fresh.encode(t) for t in texts]

    def hf_encode():
        return [[tok for enc in hf.encode_batch(pretokenize(t)) for tok in enc.tokens] for t in texts]

    ours, t_ours = timed(ours_encode)
    ref, t_ref = timed(hf_encode)
    agree = agreement(ours, ref)
    return {
        "helper": "nlp_helpers.tokenization.bpe.BPE.encode",
        "reference": "tokenizers.models.BPE (same merges)",
        "agreement": agree,
        "ours_s": t_ours,
        "reference_s": t_ref,
        "target": "identical tokens",
        "met": agree == 1.0,
        "note": f"100 documents, {sum(map(len, ours))} tokens",
    }


def run() -> list[dict]:
    docs = list(lee_background())
    return [
        bench_bpe_vs_naive(docs[:100], 300),
        bench_bpe_vs_huggingface(docs, 2000),
        bench_encode_vs_huggingface(docs, 2000),
    ]


if __name__ == "__main__":
    for row in run():
        print(
            f"{row['helper']} vs {row['reference']}: agreement {row['agreement']:.3f}, "
            f"ours {row['ours_s']:.3f}s, reference {row['reference_s']:.3f}s, target: {row['target']} -> "
            f"{'met' if row['met'] else 'NOT MET'} ({row['note']})"
        )
