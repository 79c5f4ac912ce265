"""Bad and edge inputs of the fine-tuning chapter's helpers, table-driven (the runner is ``tests/bad_inputs.py``).

``BAD`` rows must raise an error naming the argument; ``EDGE`` rows have a documented result.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest
import torch

from nlp_helpers.finetuning import classifier as BC
from nlp_helpers.finetuning import topics as TO
from tests.bad_inputs import Bad, Edge, bad, edge, run_bad, run_edge

NAN = math.nan


@cache
def classifier() -> BC.SentenceClassifier:
    torch.manual_seed(0)
    return BC.SentenceClassifier(4, 2)


BAD = [
    # --- topics
    bad(
        "topics.class_term_counts-str-class",
        lambda: TO.class_term_counts(["a b", "c"]),
        TypeError,
        r"docs_by_class\[0\]",
    ),
    bad(
        "topics.class_term_counts-empty",
        lambda: TO.class_term_counts([]),
        ValueError,
        "docs_by_class must not be empty",
    ),
    bad(
        "topics.c_tf_idf_from_counts-nan",
        lambda: TO.c_tf_idf_from_counts([[NAN, 1.0]]),
        ValueError,
        "counts must contain only finite",
    ),
    bad(
        "topics.top_terms-k-above-vocabulary",
        lambda: TO.top_terms(np.ones((2, 3)), ["a", "b", "c"], 4),
        ValueError,
        "k must be <= 3",
    ),
    bad(
        "topics.cluster_documents-more-clusters-than-documents",
        lambda: TO.cluster_documents(np.ones((3, 4)), 4),
        ValueError,
        "n_clusters must be <= 3",
    ),
    # --- bert_classifier
    bad(
        "classifier.SentenceClassifier-numpy",
        lambda: classifier()(np.zeros((2, 3, 4)), np.ones((2, 3))),
        TypeError,
        "hidden must be Tensor",
    ),
    bad(
        "classifier.SentenceClassifier-width",
        lambda: classifier()(torch.zeros(2, 3, 5), torch.ones(2, 3)),
        ValueError,
        "hidden must have d_model = 4",
    ),
    bad(
        "classifier.train_classifier-no-sentences",
        lambda: BC.train_classifier(
            classifier(), torch.zeros(0, 3, 4), torch.zeros(0, 3), np.array([], int), progress=False
        ),
        ValueError,
        "labels must not be empty",
    ),
    bad(
        "classifier.train_classifier-float-labels",
        lambda: BC.train_classifier(
            classifier(), torch.zeros(2, 3, 4), torch.ones(2, 3), np.array([0.5, 1.2]), progress=False
        ),
        TypeError,
        "labels must be integer class indices",
    ),
    bad(
        "classifier.predict-mask-shape",
        lambda: BC.predict(classifier(), torch.zeros(2, 3, 4), torch.ones(2, 4)),
        ValueError,
        "attention_mask",
    ),
    bad(
        "classifier.run_bert_layer-none",
        lambda: BC.run_bert_layer(None, torch.zeros(1, 2, 4), torch.ones(1, 2)),
        TypeError,
        "layer must be Module",
    ),
    bad("classifier.encoder_features-empty", lambda: BC.encoder_features([]), ValueError, "texts must not be empty"),
]


EDGE = [
    edge(
        "topics.c_tf_idf_from_counts-huge",
        lambda: TO.c_tf_idf_from_counts([[1e308, 1e308], [1e308, 1.0]]),
        lambda x: np.isfinite(x).all(),
    ),
    edge(
        "classifier.SentenceClassifier-all-padding",
        lambda: classifier()(torch.ones(1, 3, 4), torch.zeros(1, 3)),
        lambda y: torch.isfinite(y).all(),
    ),
]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_a_clear_error_naming_the_argument(case: Bad) -> None:
    run_bad(case)


@pytest.mark.parametrize("case", EDGE)
def test_edge_input_gives_the_documented_result(case: Edge) -> None:
    run_edge(case)
