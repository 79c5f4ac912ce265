"""Tests of nlp_helpers.llm_training.prompting: the chat template, label scoring and the stored study.

References: ``tokenizer.apply_chat_template`` (the template, exactly) and the Hugging Face model's own
forward pass (the label scores: log-softmax of ``model(ids).logits`` at the last position).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.data import smollm2 as loader
from nlp_helpers.llm_training import prompting as pr

SHORT = ["a gorgeous , witty film .", "dull and far too long .", "i laughed , then i slept ."]
DEMOS = [("a warm , funny delight .", 1), ("a mess from start to finish .", 0), ("flat .", 0)]


@pytest.fixture(scope="module")
def smollm2():
    return loader.load_smollm2(verbose=False)


def _hf_label_log_probs(model, tok, messages, label_ids):
    ids = tok.apply_chat_template(messages, add_generation_prompt=True, return_dict=True, return_tensors="pt")
    with torch.no_grad():
        logits = model(ids["input_ids"]).logits[0, -1]
    return torch.log_softmax(logits, dim=-1)[label_ids].numpy(), ids["input_ids"].shape[1]


# ------------------------------------------------------------------------ the chat template
@pytest.mark.parametrize("k", [0, 1, 3])
@pytest.mark.parametrize("generation_prompt", [True, False])
def test_chat_text_equals_the_tokenizers_template(smollm2, k, generation_prompt):
    _, tok = smollm2
    messages = pr.prompt_messages(SHORT[0], DEMOS[:k])
    ours = pr.chat_text(messages, add_generation_prompt=generation_prompt)
    assert ours == tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=generation_prompt)


def test_chat_text_adds_the_default_system_message_like_the_template(smollm2):
    _, tok = smollm2
    messages = [{"role": "user", "content": "Hi!"}, {"role": "assistant", "content": "Hello."}]
    ours = pr.chat_text(messages)
    assert ours.startswith("<|im_start|>system\n" + pr.DEFAULT_SYSTEM)
    assert ours == tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)


def test_prompt_messages_alternate_user_and_assistant_turns():
    messages = pr.prompt_messages("x y", DEMOS[:2])
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert messages[2]["content"] == "positive" and messages[4]["content"] == "negative"
    assert messages[-1]["content"] == "Review: x y"


# ------------------------------------------------------------------------ label scores
def test_label_token_ids_are_the_words_first_tokens(smollm2):
    _, tok = smollm2
    ids = pr.label_token_ids(tok)
    assert tok.convert_ids_to_tokens(ids) == ["negative", "positive"]  # no leading-space marker


@pytest.mark.parametrize("k", [0, 2])
def test_label_log_probs_equal_the_models_log_softmax_at_the_last_position(smollm2, k):
    model, tok = smollm2
    messages = pr.prompt_messages(SHORT[1], DEMOS[:k])
    ours = pr.label_log_probs(model, tok, pr.chat_text(messages))
    ref, _ = _hf_label_log_probs(model, tok, messages, pr.label_token_ids(tok))
    # the same logits; float64 vs float32 log-softmax over 49,152 tokens: measured difference 1.8e-5
    np.testing.assert_allclose(ours, ref, atol=1e-4)
    assert np.all(ours < 0)


@pytest.mark.parametrize("batch_size", [1, 2])
def test_classify_with_a_shared_prefix_equals_scoring_every_full_prompt(smollm2, batch_size):
    model, tok = smollm2
    frame = pr.classify(model, tok, SHORT, DEMOS[:2], batch_size=batch_size)
    label_ids = pr.label_token_ids(tok)
    for i, text in enumerate(SHORT):
        ref, length = _hf_label_log_probs(model, tok, pr.prompt_messages(text, DEMOS[:2]), label_ids)
        # float32: the cached, right-padded batch and the full prompt differ by < 1e-5 (measured 2e-6)
        np.testing.assert_allclose(frame.iloc[i, :2].to_numpy(float), ref, atol=1e-4)
        assert frame["prompt tokens"].iloc[i] == length
        assert frame["prediction"].iloc[i] == int(np.argmax(ref))


def test_classify_zero_shot_has_no_demonstrations_in_its_prompt(smollm2):
    model, tok = smollm2
    frame = pr.classify(model, tok, SHORT[:1])
    _, length = _hf_label_log_probs(model, tok, pr.prompt_messages(SHORT[0]), pr.label_token_ids(tok))
    assert frame["prompt tokens"].iloc[0] == length
    assert list(frame.columns) == ["log p(negative)", "log p(positive)", "prediction", "prompt tokens"]


# ------------------------------------------------------------------------ demonstrations
def test_draw_demonstrations_is_balanced_without_replacement_and_seeded():
    texts = [f"t{i}" for i in range(40)]
    labels = np.array([0, 1] * 20)
    for k in (0, 1, 2, 4, 7):
        demos = pr.draw_demonstrations(texts, labels, k, np.random.default_rng(k))
        got = [lab for _, lab in demos]
        assert len(demos) == k and len({t for t, _ in demos}) == k
        assert abs(got.count(0) - got.count(1)) == k % 2
        assert all(labels[int(t[1:])] == lab for t, lab in demos)  # each text keeps its own label
        again = pr.draw_demonstrations(texts, labels, k, np.random.default_rng(k))
        assert again == demos


def test_polarity_test_sample_is_balanced_and_fixed():
    sample = pr.polarity_test_sample(7)
    assert len(sample) == 14 and sample["label"].sum() == 7
    assert sample.index.equals(pr.polarity_test_sample(7).index)


# ------------------------------------------------------------------------ bad inputs
def test_bad_messages_are_rejected_with_the_argument_named():
    with pytest.raises(ValueError, match="messages"):
        pr.chat_text([])
    with pytest.raises(ValueError, match=r"messages\[0\]\['role'\]"):
        pr.chat_text([{"role": "robot", "content": "hi"}])
    with pytest.raises(TypeError, match=r"messages\[0\]"):
        pr.chat_text([{"role": "user"}])
    with pytest.raises(TypeError, match=r"messages\[0\]\['content'\]"):
        pr.chat_text([{"role": "user", "content": 3}])


def test_bad_prompts_and_demonstrations_are_rejected():
    with pytest.raises(ValueError, match="text"):
        pr.prompt_messages("")
    with pytest.raises(TypeError, match="demonstrations"):
        pr.prompt_messages("ok", "not pairs")
    with pytest.raises(TypeError, match=r"demonstrations\[0\]"):
        pr.prompt_messages("ok", [("only text",)])
    with pytest.raises(ValueError, match=r"demonstrations\[0\]\[1\]"):
        pr.prompt_messages("ok", [("text", 2)])
    with pytest.raises(ValueError, match="label_words"):
        pr.prompt_messages("ok", label_words=["positive"])
    with pytest.raises(ValueError, match="k"):
        pr.draw_demonstrations(["a", "b"], [0, 1], -1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="k=4 needs 2 texts of label 0"):
        pr.draw_demonstrations(["a", "b"], [0, 1], 4, np.random.default_rng(0))
    with pytest.raises(ValueError, match="labels"):
        pr.draw_demonstrations(["a", "b"], [0, 2], 1, np.random.default_rng(0))
    with pytest.raises(TypeError, match="rng"):
        pr.draw_demonstrations(["a", "b"], [0, 1], 1, 0)


def test_bad_model_inputs_are_rejected(smollm2):
    model, tok = smollm2
    with pytest.raises(ValueError, match="label_words must start with distinct tokens"):
        pr.label_token_ids(tok, ["positive", "positive"])
    with pytest.raises(ValueError, match="prompt"):
        pr.label_log_probs(model, tok, "")
    with pytest.raises(ValueError, match="texts"):
        pr.classify(model, tok, [])
    with pytest.raises(ValueError, match=r"texts\[1\]"):
        pr.classify(model, tok, ["fine", ""])
    with pytest.raises(ValueError, match="batch_size"):
        pr.classify(model, tok, ["fine"], batch_size=0)


# ------------------------------------------------------------------------ the stored study
def test_stored_study_has_five_seeds_per_k_and_consistent_numbers():
    study = pr.prompting_study()
    runs, setup = study["runs"], study["setup"]
    assert {"k", "seed", "accuracy", "se", "share positive", "prompt tokens", "margins"} <= set(runs.columns)
    assert (runs["k"] == 0).sum() == 1
    for k in (1, 2, 4):
        assert runs.loc[runs["k"] == k, "seed"].nunique() >= 5
    labels = pr.polarity_test_sample(setup["test items"] // 2)["label"].to_numpy()
    assert setup["majority accuracy"] == 0.5 and 0.6 < setup["logistic regression accuracy"] <= 1
    for _, run in runs.iterrows():
        margins = np.asarray(run["margins"])
        assert margins.shape == labels.shape
        assert run["accuracy"] == pytest.approx(((margins > 0) == labels).mean())
        assert run["share positive"] == pytest.approx((margins > 0).mean())
        assert run["se"] == pytest.approx(np.sqrt(run["accuracy"] * (1 - run["accuracy"]) / len(labels)))
    assert runs.groupby("k")["prompt tokens"].mean().is_monotonic_increasing  # demonstrations cost tokens


def test_missing_study_file_says_how_to_make_it(monkeypatch, tmp_path):
    monkeypatch.setattr(pr, "STUDY_FILE", tmp_path / "none.json")
    with pytest.raises(FileNotFoundError, match="benchmarks.sampling_prompting"):
        pr.prompting_study()
