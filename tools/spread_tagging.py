"""Spread over seeds of the trained taggers of ``book/tagging/crf.ipynb`` and ``book/tagging/ner.ipynb`` (the numbers in its hidden checks).

Usage: ``python tools/spread_tagging.py 0 1 2 3 4 5`` (one JSON line per seed; run once more with
``ATEN_CPU_CAPABILITY=default`` for the other kernel path). Uses the chapter's settings: feature CRF
(4 epochs, lr 0.05) and BiLSTM-CRF (32/32, 3 epochs, lr 0.03) trained on Universal NER dev and
evaluated on its test set, and trained on every eighth UD EWT training sentence and evaluated on
UD EWT test. The seed is passed as ``seed=`` (``NLP_SEED_OFFSET`` is added as in the notebook).
"""

from __future__ import annotations

import json
import sys

import torch

from nlp_helpers.data.ud import ewt_sentences, uner_sentences
from nlp_helpers.tagging.baseline import tag_accuracy
from nlp_helpers.tagging.bilstm import BiLSTMTagger
from nlp_helpers.tagging.crf_tagger import FeatureCRFTagger
from nlp_helpers.tagging.spans import span_f1

MODELS = {
    "crf": lambda seed: FeatureCRFTagger(epochs=4, lr=0.05, seed=seed),
    "bilstm_crf": lambda seed: BiLSTMTagger(word_dim=32, hidden=32, epochs=3, lr=0.03, seed=seed),
}


def _only(tags, kind):
    return [t if t.endswith(kind) else "O" for t in tags]


def run(seed: int) -> dict:
    ner_train, ner_test = uner_sentences("dev"), uner_sentences("test")
    pos_train, pos_test = ewt_sentences("train")[::8], ewt_sentences("test")
    gold = [[t for _, t in s] for s in ner_test]
    out: dict = {"seed": seed}
    for name, make in MODELS.items():
        pred = make(seed).fit(ner_train).tag_many([[w for w, _ in s] for s in ner_test])
        out[f"{name}_ner_f1"] = span_f1(gold, pred).f1
        out[f"{name}_ner_f1_by_type"] = {
            k: span_f1([_only(g, k) for g in gold], [_only(p, k) for p in pred]).f1 for k in ("PER", "ORG", "LOC")
        }
        pred = make(seed).fit(pos_train).tag_many([[w for w, _ in s] for s in pos_test])
        out[f"{name}_upos_acc"] = tag_accuracy([[t for _, t in s] for s in pos_test], pred)
    return out


if __name__ == "__main__":
    torch.set_num_threads(1)
    for arg in sys.argv[1:] or ["0"]:
        print(json.dumps(run(int(arg))), flush=True)
