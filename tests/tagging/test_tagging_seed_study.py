"""The stored NER seed study: five seeds per model, F1 values that are F1 values, bad input named."""

from __future__ import annotations

import pytest

from nlp_helpers.tagging.seed_study import ner_seed_f1


def test_every_model_has_five_seeds_and_f1_in_the_unit_interval() -> None:
    table = ner_seed_f1()
    assert list(table.columns) == ["feature CRF", "BiLSTM-softmax", "BiLSTM-CRF"]
    assert list(table.index) == [0, 1, 2, 3, 4]
    assert table.notna().all().all() and ((table > 0) & (table < 1)).all().all()
    # what the NER page says of them: the CRF layer is worth more than the spread between seeds
    assert table["BiLSTM-CRF"].mean() - table["BiLSTM-softmax"].mean() > 2 * table["BiLSTM-softmax"].std()


def test_models_pick_and_order_the_columns() -> None:
    assert list(ner_seed_f1(["BiLSTM-CRF", "feature CRF"]).columns) == ["BiLSTM-CRF", "feature CRF"]


@pytest.mark.parametrize(
    "models, error, match",
    [("feature CRF", TypeError, "models must be a list"), (["CRF++"], ValueError, r"models \['CRF\+\+'\] are not")],
)
def test_bad_models_are_named(models: object, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        ner_seed_f1(models)
