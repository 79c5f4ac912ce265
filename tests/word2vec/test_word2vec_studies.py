"""The stored word2vec studies the chapter's pages read: their schema, and at least five seeds per setting."""

from __future__ import annotations

import pandas as pd

from nlp_helpers.word2vec.bias import BIAS_STUDY_FILE, OCCUPATIONS
from nlp_helpers.word2vec.evaluation import HYPER_STUDY_FILE, SEED_STUDY_FILE

GAP_STUDY_FILE = SEED_STUDY_FILE.with_name("word2vec_gap_study.csv")


def test_gap_study_has_five_seeds_per_configuration():
    gap = pd.read_csv(GAP_STUDY_FILE)
    assert list(gap.columns) == ["implementation", "change", "seed", "wordsim353", "simlex999", "seconds"]
    counts = gap[gap.seed < 5].groupby(["implementation", "change"]).seed.nunique()
    assert ("gensim", "no subsampling") in counts.index and ("ours", "batches of 32 pairs") in counts.index
    assert counts.min() >= 5, counts[counts < 5]
    assert gap[["wordsim353", "simlex999"]].abs().le(1).all().all()


def test_hyper_study_has_five_seeds_per_setting():
    hyper = pd.read_csv(HYPER_STUDY_FILE)
    assert list(hyper.columns) == ["negative", "dim", "seed", "wordsim353", "simlex999", "analogy", "seconds"]
    counts = hyper.groupby(["negative", "dim"]).seed.nunique()
    # the two sweeps of the extensions page, meeting at the chapter's point (5, 50) of the seed study
    assert {(1, 50), (10, 50), (20, 50), (5, 25), (5, 100), (5, 200)} <= set(counts.index), counts
    assert counts.min() >= 5, counts[counts < 5]
    assert not hyper.duplicated(["negative", "dim", "seed"]).any()
    assert hyper.wordsim353.between(-1, 1).all() and hyper.analogy.between(0, 1).all()


def test_bias_study_has_five_seeds_of_every_measure():
    bias = pd.read_csv(BIAS_STUDY_FILE, keep_default_na=False)
    assert list(bias.columns) == ["seed", "measure", "word", "value"]
    assert set(bias.measure) == {"projection", "vocabulary mean", "vocabulary sd", "weat8 effect_size", "weat8 p_value"}
    per_measure = bias.groupby(["measure", "word"]).seed.nunique()
    assert per_measure.min() >= 5, per_measure[per_measure < 5]
    assert set(bias[bias.measure == "projection"].word) <= set(OCCUPATIONS)
    weat = bias[bias.measure.str.startswith("weat8")].pivot(index="seed", columns="measure", values="value")
    assert weat["weat8 effect_size"].between(-2, 2).all() and weat["weat8 p_value"].between(0, 1).all()
