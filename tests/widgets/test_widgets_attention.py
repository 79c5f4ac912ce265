"""AttentionExplorer: validation, the data it ships, its JavaScript (under Node) and its golden file.

The golden file ``tests/golden/attention_widget.json`` holds, for given control settings,
the matrices the widget must show, computed here with PyTorch (``softmax(scores / T)`` with
``-inf`` for masked entries) - independently of the widget's ``w^(1/T)`` renormalisation.
Regenerate it with ``python tests/test_widgets_attention.py``; the lead's browser test moves
the controls on the built page and compares the cells ``attn-cell-<i>-<j>`` with it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from nlp_helpers.attention.positional import positional_encoding
from nlp_helpers.attention.worked_example import load_worked_example
from nlp_helpers.seeds import rng as seeded_rng
from nlp_helpers.widgets.attention import AttentionExplorer, transform_weights
from tests.widget_node import NODE_DOM, node_binary, run_widget_js  # noqa: F401

HERE = Path(__file__).resolve().parents[1]  # tests/
GOLDEN = HERE / "golden" / "attention_widget.json"

WORKED_TITLE = "The worked example, one head: when you play game of thrones"
RANDOM_TITLE = "An untrained 2-layer encoder with 3 heads (torch.manual_seed(0))"


# ---- independent reference: torch ------------------------------------------------------------


def torch_weights(scores: torch.Tensor, temperature: float = 1.0, causal: bool = False) -> np.ndarray:
    """softmax((scores + mask) / T) over the last axis, with -inf above the diagonal if causal."""
    s = scores.double() / temperature
    if causal:
        n = s.shape[-1]
        s = s.masked_fill(~torch.tril(torch.ones(n, n, dtype=torch.bool)), float("-inf"))
    return torch.softmax(s, dim=-1).numpy()


def worked_example_scores() -> torch.Tensor:
    ex = load_worked_example()
    X = torch.tensor(ex["static_embedding_rows_are_tokens"] + positional_encoding(6, 6))
    Q, K = X @ torch.tensor(ex["W_Q"]), X @ torch.tensor(ex["W_K"])
    return Q @ K.T / 2.0  # sqrt(d_k) = 2


def random_encoder_attention() -> np.ndarray:
    """Attention weights (2 layers, 3 heads, 6, 6) of two torch-initialised encoder layers on the worked example."""
    ex = load_worked_example()
    # Fixed weights, not an experiment: the golden file pins this example (no seed offset).
    torch.manual_seed(0)
    layers = [
        torch.nn.TransformerEncoderLayer(6, 3, dim_feedforward=12, dropout=0.0, batch_first=True, dtype=torch.float64)
        for _ in range(2)
    ]
    x = torch.tensor(ex["static_embedding_rows_are_tokens"] + positional_encoding(6, 6))[None]
    out = []
    with torch.no_grad():
        for layer in layers:
            layer.eval()
            _, w = layer.self_attn(x, x, x, need_weights=True, average_attn_weights=False)
            out.append(w[0].numpy())
            x = layer(x)
    return np.stack(out)


def golden_data() -> dict:
    tokens = list(load_worked_example().tokens)
    s = worked_example_scores()
    rnd = random_encoder_attention()
    return {
        "about": "Matrices AttentionExplorer must show (cells attn-cell-<i>-<j>, row i = query, column j = key) "
        "after setting the controls in order. Computed with torch: softmax((scores + causal -inf mask) / T). "
        "Regenerate: python -m tests.widgets.test_widgets_attention",
        "page": "book/attention.html",
        "display_decimals": 4,
        "tolerance": 5e-5,
        "widgets": [
            {
                "title": WORKED_TITLE,
                "tokens": tokens,
                "cases": [
                    {"name": "initial", "controls": [], "matrix": torch_weights(s).tolist()},
                    {
                        "name": "causal, temperature 2",
                        "controls": [
                            {"testid": "attn-causal", "checked": True},
                            {"testid": "attn-temperature", "value": "2"},
                        ],
                        "matrix": torch_weights(s, 2.0, causal=True).tolist(),
                    },
                    {
                        "name": "temperature 5, no mask",
                        "controls": [{"testid": "attn-temperature", "value": "5"}],
                        "matrix": torch_weights(s, 5.0).tolist(),
                    },
                ],
            },
            {
                "title": RANDOM_TITLE,
                "tokens": tokens,
                "cases": [
                    {"name": "initial (layer 0, head 0)", "controls": [], "matrix": rnd[0, 0].tolist()},
                    {
                        "name": "layer 1, head 2",
                        "controls": [{"testid": "attn-layer", "value": "1"}, {"testid": "attn-head", "value": "2"}],
                        "matrix": rnd[1, 2].tolist(),
                    },
                    {
                        "name": "layer 1, head 2, causal, temperature 0.5",
                        "controls": [
                            {"testid": "attn-layer", "value": "1"},
                            {"testid": "attn-head", "value": "2"},
                            {"testid": "attn-causal", "checked": True},
                            {"testid": "attn-temperature", "value": "0.5"},
                        ],
                        "matrix": torch_weights(torch.log(torch.tensor(rnd[1, 2])), 0.5, causal=True).tolist(),
                    },
                ],
            },
        ],
    }


# ---- construction and validation -------------------------------------------------------------

TOKENS = ["the", "cat", "sat"]


def _weights(*shape):
    rng = seeded_rng(0)
    return torch.softmax(torch.tensor(rng.normal(size=shape)), dim=-1).numpy()


@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3), (4, 2, 3, 3), (4, 1, 2, 3, 3)])
def test_weights_of_every_accepted_shape_are_shipped_as_layers_heads_rows_cols(shape):
    w = _weights(*shape)
    widget = AttentionExplorer(TOKENS, w)
    L = shape[0] if len(shape) >= 4 else 1
    H = shape[-3] if len(shape) >= 3 else 1
    assert widget.shape == (L, H, 3, 3)
    np.testing.assert_allclose(np.asarray(widget.weights).reshape(-1), w.reshape(-1))
    assert widget.layer_labels == [f"Layer {i}" for i in range(L)]
    assert widget.head_labels == [f"Head {i}" for i in range(H)]


def test_scores_are_turned_into_weights_with_a_softmax_that_respects_minus_inf():
    rng = seeded_rng(1)
    s = rng.normal(size=(2, 3, 3)) * 3
    s[:, 0, 2] = -np.inf
    widget = AttentionExplorer(TOKENS, scores=s)
    ref = torch.softmax(torch.tensor(s), dim=-1).numpy()
    np.testing.assert_allclose(np.asarray(widget.weights)[0], ref, atol=1e-12)
    assert np.asarray(widget.weights)[0, :, 0, 2].tolist() == [0.0, 0.0]


def test_fully_masked_score_rows_become_zero_weights_not_nan():
    s = np.zeros((3, 3))
    s[1] = -np.inf
    w = np.asarray(AttentionExplorer(TOKENS, scores=s).weights)[0, 0]
    assert np.isfinite(w).all() and w[1].tolist() == [0.0, 0.0, 0.0]


def test_torch_tensors_that_require_grad_are_accepted():
    w = torch.softmax(torch.randn(2, 3, 3, requires_grad=True), dim=-1)
    assert AttentionExplorer(TOKENS, w).shape == (1, 2, 3, 3)


def test_cross_attention_with_different_query_tokens():
    w = _weights(2, 3)
    widget = AttentionExplorer(TOKENS, w, query_tokens=["le", "chat"])
    assert widget.query_tokens == ["le", "chat"] and widget.tokens == TOKENS


def test_query_tokens_default_to_tokens_and_labels_are_kept():
    widget = AttentionExplorer(TOKENS, _weights(2, 1, 3, 3), layer_labels=["L1", "L2"], head_labels=["h"], title="x")
    assert widget.query_tokens == TOKENS
    assert widget.layer_labels == ["L1", "L2"] and widget.head_labels == ["h"] and widget.title == "x"


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"tokens": ["a", "b"], "weights": _weights(3, 3)}, ValueError, r"3 key columns but tokens has 2"),
        (
            {"tokens": TOKENS, "weights": _weights(2, 3), "query_tokens": ["x"]},
            ValueError,
            r"2 query rows but query_tokens has 1",
        ),
        ({"tokens": TOKENS, "weights": _weights(2, 3)}, ValueError, r"2 query rows but tokens has 3"),
        ({"tokens": TOKENS, "weights": _weights(3)}, ValueError, r"weights must have shape"),
        ({"tokens": TOKENS, "weights": _weights(2, 2, 2, 2, 3, 3)}, ValueError, r"weights must have shape"),
        ({"tokens": TOKENS, "weights": np.full((3, 3), np.nan)}, ValueError, r"weights must contain only finite"),
        (
            {"tokens": TOKENS, "weights": np.array([[1.5, -0.5, 0], [0, 1, 0], [0, 0, 1]])},
            ValueError,
            r"weights must be >= 0",
        ),
        ({"tokens": TOKENS, "weights": np.ones((3, 3))}, ValueError, r"row 0 sums to 3"),
        ({"tokens": TOKENS, "weights": [["a", "b", "c"]] * 3}, TypeError, r"weights must be an array"),
        ({"tokens": TOKENS}, ValueError, r"exactly one of weights"),
        (
            {"tokens": TOKENS, "weights": _weights(3, 3), "scores": np.zeros((3, 3))},
            ValueError,
            r"exactly one of weights",
        ),
        ({"tokens": TOKENS, "scores": np.full((3, 3), np.nan)}, ValueError, r"scores must not contain NaN"),
        ({"tokens": "the cat sat", "weights": _weights(3, 3)}, TypeError, r"tokens must be a list of strings"),
        ({"tokens": [], "weights": _weights(3, 3)}, ValueError, r"tokens must not be empty"),
        ({"tokens": ["a", 2, "c"], "weights": _weights(3, 3)}, TypeError, r"tokens\[1\] must be a str"),
        (
            {"tokens": TOKENS, "weights": _weights(2, 3, 3), "head_labels": ["a"]},
            ValueError,
            r"head_labels has 1 labels",
        ),
        ({"tokens": TOKENS, "weights": _weights(3, 3), "temperature": 0}, ValueError, r"temperature must be > 0"),
        ({"tokens": TOKENS, "weights": _weights(3, 3), "layer": 1}, ValueError, r"layer must be <= 0"),
        ({"tokens": TOKENS, "weights": _weights(2, 3, 3), "head": 2}, ValueError, r"head must be <= 1"),
        (
            {"tokens": TOKENS, "weights": _weights(2, 3), "query_tokens": ["a", "b"], "causal": True},
            ValueError,
            r"causal=True needs",
        ),
        ({"tokens": TOKENS, "weights": _weights(3, 3), "causal": 1}, TypeError, r"causal must be a bool"),
    ],
)
def test_bad_input_gets_a_clear_error_naming_the_argument(kwargs, error, match):
    with pytest.raises(error, match=match):
        AttentionExplorer(**kwargs)


def test_a_huge_tensor_is_refused_with_advice():
    with pytest.raises(ValueError, match="fewer layers, heads or tokens"):
        AttentionExplorer(["t"] * 300, scores=np.zeros((6, 12, 300, 300)))


# ---- what the controls compute ------------------------------------------------------------------


@pytest.mark.parametrize("temperature", [0.3, 1.0, 2.0, 7.5])
@pytest.mark.parametrize("causal", [False, True])
def test_transform_equals_softmax_of_masked_scores_over_temperature(temperature, causal):
    rng = seeded_rng(2)
    s = torch.tensor(rng.normal(size=(3, 5, 5)) * 4)
    w = torch.softmax(s, dim=-1).numpy()
    np.testing.assert_allclose(
        transform_weights(w, temperature=temperature, causal=causal), torch_weights(s, temperature, causal), atol=1e-12
    )


def test_transform_keeps_zero_rows_zero_and_rejects_bad_settings():
    w = np.array([[0.0, 0.0], [0.3, 0.7]])
    np.testing.assert_array_equal(transform_weights(w, temperature=3.0)[0], [0.0, 0.0])
    with pytest.raises(ValueError, match="temperature must be > 0"):
        transform_weights(w, temperature=-1)
    with pytest.raises(ValueError, match="causal=True needs as many queries as keys"):
        transform_weights(np.full((2, 3), 1 / 3), causal=True)


def test_matrix_follows_the_state_including_the_mean_of_heads():
    w = _weights(2, 3, 3, 3)
    widget = AttentionExplorer(TOKENS, w, layer=1, head=-1)
    np.testing.assert_allclose(widget.matrix(), w[1].mean(axis=0))
    widget.head, widget.causal, widget.temperature = 2, True, 2.0
    s = torch.log(torch.tensor(w[1, 2]))
    np.testing.assert_allclose(widget.matrix(), torch_weights(s, 2.0, causal=True), atol=1e-12)


def test_the_widget_ships_its_module_and_the_shared_stylesheet():
    widget = AttentionExplorer(TOKENS, _weights(3, 3))
    assert "export default" in widget._esm and "function transformWeights" in widget._esm
    assert "function cividis" in widget._esm  # _common.js is prepended
    assert ".nlpw" in widget._css
    for testid in ("attn-root", "attn-layer", "attn-head", "attn-causal", "attn-temperature", "attn-cell-"):
        assert testid in widget._esm


# ---- the JavaScript under Node (a smoke test; the browser test checks the built page) ------------


def _run_js(widget, actions, tmp_path):
    state = {
        k: getattr(widget, k)
        for k in (
            "tokens",
            "query_tokens",
            "weights",
            "layer_labels",
            "head_labels",
            "title",
            "layer",
            "head",
            "causal",
            "temperature",
            "view",
        )
    }
    return run_widget_js(widget._esm, state, actions, tmp_path)


def _cells(out, n_q, n_k, attr=True):
    key = (lambda c: float(c["attrs"]["data-weight"])) if attr else (lambda c: float(c["text"]))
    return np.array([[key(out[f"attn-cell-{i}-{j}"]) for j in range(n_k)] for i in range(n_q)])


def test_js_draws_the_golden_matrices_after_moving_the_controls(tmp_path):
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    ex = load_worked_example()
    widgets = {
        WORKED_TITLE: AttentionExplorer(list(ex.tokens), scores=worked_example_scores().numpy(), title=WORKED_TITLE),
        RANDOM_TITLE: AttentionExplorer(list(ex.tokens), random_encoder_attention(), title=RANDOM_TITLE),
    }
    for spec in golden["widgets"]:
        for case in spec["cases"]:
            out = _run_js(widgets[spec["title"]], case["controls"], tmp_path)
            want = np.asarray(case["matrix"])
            np.testing.assert_allclose(_cells(out, *want.shape), want, atol=1e-12, err_msg=case["name"])
            np.testing.assert_allclose(_cells(out, *want.shape, attr=False), want, atol=golden["tolerance"])


def test_js_inserts_tokens_as_text_and_labels_its_controls(tmp_path):
    evil = ["<img src=x onerror=alert(1)>", "b", "c"]
    out = _run_js(AttentionExplorer(evil, _weights(3, 3), title="<b>t</b>"), [], tmp_path)
    assert "<img src=x onerror=alert(1)>" in out["attn-table"]["text"]  # as text, not as an element
    assert "<b>t</b>" in out["attn-root"]["text"]
    assert out["attn-causal"]["tag"] == "INPUT" and out["attn-temperature"]["attrs"]["type"] == "range"


def test_js_disables_the_causal_mask_for_cross_attention(tmp_path):
    out = _run_js(AttentionExplorer(TOKENS, _weights(2, 3), query_tokens=["x", "y"]), [], tmp_path)
    assert out["attn-causal"]["disabled"] is True
    assert out["attn-cell-1-2"]["text"] and "attn-cell-2-0" not in out  # 2 query rows x 3 key columns


# ---- the golden file ------------------------------------------------------------------------------


def test_golden_file_matches_an_independent_torch_computation():
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    fresh = golden_data()
    assert [w["title"] for w in golden["widgets"]] == [w["title"] for w in fresh["widgets"]]
    for g, f in zip(golden["widgets"], fresh["widgets"]):
        assert g["tokens"] == f["tokens"]
        for gc, fc in zip(g["cases"], f["cases"], strict=True):
            assert gc["controls"] == fc["controls"]
            np.testing.assert_allclose(gc["matrix"], fc["matrix"], atol=1e-12, err_msg=gc["name"])
            m = np.asarray(gc["matrix"])
            np.testing.assert_allclose(m.sum(axis=1), 1.0, atol=1e-12)


def test_golden_worked_example_rounds_to_the_seeds_printed_softmax():
    """The golden's first matrix is the full-precision softmax; the slides print it to 4 decimals
    from rounded inputs, so they may differ by a few units in the 4th decimal, not more."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    m = np.asarray(golden["widgets"][0]["cases"][0]["matrix"])
    printed = load_worked_example()["softmax_printed"]
    assert np.abs(m - printed).max() < 3e-3


if __name__ == "__main__":
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(golden_data(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}", file=sys.stderr)
