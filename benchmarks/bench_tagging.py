"""Benchmarks of the sequence-labelling chapter's helpers (``nlp_helpers.tagging``).

Rows (see CONTRIBUTING.md, "Benchmarks"):

1. ``HMMTagger`` (TnT-style trigram, suffix model) against nltk's supervised HMM tagger
   (``nltk.tag.hmm.HiddenMarkovModelTrainer.train_supervised`` with Lidstone(0.1) estimates,
   bigram, no unknown-word model), both trained on UD EWT train and run on the test set.
   nltk's tagger is run on the first 500 test sentences (it is slow); ours on the same 500 for
   the agreement and time, plus all sentences for the note. Target: ours >= 0.92 on all of test,
   more accurate than nltk's on the 500, and faster.
2. ``span_f1`` against ``seqeval.metrics.f1_score`` on the UNER test set with the predictions of
   the trigram HMM trained on UNER dev. Target: equal F1 (abs 1e-12).
3. ``crf_log_partition`` (numpy forward algorithm) against a torch ``logsumexp`` recursion on
   200 random problems (T=30, K=17). Target: equal (rel 1e-9).

Run: ``python -m benchmarks.bench_tagging``.
"""

from __future__ import annotations

import time
import warnings

import numpy as np

from benchmarks.timing import best_of
from nlp_helpers.data.ud import ewt_sentences, uner_sentences
from nlp_helpers.tagging.baseline import tag_accuracy
from nlp_helpers.tagging.crf import crf_log_partition
from nlp_helpers.tagging.hmm import HMMTagger
from nlp_helpers.tagging.spans import span_f1

N_NLTK = 500


def _once(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def _hmm_row() -> dict:
    from nltk.probability import LidstoneProbDist
    from nltk.tag.hmm import HiddenMarkovModelTrainer

    train, test = ewt_sentences("train"), ewt_sentences("test")
    words = [[w for w, _ in s] for s in test]
    gold = [[t for _, t in s] for s in test]
    ours, fit_s = _once(lambda: HMMTagger(order=3).fit(train))
    pred_all = [ours.tag(w) for w in words]
    pred, ours_s = best_of(lambda: [ours.tag(w) for w in words[:N_NLTK]], 1)
    nltk_hmm, nltk_fit_s = _once(
        lambda: HiddenMarkovModelTrainer().train_supervised(
            train, estimator=lambda fd, bins: LidstoneProbDist(fd, 0.1, bins)
        )
    )
    theirs, nltk_s = _once(lambda: [[t for _, t in nltk_hmm.tag(w)] for w in words[:N_NLTK]])
    acc_all = tag_accuracy(gold, pred_all)
    acc_ours = tag_accuracy(gold[:N_NLTK], pred)
    acc_nltk = tag_accuracy(gold[:N_NLTK], theirs)
    return {
        "helper": "tagging.hmm.HMMTagger (trigram, suffix model)",
        "reference": "nltk.tag.hmm supervised HMM (bigram, Lidstone 0.1)",
        "agreement": f"UPOS accuracy on {N_NLTK} test sentences: ours {acc_ours:.3f}, nltk {acc_nltk:.3f}",
        "ours_s": ours_s,
        "reference_s": nltk_s,
        "target": "ours >= 0.92 on all of test, above nltk, faster",
        "met": bool(acc_all >= 0.92 and acc_ours > acc_nltk and ours_s < nltk_s),
        "note": f"all {len(test)} test sentences: {acc_all:.4f}; fit ours {fit_s:.1f} s, nltk {nltk_fit_s:.1f} s",
    }


def _span_row() -> dict:
    from seqeval.metrics import f1_score

    dev, test = uner_sentences("dev"), uner_sentences("test")
    hmm = HMMTagger(order=3).fit(dev)
    gold = [[t for _, t in s] for s in test]
    pred = [hmm.tag([w for w, _ in s]) for s in test]
    ours, ours_s = best_of(lambda: span_f1(gold, pred).f1, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs, ref_s = best_of(lambda: f1_score(gold, pred), 3)
    return {
        "helper": "tagging.spans.span_f1",
        "reference": "seqeval.metrics.f1_score (default mode)",
        "agreement": f"F1 ours {ours:.6f}, seqeval {theirs:.6f}",
        "ours_s": ours_s,
        "reference_s": ref_s,
        "target": "equal F1 (abs 1e-12)",
        "met": bool(abs(ours - theirs) <= 1e-12),
        "note": "UNER EWT test, predictions of the trigram HMM trained on UNER dev",
    }


def _crf_row() -> dict:
    import torch

    rng = np.random.default_rng(0)
    problems = [(rng.normal(size=(30, 17)), rng.normal(size=(17, 17))) for _ in range(200)]

    def torch_logz(em, tr):
        em, tr = torch.from_numpy(em), torch.from_numpy(tr)
        alpha = em[0]
        for t in range(1, len(em)):
            alpha = torch.logsumexp(alpha[:, None] + tr, dim=0) + em[t]
        return float(torch.logsumexp(alpha, dim=0))

    ours, ours_s = best_of(lambda: [crf_log_partition(e, t) for e, t in problems], 3)
    theirs, ref_s = best_of(lambda: [torch_logz(e, t) for e, t in problems], 3)
    err = max(abs(a - b) / abs(b) for a, b in zip(ours, theirs))
    return {
        "helper": "tagging.crf.crf_log_partition",
        "reference": "torch.logsumexp forward recursion",
        "agreement": f"max relative difference {err:.1e}",
        "ours_s": ours_s,
        "reference_s": ref_s,
        "target": "equal (rel 1e-9)",
        "met": err <= 1e-9,
        "note": "200 random problems, T=30, K=17, float64",
    }


def run() -> list[dict]:
    return [_hmm_row(), _span_row(), _crf_row()]


if __name__ == "__main__":
    for row in run():
        print(row)
