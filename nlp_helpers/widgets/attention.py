"""``AttentionExplorer``: an attention heatmap with layer/head pickers, causal mask and temperature.

Python validates the weights and ships all layers and heads once; ``attention.js``
draws the heatmap (or the "lines" view) and recomputes the matrix for a new
head, mask or temperature itself, so every control works on the static page.

What the controls compute, for one ``(layer, head)`` matrix ``w`` (rows = queries):

* **causal mask**: ``w_ij * [j <= i]`` divided by its row sum. Because
  ``w = softmax(s)``, this equals the softmax of the scores with the future set
  to ``-inf`` - exactly what a decoder's masked attention computes.
* **temperature** ``T > 0``: ``w_ij ** (1/T)`` divided by its row sum, which equals
  ``softmax(log w / T) = softmax(s / T)``: dividing the scores by ``T`` (``T > 1``
  flattens a row, ``T < 1`` sharpens it). Zero weights stay zero.
* A row whose weights are all zero (a fully masked query) stays all zero.

Given the query and key vectors (``queries=``, ``keys=``) instead of weights, the explorer
ships them rounded to ``qk_decimals`` and computes every weight from the rounded numbers,
``softmax(q . k * scale)``, so its step-through panel (click, tap or arrow to a cell: the
query and key rows, ``q . k``, ``/ sqrt(d)``, ``exp``, the row's sum, the weight) shows
numbers a reader can recompute by hand and that give exactly the weight in the cell.
Weights are shipped rounded to ``digits`` significant digits (the page shows 4 decimals) to keep
pages light; significant digits, not decimals, so that tiny weights survive a temperature change.

:func:`transform_weights` is the Python twin of the JavaScript code; the tests
and the golden file ``tests/golden/attention_widget.json`` compare both with
``softmax(scores / T)`` computed independently.
"""

from __future__ import annotations

from collections.abc import Sequence

import anywidget
import numpy as np
import traitlets

from nlp_helpers._checks import check_array, check_float, check_int, check_text
from nlp_helpers.widgets.assets import load_css, load_esm

__all__ = ["AttentionExplorer", "round_significant", "transform_weights"]

# Above this many numbers the page gets heavy; slice layers/heads/tokens first.
MAX_VALUES = 2_000_000
_ROW_SUM_TOL = 1e-3


def transform_weights(weights: np.ndarray, *, temperature: float = 1.0, causal: bool = False) -> np.ndarray:
    """What the widget shows: ``weights (..., n_q, n_k)`` re-tempered and optionally causally masked.

    Row-wise ``w ** (1/T) * mask`` renormalised to sum to 1 (all-zero rows stay zero).
    The causal mask keeps key ``j <= i`` for query ``i`` and needs ``n_q == n_k``.
    """
    w = check_array("weights", weights)  # NaN or inf would come out as NaN
    if w.ndim < 2:
        raise ValueError(f"weights must have at least 2 dimensions (n_q, n_k), got shape {w.shape}")
    if (w < 0).any():
        raise ValueError(f"weights must be >= 0 (attention probabilities), found {w.min():.4g}")
    temperature = check_float("temperature", temperature, minimum=0.0, min_inclusive=False)
    with np.errstate(divide="ignore"):
        t = np.where(w > 0, np.exp(np.log(np.where(w > 0, w, 1.0)) / temperature), 0.0)
    if causal:
        n_q, n_k = w.shape[-2:]
        if n_q != n_k:
            raise ValueError(f"causal=True needs as many queries as keys, got {n_q} queries and {n_k} keys")
        t = t * np.tril(np.ones((n_q, n_k)))
    total = t.sum(axis=-1, keepdims=True)
    return np.divide(t, total, out=np.zeros_like(t), where=total > 0)


def _as_array(name: str, value) -> np.ndarray:
    if hasattr(value, "detach"):  # a torch tensor, possibly requiring grad
        value = value.detach().cpu().numpy()
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an array of numbers: {exc}") from None
    if arr.ndim == 5:  # (L, 1, H, n_q, n_k): Hugging Face's output.attentions stacked, one sentence
        if arr.shape[1] != 1:
            raise ValueError(
                f"{name} with 5 dimensions must be (layers, 1, heads, n_q, n_k) for one sentence, got {arr.shape}"
            )
        arr = arr[:, 0]
    if arr.ndim not in (2, 3, 4):
        raise ValueError(
            f"{name} must have shape (n_q, n_k), (heads, n_q, n_k) or (layers, heads, n_q, n_k), got shape {arr.shape}"
        )
    if arr.size > MAX_VALUES:
        raise ValueError(f"{name} has {arr.size} numbers (more than {MAX_VALUES}); pass fewer layers, heads or tokens")
    while arr.ndim < 4:
        arr = arr[None]
    return arr


def _check_tokens(name: str, tokens) -> list[str]:
    if isinstance(tokens, str) or not isinstance(tokens, Sequence):
        raise TypeError(f"{name} must be a list of strings, got {type(tokens).__name__}")
    if not tokens:
        raise ValueError(f"{name} must not be empty")
    for i, t in enumerate(tokens):
        check_text(f"{name}[{i}]", t)
    return list(tokens)


def _check_labels(name: str, labels, n: int, default: str) -> list[str]:
    if labels is None:
        return [f"{default} {i}" for i in range(n)]
    labels = _check_tokens(name, labels)
    if len(labels) != n:
        raise ValueError(f"{name} has {len(labels)} labels but the weights have {n} {default.lower()}s")
    return labels


def round_significant(values: np.ndarray, digits: int) -> np.ndarray:
    """``values`` rounded to ``digits`` significant digits (as ``f"{x:.{digits}g}"``: short in JSON)."""
    arr = check_array("values", values)
    digits = check_int("digits", digits, minimum=1, maximum=17)
    flat = [float(f"{x:.{digits}g}") for x in arr.reshape(-1).tolist()]
    return np.asarray(flat, dtype=float).reshape(arr.shape)


def _as_vectors(name: str, value) -> np.ndarray:
    """Queries or keys as ``(L, H, n, d)`` from ``(n, d)``, ``(H, n, d)`` or ``(L, H, n, d)``."""
    if hasattr(value, "detach"):
        value = value.detach().cpu().numpy()
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an array of numbers: {exc}") from None
    if arr.ndim not in (2, 3, 4) or arr.shape[-1] < 1:
        raise ValueError(f"{name} must have shape (n, d), (heads, n, d) or (layers, heads, n, d), got {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must contain only finite numbers (found NaN or inf)")
    if arr.size > MAX_VALUES:
        raise ValueError(f"{name} has {arr.size} numbers (more than {MAX_VALUES}); pass fewer layers, heads or tokens")
    while arr.ndim < 4:
        arr = arr[None]
    return arr


def _softmax_last(scores: np.ndarray) -> np.ndarray:
    keep = np.isfinite(scores)
    m = np.max(np.where(keep, scores, -np.inf), axis=-1, keepdims=True)
    e = np.where(keep, np.exp(np.where(keep, scores, 0.0) - np.where(np.isfinite(m), m, 0.0)), 0.0)
    total = e.sum(axis=-1, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


class AttentionExplorer(anywidget.AnyWidget):
    """Heatmap of attention weights with token labels, layer/head pickers, causal mask and temperature.

    Parameters
    ----------
    tokens:
        The key tokens (columns), ``n_k`` strings; also the query tokens unless ``query_tokens`` is given.
    weights:
        Attention weights of shape ``(n_q, n_k)``, ``(H, n_q, n_k)`` or ``(L, H, n_q, n_k)``
        (also ``(L, 1, H, n_q, n_k)``: Hugging Face's ``output.attentions`` stacked for one
        sentence). Finite, non-negative, each row summing to 1 (or to 0 for a fully masked query).
    scores:
        Instead of ``weights``: raw pre-softmax scores of the same shapes; ``-inf`` marks masked
        entries. They are turned into weights with a softmax over the keys.
    query_tokens:
        The query tokens (rows) when they differ from ``tokens`` (cross-attention, seq2seq).
    layer_labels, head_labels:
        Names shown in the pickers (default ``"Layer 0"``, ``"Head 0"``, ...).
    title:
        A caption above the controls.
    layer, head, causal, temperature:
        Initial state of the controls; ``head=-1`` shows the mean over heads.
    show_causal:
        Offer the causal-mask checkbox (default ``True``). ``False`` for an encoder such as BERT, which
        never masks the future: the checkbox would suggest it could.
    queries, keys:
        Instead of ``weights``/``scores``: the query and key vectors, ``(n_q, d)`` and ``(n_k, d)``
        (or with leading ``(heads,)`` / ``(layers, heads)`` axes). The weights become
        ``softmax(queries @ keys.T * scale)`` of the vectors rounded to ``qk_decimals``, and the
        step-through panel shows the computation of the selected cell.
    scale:
        The score scale with ``queries``/``keys`` (default ``1 / sqrt(d)``).
    digits, qk_decimals:
        Significant digits kept in the page for the weights (default 5: ``w ** (1/T)`` then stays
        within 1e-5 of the exact value for ``T >= 0.5``) and decimals for ``queries``/``keys`` (default 4).
    """

    _esm = load_esm("attention.js")
    _css = load_css()

    tokens = traitlets.List(traitlets.Unicode()).tag(sync=True)
    query_tokens = traitlets.List(traitlets.Unicode()).tag(sync=True)
    weights = traitlets.List().tag(sync=True)  # nested lists (L, H, n_q, n_k)
    layer_labels = traitlets.List(traitlets.Unicode()).tag(sync=True)
    head_labels = traitlets.List(traitlets.Unicode()).tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    layer = traitlets.Int(0).tag(sync=True)
    head = traitlets.Int(0).tag(sync=True)
    causal = traitlets.Bool(False).tag(sync=True)
    temperature = traitlets.Float(1.0).tag(sync=True)
    view = traitlets.Unicode("heatmap").tag(sync=True)
    # ("keys" is taken by ipywidgets: the list of synced traits)
    query_vectors = traitlets.List().tag(sync=True)  # (L, H, n_q, d) rounded, or [] when not given
    key_vectors = traitlets.List().tag(sync=True)  # (L, H, n_k, d)
    scale = traitlets.Float(1.0).tag(sync=True)
    qk_decimals = traitlets.Int(4).tag(sync=True)
    show_causal = traitlets.Bool(True).tag(sync=True)

    def __init__(
        self,
        tokens: Sequence[str],
        weights=None,
        *,
        scores=None,
        query_tokens: Sequence[str] | None = None,
        layer_labels: Sequence[str] | None = None,
        head_labels: Sequence[str] | None = None,
        title: str = "",
        layer: int = 0,
        head: int = 0,
        causal: bool = False,
        temperature: float = 1.0,
        queries=None,
        keys=None,
        scale: float | None = None,
        digits: int = 5,
        qk_decimals: int = 4,
        show_causal: bool = True,
    ) -> None:
        key_tokens = _check_tokens("tokens", tokens)
        query_toks = key_tokens if query_tokens is None else _check_tokens("query_tokens", query_tokens)
        digits = check_int("digits", digits, minimum=1, maximum=17)
        qk_decimals = check_int("qk_decimals", qk_decimals, minimum=0, maximum=12)
        given = [name for name, v in (("weights", weights), ("scores", scores), ("queries", queries)) if v is not None]
        if (queries is None) != (keys is None):
            raise ValueError("pass both queries and keys (or neither)")
        if len(given) != 1:
            raise ValueError(
                "pass exactly one of weights (attention probabilities), scores (pre-softmax) or queries+keys"
            )
        if scale is not None and queries is None:
            raise ValueError("scale is only used with queries and keys")
        q_list: list = []
        k_list: list = []
        if queries is not None:
            q, k = _as_vectors("queries", queries), _as_vectors("keys", keys)
            if q.shape[:2] != k.shape[:2] or q.shape[-1] != k.shape[-1]:
                raise ValueError(
                    f"queries {q.shape} and keys {k.shape} must share layers, heads and vector size d"
                    " (shapes (L, H, n_q, d) and (L, H, n_k, d))"
                )
            scale = 1.0 / np.sqrt(q.shape[-1]) if scale is None else check_float("scale", scale, minimum=0.0)
            q, k = np.round(q, qk_decimals), np.round(k, qk_decimals)
            q_list, k_list = q.tolist(), k.tolist()
            w, name = _softmax_last(q @ np.swapaxes(k, -1, -2) * scale), "queries/keys"
        elif scores is not None:
            s = _as_array("scores", scores)
            if np.isnan(s).any() or np.isposinf(s).any():
                raise ValueError("scores must not contain NaN or +inf (use -inf for masked entries)")
            w, name = _softmax_last(s), "scores"
        else:
            w, name = _as_array("weights", weights), "weights"
            self._check_weights(w)
        L, H, n_q, n_k = w.shape
        if n_k != len(key_tokens):
            raise ValueError(f"{name} has {n_k} key columns but tokens has {len(key_tokens)} tokens")
        if n_q != len(query_toks):
            which = "tokens" if query_tokens is None else "query_tokens"
            raise ValueError(f"{name} has {n_q} query rows but {which} has {len(query_toks)} tokens")
        layer = check_int("layer", layer, minimum=0, maximum=L - 1)
        head = check_int("head", head, minimum=-1, maximum=H - 1)
        temperature = check_float("temperature", temperature, minimum=0.0, min_inclusive=False)
        if not isinstance(causal, bool):
            raise TypeError(f"causal must be a bool, got {type(causal).__name__}")
        if causal and n_q != n_k:
            raise ValueError(f"causal=True needs as many queries as keys, got {n_q} and {n_k}")
        if not isinstance(show_causal, bool):
            raise TypeError(f"show_causal must be a bool, got {type(show_causal).__name__}")
        if causal and not show_causal:
            raise ValueError("causal=True needs show_causal=True (the reader must be able to switch the mask off)")
        super().__init__(
            tokens=key_tokens,
            query_tokens=list(query_toks),
            weights=round_significant(w, digits).tolist(),
            query_vectors=q_list,
            key_vectors=k_list,
            scale=1.0 if scale is None else float(scale),
            qk_decimals=qk_decimals,
            layer_labels=_check_labels("layer_labels", layer_labels, L, "Layer"),
            head_labels=_check_labels("head_labels", head_labels, H, "Head"),
            title=check_text("title", title),
            layer=layer,
            head=head,
            causal=causal,
            temperature=temperature,
            show_causal=show_causal,
        )

    @staticmethod
    def _check_weights(w: np.ndarray) -> None:
        if not np.isfinite(w).all():
            raise ValueError("weights must contain only finite numbers (found NaN or inf); pass scores= for -inf masks")
        if (w < 0).any():
            raise ValueError(f"weights must be >= 0 (attention probabilities), found {w.min():.4g}")
        sums = w.sum(axis=-1)
        bad = ~((np.abs(sums - 1) <= _ROW_SUM_TOL) | (sums == 0))
        if bad.any():
            layer, h, i = np.argwhere(bad)[0]
            raise ValueError(
                f"weights rows must sum to 1 (or 0 for a fully masked query); layer {layer}, head {h}, row {i} "
                f"sums to {sums[layer, h, i]:.4g}. Pass pre-softmax values as scores= instead"
            )

    @property
    def shape(self) -> tuple[int, int, int, int]:
        """``(layers, heads, n_q, n_k)`` of the shipped weights."""
        w = self.weights
        return len(w), len(w[0]), len(w[0][0]), len(w[0][0][0])

    def matrix(self) -> np.ndarray:
        """The ``(n_q, n_k)`` matrix the widget shows for its current layer, head, mask and temperature."""
        L, H, _, _ = self.shape
        # The traits may have been set from Python after construction: check them as the constructor does.
        layer = check_int("layer", self.layer, minimum=0, maximum=L - 1)
        head = check_int("head", self.head, minimum=-1, maximum=H - 1)
        if self.query_vectors:  # the weights of the rounded vectors, at full precision (as the page computes them)
            q = np.asarray(self.query_vectors, dtype=float)[layer]
            k = np.asarray(self.key_vectors, dtype=float)[layer]
            w = _softmax_last(q @ np.swapaxes(k, -1, -2) * self.scale)
        else:
            w = np.asarray(self.weights, dtype=float)[layer]  # (H, n_q, n_k)
        w = w.mean(axis=0) if head == -1 else w[head]
        return transform_weights(w, temperature=self.temperature, causal=self.causal)
