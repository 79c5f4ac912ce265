"""The UD EWT and Universal NER loaders: sizes from the SOURCE/stats files, tags, caching, bad input."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from nlp_helpers.data import ud
from nlp_helpers.data.ud import (
    UPOS_TAGS,
    ewt_sentence_ids,
    ewt_sentences,
    ewt_xpos_sentences,
    uner_sentences,
)

FILES = Path(ud.__file__).parent / "files"


def _ud_sizes() -> dict[str, tuple[int, int]]:
    """'Sizes: train 12,544 sentences / 204,577 tokens; dev 2,001 / 25,147; ...' from SOURCE.md."""
    line = next(x for x in (FILES / "ud-english-ewt" / "SOURCE.md").read_text().splitlines() if x.startswith("Sizes:"))
    found = re.findall(r"(train|dev|test) ([\d,]+)(?: sentences)? / ([\d,]+)", line)
    return {s: (int(a.replace(",", "")), int(b.replace(",", ""))) for s, a, b in found}


@pytest.mark.parametrize("split", ["train", "dev", "test"])
def test_ud_sizes_match_the_source_file(split):
    n_sent, n_tok = _ud_sizes()[split]
    sents = ewt_sentences(split)
    assert len(sents) == n_sent and sum(map(len, sents)) == n_tok
    assert len(ewt_sentence_ids(split)) == n_sent == len(set(ewt_sentence_ids(split)))
    xpos = ewt_xpos_sentences(split)
    assert [[w for w, _ in s] for s in xpos[:50]] == [[w for w, _ in s] for s in sents[:50]]


def test_ud_tags_and_a_known_sentence():
    sents = ewt_sentences("dev")
    assert {t for s in sents for _, t in s} == set(UPOS_TAGS)
    assert sents[0][:3] == [("From", "ADP"), ("the", "DET"), ("AP", "PROPN")]
    assert ewt_xpos_sentences("dev")[0][:3] == [("From", "IN"), ("the", "DT"), ("AP", "NNP")]
    assert ewt_sentence_ids("dev")[0].startswith("weblog-blogspot.com_nominations")
    # words starting with '#' (hashtags) are words, not comments
    assert any(w.startswith("#") for s in ewt_sentences("train") for w, _ in s)


def test_loaders_return_fresh_lists():
    a = ewt_sentences("test")
    a[0].clear()
    assert ewt_sentences("test")[0]


@pytest.mark.parametrize("split", ["dev", "test"])
def test_uner_sizes_and_labels_match_the_stats_files(split):
    stats = json.loads((FILES / "uner-english-ewt" / f"en_ewt-ud-{split}.stats").read_text())
    sents = uner_sentences(split)
    assert len(sents) == stats["num_sentences"] and sum(map(len, sents)) == stats["num_tokens"]
    begins = Counter(t[2:] for s in sents for _, t in s if t.startswith("B-"))
    assert dict(begins) == stats["label_distribution"]
    assert {t for s in sents for _, t in s} <= {"O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC"}


def test_loaders_reject_bad_splits_naming_the_argument():
    with pytest.raises(ValueError, match="split"):
        ewt_sentences("validation")
    with pytest.raises(ValueError, match="split"):
        uner_sentences("train")  # not shipped
    with pytest.raises(ValueError, match="split"):
        ewt_xpos_sentences("x")
    with pytest.raises(ValueError, match="split"):
        ewt_sentence_ids(None)
