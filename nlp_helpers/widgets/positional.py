"""``PositionalEncodingExplorer``: the sinusoidal positional encoding, recomputed in the browser.

Python only validates the settings; ``positional.js`` computes the table
``PE(pos, x)`` (the formula of :func:`nlp_helpers.attention.positional.positional_encoding`)
and draws, for the current sliders:

* the heatmap of the table (positions x dimensions, cividis from -1 to +1);
* the sine and cosine of one dimension pair ``(2i, 2i + 1)`` along the positions;
* the dot product ``PE(p) . PE(q)`` of one position ``p`` with every ``q``: it depends
  only on ``p - q`` and is largest at ``q = p``;
* a table of the first (up to 8 x 8) values and a table of the similarities, as the
  text alternative (``data-testid`` ``pe-value-<pos>-<dim>`` and ``pe-sim-<q>``).

``tests/golden/positional_widget.json`` holds the numbers Python computes for given
slider settings; the browser test moves the sliders and compares.
"""

from __future__ import annotations

import anywidget
import numpy as np
import traitlets

from nlp_helpers._checks import check_float, check_int
from nlp_helpers.attention.positional import positional_encoding
from nlp_helpers.widgets.assets import load_css, load_esm

__all__ = ["PositionalEncodingExplorer"]

TABLE_SIZE = 8  # rows and columns of the value table (the text alternative)


class PositionalEncodingExplorer(anywidget.AnyWidget):
    """Sliders for ``d_model``, sequence length, dimension pair and position over the sinusoidal PE.

    Parameters
    ----------
    max_len:
        Largest sequence length the length slider offers (2..512); also the initial length
        unless ``length`` is given.
    d_model:
        Initial model width (even, 2..``max_d_model``).
    length, pair, position:
        Initial sequence length, dimension pair ``i`` (dimensions ``2i`` and ``2i+1``) and the
        position whose similarity to all others is drawn.
    max_d_model:
        Largest ``d_model`` the slider offers (even, up to 512).
    base:
        The constant of the formula (10000 in the paper).
    """

    _esm = load_esm("positional.js")
    _css = load_css()

    max_len = traitlets.Int(50).tag(sync=True)
    max_d_model = traitlets.Int(128).tag(sync=True)
    d_model = traitlets.Int(16).tag(sync=True)
    length = traitlets.Int(50).tag(sync=True)
    pair = traitlets.Int(0).tag(sync=True)
    position = traitlets.Int(0).tag(sync=True)
    base = traitlets.Float(10000.0).tag(sync=True)

    @staticmethod
    def _checked(max_len, d_model, length, pair, position, max_d_model, base) -> dict:
        """The settings, validated (for the constructor and again for traits set later from Python)."""
        max_len = check_int("max_len", max_len, minimum=2, maximum=512)
        max_d_model = check_int("max_d_model", max_d_model, minimum=2, maximum=512)
        d_model = check_int("d_model", d_model, minimum=2, maximum=max_d_model)
        for name, value in (("d_model", d_model), ("max_d_model", max_d_model)):
            if value % 2:
                raise ValueError(f"{name} must be even (sin/cos pairs), got {value}")
        length = max_len if length is None else check_int("length", length, minimum=2, maximum=max_len)
        pair = check_int("pair", pair, minimum=0, maximum=d_model // 2 - 1)
        position = check_int("position", position, minimum=0, maximum=length - 1)
        base = check_float("base", base, minimum=1.0, min_inclusive=False)
        return dict(
            max_len=max_len,
            max_d_model=max_d_model,
            d_model=d_model,
            length=length,
            pair=pair,
            position=position,
            base=base,
        )

    def __init__(
        self,
        max_len: int = 50,
        d_model: int = 16,
        *,
        length: int | None = None,
        pair: int = 0,
        position: int = 0,
        max_d_model: int = 128,
        base: float = 10000.0,
    ) -> None:
        super().__init__(**self._checked(max_len, d_model, length, pair, position, max_d_model, base))

    def _state(self) -> dict:
        return self._checked(
            self.max_len, self.d_model, self.length, self.pair, self.position, self.max_d_model, self.base
        )

    def table(self) -> np.ndarray:
        """The ``(length, d_model)`` table the widget shows for its current settings."""
        st = self._state()
        return positional_encoding(st["length"], st["d_model"], st["base"])

    def similarity(self) -> np.ndarray:
        """``PE(position) . PE(q)`` for every position ``q`` (shape ``(length,)``), as drawn."""
        pe = self.table()
        return pe @ pe[self._state()["position"]]
