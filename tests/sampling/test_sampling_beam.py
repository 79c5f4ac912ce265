"""beam_search against transformers' ``generate(num_beams=k, do_sample=False)``: exactly the same token ids."""

from __future__ import annotations

import pytest
import torch

from nlp_helpers.sampling.beam import beam_search
from tests.tiny_models import tiny_llama


@pytest.fixture(scope="module")
def tiny():
    """A tiny random Llama (vocabulary 50, six end-of-sequence ids 3-8, so hypotheses do finish early)."""
    return tiny_llama(vocab_size=50, eos_token_id=[3, 4, 5, 6, 7, 8], bos_token_id=1, max_position_embeddings=128)


def _hf(model, ids, k, n, **kw):
    with torch.no_grad():
        return model.generate(ids, num_beams=k, do_sample=False, max_new_tokens=n, **kw)


def test_equals_transformers_on_a_tiny_random_model(tiny):
    ended_early = 0
    for s in range(12):
        ids = torch.randint(9, 50, (1, 2 + s % 6), generator=torch.Generator().manual_seed(s))
        for k in (1, 2, 4, 7):
            ours, theirs = beam_search(tiny, ids, k, 12), _hf(tiny, ids, k, 12)
            assert ours.shape == theirs.shape and torch.equal(ours, theirs), (s, k, ours, theirs)
            ended_early += ours.shape[1] < ids.shape[1] + 12
    assert ended_early >= 3  # the end-of-sequence path (finished hypotheses, early stop) is exercised


@pytest.mark.parametrize("penalty", [0.0, 0.5, 2.0])
def test_length_penalty_matches_transformers(tiny, penalty):
    for s in range(5):
        ids = torch.randint(9, 50, (1, 4), generator=torch.Generator().manual_seed(100 + s))
        ours = beam_search(tiny, ids, 3, 10, length_penalty=penalty)
        assert torch.equal(ours, _hf(tiny, ids, 3, 10, length_penalty=penalty))


def test_one_beam_is_greedy(tiny):
    ids = torch.tensor([[5, 6, 7]])
    with torch.no_grad():
        greedy = tiny.generate(ids, do_sample=False, max_new_tokens=10)
    assert torch.equal(beam_search(tiny, ids, 1, 10), greedy)


@pytest.mark.slow
def test_equals_transformers_on_smollm2():
    from nlp_helpers.data.smollm2 import load_smollm2

    # Two prompts and two widths: the tiny models above cover the other paths (early ends, penalties), at a
    # hundredth of the cost; here the question is only whether the real model's cache and logits agree.
    model, tok = load_smollm2(verbose=False)
    for prompt, k in [("The capital of France is", 4), ("Once upon a time, there was a little", 2)]:
        ids = tok(prompt, return_tensors="pt")["input_ids"]
        assert torch.equal(beam_search(model, ids, k, 12), _hf(model, ids, k, 12)), (prompt, k)


def test_bad_inputs_name_the_argument(tiny):
    ids = torch.tensor([[5, 6]])
    with pytest.raises(ValueError, match="num_beams"):
        beam_search(tiny, ids, 0, 5)
    with pytest.raises(ValueError, match="max_new_tokens"):
        beam_search(tiny, ids, 2, 0)
    with pytest.raises(TypeError, match="input_ids must be an integer"):
        beam_search(tiny, ids.float(), 2, 5)
    with pytest.raises(ValueError, match="input_ids must have shape"):
        beam_search(tiny, torch.zeros((2, 3), dtype=torch.long), 2, 5)
    with pytest.raises(ValueError, match="input_ids must be token ids"):
        beam_search(tiny, torch.tensor([[5, 99]]), 2, 5)
    with pytest.raises(TypeError, match="model must be a Hugging Face"):
        beam_search(object(), ids, 2, 5)
    with pytest.raises(ValueError, match="eos_token_id"):
        beam_search(tiny, ids, 2, 5, eos_token_id=[-1])
