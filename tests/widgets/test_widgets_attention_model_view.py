"""AttentionModelView (bertviz's "model view"): validation, rounding, state size and its JavaScript under Node.

The reference is the input itself: the page must show every weight of the selected
(layer, head) to 3 decimals, i.e. within half a unit of the 3rd decimal of the float64 input.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from nlp_helpers.seeds import rng as seeded_rng
from nlp_helpers.widgets.model_view import AttentionModelView
from tests.widget_node import run_widget_js

TOKENS = ["[CLS]", "the", "trophy", "is", "too", "big", ".", "[SEP]"]


def _weights(L=6, H=12, n=8, spread=3.0, seed=0):
    rng = seeded_rng(seed)
    return torch.softmax(torch.tensor(rng.normal(size=(L, H, n, n)) * spread), dim=-1).numpy()


def _run(widget, actions, tmp_path):
    state = {
        k: getattr(widget, k) for k in ("tokens", "weights", "layer_labels", "head_labels", "title", "layer", "head")
    }
    return run_widget_js(widget._esm, state, actions, tmp_path)


def test_weights_are_shipped_to_three_decimals_and_selected_follows_layer_and_head():
    w = _weights()
    mv = AttentionModelView(TOKENS, w, layer=2, head=5)
    shipped = np.asarray(mv.weights)
    assert shipped.shape == (6, 12, 8, 8)
    np.testing.assert_allclose(shipped, w, rtol=0, atol=5e-4 + 1e-12)  # half a unit of the 3rd decimal
    np.testing.assert_allclose(mv.selected(), w[2, 5], rtol=0, atol=5e-4 + 1e-12)
    assert mv.layer_labels[0] == "Layer 1" and mv.head_labels[-1] == "Head 12"


def test_hugging_face_layout_with_a_batch_axis_is_accepted():
    w = _weights(L=2, H=3)
    mv = AttentionModelView(TOKENS, w[:, None])  # (layers, 1, heads, n, n)
    assert np.asarray(mv.weights).shape == (2, 3, 8, 8)


def test_minilm_sized_state_stays_under_300_kb():
    """6 layers x 12 heads x 16 x 16, as MiniLM on the Winograd sentence (439 KB at full precision)."""
    w = _weights(n=16, seed=1)
    mv = AttentionModelView([f"t{i}" for i in range(16)], w)
    size = len(json.dumps(mv.get_state()))
    assert size < 300_000, size
    assert len(json.dumps(mv.weights)) < 0.5 * len(json.dumps(w.tolist()))


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"weights": np.full((2, 2, 3, 3), 1 / 3)}, ValueError, r"weights have 3 tokens per map but tokens has 8"),
        ({"weights": np.full((2, 8, 8), 1 / 8)}, ValueError, r"weights must have shape \(layers, heads, n, n\)"),
        ({"weights": np.full((1, 1, 8, 7), 1 / 7)}, ValueError, r"weights must have shape"),
        ({"weights": np.full((1, 1, 8, 8), np.nan)}, ValueError, r"weights must be finite"),
        ({"weights": np.full((1, 1, 8, 8), 0.5)}, ValueError, r"weights rows must sum to 1"),
        ({"weights": [["x"]]}, TypeError, r"weights must be an array of numbers"),
        ({"weights": np.full((1, 1, 8, 8), 1 / 8), "layer": 1}, ValueError, r"layer must be <= 0"),
        ({"weights": np.full((1, 2, 8, 8), 1 / 8), "head": -1}, ValueError, r"head must be >= 0"),
        ({"weights": np.full((1, 2, 8, 8), 1 / 8), "head_labels": ["a"]}, ValueError, r"head_labels has 1 entries"),
        ({"weights": np.full((1, 1, 8, 8), 1 / 8), "decimals": 0}, ValueError, r"decimals must be >= 1"),
        ({"weights": np.full((1, 1, 8, 8), 1 / 8), "title": 3}, TypeError, r"title"),
        ({"weights": np.full((20, 12, 50, 50), 1 / 50)}, ValueError, r"fewer layers, heads or tokens"),
    ],
)
def test_bad_input_gets_a_clear_error_naming_the_argument(kwargs, error, match):
    with pytest.raises(error, match=match):
        AttentionModelView(TOKENS, **kwargs)


def test_bad_tokens_are_named():
    with pytest.raises(TypeError, match="tokens must be a list of strings"):
        AttentionModelView("the trophy", _weights(1, 1))
    with pytest.raises(TypeError, match=r"tokens\[2\]"):
        AttentionModelView(["a", "b", 3, "d", "e", "f", "g", "h"], _weights(1, 1))


def test_js_shows_the_chosen_map_enlarged_with_its_numbers(tmp_path):
    w = _weights()
    mv = AttentionModelView(TOKENS, w, title="MiniLM")
    out = _run(mv, [{"testid": "mv-layer", "value": "3"}, {"testid": "mv-head", "value": "7"}], tmp_path)
    shown = np.array([[float(out[f"mv-cell-{i}-{j}"]["attrs"]["data-weight"]) for j in range(8)] for i in range(8)])
    np.testing.assert_allclose(shown, w[3, 7], rtol=0, atol=5e-4 + 1e-12)
    text = np.array([[float(out[f"mv-cell-{i}-{j}"]["text"]) for j in range(8)] for i in range(8)])
    np.testing.assert_allclose(text, w[3, 7], rtol=0, atol=5e-4 + 1e-12)
    assert out["__state"]["layer"] == 3 and out["__state"]["head"] == 7
    assert "Layer 4, Head 8" in out["mv-readout"]["text"]
    assert "72 attention maps" in out["mv-grid"]["attrs"]["aria-label"]
    assert out["mv-grid"]["attrs"]["tabindex"] == "0" and out["mv-layer"]["tag"] == "SELECT"


def test_js_inserts_tokens_as_text(tmp_path):
    evil = ["<img src=x onerror=alert(1)>"] + TOKENS[1:]
    out = _run(AttentionModelView(evil, _weights(1, 2), title="<b>t</b>"), [], tmp_path)
    assert "<img src=x onerror=alert(1)>" in out["mv-table"]["text"]
    assert "<b>t</b>" in out["mv-root"]["text"]
