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
from nlp_helpers.widgets.attention import AttentionExplorer, round_significant, transform_weights
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
        "page": "book/attention/self_attention.html",
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
                "page": "book/attention/transformer.html",
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
    # Shipped rounded to 5 significant digits (the page shows 4 decimals): relative error <= 5e-5.
    np.testing.assert_allclose(np.asarray(widget.weights).reshape(-1), w.reshape(-1), rtol=5e-5, atol=0)
    assert widget.layer_labels == [f"Layer {i}" for i in range(L)]
    assert widget.head_labels == [f"Head {i}" for i in range(H)]


def test_scores_are_turned_into_weights_with_a_softmax_that_respects_minus_inf():
    rng = seeded_rng(1)
    s = rng.normal(size=(2, 3, 3)) * 3
    s[:, 0, 2] = -np.inf
    widget = AttentionExplorer(TOKENS, scores=s)
    ref = torch.softmax(torch.tensor(s), dim=-1).numpy()
    np.testing.assert_allclose(np.asarray(widget.weights)[0], ref, rtol=5e-5)  # 5 significant digits shipped
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
    np.testing.assert_allclose(widget.matrix(), w[1].mean(axis=0), rtol=5e-5)  # 5 significant digits shipped
    widget.head, widget.causal, widget.temperature = 2, True, 2.0
    s = torch.log(torch.tensor(w[1, 2]))
    np.testing.assert_allclose(widget.matrix(), torch_weights(s, 2.0, causal=True), atol=2e-5)


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
            "query_vectors",
            "key_vectors",
            "scale",
            "qk_decimals",
            "show_causal",
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
        WORKED_TITLE: _vector_widget(),  # as the chapter builds it: from Q and K (4 decimals)
        RANDOM_TITLE: AttentionExplorer(list(ex.tokens), random_encoder_attention(), title=RANDOM_TITLE),
    }
    for spec in golden["widgets"]:
        for case in spec["cases"]:
            out = _run_js(widgets[spec["title"]], case["controls"], tmp_path)
            want = np.asarray(case["matrix"])
            # The page holds weights to 5 significant digits: the transform keeps them within the golden tolerance.
            np.testing.assert_allclose(_cells(out, *want.shape), want, atol=golden["tolerance"], err_msg=case["name"])
            # Shown to 4 decimals: half a unit of the 4th decimal plus the rounding of the shipped weights.
            np.testing.assert_allclose(_cells(out, *want.shape, attr=False), want, atol=golden["tolerance"] + 2e-5)


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


# ---- the step-through panel (query and key vectors) ----------------------------------------------


def test_js_offers_no_causal_mask_for_an_encoder(tmp_path):
    # BERT never masks the future: its explorer (show_causal=False) has no causal-mask checkbox.
    out = _run_js(AttentionExplorer(TOKENS, _weights(3, 3), show_causal=False), [], tmp_path)
    assert out["attn-causal"]["disabled"] and out["attn-causal"]["hidden_in"]
    out = _run_js(AttentionExplorer(TOKENS, _weights(3, 3)), [], tmp_path)
    assert not out["attn-causal"]["disabled"] and not out["attn-causal"]["hidden_in"]
    with pytest.raises(ValueError, match="show_causal"):
        AttentionExplorer(TOKENS, _weights(3, 3), causal=True, show_causal=False)


def test_js_shows_the_step_through_panel_only_with_query_and_key_vectors(tmp_path):
    out = _run_js(AttentionExplorer(TOKENS, _weights(3, 3)), [], tmp_path)
    assert out["attn-step"]["hidden_in"], "weights only: there is no q·k to step through"
    out = _run_js(_vector_widget(), [], tmp_path)
    assert not out["attn-step"]["hidden_in"]


def worked_example_vectors() -> tuple[np.ndarray, np.ndarray]:
    ex = load_worked_example()
    X = ex["static_embedding_rows_are_tokens"] + positional_encoding(6, 6)
    return X @ ex["W_Q"], X @ ex["W_K"]


def _vector_widget(**kw):
    Q, K = worked_example_vectors()
    return AttentionExplorer(list(load_worked_example().tokens), queries=Q, keys=K, title=WORKED_TITLE, **kw)


def test_round_significant_agrees_with_numpys_scientific_formatting():
    x = np.array([[0.123456789, 1.5e-7, 0.0, 0.99999951], [2 / 3, 1e-300, 0.5, 0.000123456]])
    ref = np.vectorize(lambda v: float(np.format_float_scientific(v, precision=4, unique=False)))(x)
    np.testing.assert_array_equal(round_significant(x, 5), ref)
    with pytest.raises(ValueError, match="digits must be >= 1"):
        round_significant(x, 0)
    with pytest.raises(ValueError, match="values"):
        round_significant(np.array([np.nan]), 3)


def test_vectors_give_the_softmax_of_the_rounded_vectors_and_stay_within_display_precision():
    Q, K = worked_example_vectors()
    widget = _vector_widget()
    Qr, Kr = np.round(Q, 4), np.round(K, 4)
    np.testing.assert_array_equal(np.asarray(widget.query_vectors)[0, 0], Qr)
    np.testing.assert_array_equal(np.asarray(widget.key_vectors)[0, 0], Kr)
    assert widget.scale == pytest.approx(0.5)  # 1 / sqrt(d_k), d_k = 4
    ref_rounded = torch.softmax(torch.tensor(Qr) @ torch.tensor(Kr).T / 2.0, dim=-1).numpy()
    np.testing.assert_allclose(widget.matrix(), ref_rounded, atol=1e-12)
    # Rounding the vectors to 4 decimals moves no weight by half a unit of the 4 shown decimals
    # (measured: 6.2e-6 at most; 3 decimals would give 7.2e-5).
    exact = torch.softmax(worked_example_scores(), dim=-1).numpy()
    assert np.abs(widget.matrix() - exact).max() < 5e-5
    widget.causal, widget.temperature = True, 2.0
    np.testing.assert_allclose(widget.matrix(), torch_weights(worked_example_scores(), 2.0, causal=True), atol=5e-5)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"queries": np.ones((3, 2))}, r"pass both queries and keys"),
        ({"keys": np.ones((3, 2))}, r"pass both queries and keys"),
        ({"queries": np.ones((3, 2)), "keys": np.ones((3, 2)), "weights": np.full((3, 3), 1 / 3)}, r"exactly one of"),
        ({"queries": np.ones((3, 2)), "keys": np.ones((3, 4))}, r"queries .* and keys .* must share"),
        ({"queries": np.ones((2, 3, 2)), "keys": np.ones((3, 3, 2))}, r"must share layers, heads"),
        ({"queries": np.ones(3), "keys": np.ones(3)}, r"queries must have shape"),
        ({"queries": np.full((3, 2), np.nan), "keys": np.ones((3, 2))}, r"queries must contain only finite"),
        ({"weights": np.full((3, 3), 1 / 3), "scale": 0.5}, r"scale is only used with queries and keys"),
        ({"queries": np.ones((3, 2)), "keys": np.ones((3, 2)), "scale": -1.0}, r"scale must be >= 0"),
        ({"weights": np.full((3, 3), 1 / 3), "digits": 0}, r"digits must be >= 1"),
        ({"queries": np.ones((3, 2)), "keys": np.ones((3, 2)), "qk_decimals": -1}, r"qk_decimals must be >= 0"),
    ],
)
def test_bad_vector_arguments_get_a_clear_error_naming_the_argument(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        AttentionExplorer(TOKENS, **kwargs)


def _panel(out, name):
    return out[f"attn-step-{name}"]


@pytest.mark.parametrize(
    ("controls", "cell"),
    [
        ([], (2, 4)),
        ([{"testid": "attn-causal", "checked": True}, {"testid": "attn-temperature", "value": "2"}], (4, 1)),
        ([{"testid": "attn-temperature", "value": "0.5"}], (0, 5)),
    ],
)
def test_js_step_panel_shows_the_cells_computation_with_numbers_that_give_the_shown_weight(tmp_path, controls, cell):
    widget = _vector_widget()
    i, j = cell
    select = [{"testid": "attn-step-query", "value": str(i)}, {"testid": "attn-step-key", "value": str(j)}]
    out = _run_js(widget, controls + select, tmp_path)
    T = next((float(c["value"]) for c in controls if c["testid"] == "attn-temperature"), 1.0)
    causal = any(c.get("checked") for c in controls)
    Qr, Kr = np.asarray(widget.query_vectors)[0, 0], np.asarray(widget.key_vectors)[0, 0]
    # numpy, step by step, from the shipped (rounded) vectors
    dots = Qr[i] @ Kr.T
    s = dots / 2.0 / T
    if causal:
        s = np.where(np.arange(6) <= i, s, -np.inf)
    e = np.exp(s - s.max())
    w = e / e.sum()
    val = lambda name: float(_panel(out, name)["attrs"]["data-value"])  # noqa: E731
    assert val("dot") == pytest.approx(dots[j], rel=1e-12)
    assert val("scaled") == pytest.approx(dots[j] / 2.0, rel=1e-12)
    assert val("exp") == pytest.approx(e[j], rel=1e-12)
    assert val("sum") == pytest.approx(e.sum(), rel=1e-12)
    assert val("weight") == pytest.approx(w[j], rel=1e-12, abs=1e-15)
    # the weight in the panel is the weight in the cell, to the digits shown
    assert _panel(out, "weight")["text"] == out[f"attn-cell-{i}-{j}"]["text"]
    # ... and the numbers the panel prints (the Q and K tables, 4 decimals) give that weight again
    q_text, k_text = _table_numbers(out["attn-step-Q"]["text"], 6), _table_numbers(out["attn-step-K"]["text"], 6)
    np.testing.assert_array_equal(q_text, Qr)
    s2 = q_text[i] @ k_text.T / 2.0 / T
    if causal:
        s2 = np.where(np.arange(6) <= i, s2, -np.inf)
    w2 = np.exp(s2 - s2.max()) / np.exp(s2 - s2.max()).sum()
    assert f"{w2[j]:.4f}" == _panel(out, "weight")["text"]
    assert str(i) == out["attn-step-query"]["value"] and str(j) == out["attn-step-key"]["value"]


def _table_numbers(text: str, n: int) -> np.ndarray:
    """The numbers of a Q/K table ('Q (queries as rows)0: when3.8828...'), 4 decimals each, as (n, d)."""
    import re

    nums = [float(x) for x in re.findall(r"-?\d+\.\d{4}", text.split(")", 1)[1])]
    return np.asarray(nums).reshape(n, -1)


def test_js_step_panel_hides_masked_keys_and_explains_weights_only_widgets(tmp_path):
    out = _run_js(_vector_widget(causal=True), [{"testid": "attn-step-key", "value": "3"}], tmp_path)
    assert float(_panel(out, "weight")["attrs"]["data-value"]) == 0.0 and "causal mask" in out["attn-step"]["text"]
    out = _run_js(AttentionExplorer(TOKENS, _weights(3, 3)), [{"testid": "attn-step-key", "value": "2"}], tmp_path)
    assert "weights only" in out["attn-step"]["text"]
    assert _panel(out, "weight")["text"] == out["attn-cell-0-2"]["text"]


def test_bert_sized_state_is_rounded_under_300_kb():
    """MiniLM: 6 layers x 12 heads x 16 x 16 weights; full precision embedded 439 KB in the book."""
    rng = seeded_rng(3)
    w = torch.softmax(torch.tensor(rng.normal(size=(6, 12, 16, 16)) * 3), dim=-1).numpy()
    tokens = [f"tok{i}" for i in range(16)]
    widget = AttentionExplorer(tokens, w)
    size = len(json.dumps(widget.get_state()))
    assert size < 300_000, size
    full = len(json.dumps(w.tolist()))
    assert size < 0.6 * full, (size, full)


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
