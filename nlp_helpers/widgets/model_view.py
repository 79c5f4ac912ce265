"""``AttentionModelView``: every head of every layer at a glance, as in bertviz's model view.

One canvas draws a grid of small attention maps, layers (rows) by heads (columns); clicking or
tapping a thumbnail (or moving to it with the arrow keys, or picking it in the two menus) shows
that head enlarged with its tokens and its weights as a table. Everything is drawn in the
browser from the weights shipped once, so it works on the static page without a kernel.

The weights are shipped rounded to ``decimals`` (default 3: a thumbnail is a few pixels per
cell and the table shows 3 decimals), which keeps MiniLM's 6 x 12 maps of a 16-token sentence
near 100 KB instead of the 439 KB of full-precision floats.
"""

from __future__ import annotations

from collections.abc import Sequence

import anywidget
import numpy as np
import traitlets

from nlp_helpers._checks import check_int, check_text
from nlp_helpers.widgets.assets import load_css, load_esm

__all__ = ["AttentionModelView"]

MAX_VALUES = 400_000  # about 2 MB of page; slice layers, heads or tokens first
_ROW_SUM_TOL = 1e-3


def _check_strings(name: str, values, n: int | None = None) -> list[str]:
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise TypeError(f"{name} must be a list of strings, got {type(values).__name__}")
    if not values:
        raise ValueError(f"{name} must not be empty")
    out = [check_text(f"{name}[{i}]", v) for i, v in enumerate(values)]
    if n is not None and len(out) != n:
        raise ValueError(f"{name} has {len(out)} entries but the weights have {n}")
    return out


def _check_weights(weights) -> np.ndarray:
    if hasattr(weights, "detach"):  # a torch tensor
        weights = weights.detach().cpu().numpy()
    try:
        w = np.asarray(weights, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"weights must be an array of numbers: {exc}") from None
    if w.ndim == 5 and w.shape[1] == 1:  # Hugging Face's output.attentions stacked, one sentence
        w = w[:, 0]
    if w.ndim != 4 or w.shape[-1] != w.shape[-2]:
        raise ValueError(f"weights must have shape (layers, heads, n, n) (self-attention), got {w.shape}")
    if w.size > MAX_VALUES:
        raise ValueError(f"weights has {w.size} numbers (more than {MAX_VALUES}); pass fewer layers, heads or tokens")
    if not np.isfinite(w).all() or (w < 0).any():
        raise ValueError("weights must be finite and >= 0 (attention probabilities)")
    sums = w.sum(axis=-1)
    if not ((np.abs(sums - 1) <= _ROW_SUM_TOL) | (sums == 0)).all():
        raise ValueError("weights rows must sum to 1 (attention probabilities over the keys)")
    return w


class AttentionModelView(anywidget.AnyWidget):
    """A grid of all attention maps, ``layers x heads``, with one map enlarged.

    Parameters
    ----------
    tokens:
        The ``n`` tokens of the sentence (queries and keys).
    weights:
        ``(layers, heads, n, n)`` attention probabilities (or ``(layers, 1, heads, n, n)``:
        Hugging Face's ``output.attentions`` stacked for one sentence); rows sum to 1.
    layer_labels, head_labels:
        Names of the layers and heads (default ``"Layer 1"``, ``"Head 1"``, ...).
    title:
        A caption above the grid.
    layer, head:
        The map shown enlarged at first.
    decimals:
        Decimals kept in the page (default 3).
    """

    _esm = load_esm("model_view.js")
    _css = load_css()

    tokens = traitlets.List(traitlets.Unicode()).tag(sync=True)
    weights = traitlets.List().tag(sync=True)  # (L, H, n, n), rounded
    layer_labels = traitlets.List(traitlets.Unicode()).tag(sync=True)
    head_labels = traitlets.List(traitlets.Unicode()).tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    layer = traitlets.Int(0).tag(sync=True)
    head = traitlets.Int(0).tag(sync=True)

    def __init__(
        self,
        tokens: Sequence[str],
        weights,
        *,
        layer_labels: Sequence[str] | None = None,
        head_labels: Sequence[str] | None = None,
        title: str = "",
        layer: int = 0,
        head: int = 0,
        decimals: int = 3,
    ) -> None:
        w = _check_weights(weights)
        L, H, n, _ = w.shape
        tokens = _check_strings("tokens", tokens)
        if len(tokens) != n:
            raise ValueError(f"weights have {n} tokens per map but tokens has {len(tokens)}")
        layer_labels = [f"Layer {i + 1}" for i in range(L)] if layer_labels is None else layer_labels
        head_labels = [f"Head {i + 1}" for i in range(H)] if head_labels is None else head_labels
        decimals = check_int("decimals", decimals, minimum=1, maximum=12)
        super().__init__(
            tokens=tokens,
            weights=np.round(w, decimals).tolist(),
            layer_labels=_check_strings("layer_labels", layer_labels, L),
            head_labels=_check_strings("head_labels", head_labels, H),
            title=check_text("title", title),
            layer=check_int("layer", layer, minimum=0, maximum=L - 1),
            head=check_int("head", head, minimum=0, maximum=H - 1),
        )

    def selected(self) -> np.ndarray:
        """The ``(n, n)`` map shown enlarged (the current ``layer`` and ``head``), as shipped."""
        return np.asarray(self.weights, dtype=float)[self.layer, self.head]
