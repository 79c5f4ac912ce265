"""The linear-chain CRF: log Z against brute-force enumeration and a torch recursion, the layer's loss,
gradients (expected counts) and decoding against enumeration, batching with padding."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

from nlp_helpers.tagging.crf import CRFLayer, crf_log_partition, crf_path_score


def _score(em, A, path, start, end):
    s = start[path[0]] + end[path[-1]] + sum(em[t, y] for t, y in enumerate(path))
    return s + sum(A[a, b] for a, b in itertools.pairwise(path))


def _all_scores(em, A, start, end):
    T, K = em.shape
    paths = list(itertools.product(range(K), repeat=T))
    return paths, np.array([_score(em, A, p, start, end) for p in paths])


def _logsumexp(x):
    m = x.max()
    return m + np.log(np.exp(x - m).sum())


@pytest.mark.parametrize("seed", range(25))
def test_log_partition_equals_brute_force_enumeration(seed):
    rng = np.random.default_rng(seed)
    T, K = rng.integers(1, 6), rng.integers(1, 5)
    em, A = rng.normal(scale=2, size=(T, K)), rng.normal(scale=2, size=(K, K))
    start, end = rng.normal(size=K), rng.normal(size=K)
    paths, scores = _all_scores(em, A, start, end)
    assert crf_log_partition(em, A, start, end) == pytest.approx(_logsumexp(scores), rel=1e-12)
    _, scores0 = _all_scores(em, A, np.zeros(K), np.zeros(K))
    assert crf_log_partition(em, A) == pytest.approx(_logsumexp(scores0), rel=1e-12)
    for p, s in zip(paths[:5], scores[:5]):
        assert crf_path_score(em, A, list(p), start, end) == pytest.approx(s, rel=1e-12)


def test_log_partition_equals_a_torch_logsumexp_recursion_and_survives_large_scores():
    rng = np.random.default_rng(7)
    em, A = rng.normal(scale=300, size=(12, 6)), rng.normal(scale=300, size=(6, 6))  # exp() overflows
    alpha = torch.tensor(em[0])
    for t in range(1, 12):
        alpha = torch.logsumexp(alpha[:, None] + torch.tensor(A), dim=0) + torch.tensor(em[t])
    want = float(torch.logsumexp(alpha, dim=0))
    assert crf_log_partition(em, A) == pytest.approx(want, rel=1e-12)
    assert np.isfinite(crf_log_partition(em, A))


def _layer(K, seed):
    torch.manual_seed(seed)
    layer = CRFLayer(K).double()
    with torch.no_grad():
        for p in layer.parameters():
            p.normal_()
    return layer


def test_crf_layer_matches_numpy_and_enumeration_on_a_padded_batch():
    K, lengths = 3, [4, 2, 1]
    layer = _layer(K, 0)
    em = torch.randn(3, 4, K, dtype=torch.double, generator=torch.Generator().manual_seed(1))
    mask = torch.arange(4)[None] < torch.tensor(lengths)[:, None]
    tags = torch.tensor([[0, 2, 1, 1], [2, 2, 0, 0], [1, 0, 0, 0]])
    A, s, e = (p.detach().numpy() for p in (layer.transitions, layer.start, layer.end))
    logz = layer.log_partition(em, mask).detach()
    score = layer.path_score(em, tags, mask).detach()
    decoded = layer.decode(em, mask)
    for b, n in enumerate(lengths):
        x = em[b, :n].numpy()
        assert float(logz[b]) == pytest.approx(crf_log_partition(x, A, s, e), rel=1e-10)
        assert float(score[b]) == pytest.approx(crf_path_score(x, A, tags[b, :n].tolist(), s, e), rel=1e-10)
        paths, scores = _all_scores(x, A, s, e)
        assert decoded[b] == list(paths[int(scores.argmax())])
    nll = layer.neg_log_likelihood(em, tags, mask)
    assert float(nll.detach()) == pytest.approx(float((logz - score).mean()))


def test_gradient_of_log_partition_is_the_tag_marginals():
    # d log Z / d E[t, k] = P(y_t = k | x): check autograd against marginals from enumeration.
    K, T = 3, 4
    layer = _layer(K, 3)
    em = torch.randn(1, T, K, dtype=torch.double, generator=torch.Generator().manual_seed(4), requires_grad=True)
    layer.log_partition(em, torch.ones(1, T, dtype=torch.bool)).sum().backward()
    A, s, e = (p.detach().numpy() for p in (layer.transitions, layer.start, layer.end))
    paths, scores = _all_scores(em[0].detach().numpy(), A, s, e)
    probs = np.exp(scores - _logsumexp(scores))
    marg = np.zeros((T, K))
    for p, pr in zip(paths, probs):
        marg[np.arange(T), p] += pr
    np.testing.assert_allclose(em.grad[0].numpy(), marg, rtol=1e-10, atol=1e-12)


def test_crf_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="transitions"):
        crf_log_partition(np.zeros((3, 2)), np.zeros((3, 3)))
    with pytest.raises(ValueError, match="emissions"):
        crf_log_partition(np.zeros(3), np.zeros((3, 3)))
    with pytest.raises(ValueError, match="emissions"):
        crf_log_partition(np.array([[np.nan, 0.0]]), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="start_transitions"):
        crf_log_partition(np.zeros((2, 2)), np.zeros((2, 2)), start_transitions=np.zeros(3))
    with pytest.raises(ValueError, match="tags"):
        crf_path_score(np.zeros((2, 2)), np.zeros((2, 2)), [0])
    with pytest.raises(ValueError, match="tags"):
        crf_path_score(np.zeros((2, 2)), np.zeros((2, 2)), [0, 5])
    with pytest.raises(ValueError, match="n_tags"):
        CRFLayer(0)
    layer = CRFLayer(3)
    with pytest.raises(ValueError, match="emissions"):
        layer.log_partition(torch.zeros(1, 2, 4), torch.ones(1, 2, dtype=torch.bool))
    with pytest.raises(ValueError, match="mask"):
        layer.log_partition(torch.zeros(1, 2, 3), torch.ones(1, 2))
