"""The reversal toy model: the task's batches, numpy parity with torch, greedy decoding, the logit lens."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.attention.toy_transformer import (
    ReversalTask,
    TinyTransformer,
    greedy_decode,
    logit_lens,
    numpy_forward,
    train_reversal,
)
from nlp_helpers.seeds import manual_seed
from nlp_helpers.seeds import rng as seeded_rng


def test_batches_are_reversals_shifted_right():
    task = ReversalTask()
    src, tgt_in, tgt_out = task.batch(seeded_rng(0), 4)
    assert src.shape == tgt_in.shape == tgt_out.shape == (4, 6)
    assert torch.equal(tgt_out, src.flip(1))
    assert (tgt_in[:, 0] == 0).all() and torch.equal(tgt_in[:, 1:], tgt_out[:, :-1])
    assert task.decode(task.encode("facade")) == list("facade")
    with pytest.raises(ValueError, match="6 symbols"):
        task.encode("xyz")


def test_numpy_forward_equals_torch_on_an_untrained_model():
    manual_seed(0)
    model = TinyTransformer(9, max_len=6).eval()
    with torch.no_grad():
        for p in model.parameters():
            p.add_(0.1 * torch.randn_like(p))
    src, tgt = np.array([1, 2, 3, 4, 5, 6]), np.array([0, 6, 5, 4, 3, 2])
    out = numpy_forward(model, src, tgt)
    with torch.no_grad():
        ref = model(torch.tensor(src)[None], torch.tensor(tgt)[None])[0].double().numpy()
    np.testing.assert_allclose(out["logits"], ref, atol=1e-4)  # torch runs in float32
    assert out["cross"].shape == (2, 2, 6, 6) and out["decoder_self"].shape == (2, 2, 6, 6)
    assert np.triu(out["decoder_self"][0, 0], 1).max() == 0
    E = model.embed.weight.detach().double().numpy()
    np.testing.assert_array_equal(logit_lens(out["decoder_states"], E)[-1], out["logits"].argmax(-1))
    with pytest.raises(ValueError, match="src_ids must hold"):
        numpy_forward(model, np.array([1, 2, 99]), tgt)


@pytest.mark.trains
@pytest.mark.slow
def test_training_learns_to_reverse_and_greedy_decoding_agrees():
    task = ReversalTask()
    model, losses = train_reversal(task, progress=False)
    assert np.mean(losses[-10:]) < 0.01 < 1.0 < losses[0]
    src, _, tgt_out = task.batch(seeded_rng(1), 20)
    correct = [greedy_decode(model, s) == t.tolist() for s, t in zip(src, tgt_out)]
    assert np.mean(correct) >= 0.9


def test_small_embedding_init_starts_at_the_uniform_loss():
    """embed_std=0.02: initial logits near 0, so the loss is close to ln V (the uniform guess)."""
    task = ReversalTask()
    V = len(task.vocab)
    src, tgt_in, tgt_out = task.batch(seeded_rng(0), 256)
    losses = {}
    for std in (None, 0.02):
        manual_seed(0)
        model = TinyTransformer(V, max_len=task.length, embed_std=std)
        with torch.no_grad():
            logits = model(src, tgt_in)
        losses[std] = torch.nn.functional.cross_entropy(logits.reshape(-1, V), tgt_out.reshape(-1)).item()
        if std is not None:
            assert abs(model.embed.weight.std().item() - std) < 0.005
    assert abs(losses[0.02] - np.log(V)) < 0.1  # measured 2.197-2.230 over 10 seeds
    assert losses[None] > 2.5 * np.log(V)  # torch's N(0, 1) default: 14-19 nats
    with pytest.raises(ValueError, match="embed_std"):
        TinyTransformer(V, embed_std=0.0)
