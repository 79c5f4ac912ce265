"""The paired bootstrap: an independent loop, the rule of Berg-Kirkpatrick et al. (2012), and properties."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import f1_score

from nlp_helpers.classification.significance import bootstrap_deltas, paired_bootstrap


def _loop_p(gold, a, b, n_samples, generator):
    """Reference: the rule as stated in SLP3 ch. 4, one bootstrap sample at a time, in integers."""
    right_a, right_b = a == gold, b == gold
    observed = int(right_a.sum()) - int(right_b.sum())
    hits = 0
    for _ in range(n_samples):
        idx = generator.integers(0, len(gold), size=len(gold))
        hits += int(right_a[idx].sum()) - int(right_b[idx].sum()) >= 2 * observed
    return hits / n_samples


@pytest.fixture(scope="module")
def systems():
    g = np.random.default_rng(0)
    gold = g.integers(0, 2, 400)
    a = np.where(g.random(400) < 0.80, gold, 1 - gold)
    b = np.where(g.random(400) < 0.74, gold, 1 - gold)
    return gold, a, b


def test_equals_an_independent_loop(systems):
    gold, a, b = systems
    for seed in (0, 1):
        assert paired_bootstrap(gold, a, b, n_samples=1200, rng=np.random.default_rng(seed)) == _loop_p(
            gold, a, b, 1200, np.random.default_rng(seed)
        )


def test_ten_item_example():
    gold = np.array([1, 0, 1, 1, 0, 1, 0, 0, 1, 1])
    a = np.where(np.array([1, 1, 1, 0, 1, 1, 0, 1, 1, 0], bool), gold, 1 - gold)  # accuracy .7
    b = np.where(np.array([1, 0, 0, 1, 1, 0, 1, 0, 1, 0], bool), gold, 1 - gold)  # accuracy .5
    observed, deltas = bootstrap_deltas(gold, a, b, n_samples=5000, rng=np.random.default_rng(3))
    assert abs(observed - 0.2) < 1e-12
    assert abs(deltas.mean() - 0.2) < 0.01  # the bootstrap distribution is centred on delta(x), not on 0
    assert paired_bootstrap(gold, a, b, n_samples=5000, rng=np.random.default_rng(3)) == _loop_p(
        gold, a, b, 5000, np.random.default_rng(3)
    )


def test_p_value_behaves(systems):
    gold, a, b = systems
    assert paired_bootstrap(gold, gold, b, rng=0) == 0.0  # a perfect A: no sample reaches twice the gap
    assert paired_bootstrap(gold, a, a, n_samples=500, rng=0) == 1.0  # identical systems: every delta is 0
    assert paired_bootstrap(gold, b, a, n_samples=2000, rng=0) > 0.9  # B worse than A: no evidence for "B better"
    p1 = paired_bootstrap(gold, a, b, n_samples=2000, rng=5)
    assert p1 == paired_bootstrap(gold, a, b, n_samples=2000, rng=5)  # an int seed is reproducible
    assert 0.0 <= p1 <= 1.0


def test_custom_metric_macro_f1(systems):
    gold, a, b = systems

    def macro_f1(g, p):
        return f1_score(g, p, average="macro")

    observed, deltas = bootstrap_deltas(gold, a, b, n_samples=200, rng=np.random.default_rng(1), metric=macro_f1)
    assert np.isclose(observed, macro_f1(gold, a) - macro_f1(gold, b))
    generator = np.random.default_rng(1)
    idx = generator.integers(0, len(gold), size=len(gold))
    assert np.isclose(deltas[0], macro_f1(gold[idx], a[idx]) - macro_f1(gold[idx], b[idx]))


def test_bad_input_names_the_argument(systems):
    gold, a, b = systems
    with pytest.raises(ValueError, match="pred_b"):
        paired_bootstrap(gold, a, b[:-1])
    with pytest.raises(ValueError, match="n_samples"):
        paired_bootstrap(gold, a, b, n_samples=0)
    with pytest.raises(TypeError, match="rng"):
        paired_bootstrap(gold, a, b, rng="seed")
    with pytest.raises(TypeError, match="metric"):
        bootstrap_deltas(gold, a, b, metric="f1")
    with pytest.raises(ValueError, match="gold"):
        paired_bootstrap([], [], [])
    with pytest.raises(TypeError, match="pred_a"):
        paired_bootstrap([1], "1", [1])
