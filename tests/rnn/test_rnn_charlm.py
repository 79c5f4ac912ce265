"""The character LSTM language model: weight tying, scoring, perplexity, training, sampling, ELMo vectors."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from torch import nn

from nlp_helpers.rnn.charlm import (
    CharLM,
    char_logprobs,
    contextual_word_vector,
    decode,
    encode,
    generate,
    perplexity,
    train_lm,
)
from nlp_helpers.seeds import manual_seed

VOCAB = list("\n abc.")


def test_encode_decode_roundtrip_and_unknown_characters():
    ids = encode("abc cab.\n", VOCAB)
    assert ids.dtype == torch.long and decode(ids, VOCAB) == "abc cab.\n"
    assert ids.tolist()[:3] == [2, 3, 4]
    with pytest.raises(ValueError, match=r"not in vocab: \['z'\]"):
        encode("abz", VOCAB)
    with pytest.raises(ValueError, match="text must be a non-empty string"):
        encode("", VOCAB)


def test_tied_output_is_the_embedding_transposed():
    manual_seed(0)
    lm = CharLM(len(VOCAB), embedding_dim=8, hidden_size=8)
    ids = torch.tensor([[1, 2, 3, 4]])
    logits, _ = lm(ids)
    # independent recomputation: embedding -> nn.LSTM -> h @ E^T + c
    h, _ = lm.layers[0](lm.embedding.weight[ids])
    torch.testing.assert_close(logits, h @ lm.embedding.weight.T + lm.output_bias)
    untied = CharLM(len(VOCAB), embedding_dim=8, hidden_size=8, tie_weights=False)
    n = lambda m: sum(p.numel() for p in m.parameters())  # noqa: E731
    assert n(untied) - n(lm) == 8 * len(VOCAB)  # the separate output matrix
    with pytest.raises(ValueError, match="embedding_dim == hidden_size"):
        CharLM(len(VOCAB), embedding_dim=8, hidden_size=16)
    CharLM(len(VOCAB), embedding_dim=8, hidden_size=16, tie_weights=False)  # fine when untied


def test_uniform_model_has_perplexity_vocab_size():
    """All parameters zero -> all logits zero -> P = 1/V for every character -> perplexity V."""
    lm = CharLM(len(VOCAB), 4, 4)
    with torch.no_grad():
        for p in lm.parameters():
            p.zero_()
    ids = encode("abc cab.\nbca ab\n", VOCAB)
    assert perplexity(lm, ids) == pytest.approx(len(VOCAB), rel=1e-6)
    np.testing.assert_allclose(char_logprobs(lm, ids), -math.log(len(VOCAB)), rtol=1e-6)


@pytest.mark.parametrize("streams,chunk", [(1, 1000), (1, 3), (4, 5), (50, 2)])
def test_char_logprobs_equal_one_pass_per_stream(streams, chunk):
    """Carrying the state across chunks must give the same numbers as one uninterrupted pass."""
    manual_seed(1)
    lm = CharLM(len(VOCAB), 6, 6, num_layers=2)
    ids = torch.randint(0, len(VOCAB), (37,))
    got = char_logprobs(lm, ids, streams=streams, chunk=chunk)
    assert got.shape == (36,)
    n_streams = min(streams, 36)
    L = math.ceil(36 / n_streams)
    want = []
    with torch.no_grad():
        for s in range(n_streams):  # stream s reads ids[s·L : ...] from a zero state and predicts the next ids
            a, b = s * L, min((s + 1) * L, 36)
            if a >= b:
                continue
            logits, _ = lm(ids[a:b][None])
            logp = torch.log_softmax(logits[0], -1)
            want.append(logp[torch.arange(b - a), ids[a + 1 : b + 1]])
    np.testing.assert_allclose(got, torch.cat(want).numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.trains
def test_training_learns_a_repeating_text_and_greedy_generation_continues_it():
    text = "abc." * 200
    ids = encode(text, VOCAB)
    manual_seed(0)
    lm = CharLM(len(VOCAB), 16, 16)
    before = perplexity(lm, ids)
    history = train_lm(
        lm, ids, valid_ids=ids, steps=120, batch_size=8, seq_len=16, lr=2e-2, eval_every=40, progress=False
    )
    assert list(history.columns) == ["step", "train_loss", "valid_loss"] and len(history) == 120
    assert history.valid_loss.notna().sum() == 3
    assert before > 4 and perplexity(lm, ids) < 1.1
    assert generate(lm, VOCAB, "ab", n_chars=10, temperature=0) == "c.abc.abc."


@pytest.mark.trains
def test_training_is_deterministic_given_the_seed():
    ids = encode("abc cab bca.\n" * 20, VOCAB)
    losses = []
    for _ in range(2):
        manual_seed(0)
        lm = CharLM(len(VOCAB), 8, 8)
        losses.append(train_lm(lm, ids, steps=5, batch_size=4, seq_len=8, progress=False).train_loss.to_numpy())
    np.testing.assert_array_equal(losses[0], losses[1])


@pytest.mark.trains
def test_sampling_temperature_and_seed():
    manual_seed(0)
    lm = CharLM(len(VOCAB), 8, 8)
    a = generate(lm, VOCAB, "ab", 30, temperature=1.0, seed=3)
    assert a == generate(lm, VOCAB, "ab", 30, temperature=1.0, seed=3) and len(a) == 30
    assert set(a) <= set(VOCAB)
    # a tiny temperature is (almost surely) the greedy choice
    assert generate(lm, VOCAB, "ab", 20, temperature=1e-4, seed=5) == generate(lm, VOCAB, "ab", 20, temperature=0)
    with pytest.raises(ValueError, match="temperature must be >= 0"):
        generate(lm, VOCAB, "ab", 5, temperature=-1.0)
    with pytest.raises(ValueError, match="prompt must be a non-empty string"):
        generate(lm, VOCAB, "", 5)
    with pytest.raises(ValueError, match="vocab has 3 characters"):
        generate(lm, VOCAB[:3], "a", 5)


def test_contextual_vectors_layer0_is_context_free_and_layer1_is_not():
    manual_seed(0)
    fwd, bwd = CharLM(len(VOCAB), 8, 8), CharLM(len(VOCAB), 8, 8)
    s1, s2 = "ab cab.", "cab ba."
    only = lambda j: [30.0 if i == j else -30.0 for i in range(2)]  # noqa: E731
    v1 = contextual_word_vector(fwd, bwd, VOCAB, s1, 3, 6, weights=only(0))
    v2 = contextual_word_vector(fwd, bwd, VOCAB, s2, 0, 3, weights=only(0))
    assert v1.shape == (16,)
    np.testing.assert_allclose(v1, v2, atol=1e-6)  # same characters, no context
    np.testing.assert_allclose(v1[:8], fwd.embedding.weight[[4, 2, 3]].mean(0).detach().numpy(), atol=1e-6)
    w1 = contextual_word_vector(fwd, bwd, VOCAB, s1, 3, 6, weights=only(1))
    w2 = contextual_word_vector(fwd, bwd, VOCAB, s2, 0, 3, weights=only(1))
    assert np.abs(w1 - w2).max() > 1e-4
    # the forward half is the forward LM's state after the word's last character
    with torch.no_grad():
        states, _ = fwd.layer_states(encode(s1, VOCAB)[None])
    np.testing.assert_allclose(w1[:8], states[1][0, 5].numpy(), atol=1e-6)
    with pytest.raises(ValueError, match="end must be >= 4"):
        contextual_word_vector(fwd, bwd, VOCAB, s1, 3, 3)
    with pytest.raises(ValueError, match="weights must have 2 numbers"):
        contextual_word_vector(fwd, bwd, VOCAB, s1, 3, 6, weights=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="same number of layers"):
        contextual_word_vector(fwd, CharLM(len(VOCAB), 8, 8, num_layers=2), VOCAB, s1, 3, 6)


def test_bad_input():
    lm = CharLM(len(VOCAB), 4, 4)
    with pytest.raises(ValueError, match="empty sequence"):
        lm(torch.zeros(1, 0, dtype=torch.long))
    with pytest.raises(ValueError, match=r"ids must lie in \[0, 5\]"):
        lm(torch.tensor([[0, 9]]))
    with pytest.raises(ValueError, match=r"ids must be a \(B, T\) tensor"):
        lm(torch.tensor([0, 1]))
    with pytest.raises(ValueError, match="train_ids has 5 characters; at least 9"):
        train_lm(lm, torch.arange(5), seq_len=8, progress=False)
    with pytest.raises(ValueError, match="lr must be > 0"):
        train_lm(lm, torch.arange(5).repeat(10), lr=0.0, progress=False)
    with pytest.raises(ValueError, match="ids has 1 characters; at least 2"):
        perplexity(lm, torch.tensor([1]))
    with pytest.raises(ValueError, match="1-D tensor of character ids"):
        char_logprobs(lm, torch.tensor([[1, 2]]))
    with pytest.raises(TypeError, match="model must be CharLM"):
        perplexity(nn.LSTM(2, 2), torch.tensor([1, 2]))
