"""Speculative decoding: greedy exactness against plain greedy decoding (and transformers' generate),
the accept/reject rule's output distribution against the target p (exactly, and by sampling),
the early-exit draft against a model truncated by hand."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from nlp_helpers.sampling.speculative import (
    SpeculativeResult,
    accept_or_resample,
    early_exit_draft,
    greedy_decode,
    model_logits_fn,
    speculative_greedy,
    speculative_output_distribution,
)
from tests.tiny_models import tiny_llama


@pytest.fixture(scope="module")
def tiny():
    """A tiny random Llama, 4 layers, in float64 so argmax ties cannot flip between code paths."""
    return tiny_llama(layers=4, dtype=torch.float64, max_position_embeddings=128, bos_token_id=1, eos_token_id=2)


def _table_model(table):
    def fn(ids):
        return np.array([table[(ids[max(0, t - 1)] * 5 + ids[t]) % len(table)] for t in range(len(ids))])

    return fn


@pytest.mark.parametrize("num_draft", [1, 3, 5])
def test_greedy_speculative_equals_greedy_on_a_table_model(num_draft):
    g = np.random.default_rng(1)
    table = g.normal(size=(17, 9))
    target = _table_model(table)
    for noise in (0.0, 0.5, 3.0):  # perfect, good and poor drafts
        draft = _table_model(table + g.normal(scale=noise, size=table.shape))
        want, calls = greedy_decode(target, [3, 1], 15)
        res = speculative_greedy(target, draft, [3, 1], num_draft, 15)
        assert res.ids == want
        assert res.target_calls <= calls
        if noise == 0.0:  # all accepted: one round yields num_draft + 1 tokens
            assert res.acceptance_rate == 1.0
            assert res.target_calls == -(-15 // (num_draft + 1))


def test_greedy_speculative_equals_transformers_generate(tiny):
    prompt = [1, 7, 9, 4]
    ref = tiny.generate(torch.tensor([prompt]), max_new_tokens=12, do_sample=False, eos_token_id=None, pad_token_id=0)
    draft = early_exit_draft(tiny, 2)
    for cache in (False, True):
        res = speculative_greedy(model_logits_fn(tiny, cache), model_logits_fn(draft, cache), prompt, 3, 12)
        assert res.ids == ref[0].tolist()


def test_cached_logits_equal_a_fresh_forward_after_a_rollback(tiny):
    cached, fresh = model_logits_fn(tiny, True), model_logits_fn(tiny, False)
    cached([1, 5, 6, 7, 8])
    got = cached([1, 5, 6, 9])  # shares a prefix of 3: the cache is cropped, then extended
    np.testing.assert_allclose(got, fresh([1, 5, 6, 9]), rtol=1e-10, atol=1e-12)


def test_cached_logits_of_a_seen_prefix_need_no_forward_pass(tiny):
    cached, fresh = model_logits_fn(tiny, True), model_logits_fn(tiny, False)
    passes = []
    hook = tiny.register_forward_pre_hook(lambda module, args: passes.append(1))
    try:
        cached([1, 5, 6, 7, 8])
        assert len(passes) == 1
        got_prefix, got_same = cached([1, 5, 6]), cached([1, 5, 6, 7, 8])
        assert len(passes) == 1  # both were seen: read from the cache
        got_longer = cached([1, 5, 6, 7, 8, 3])  # extends the sequence the cache holds: one more pass
        assert len(passes) == 2
    finally:
        hook.remove()
    np.testing.assert_allclose(got_prefix, fresh([1, 5, 6]), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got_same, fresh([1, 5, 6, 7, 8]), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got_longer, fresh([1, 5, 6, 7, 8, 3]), rtol=1e-10, atol=1e-12)
    assert got_prefix.shape[0] == 3


def test_early_exit_draft_equals_a_model_truncated_by_hand(tiny):
    draft = early_exit_draft(tiny, 2)
    ids = torch.tensor([[1, 4, 6, 8]])
    with torch.no_grad():
        got = draft(ids).logits
        hidden = tiny(ids, output_hidden_states=True).hidden_states[2]  # after 2 layers
        want = tiny.lm_head(tiny.model.norm(hidden))
    torch.testing.assert_close(got, want, rtol=1e-10, atol=1e-12)
    assert len(tiny.model.layers) == 4  # the original model is untouched
    assert draft.lm_head.weight is tiny.lm_head.weight  # no copy


def test_output_distribution_is_exactly_p():
    g = np.random.default_rng(0)
    for _ in range(20):
        p, q = g.dirichlet(np.ones(6)), g.dirichlet(np.ones(6))
        np.testing.assert_allclose(speculative_output_distribution(p, q), p, rtol=1e-12)
    # hand-worked: p = (0.5, 0.5), q = (1, 0): accept token 0 with prob 1/2, else residual = token 1
    np.testing.assert_allclose(speculative_output_distribution([0.5, 0.5], [1.0, 0.0]), [0.5, 0.5])


@pytest.mark.trains
def test_accept_or_resample_samples_p():
    p = np.array([0.5, 0.2, 0.2, 0.1])
    q = np.array([0.25, 0.45, 0.1, 0.2])
    g = np.random.default_rng(5)
    n = 20000
    draws = [accept_or_resample(p, q, int(g.choice(4, p=q)), g) for _ in range(n)]
    freq = np.bincount(draws, minlength=4) / n
    z = (freq - p) / np.sqrt(p * (1 - p) / n)
    assert np.abs(z).max() < 5  # 5-sd bound per category


def test_bad_inputs():
    f = _table_model(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="num_draft"):
        speculative_greedy(f, f, [1], 0, 3)
    with pytest.raises(ValueError, match="input_ids"):
        speculative_greedy(f, f, [], 2, 3)
    with pytest.raises(TypeError, match="target"):
        speculative_greedy(None, f, [1], 2, 3)
    with pytest.raises(ValueError, match="max_new_tokens"):
        greedy_decode(f, [1], -1)
    with pytest.raises(ValueError, match="p must"):
        speculative_output_distribution([0.5, 0.6], [0.5, 0.5])
    with pytest.raises(ValueError, match="same shape"):
        speculative_output_distribution([0.5, 0.5], [1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="x"):
        accept_or_resample([0.5, 0.5], [1.0, 0.0], 1)
    with pytest.raises(ValueError, match="num_layers"):
        early_exit_draft(tiny_llama(vocab_size=8), 3)  # 2 layers: no draft of 3
    with pytest.raises(TypeError, match="model"):
        early_exit_draft(object(), 1)
    with pytest.raises(TypeError, match="model"):
        model_logits_fn(3)


def test_speculative_result_acceptance_rate():
    assert SpeculativeResult(ids=[1, 2], target_calls=1, draft_calls=4, proposed=4, accepted=3).acceptance_rate == 0.75
    assert np.isnan(SpeculativeResult(ids=[1], target_calls=0, draft_calls=0, proposed=0, accepted=0).acceptance_rate)


# ---- the expected speed-up (Leviathan et al., 2023, section 3) ----------------------------------------------
def test_expected_tokens_per_pass_by_hand_and_by_simulation():
    from nlp_helpers.sampling.speculative import expected_tokens_per_pass, speculative_speedup

    assert expected_tokens_per_pass(0.8, 4) == pytest.approx(1 + 0.8 + 0.64 + 0.512 + 0.4096, rel=1e-12)
    assert expected_tokens_per_pass(1.0, 4) == 5.0  # the limit: every draft accepted, plus the bonus token
    assert expected_tokens_per_pass(0.0, 4) == 1.0  # every first draft rejected: the target's token only
    assert expected_tokens_per_pass(0.7, 0) == 1.0  # no draft: plain decoding
    assert speculative_speedup(0.8, 4, 0.05) == pytest.approx(3.3616 / 1.2, rel=1e-12)
    # Monte Carlo: the first rejection ends a round; gamma accepted drafts end it with the bonus token
    g = np.random.default_rng(0)
    alpha, gamma, n = 0.7, 3, 200_000
    accepted = np.minimum(g.geometric(1 - alpha, size=n) - 1, gamma)
    assert (accepted + 1).mean() == pytest.approx(expected_tokens_per_pass(alpha, gamma), abs=0.01)  # 4 se = 0.008


def test_speedup_rejects_bad_arguments():
    from nlp_helpers.sampling.speculative import expected_tokens_per_pass, speculative_speedup

    for bad in [(1.5, 3), (-0.1, 3), (0.5, -1), (0.5, 2.5)]:
        with pytest.raises((ValueError, TypeError), match="alpha|gamma"):
            expected_tokens_per_pass(*bad)
    with pytest.raises(ValueError, match="c must be"):
        speculative_speedup(0.5, 3, -0.1)
