"""The fine-tuning chapter's helpers against their references: agreement and time, on the same inputs.

Rows:

* ``topics.c_tf_idf`` vs a scikit-learn ``CountVectorizer`` + numpy version of BERTopic's
  formula on the 300 Lee background documents in 6 groups; target: |diff| <= 1e-12.

Run: ``python -m benchmarks.bench_finetuning``.
"""

from __future__ import annotations

import math
import re

import numpy as np

from benchmarks.timing import best_of
from nlp_helpers.data.corpora import lee_background
from nlp_helpers.finetuning import topics


def _best(fn, repeat: int = 3) -> float:
    return best_of(fn, repeat)[1]


def _c_tf_idf_row() -> list[dict]:
    from sklearn.feature_extraction.text import CountVectorizer

    docs = list(lee_background())
    groups = [docs[i::6] for i in range(6)]
    tokenize = lambda text: re.findall(r"[a-z]{3,}", text.lower())  # noqa: E731
    ours, terms = topics.c_tf_idf(groups, tokenizer=tokenize)
    t_ours = _best(lambda: topics.c_tf_idf(groups, tokenizer=tokenize))

    def reference():
        cv = CountVectorizer(tokenizer=tokenize, lowercase=False, token_pattern=None)
        per_doc = cv.fit_transform([d for g in groups for d in g]).toarray()
        sizes = np.cumsum([0] + [len(g) for g in groups])
        counts = np.stack([per_doc[a:b].sum(0) for a, b in zip(sizes[:-1], sizes[1:])])
        tf = counts / counts.sum(1, keepdims=True)
        return tf * np.log(1 + counts.sum(1).mean() / counts.sum(0)), list(cv.get_feature_names_out())

    ref, ref_terms = reference()
    diff = float(np.abs(ours - ref).max()) if terms == ref_terms else math.inf
    return [
        {
            "helper": "topics.c_tf_idf",
            "reference": "sklearn CountVectorizer + BERTopic's formula (numpy)",
            "agreement": f"max |diff| {diff:.1e}",
            "ours_s": t_ours,
            "reference_s": _best(reference),
            "target": "|diff| <= 1e-12",
            "met": diff <= 1e-12,
            "note": "300 Lee documents in 6 groups",
        }
    ]


def run() -> list[dict]:
    return _c_tf_idf_row()


if __name__ == "__main__":
    for row in run():
        print(row)
