"""Tests of nlp_helpers.sampling.generate: the generation loop (vs transformers' generate) and the diversity measures."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from nlp_helpers.sampling import generate as G


@pytest.fixture(scope="module")
def smollm2():
    from nlp_helpers.data.smollm2 import load_smollm2

    return load_smollm2(verbose=False)


# ---------------------------------------------------------------- quality and diversity
def test_distinct_n_hand_worked():
    seqs = [["the", "cat", "sat"], ["the", "cat", "ran"]]
    assert G.distinct_n(seqs, 1) == pytest.approx(4 / 6)  # the, cat, sat, ran
    assert G.distinct_n(seqs, 2) == pytest.approx(3 / 4)  # (the cat) twice, (cat sat), (cat ran)
    assert G.distinct_n([[1, 2, 3], [4]], 2) == 1.0  # the short sequence adds nothing
    with pytest.raises(ValueError, match="no 3-gram"):
        G.distinct_n([[1, 2]], 3)
    with pytest.raises(ValueError, match="sequences must not be empty"):
        G.distinct_n([], 1)


def test_repetition_rate_hand_worked():
    assert G.repetition_rate([["a", "b", "a", "b", "a", "b"]], n=2) == pytest.approx(1 - 2 / 5)
    assert G.repetition_rate([[1, 2, 3, 4, 5]], n=2) == 0.0
    assert G.repetition_rate([[1, 1, 1, 1], [1, 2, 3, 4]], n=1) == pytest.approx((0.75 + 0.0) / 2)


# ---------------------------------------------------------------------------- generation
class CountingModel(torch.nn.Module):
    """A fake LM over V=5 tokens whose next token is (last + 1) mod 5 with high probability."""

    block_size = 8

    def forward(self, ids):
        logits = torch.full((*ids.shape, 5), -4.0)
        logits.scatter_(2, ((ids + 1) % 5).unsqueeze(-1), 4.0)
        return logits


class DigitTokenizer:
    def encode(self, text):
        return [int(c) for c in text]

    def decode(self, ids):
        return "".join(str(i) for i in ids)


def test_generate_greedy_follows_the_model_and_reports_log_probs():
    g = G.generate(CountingModel(), DigitTokenizer(), "012", 6, temperature=0)
    assert g.texts == ["340123"]
    logp = math.log(math.exp(4) / (math.exp(4) + 4 * math.exp(-4)))  # hand-worked softmax
    np.testing.assert_allclose(g.log_probs, logp, rtol=1e-9)


@pytest.mark.trains
def test_generate_many_is_reproducible_and_keeps_settings_apart():
    settings_ = [{"temperature": 0}, {"temperature": 3.0}]
    a = G.generate_many(CountingModel(), DigitTokenizer(), "0", settings_, 20, num_samples=4, seed=3)
    b = G.generate_many(CountingModel(), DigitTokenizer(), "0", settings_, 20, num_samples=4, seed=3)
    for ga, gb in zip(a, b):
        np.testing.assert_array_equal(ga.token_ids, gb.token_ids)
    assert a[0].token_ids.shape == (4, 20)
    assert len(set(a[0].texts)) == 1  # greedy: every sample identical
    assert len(set(a[1].texts)) == 4  # hot sampling: all different
    assert a[0].mean_log_prob > a[1].mean_log_prob


def test_generate_rejects_bad_arguments():
    with pytest.raises(ValueError, match="unknown strategy"):
        G.generate(CountingModel(), DigitTokenizer(), "0", 3, topk=3)
    with pytest.raises(ValueError, match="top_p"):
        G.generate(CountingModel(), DigitTokenizer(), "0", 3, top_p=2.0)
    with pytest.raises(ValueError, match="max_new_tokens"):
        G.generate(CountingModel(), DigitTokenizer(), "0", 0)
    with pytest.raises(ValueError, match="prompt"):
        G.generate(CountingModel(), DigitTokenizer(), "", 3)


@pytest.mark.trains
@pytest.mark.slow
def test_greedy_generation_on_smollm2_equals_transformers_generate(smollm2):
    model, tok = smollm2
    prompt = "The capital of France is"
    ours = G.generate(model, tok, prompt, 12, temperature=0)
    ids = tok(prompt, return_tensors="pt", add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        ref = model.generate(ids, max_new_tokens=12, do_sample=False, min_new_tokens=12, pad_token_id=tok.eos_token_id)
    np.testing.assert_array_equal(ours.token_ids[0], ref[0, ids.shape[1] :].numpy())
    # The reported log-probabilities equal teacher forcing on the finished text (one forward pass).
    full = torch.cat([ids, torch.from_numpy(ours.token_ids)], dim=1)
    with torch.no_grad():
        lp = torch.log_softmax(model(full).logits[0, ids.shape[1] - 1 : -1].double(), -1)
    np.testing.assert_allclose(ours.log_probs[0], lp[torch.arange(12), full[0, ids.shape[1] :]].numpy(), atol=2e-4)


@pytest.mark.trains
@pytest.mark.slow
def test_greedy_with_repetition_penalty_equals_transformers_generate(smollm2):
    """The penalty is applied to prompt and generated tokens alike, as transformers does."""
    model, tok = smollm2
    prompt = "Once upon a time, there was a little"
    ours = G.generate(model, tok, prompt, 16, temperature=0, repetition_penalty=1.3)
    plain = G.generate(model, tok, prompt, 16, temperature=0)
    ids = tok(prompt, return_tensors="pt", add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        ref = model.generate(
            ids,
            max_new_tokens=16,
            min_new_tokens=16,
            do_sample=False,
            repetition_penalty=1.3,
            pad_token_id=tok.eos_token_id,
        )
    np.testing.assert_array_equal(ours.token_ids[0], ref[0, ids.shape[1] :].numpy())
    assert not np.array_equal(ours.token_ids, plain.token_ids)  # the penalty changed the text


def test_shared_prompt_cache_gives_the_log_probs_of_a_fresh_forward_pass():
    """The prompt runs once and its keys and values are copied to every row; each row's log-probabilities
    must still equal a teacher-forced pass over its own whole text (float64, so to 1e-9)."""
    from tests.tiny_models import tiny_llama

    model = tiny_llama(layers=2, vocab_size=10, dtype=torch.float64)
    settings_ = [{"temperature": 0}, {"temperature": 2.0}, {"temperature": 1.0, "top_k": 3}]
    gens = G.generate_many(model, DigitTokenizer(), "0123", settings_, 7, num_samples=3, seed=1)
    for g in gens:
        assert g.token_ids.shape == g.log_probs.shape == (3, 7)
        for row, lp in zip(g.token_ids, g.log_probs):
            ids = torch.tensor([[0, 1, 2, 3, *row.tolist()]])
            with torch.no_grad():
                logp = torch.log_softmax(model(ids).logits[0, 3:-1], dim=-1)
            np.testing.assert_allclose(lp, logp[torch.arange(7), ids[0, 4:]].numpy(), rtol=1e-9, atol=1e-12)
    assert len(set(gens[0].texts)) == 1  # greedy ran as one row, repeated
    assert len(set(gens[1].texts)) > 1


def test_batched_prompts_of_different_lengths_equal_separate_runs():
    """Left padding with an attention mask and positions that skip the padding: every prompt of the batch
    gives the texts of its own generate_many call, and each row's log-probabilities equal a teacher-forced
    pass over its own unpadded text (float64, so to 1e-9)."""
    from tests.tiny_models import tiny_llama

    model = tiny_llama(layers=2, vocab_size=10, dtype=torch.float64)
    prompts = ["0123", "45", "678912"]
    settings_ = [{"temperature": 0}, {"temperature": 2.0}, {"temperature": 1.0, "top_k": 3}]
    batched = G.generate_batch(model, DigitTokenizer(), prompts, settings_, 6, num_samples=3, seed=2)
    assert [[g.prompt for g in gens] for gens in batched] == [[p] * 3 for p in prompts]
    for prompt, gens in zip(prompts, batched):
        alone = G.generate_many(model, DigitTokenizer(), prompt, settings_, 6, num_samples=3, seed=2)
        start = [int(c) for c in prompt]
        for g, a in zip(gens, alone):
            np.testing.assert_array_equal(g.token_ids, a.token_ids)
            np.testing.assert_allclose(g.log_probs, a.log_probs, rtol=1e-9, atol=1e-12)
            for row, lp in zip(g.token_ids, g.log_probs):
                ids = torch.tensor([[*start, *row.tolist()]])
                with torch.no_grad():
                    logp = torch.log_softmax(model(ids).logits[0, len(start) - 1 : -1], dim=-1)
                np.testing.assert_allclose(
                    lp, logp[torch.arange(6), ids[0, len(start) :]].numpy(), rtol=1e-9, atol=1e-12
                )
    assert batched[0][1].texts != batched[1][1].texts  # the prompts did not leak into each other


def test_batched_prompts_without_an_attention_mask_run_one_after_the_other():
    prompts = ["012", "3"]
    batched = G.generate_batch(CountingModel(), DigitTokenizer(), prompts, [{"temperature": 0}, {}], 5, 2, seed=4)
    for prompt, gens in zip(prompts, batched):
        alone = G.generate_many(CountingModel(), DigitTokenizer(), prompt, [{"temperature": 0}, {}], 5, 2, seed=4)
        for g, a in zip(gens, alone):
            np.testing.assert_array_equal(g.token_ids, a.token_ids)
    assert batched[1][0].texts[0] == "40123"  # greedy counts on from the prompt's last digit


@pytest.mark.trains
@pytest.mark.slow
def test_batched_greedy_on_smollm2_equals_transformers_generate_per_prompt(smollm2):
    """Two prompts of different lengths (9 and 6 tokens) in one left-padded batch: each greedy continuation
    is what transformers' generate gives for that prompt alone, and the log-probabilities agree with it
    to 1e-3 (measured: at most 1.7e-4; float32 matrix products of another batch shape round differently,
    while a padding or position error moves them by more than 1e-2)."""
    model, tok = smollm2
    prompts = ["Once upon a time, there was a little", "The capital of France is"]
    batched = G.generate_batch(model, tok, prompts, [{"temperature": 0}], 12)
    for prompt, (g,) in zip(prompts, batched):
        ids = tok(prompt, return_tensors="pt", add_special_tokens=False)["input_ids"]
        with torch.no_grad():
            ref = model.generate(
                ids,
                max_new_tokens=12,
                min_new_tokens=12,
                do_sample=False,
                output_logits=True,  # raw: the scores have EOS masked by min_new_tokens
                return_dict_in_generate=True,
                pad_token_id=tok.eos_token_id,
            )
        np.testing.assert_array_equal(g.token_ids[0], ref.sequences[0, ids.shape[1] :].numpy())
        ref_lp = torch.stack([torch.log_softmax(s[0].double(), -1)[t] for s, t in zip(ref.logits, g.token_ids[0])])
        np.testing.assert_allclose(g.log_probs[0], ref_lp.numpy(), atol=1e-3)
