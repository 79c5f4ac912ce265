"""The fixed-window neural LM: vs an equivalent torch.nn stack, n-gram token alignment, generalisation."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from nlp_helpers.feedforward.window_lm import (
    WindowLM,
    lm_vocabulary,
    token_logprobs,
    train_window_lm,
    window_examples,
)
from nlp_helpers.ngram.models import NGramLM

SHARED = [
    "the {} sleeps on the mat",
    "i feed the {} every day",
    "my {} is hungry",
    "the {} eats its dinner",
    "i love my {}",
    "the {} runs in the garden",
    "where is the {} ?",
]
PETS = [s.format(a).split() for s in SHARED for a in ("cat", "dog")] + [
    s.split()
    for s in [
        "i have to make sure that the cat gets fed",
        "the car gets washed on sunday",
        "the man gets paid on friday",
        "the letter gets sent today",
        "i drive the car to work",
        "the man reads the letter",
        "i wash the car",
        "the man works all day",
    ]
]
VOCAB = lm_vocabulary(sorted({w for s in PETS for w in s}))
IDS = {w: i for i, w in enumerate(VOCAB)}


def test_forward_equals_equivalent_torch_sequential():
    lm = WindowLM(len(VOCAB), k=3, dim=8, hidden=12, seed=0)
    ref = torch.nn.Sequential(
        torch.nn.Embedding(len(VOCAB), 8),
        torch.nn.Flatten(),
        torch.nn.Linear(24, 12),
        torch.nn.Tanh(),
        torch.nn.Linear(12, len(VOCAB)),
    )
    ref.load_state_dict(
        {
            "0.weight": lm.embed.weight,
            "2.weight": lm.hid.weight,
            "2.bias": lm.hid.bias,
            "4.weight": lm.out.weight,
            "4.bias": lm.out.bias,
        }
    )
    ctx = torch.randint(len(VOCAB), (5, 3), generator=torch.Generator().manual_seed(0))
    torch.testing.assert_close(lm(ctx), ref(ctx), rtol=1e-4, atol=1e-6)
    # W [e1; e2; e3] = W1 e1 + W2 e2 + W3 e3 (the lecture notes' form)
    e = lm.embed.weight[ctx[0]]
    W1, W2, W3 = lm.hid.weight.split(8, dim=1)
    h = torch.tanh(W1 @ e[0] + W2 @ e[1] + W3 @ e[2] + lm.hid.bias)
    torch.testing.assert_close(lm.out(h), lm(ctx[:1])[0], rtol=1e-4, atol=1e-6)


def test_window_examples_align_with_ngram_tokens():
    X, Y = window_examples([["a", "b"], ["c"]], lm_vocabulary(["a", "b"]), k=2)
    # <s>=0 </s>=1 <UNK>=2 a=3 b=4: predict a, b, </s>, then <UNK> (c), </s>
    assert X.tolist() == [[0, 0], [0, 3], [3, 4], [0, 0], [0, 2]] and Y.tolist() == [3, 4, 1, 2, 1]
    kn = NGramLM(3, "kneser_ney").fit(PETS)
    _, targets = window_examples(PETS, VOCAB, k=2)
    assert len(targets) == len(kn.token_logprobs(PETS))


@pytest.mark.trains
def test_training_generalises_from_cat_to_dog_over_seeds():
    # measured over 10 seeds (two offsets): P(fed | the dog gets) 0.55..0.87; Kneser-Ney 0.071
    X, Y = window_examples(PETS, VOCAB, k=3)
    kn = NGramLM(4, "kneser_ney").fit(PETS)
    p_kn = kn.prob("fed", ["that", "the", "dog", "gets"])
    for seed in range(3):
        lm = WindowLM(len(VOCAB), 3, 16, 32, seed=seed)
        losses = train_window_lm(lm, X, Y, steps=300, batch_size=64, seed=seed, progress=False)
        assert losses[-1] < losses[0] / 3
        logp = token_logprobs(lm, np.array([[IDS["the"], IDS["dog"], IDS["gets"]]]), np.array([IDS["fed"]]))
        assert math.exp(logp[0]) > 0.4 and p_kn < 0.15


@pytest.mark.trains
def test_training_is_reproducible_given_the_seed():
    X, Y = window_examples(PETS, VOCAB, k=3)
    a, b = WindowLM(len(VOCAB), seed=3), WindowLM(len(VOCAB), seed=3)
    train_window_lm(a, X, Y, steps=20, batch_size=16, seed=1, progress=False)
    train_window_lm(b, X, Y, steps=20, batch_size=16, seed=1, progress=False)
    for p, q in zip(a.parameters(), b.parameters()):
        torch.testing.assert_close(p, q)


def test_token_logprobs_equal_log_softmax():
    lm = WindowLM(len(VOCAB), k=3, seed=0)
    X, Y = window_examples(PETS[:3], VOCAB, k=3)
    want = torch.log_softmax(lm(torch.from_numpy(X)), -1)[torch.arange(len(Y)), torch.from_numpy(Y)]
    np.testing.assert_allclose(token_logprobs(lm, X, Y, batch_size=4), want.detach().numpy(), rtol=1e-5)


def test_bad_input_names_the_argument():
    lm = WindowLM(len(VOCAB), k=3, seed=0)
    X, Y = window_examples(PETS, VOCAB, k=3)
    with pytest.raises(ValueError, match="contexts"):
        lm(torch.zeros(2, 4, dtype=torch.int64))
    with pytest.raises(ValueError, match="contexts"):
        lm(torch.full((1, 3), len(VOCAB), dtype=torch.int64))
    with pytest.raises(TypeError, match="contexts"):
        lm(np.zeros((1, 3), dtype=np.int64))
    with pytest.raises(ValueError, match="vocabulary"):
        window_examples(PETS, ["cat", "dog"])
    with pytest.raises(TypeError, match="sentences"):
        window_examples(["the cat"], VOCAB)
    with pytest.raises(ValueError, match="k"):
        window_examples(PETS, VOCAB, k=0)
    with pytest.raises(ValueError, match="targets"):
        train_window_lm(lm, X, Y[:-1], steps=1, progress=False)
    with pytest.raises(ValueError, match="steps"):
        train_window_lm(lm, X, Y, steps=0, progress=False)
    with pytest.raises(ValueError, match="vocab_size"):
        WindowLM(1)
    with pytest.raises(TypeError, match="words"):
        lm_vocabulary(["a", 3])
    with pytest.raises(TypeError, match="model"):
        token_logprobs("not a model", X, Y)
