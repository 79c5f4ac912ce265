"""Tests of nlp_helpers.llm.gpt: tokenizer, attention vs torch.nn.MultiheadAttention, causality, training."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from nlp_helpers.llm.gpt import (
    CausalSelfAttention,
    CharTokenizer,
    TinyGPT,
    TinyGPTConfig,
    estimate_loss,
    get_batch,
    train,
)
from nlp_helpers.sampling.generate import generate
from nlp_helpers.seeds import manual_seed, torch_generator


def small_model(V=11, seed=0, **kw):
    manual_seed(seed)
    return TinyGPT(TinyGPTConfig(vocab_size=V, **{"block_size": 16, "d_model": 32, "n_heads": 4, **kw}))


# -------------------------------------------------------------------------- tokenizer
def test_char_tokenizer_round_trip_and_ids():
    tok = CharTokenizer.from_text("hello world")
    assert tok.chars == [" ", "d", "e", "h", "l", "o", "r", "w"]
    assert tok.encode("hold") == [3, 5, 4, 1]
    assert tok.decode(tok.encode("low rod")) == "low rod"
    np.testing.assert_array_equal(tok.encode_array("hello"), [3, 2, 4, 4, 5])
    assert CharTokenizer.from_text("ä€x").decode(CharTokenizer.from_text("ä€x").encode("€xä")) == "€xä"


def test_char_tokenizer_rejects_unknown_characters_and_bad_alphabets():
    tok = CharTokenizer.from_text("abc")
    with pytest.raises(ValueError, match=r"outside the tokenizer's alphabet: \['z'\]"):
        tok.encode("abz")
    with pytest.raises(ValueError, match="ids must be in"):
        tok.decode([5])
    with pytest.raises(ValueError, match="duplicates"):
        CharTokenizer(["a", "a"])
    with pytest.raises(ValueError, match="single characters"):
        CharTokenizer(["ab"])
    with pytest.raises(ValueError, match="text must be a non-empty"):
        CharTokenizer.from_text("")


# --------------------------------------------------------------------------- attention
def test_causal_self_attention_equals_torch_multihead_attention():
    manual_seed(0)
    d, heads, T = 32, 4, 10
    ours = CausalSelfAttention(d, heads)
    ref = torch.nn.MultiheadAttention(d, heads, batch_first=True)
    with torch.no_grad():  # same weights: PyTorch also stacks W_Q, W_K, W_V in one matrix
        ref.in_proj_weight.copy_(ours.qkv.weight)
        ref.in_proj_bias.copy_(ours.qkv.bias)
        ref.out_proj.weight.copy_(ours.proj.weight)
        ref.out_proj.bias.copy_(ours.proj.bias)
    x = torch.randn(3, T, d)
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)  # True = may not attend
    want, _ = ref(x, x, x, attn_mask=mask, need_weights=False)
    torch.testing.assert_close(ours(x), want, atol=1e-5, rtol=1e-5)


def test_model_is_causal_future_tokens_do_not_change_past_logits():
    model = small_model().eval()
    a = torch.tensor([[1, 2, 3, 4, 5, 6]])
    b = torch.tensor([[1, 2, 3, 9, 9, 9]])
    with torch.no_grad():
        la, lb = model(a), model(b)
    torch.testing.assert_close(la[:, :3], lb[:, :3])
    assert not torch.allclose(la[:, 3:], lb[:, 3:])


# ----------------------------------------------------------------------------- model
def test_weight_tying_and_parameter_count():
    V, d, T, L = 11, 32, 16, 2
    model = small_model(V)
    assert model.lm_head.weight is model.tok_emb.weight
    # Counted by hand: embeddings, per block (2 LayerNorms, qkv, proj, MLP), final LayerNorm; no separate head.
    per_block = 2 * (2 * d) + (d * 3 * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d) + (4 * d * d + d)
    assert model.num_parameters() == V * d + T * d + L * per_block + 2 * d


def test_initial_loss_is_close_to_a_uniform_guess_and_equals_cross_entropy():
    model = small_model(V=40)
    x = torch.randint(0, 40, (8, 16), generator=torch_generator(0))
    y = torch.roll(x, -1, 1)
    logits, loss = model(x, y)
    assert logits.shape == (8, 16, 40)
    assert loss.item() == pytest.approx(math.log(40), abs=0.05)  # small init: logits near 0
    by_hand = -torch.log_softmax(logits, -1).gather(-1, y.unsqueeze(-1)).mean()
    torch.testing.assert_close(loss, by_hand)
    torch.testing.assert_close(loss, F.cross_entropy(logits.transpose(1, 2), y))


def test_bad_model_input():
    model = small_model()
    with pytest.raises(ValueError, match="block_size"):
        model(torch.zeros(1, 17, dtype=torch.long))
    with pytest.raises(ValueError, match=r"shape \(B, T\)"):
        model(torch.zeros(17, dtype=torch.long))
    with pytest.raises(ValueError, match="divisible"):
        TinyGPTConfig(vocab_size=5, d_model=30, n_heads=4)
    with pytest.raises(ValueError, match="vocab_size"):
        TinyGPTConfig(vocab_size=1)
    with pytest.raises(TypeError, match="TinyGPTConfig"):
        TinyGPT({"vocab_size": 5})


# -------------------------------------------------------------------------- training
def test_get_batch_targets_are_inputs_shifted_by_one():
    data = torch.arange(100)
    x, y = get_batch(data, 8, 5, torch_generator(0))
    assert x.shape == y.shape == (5, 8)
    torch.testing.assert_close(y, x + 1)
    with pytest.raises(ValueError, match="need more than block_size"):
        get_batch(torch.arange(8), 8, 2)


@pytest.mark.trains
def test_training_memorises_a_tiny_text_and_greedy_generation_recites_it():
    text = "to be or not to be, that is the question. " * 30
    tok = CharTokenizer.from_text(text)
    data = torch.tensor(tok.encode(text))
    model = small_model(tok.vocab_size, block_size=32)
    before = estimate_loss(model, data)  # the same fixed windows train() evaluates on
    history = train(model, data, data, steps=300, batch_size=16, lr=3e-3, eval_every=100, progress=False)
    assert [h["step"] for h in history] == [0, 100, 200, 300]
    assert history[0]["valid_loss"] == pytest.approx(before)
    assert history[-1]["valid_loss"] < 0.1 < 2.0 < before
    out = generate(model, tok, "that is the", 40, temperature=0)
    start = text.index("that is the") + len("that is the")
    assert out.texts[0] == text[start : start + 40]  # " question. to be or not to be, ..."


@pytest.mark.trains
def test_training_is_reproducible_with_a_seed():
    text = "abcabcabd" * 20
    tok = CharTokenizer.from_text(text)
    data = torch.tensor(tok.encode(text))
    runs = []
    for _ in range(2):
        model = small_model(tok.vocab_size, seed=1)
        runs.append(
            train(model, data, data, steps=20, batch_size=4, eval_every=10, seed=5, progress=False)[-1]["valid_loss"]
        )
    assert runs[0] == runs[1]
