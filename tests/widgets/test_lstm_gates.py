"""LSTMGates: its state equals torch.nn.LSTM's gates recomputed from the weights, its JavaScript (under
Node) shows those numbers and recomputes the memory update from them, and bad input names the argument."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from torch import nn

from nlp_helpers.rnn.gates import lstm_gate_trace
from nlp_helpers.seeds import manual_seed
from nlp_helpers.widgets.lstm_gates import LSTMGates
from tests.widget_node import run_widget_js

TOKENS = list("the dog")
UNITS = [0, 3, 5]


def small_lstm():
    manual_seed(0)
    lstm = nn.LSTM(4, 6, batch_first=True)
    return lstm, torch.randn(len(TOKENS), 4)


def torch_gates(lstm, x):
    """Reference: the gates from nn.LSTM's stacked weights (order i, f, g, o) and its own outputs."""
    with torch.no_grad():
        out, _ = lstm(x[None])
        h_prev = torch.cat([torch.zeros(1, 6), out[0, :-1]])
        pre = x @ lstm.weight_ih_l0.T + h_prev @ lstm.weight_hh_l0.T + lstm.bias_ih_l0 + lstm.bias_hh_l0
        i, f, g, o = pre.chunk(4, dim=1)
    return {"i": i.sigmoid(), "f": f.sigmoid(), "g": g.tanh(), "o": o.sigmoid(), "h": out[0]}


def test_state_is_torchs_gates_rounded_to_three_decimals():
    lstm, x = small_lstm()
    w = LSTMGates.from_lstm(lstm, x, TOKENS, UNITS)
    ref = torch_gates(lstm, x)
    trace = lstm_gate_trace(lstm, x)
    for k in ("i", "f", "g", "o", "h"):
        np.testing.assert_allclose(trace[k], ref[k].numpy(), rtol=1e-5, atol=1e-7, err_msg=k)
        shown = np.array(w.values[k])
        assert shown.shape == (len(TOKENS), len(UNITS))
        np.testing.assert_allclose(shown, ref[k].numpy()[:, UNITS], atol=5e-4 + 1e-6, err_msg=k)  # 3 decimals
    assert w.tokens[3] == "␣" and w.units == UNITS and w.step == 0


def test_state_of_a_full_sentence_stays_small():
    manual_seed(1)
    lstm = nn.LSTM(128, 128)
    tokens = list("Let's stick to statistics. The dog gets the stick.")
    w = LSTMGates.from_lstm(lstm, torch.randn(len(tokens), 128), tokens, list(range(8)))
    assert len(json.dumps({"tokens": w.tokens, "values": w.values, "units": w.units})) < 150_000


def test_javascript_shows_the_numbers_and_recomputes_the_memory(tmp_path):
    lstm, x = small_lstm()
    w = LSTMGates.from_lstm(lstm, x, TOKENS, UNITS)
    ref = torch_gates(lstm, x)
    state = {"tokens": w.tokens, "units": w.units, "values": w.values, "step": 0}
    for step in (1, 4, len(TOKENS)):
        out = run_widget_js(w._esm, state, [{"testid": "lg-step", "value": str(step)}], tmp_path)
        t = step - 1
        assert out["__state"]["step"] == t
        for k in range(len(UNITS)):
            for key in ("i", "f", "g", "o"):
                assert float(out[f"lg-{key}-{k}"]["attrs"]["data-value"]) == pytest.approx(
                    w.values[key][t][k], abs=1e-12
                )
            # the JavaScript's c = f c_prev + i g and h = o tanh(c), from 3-decimal inputs: within 2e-3 of torch
            ccalc = float(out[f"lg-ccalc-{k}"]["attrs"]["data-value"])
            hcalc = float(out[f"lg-hcalc-{k}"]["attrs"]["data-value"])
            assert abs(ccalc - float(out[f"lg-ccalc-{k}"]["attrs"]["data-stored"])) < 2e-3
            assert abs(hcalc - float(ref["h"][t, UNITS[k]])) < 2e-3
        assert f"token “{w.tokens[t]}”" in out["lg-readout"]["text"]


@pytest.mark.parametrize(
    "change, error, match",
    [
        ({"tokens": []}, ValueError, "tokens"),
        ({"tokens": ["a"] * 81}, ValueError, "at most 80"),
        ({"trace": {"i": np.zeros((7, 6))}}, ValueError, "trace must be a mapping"),
        ({"units": [6]}, ValueError, r"units\[0\]"),
        ({"units": [1, 1]}, ValueError, "distinct"),
        ({"units": list(range(13))}, ValueError, "units"),
        ({"step": 7}, ValueError, "step"),
    ],
)
def test_bad_input_names_the_argument(change, error, match):
    lstm, x = small_lstm()
    args = {"tokens": TOKENS, "trace": lstm_gate_trace(lstm, x), "units": UNITS, "step": 0} | change
    with pytest.raises(error, match=match):
        LSTMGates(args["tokens"], args["trace"], args["units"], step=args["step"])


def test_trace_arrays_must_match_the_tokens():
    lstm, x = small_lstm()
    trace = lstm_gate_trace(lstm, x)
    trace["c"] = trace["c"][:3]
    with pytest.raises(ValueError, match=r"trace\['c'\]"):
        LSTMGates(TOKENS, trace, UNITS)
