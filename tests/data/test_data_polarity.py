"""The vendored sentence polarity corpus: counts from its documentation, encoding, and the fixed split."""

from __future__ import annotations

import pytest

from nlp_helpers.data.polarity import polarity_sentences, polarity_split


def test_the_corpus_has_the_documented_size_and_balance():
    df = polarity_sentences()
    assert len(df) == 10662  # 5,331 + 5,331 per the dataset's README
    assert (df["label"] == 1).sum() == 5331 and (df["label"] == 0).sum() == 5331
    assert df["text"].str.len().min() > 0
    # The first positive snippet of the release, and no line split at the 0x85 ellipsis byte.
    assert df["text"][0].startswith('the rock is destined to be the 21st century\'s new " conan "')
    assert df["text"].str.contains("\u2026").sum() > 0  # cp1252 0x85 decoded as an ellipsis


def test_the_split_is_stratified_disjoint_and_fixed(monkeypatch):
    parts = polarity_split()
    assert [len(parts[k]) for k in ("train", "dev", "test")] == [7464, 1066, 2132]
    for frame in parts.values():
        assert frame["label"].mean() == pytest.approx(0.5, abs=1e-9)
    seen = [set(parts[k]["text"]) for k in parts]
    assert sum(len(s) for s in seen) >= 10600  # a few snippets occur twice in the corpus
    assert not (set(parts["test"]["text"]) & set(parts["train"]["text"])) - _duplicates()
    monkeypatch.setenv("NLP_SEED_OFFSET", "3")  # a data definition: the offset must not move it
    again = polarity_split()
    assert again["test"]["text"].tolist() == parts["test"]["text"].tolist()


def _duplicates() -> set[str]:
    counts = polarity_sentences()["text"].value_counts()
    return set(counts[counts > 1].index)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"test_fraction": 0.0}, "test_fraction"),
        ({"dev_fraction": 1.0}, "dev_fraction"),
        ({"test_fraction": 0.6, "dev_fraction": 0.5}, "test_fraction"),
    ],
)
def test_bad_fractions_name_the_argument(kwargs, name):
    with pytest.raises(ValueError, match=name):
        polarity_split(**kwargs)
