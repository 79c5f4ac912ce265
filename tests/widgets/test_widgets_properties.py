"""Laws that must hold for every input (hypothesis), for the widgets helpers.

Settings and strategies are shared (``tests/strategies.py``): 50 derandomized examples per law.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from nlp_helpers.widgets.attention import transform_weights
from nlp_helpers.widgets.optimiser_paths import OPTIMISERS, optimiser_path, quadratic_loss, valley
from tests.strategies import PROPERTY


@PROPERTY
@given(
    arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 5)), elements=st.floats(0, 10)),
    st.floats(0.05, 10.0),
    st.booleans(),
)
def test_attention_widget_transform_rows_sum_to_one_or_stay_zero(w, t, causal):
    if causal:
        w = np.resize(w, (w.shape[1], w.shape[1]))
    out = transform_weights(w, temperature=t, causal=causal)
    sums = out.sum(axis=-1)
    assert np.isfinite(out).all()
    assert np.all(np.isclose(sums, 1.0) | (sums == 0))


surfaces = st.builds(
    lambda c1, c2, angle: valley((c1, c2), angle=angle),
    st.floats(0.1, 50.0),
    st.floats(0.1, 50.0),
    st.floats(-90.0, 90.0),
)
starts = st.tuples(st.floats(-5, 5), st.floats(-3, 3))


@PROPERTY
@given(surfaces, starts, st.floats(0.05, 0.95))
def test_sgd_below_two_over_the_largest_curvature_never_raises_the_loss(h, start, fraction):
    lr = fraction * 2 / np.linalg.eigvalsh(h)[-1]
    losses = quadratic_loss(h, optimiser_path(h, start, "SGD", lr, 50))
    assert np.all(np.diff(losses) <= 1e-12 * (1 + losses[:-1]))


@PROPERTY
@given(surfaces, starts, st.sampled_from(OPTIMISERS), st.sampled_from([0.001, 0.03, 0.3, 1.0]))
def test_paths_from_mirrored_starts_are_mirrored(h, start, optimiser, lr):
    # every update is an odd function of θ on a quadratic centred at 0
    a = optimiser_path(h, start, optimiser, lr, 30)
    b = optimiser_path(h, (-start[0], -start[1]), optimiser, lr, 30)
    np.testing.assert_array_equal(a, -b)


@PROPERTY
@given(surfaces, starts.filter(lambda s: min(abs(s[0]), abs(s[1])) > 1e-3), st.floats(0.001, 1.0))
def test_adams_first_step_moves_each_coordinate_by_the_learning_rate(h, start, lr):
    g = h @ np.array(start)
    assume = np.abs(g) > 1e-3  # ε = 1e-8 matters only for tiny gradients
    step = np.array(start) - optimiser_path(h, start, "Adam", lr, 1)[1]
    np.testing.assert_allclose(step[assume], lr * np.sign(g[assume]), rtol=1e-4)
