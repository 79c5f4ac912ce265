"""``LSTMGates``: an LSTM's input, forget and output gates and its memory over a sentence, step by step.

Python recomputes the gates of a trained ``torch.nn.LSTM`` from its weights
(:func:`nlp_helpers.rnn.gates.lstm_gate_trace`) and ships, for a handful of units, the gate
activations ``i``, ``f``, ``o``, the new memory ``g`` and the states ``c`` and ``h`` at every step,
rounded to 3 decimals. ``lstm_gates.js`` draws them on the static page with no kernel:

* a heatmap on a canvas (``data-testid="lg-heatmap"``): one row per (gate, unit), one column per
  token, colour-blind-safe cividis colours with a legend (gates 0 to 1; memory −m to +m), the
  selected step outlined; click or tap a column, or use the arrow keys, to select it;
* a slider (``lg-step``) and previous/next buttons to move along the sentence;
* a readout of the selected step for every unit (``lg-<name>-<unit>`` with ``data-value``), where the
  memory update ``c_t = f·c_{t-1} + i·g`` and ``h_t = o·tanh(c_t)`` are recomputed from the shown
  numbers (``lg-ccalc-<unit>``, ``lg-hcalc-<unit>``, with Python's value in ``data-stored``): the same
  equations as the chapter's cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import anywidget
import numpy as np
import traitlets
from torch import Tensor, nn

from nlp_helpers._checks import check_array, check_int, check_nonempty, check_text
from nlp_helpers.rnn.gates import lstm_gate_trace
from nlp_helpers.widgets.assets import load_css, load_esm

__all__ = ["LSTMGates"]

KEYS = ("i", "f", "g", "o", "c", "h")
MAX_TOKENS, MAX_UNITS = 80, 12  # a readable heatmap in the text column and state < 150 KB
_CSS = """
.nlpw-lstm .nlpw-lg-tokens { font-family: var(--pst-font-family-monospace, monospace); line-height: 1.9; overflow-wrap: anywhere; }
.nlpw-lstm .nlpw-lg-readout { overflow-x: auto; max-width: 100%; }
.nlpw-lstm .nlpw-lg-readout td { white-space: nowrap; }
.nlpw-lstm .nlpw-lg-tok { padding: 0.05rem 0.1rem; border-radius: 0.2rem; white-space: pre; }
.nlpw-lstm .nlpw-lg-tok.sel { outline: 2px solid #d55e00; font-weight: 700; }
.nlpw-lstm canvas:focus-visible { outline: 3px solid var(--pst-color-primary, #0072b2); outline-offset: 2px; }
.nlpw-lstm .nlpw-lg-bar { display: inline-block; width: 7em; height: 0.8em; vertical-align: middle; margin: 0 0.3em;
  background: linear-gradient(to right, #00224e, #123570, #3b496c, #575d6d, #707173, #8a8678, #a59c74, #c3b369, #fee838); }
.nlpw-lstm button { min-width: 2.6em; min-height: 2.2em; }
"""


def _display_token(token: str) -> str:
    return token.replace(" ", "␣").replace("\n", "↵").replace("\t", "⇥")


class LSTMGates(anywidget.AnyWidget):
    """Gate activations and memory of a few LSTM units along a sequence of tokens.

    Parameters
    ----------
    tokens:
        The sequence, 1 to 80 tokens (characters for a character model).
    trace:
        Mapping with keys ``"i"``, ``"f"``, ``"g"``, ``"o"``, ``"c"``, ``"h"``, each an array of
        shape ``(len(tokens), H)``: what :func:`nlp_helpers.rnn.gates.lstm_gate_trace` returns.
    units:
        Which of the H units to show, 1 to 12 distinct indices.
    step:
        The initially selected step, 0-based (default 0).
    """

    _esm = load_esm("lstm_gates.js")
    _css = load_css() + _CSS

    tokens = traitlets.List(traitlets.Unicode()).tag(sync=True)
    units = traitlets.List(traitlets.Int()).tag(sync=True)
    values = traitlets.Dict().tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)

    def __init__(self, tokens: Sequence[str], trace: Mapping[str, object], units: Sequence[int], *, step: int = 0):
        tokens = [
            check_text(f"tokens[{t}]", w, allow_empty=False) for t, w in enumerate(check_nonempty("tokens", tokens))
        ]
        if len(tokens) > MAX_TOKENS:
            raise ValueError(f"tokens must have at most {MAX_TOKENS} entries for a readable heatmap, got {len(tokens)}")
        if not isinstance(trace, Mapping) or any(k not in trace for k in KEYS):
            raise ValueError(f"trace must be a mapping with keys {KEYS} (see lstm_gate_trace)")
        arrays = {k: check_array(f"trace[{k!r}]", trace[k], shape=(len(tokens), None)) for k in KEYS}
        H = arrays["i"].shape[1]
        if H < 1 or any(a.shape[1] != H for a in arrays.values()):
            raise ValueError(f"trace arrays must all have shape ({len(tokens)}, H) with the same H >= 1")
        units = [
            check_int(f"units[{k}]", u, minimum=0, maximum=H - 1) for k, u in enumerate(check_nonempty("units", units))
        ]
        if len(units) > MAX_UNITS or len(set(units)) != len(units):
            raise ValueError(f"units must be 1 to {MAX_UNITS} distinct unit indices, got {units}")
        step = check_int("step", step, minimum=0, maximum=len(tokens) - 1)
        values = {k: np.round(arrays[k][:, units], 3).tolist() for k in KEYS}
        super().__init__(tokens=[_display_token(t) for t in tokens], units=units, values=values, step=step)

    @classmethod
    def from_lstm(cls, lstm: nn.LSTM, x: Tensor, tokens: Sequence[str], units: Sequence[int], *, step: int = 0):
        """Trace the first layer of ``lstm`` over inputs ``x`` (T, input_size), one per token, and show ``units``."""
        trace = lstm_gate_trace(lstm, x)
        return cls(tokens, trace, units, step=step)
