"""Token classification helpers (nlp_helpers.finetuning.token_labels).

References: the alignment is rebuilt independently by tokenizing every word on its own with the
book's WordPiece (checked elsewhere against Hugging Face) and compared with the labels that
``first_subword_labels`` derives from a fast tokenizer's ``word_ids()`` (exact); span F1 of the read-back
tags is compared with seqeval (to 1e-12); the training loss equals torch's ``cross_entropy`` with
``ignore_index=-100`` (to 1e-6); the stored study has >= 5 seeds per model.
"""

from __future__ import annotations

import json

import pytest
import torch

from nlp_helpers.bert import minilm as bert
from nlp_helpers.bert import wordpiece
from nlp_helpers.data.ud import uner_sentences
from nlp_helpers.finetuning.token_labels import (
    IGNORE_INDEX,
    TokenClassifier,
    first_subword_labels,
    ner_study,
    predict_tags,
    token_features,
    train_token_classifier,
    word_predictions,
)
from nlp_helpers.tagging.spans import span_f1

SANITAS = [("Mt", "B-LOC"), (".", "I-LOC"), ("Sanitas", "I-LOC"), ("is", "O"), ("near", "O"), ("Boulder", "B-LOC")]


def _reference_labels(words, tags, vocab):
    labels = [IGNORE_INDEX]  # [CLS]
    for w, t in zip(words, tags):
        pieces = [p for token in wordpiece.basic_tokenize(w) for p in wordpiece.wordpiece_word(token, vocab)]
        labels += [t] + [IGNORE_INDEX] * (len(pieces) - 1)
    return labels + [IGNORE_INDEX]  # [SEP]


def test_hand_worked_example():
    tokenizer, _ = bert.load_minilm()
    enc = tokenizer([w for w, _ in SANITAS], is_split_into_words=True)
    assert tokenizer.convert_ids_to_tokens(enc["input_ids"]) == [
        "[CLS]", "mt", ".", "san", "##itas", "is", "near", "boulder", "[SEP]"
    ]  # fmt: skip
    assert first_subword_labels(enc.word_ids(), [t for _, t in SANITAS]) == [
        -100, "B-LOC", "I-LOC", "I-LOC", -100, "O", "O", "B-LOC", -100
    ]  # fmt: skip


def test_alignment_matches_per_word_wordpiece_on_ner_sentences():
    tokenizer, _ = bert.load_minilm()
    vocab = wordpiece.load_vocab(bert.minilm_path() / "vocab.txt")
    sents = uner_sentences("dev")[:300]
    checked = 0
    for s in sents:
        words, tags = [w for w, _ in s], [t for _, t in s]
        enc = tokenizer(words, is_split_into_words=True)
        ours = first_subword_labels(enc.word_ids(), tags)
        assert ours == _reference_labels(words, tags, vocab), words
        # and back: every word gets its own label
        assert word_predictions(enc.word_ids(), ours, len(words)) == tags
        checked += sum(len(p) > 1 for p in [tokenizer.tokenize(w) for w in words])
    assert checked > 50  # many words really were split into several pieces


def test_truncated_words_read_back_as_missing():
    assert word_predictions([None, 0, 0, None], ["O", "B-PER", "I-PER", "O"], 3) == ["B-PER", "O", "O"]
    assert word_predictions([None, 0, None], ["x", "B-PER", "y"], 2, missing="?") == ["B-PER", "?"]


def test_span_f1_of_read_back_tags_matches_seqeval():
    seqeval = pytest.importorskip("seqeval.metrics")
    gold = [[t for _, t in s] for s in uner_sentences("test")[:200]]
    # a corrupted prediction: shift every third sentence's tags by one word
    pred = [g[1:] + ["O"] if i % 3 == 0 else g for i, g in enumerate(gold)]
    ours = span_f1(gold, pred)
    assert ours.f1 == pytest.approx(seqeval.f1_score(gold, pred), abs=1e-12)
    assert 0.3 < ours.f1 < 0.99


def test_loss_equals_cross_entropy_with_ignore_index_and_learns():
    torch.manual_seed(0)
    B, T, d = 6, 5, 384
    hidden = torch.randn(B, T, d)
    mask = torch.ones(B, T, dtype=torch.long)
    mask[0, 3:] = 0
    labels = (hidden[..., 0] > 0).long()  # tag 1 iff the first feature is positive: learnable
    labels[:, 0] = IGNORE_INDEX
    labels[0, 3:] = IGNORE_INDEX
    clf = TokenClassifier(d, 2)
    logits = clf(hidden, mask)
    ours = torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten())
    keep = labels != IGNORE_INDEX
    ref = -torch.log_softmax(logits[keep], -1).gather(1, labels[keep][:, None]).mean()
    torch.testing.assert_close(ours, ref, rtol=1e-6, atol=1e-6)
    losses = train_token_classifier(clf, hidden, mask, labels, epochs=30, batch_size=3, lr=1e-2, progress=False)
    assert losses[-1] < 0.5 * losses[0]


def test_token_features_agree_with_the_model():
    tokenizer, model = bert.load_minilm()
    sents = [[w for w, _ in SANITAS], ["Hello", "world"]]
    feats = token_features(sents)
    enc = tokenizer(sents[0], is_split_into_words=True, return_tensors="pt")
    with torch.no_grad():
        ref = model(**enc).last_hidden_state[0]
    torch.testing.assert_close(feats["last"][0, : len(ref)], ref, rtol=1e-4, atol=1e-4)
    assert feats["word_ids"][1][:4] == [None, 0, 1, None] and feats["attention_mask"][1].sum() == 4
    clf = TokenClassifier(384, 3)
    tags = predict_tags(clf, feats["last"], feats["attention_mask"], feats["word_ids"], [6, 2], ["O", "B-X", "I-X"])
    assert [len(t) for t in tags] == [6, 2]


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: first_subword_labels("abc", ["O"]), TypeError, "word_ids"),
        (lambda: first_subword_labels([None, -1], ["O"]), ValueError, r"word_ids\[1\]"),
        (lambda: first_subword_labels([None, 2], ["O"]), ValueError, "word_labels has only 1"),
        (lambda: first_subword_labels([None, 0], "O"), TypeError, "word_labels"),
        (lambda: word_predictions([None, 0], ["O"], 1), ValueError, "piece_predictions"),
        (lambda: word_predictions([None, 3], ["O", "O"], 1), ValueError, "n_words"),
        (lambda: token_features([]), ValueError, "sentences"),
        (lambda: token_features(["a sentence"]), ValueError, r"sentences\[0\]"),
        (lambda: token_features([["ok", ""]]), TypeError, r"sentences\[0\]"),
        (lambda: TokenClassifier(384, 1), ValueError, "n_tags"),
    ],
)
def test_bad_inputs_name_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_training_rejects_bad_labels():
    clf = TokenClassifier(4, 2)
    h, m = torch.zeros(2, 3, 4), torch.ones(2, 3, dtype=torch.long)
    with pytest.raises(ValueError, match="nothing to train"):
        train_token_classifier(clf, h, m, torch.full((2, 3), IGNORE_INDEX), progress=False)
    with pytest.raises(ValueError, match=r"tag indices in \[0, 2\)"):
        train_token_classifier(clf, h, m, torch.full((2, 3), 5), progress=False)
    with pytest.raises(ValueError, match="labels"):
        train_token_classifier(clf, h, m, torch.zeros(2, 4, dtype=torch.long), progress=False)


def test_stored_study_schema_and_seeds(tmp_path):
    study = ner_study()
    assert "MiniLM frozen + token head" in set(study.model)
    assert study.attrs["n_train"] == 2001 and study.attrs["n_test"] == 2077
    per_model = study.groupby("model").seed.nunique()
    assert (per_model >= 5).all(), per_model
    assert study[["precision", "recall", "f1"]].apply(lambda c: c.between(0, 1)).all().all()
    assert (2 * study.precision * study.recall / (study.precision + study.recall) - study.f1).abs().max() < 1e-9
    bad = tmp_path / "study.json"
    bad.write_text(json.dumps({"runs": [{"model": "x", "seed": 0}]}))
    with pytest.raises(ValueError, match="fields"):
        ner_study(bad)
    with pytest.raises(FileNotFoundError, match="bert_ner_study"):
        ner_study(tmp_path / "missing.json")
