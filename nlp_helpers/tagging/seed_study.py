"""The span F1 of the NER chapter's torch-trained taggers over five seeds, as stored with the package.

Each model (the feature CRF, the BiLSTM with a softmax, the BiLSTM-CRF) was trained with the settings of
``book/tagging/ner.ipynb`` on Universal NER EWT's development sentences, once per seed 0-4, and scored by
span F1 on the test sentences. The page shows the spread; the fine-tuning chapter compares its tagger with it.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = ["SEED_STUDY_FILE", "ner_seed_f1"]

SEED_STUDY_FILE = Path(__file__).parents[1] / "data" / "files" / "tagging_ner_seed_study.csv"


def ner_seed_f1(models: list[str] | None = None) -> pd.DataFrame:
    """Span F1 by seed (rows) and model (columns); ``models`` picks and orders the columns (default: all)."""
    if models is not None and (not isinstance(models, list) or not all(isinstance(m, str) for m in models)):
        raise TypeError(f"models must be a list of model names (str) or None, got {models!r}")
    table = pd.read_csv(SEED_STUDY_FILE).pivot(index="seed", columns="model", values="f1")
    if models is None:
        return table[list(dict.fromkeys(pd.read_csv(SEED_STUDY_FILE)["model"]))]
    unknown = [m for m in models if m not in table.columns]
    if unknown:
        raise ValueError(f"models {unknown} are not in the study; it has {list(table.columns)}")
    return table[models]
