"""Full fine-tuning (nlp_helpers.finetuning.full_finetuning) against transformers and torch.

* the schedule equals ``transformers.get_linear_schedule_with_warmup`` step by step, and a hand-worked case;
* the classifier reads the pretrained encoder exactly (its pooled vector is Sentence-BERT's embedding);
* one training step equals the same step written with torch's AdamW and LambdaLR, and leaves the shared
  pretrained model untouched.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from transformers import get_linear_schedule_with_warmup

from nlp_helpers import seeds
from nlp_helpers.bert import minilm as bert
from nlp_helpers.finetuning.full_finetuning import (
    EncoderClassifier,
    finetune_encoder,
    full_finetuning_study,
    linear_warmup_factor,
    predict_texts,
)

TEXTS = ["simplistic, silly and tedious.", "a gorgeous, witty, seductive movie.", "it is too long.", "a delight."]
LABELS = [0, 1, 0, 1]


@pytest.mark.parametrize("total, warmup", [(10, 1), (200, 20), (7, 0), (5, 5), (13, 4)])
def test_schedule_equals_transformers(total, warmup):
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    sched = get_linear_schedule_with_warmup(opt, warmup, total)
    theirs = []
    for _ in range(total + 3):  # and past the end
        theirs.append(sched.get_last_lr()[0])
        opt.step()
        sched.step()
    ours = [linear_warmup_factor(t, total, warmup) for t in range(total + 3)]
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)


def test_schedule_hand_worked():
    # 5 steps, 2 of warm-up: 0, 1/2, then 3/3, 2/3, 1/3, and 0 at the end
    assert [linear_warmup_factor(t, 5, 2) for t in range(6)] == pytest.approx([0, 0.5, 1, 2 / 3, 1 / 3, 0])


def test_bad_inputs_name_the_argument():
    with pytest.raises(ValueError, match="step"):
        linear_warmup_factor(-1, 10, 2)
    with pytest.raises(ValueError, match="total_steps"):
        linear_warmup_factor(0, 0, 0)
    with pytest.raises(ValueError, match="warmup_steps"):
        linear_warmup_factor(0, 10, 11)
    with pytest.raises(ValueError, match="n_classes"):
        EncoderClassifier(1)
    with pytest.raises(TypeError, match="freeze_word_embeddings"):
        EncoderClassifier(2, freeze_word_embeddings="yes")
    model = EncoderClassifier(2)
    with pytest.raises(ValueError, match="labels"):
        finetune_encoder(model, TEXTS, [0, 1], progress=False)
    with pytest.raises(ValueError, match="labels"):
        finetune_encoder(model, TEXTS, [0, 1, 2, 1], progress=False)
    with pytest.raises(ValueError, match="warmup_fraction"):
        finetune_encoder(model, TEXTS, LABELS, warmup_fraction=1.5, progress=False)
    with pytest.raises(TypeError, match="model"):
        finetune_encoder(torch.nn.Linear(2, 2), TEXTS, LABELS)
    with pytest.raises(ValueError, match="input_ids"):
        model(torch.zeros(3, dtype=torch.long), torch.ones(3, dtype=torch.long))
    with pytest.raises(TypeError, match=r"texts\[1\]"):
        predict_texts(model, ["ok", 3])


def test_classifier_pools_sentence_bert_embeddings():
    seeds.manual_seed(0)
    model = EncoderClassifier(2)
    model.eval()
    tokenizer, _ = bert.load_minilm()
    enc = tokenizer(TEXTS, padding=True, return_tensors="pt")
    with torch.no_grad():
        logits = model(enc["input_ids"], enc["attention_mask"])
    # all-MiniLM-L6-v2's sentence embedding is the mean of its token vectors (before normalising)
    pooled = np.stack([h.mean(0) for _, h in bert.token_states(TEXTS)])
    want = pooled @ model.head.weight.detach().numpy().T + model.head.bias.detach().numpy()
    np.testing.assert_allclose(logits.numpy(), want, atol=1e-4)
    assert (predict_texts(model, TEXTS) == logits.argmax(-1).numpy()).all()


def test_training_steps_equal_torch_adamw_with_lambdalr():
    _, shared = bert.load_minilm()
    before = shared.encoder.layer[0].attention.self.query.weight.clone()
    seeds.manual_seed(0)
    ours = EncoderClassifier(2)
    ref = EncoderClassifier(2)
    ref.load_state_dict(ours.state_dict())
    log = finetune_encoder(ours, TEXTS, LABELS, epochs=2, batch_size=2, lr=1e-4, head_lr=1e-2, seed=0, progress=False)
    # 4 steps, round(0.1 * 4) = 0 warm-up steps: the rate decays 1, 3/4, 1/2, 1/4 of the peak
    assert log["lr"] == pytest.approx([1e-4, 0.75e-4, 0.5e-4, 0.25e-4])
    # the same run written with torch's optimiser and scheduler
    tokenizer, _ = bert.load_minilm()
    opt = torch.optim.AdamW(
        [{"params": ref.encoder.parameters(), "lr": 1e-4}, {"params": ref.head.parameters(), "lr": 1e-2}],
        weight_decay=0.01,
    )
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda t: linear_warmup_factor(t, 4, 0))
    gen = seeds.torch_generator(0)
    seeds.manual_seed(0)
    ref.train()
    losses = []
    for _ in range(2):
        for idx in torch.randperm(4, generator=gen).split(2):
            enc = tokenizer([TEXTS[i] for i in idx], padding=True, return_tensors="pt")
            loss = torch.nn.functional.cross_entropy(
                ref(enc["input_ids"], enc["attention_mask"]), torch.tensor(LABELS)[idx]
            )
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            losses.append(loss.item())
    np.testing.assert_allclose(log["loss"], losses, rtol=1e-4)
    for (name, p), q in zip(ours.named_parameters(), ref.parameters()):
        torch.testing.assert_close(p, q, rtol=1e-4, atol=1e-6, msg=name)
    # the copy's layers moved, its WordPiece table (frozen by default) did not; the shared model did not
    assert not torch.equal(ours.encoder.encoder.layer[0].attention.self.query.weight, before)
    assert not torch.equal(
        ours.encoder.embeddings.position_embeddings.weight, shared.embeddings.position_embeddings.weight
    )
    assert torch.equal(ours.encoder.embeddings.word_embeddings.weight, shared.embeddings.word_embeddings.weight)
    assert torch.equal(shared.encoder.layer[0].attention.self.query.weight, before)
    trainable = sum(p.numel() for p in ours.parameters() if p.requires_grad)
    assert trainable == sum(p.numel() for p in ours.parameters()) - 30522 * 384
    assert all(p.requires_grad for p in EncoderClassifier(2, freeze_word_embeddings=False).parameters())


def test_stored_study_is_complete(tmp_path):
    study = full_finetuning_study()
    assert set(study.model) == {"frozen encoder + head", "whole encoder fine-tuned"}
    assert (study.groupby("model").seed.nunique() >= 5).all()
    assert study.accuracy.between(0, 1).all()
    # both models of a seed are scored on the same snippets
    assert (study.groupby("seed")[["n_train", "n_test"]].nunique() == 1).all().all()
    assert (study[study.model == "whole encoder fine-tuned"].steps >= 200).all()
    bad = tmp_path / "study.json"
    bad.write_text(json.dumps({"runs": [{"model": "x", "seed": 0}]}))
    with pytest.raises(ValueError, match="fields"):
        full_finetuning_study(bad)
    with pytest.raises(FileNotFoundError, match="bert_full_finetuning_study"):
        full_finetuning_study(tmp_path / "missing.json")
