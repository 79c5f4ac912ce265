"""Decoding: turning a language model's logits into text, one sampled token at a time.

Implemented from scratch in **numpy** (float64), on logits of shape ``(V,)`` or
``(B, V)``:

* :func:`softmax` with a temperature, :func:`entropy`;
* the filters, each returning logits with the removed tokens set to ``-inf``:
  :func:`apply_temperature`, :func:`top_k_filter`, :func:`top_p_filter`
  (nucleus), :func:`min_p_filter` and :func:`apply_repetition_penalty`;
* :func:`process_logits` chains them in the conventional order of Hugging Face
  ``generate`` (repetition penalty -> temperature -> top-k -> top-p -> min-p), and
  :func:`filtered_probs` turns the result into the distribution we sample from;
* :func:`sample` draws by inverse-CDF sampling, :func:`greedy` takes the argmax.

The autoregressive loop that uses them (``generate``) and the quality/diversity
measures (``distinct_n``, ``repetition_rate``) are in :mod:`nlp_helpers.sampling.generate`.

Conventions (tested against ``transformers``' ``TemperatureLogitsWarper``,
``TopKLogitsWarper``, ``TopPLogitsWarper``, ``MinPLogitsWarper`` and
``RepetitionPenaltyLogitsProcessor``):

* **Temperature 0 means greedy**: :func:`sample` returns the argmax (the lowest
  token id if several tie), and :func:`softmax`/:func:`filtered_probs` return the
  limit ``T -> 0`` of the softmax (all mass on the maximum, shared equally by tied
  maxima). Negative or NaN temperatures raise ``ValueError``.
* **Ties are kept**: a filter never separates two tokens with the same logit. Top-k
  keeps every token at least as likely as the k-th (as ``transformers`` does), and
  top-p keeps every token as likely as the last one of the nucleus. ``transformers``'
  top-p instead keeps whichever tied token its sort puts last, so the two differ
  only when tied tokens straddle the nucleus boundary.
* ``top_p = 1`` keeps every token; ``top_k = None``/``top_p = None``/``min_p = None``
  switch a filter off.
* Logits so large that dividing them by the temperature would overflow float64
  (magnitudes near 1e308) are first shifted by their row maximum; a shift changes
  no probability and no filter decision, and it keeps ``+inf`` (and so NaN) out.

Left out: beam search and typical/eta/epsilon sampling.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from nlp_helpers._checks import check_array, check_float, check_int
from nlp_helpers.seeds import rng as seeded_rng

__all__ = [
    "softmax",
    "entropy",
    "apply_temperature",
    "top_k_filter",
    "top_p_filter",
    "min_p_filter",
    "apply_repetition_penalty",
    "process_logits",
    "filtered_probs",
    "greedy",
    "sample",
]


# ----------------------------------------------------------------------------- checks
def _check_logits(logits: Any, name: str = "logits") -> np.ndarray:
    """Logits as a float64 array (V,) or (B, V): NaN and +inf rejected, -inf allowed (a masked token)."""
    try:
        x = np.array(logits, dtype=np.float64)  # a copy: filters never modify the caller's array
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be array-like of numbers: {exc}") from None
    if x.ndim not in (1, 2) or x.shape[-1] == 0:
        raise ValueError(f"{name} must have shape (V,) or (B, V) with V >= 1, got shape {x.shape}")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError(f"{name} must not contain NaN or +inf (-inf marks a removed token)")
    if np.isneginf(x).all(axis=-1).any():
        raise ValueError(f"{name}: every logit of a row is -inf, so no token is left to sample")
    return x


def _check_temperature(temperature: Any) -> float:
    if isinstance(temperature, (float, np.floating)) and math.isnan(temperature):
        raise ValueError("temperature must be a number >= 0 (0 means greedy), got nan")
    return check_float("temperature", temperature, minimum=0.0)


def _check_keep(min_tokens_to_keep: Any) -> int:
    return check_int("min_tokens_to_keep", min_tokens_to_keep, minimum=1)


# ------------------------------------------------------------------- distributions
# Each public function checks its arguments once and calls a private `_name` that
# trusts them; the chain in process_logits/sample uses the private ones, so a
# generation step with V = 49,152 does not validate the same array five times.
def _softmax(x: np.ndarray, t: float = 1.0) -> np.ndarray:
    m = x.max(axis=-1, keepdims=True)
    with np.errstate(over="ignore"):  # x - m may round to -inf for |x| near 1e308: probability 0, as it should be
        e = (x == m).astype(np.float64) if t == 0.0 else np.exp((x - m) / t)  # minus the max: no overflow
    return e / e.sum(axis=-1, keepdims=True)


def _divide(x: np.ndarray, t: float) -> np.ndarray:
    """``x / t``, shifted by the row maximum first if plain division would overflow to ``+-inf``."""
    with np.errstate(over="ignore"):
        y = x / t
        if (np.isinf(y) & np.isfinite(x)).any():  # only for |logits| near 1e308: a shift changes no probability
            y = (x - x.max(axis=-1, keepdims=True)) / t  # the maximum becomes 0, so a row never turns all -inf
    return y


def softmax(logits: Any, temperature: float = 1.0) -> np.ndarray:
    r"""Probabilities :math:`p_i = e^{z_i/T} / \sum_j e^{z_j/T}` of logits ``(V,)`` or ``(B, V)``, along the last axis.

    ``temperature=0`` gives the limit ``T -> 0``: all mass on the largest logit
    (shared equally if several tie). ``-inf`` logits get probability 0.
    """
    return _softmax(_check_logits(logits), _check_temperature(temperature))


def entropy(probs: Any) -> np.ndarray | float:
    r"""Entropy :math:`H = -\sum_i p_i \ln p_i` in **nats** of ``(V,)`` or ``(B, V)`` probabilities (0 ln 0 = 0)."""
    p = check_array("probs", probs, finite=False)  # NaN is reported below, with the expected shape
    if p.ndim not in (1, 2) or np.isnan(p).any() or (p < 0).any():
        raise ValueError(f"probs must be non-negative probabilities of shape (V,) or (B, V), got shape {p.shape}")
    if not np.allclose(p.sum(axis=-1), 1.0, atol=1e-6):
        raise ValueError("probs must sum to 1 along the last axis")
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -np.where(p > 0, p * np.log(p), 0.0).sum(axis=-1)
    return float(h) if h.ndim == 0 else h


# ------------------------------------------------------------------------- filters
def apply_temperature(logits: Any, temperature: float) -> np.ndarray:
    """Logits divided by ``temperature`` (> 0). ``T < 1`` sharpens the distribution, ``T > 1`` flattens it."""
    x = _check_logits(logits)
    if _check_temperature(temperature) == 0.0:
        raise ValueError(
            "temperature must be > 0 to scale logits; temperature 0 (greedy) is handled by sample()/softmax()"
        )
    return _divide(x, temperature)


def _kth_largest(x: np.ndarray, k: int) -> np.ndarray:
    """The k-th largest value of each row, shape (..., 1); np.partition finds it without a full sort."""
    return -np.partition(-x, k - 1, axis=-1)[..., k - 1 : k]


def _top_k(x: np.ndarray, k: int) -> np.ndarray:
    return x if k >= x.shape[-1] else np.where(x >= _kth_largest(x, k), x, -np.inf)


def top_k_filter(logits: Any, k: int, min_tokens_to_keep: int = 1) -> np.ndarray:
    """Keep the ``k`` largest logits of each row (and any tied with the k-th); set the rest to ``-inf``.

    ``k >= V`` keeps everything; ``k = 1`` is greedy; ``max(k, min_tokens_to_keep)`` is used.
    """
    x = _check_logits(logits)
    return _top_k(x, max(check_int("k", k, minimum=1), _check_keep(min_tokens_to_keep)))


def _top_p(x: np.ndarray, p: float, keep_n: int = 1) -> np.ndarray:
    if p == 1.0:
        return x
    x2 = np.atleast_2d(x)
    probs = _softmax(x2)
    V = x2.shape[-1]
    # Only the head of the distribution can be in the nucleus: sort just the top m
    # tokens (found by argpartition in linear time) once they hold more than p of the
    # mass; a full sort of V = 49,152 logits per row is what makes top-p slow.
    head = np.broadcast_to(np.arange(V), x2.shape)
    for m in (256, 2048, 16384):
        m = max(m, keep_n)
        if m >= V:
            break
        top_m = np.argpartition(-x2, m - 1, axis=-1)[:, :m]
        if np.take_along_axis(probs, top_m, axis=-1).sum(axis=-1).min() > p:
            head = top_m
            break
    order = np.take_along_axis(head, np.argsort(-np.take_along_axis(x2, head, -1), axis=-1, kind="stable"), -1)
    sorted_x = np.take_along_axis(x2, order, axis=-1)  # largest logits first
    sorted_p = np.take_along_axis(probs, order, axis=-1)
    mass_above = np.cumsum(sorted_p, axis=-1) - sorted_p  # exclusive cumulative sum
    n_kept = np.maximum((mass_above < p).sum(axis=-1, keepdims=True), min(keep_n, V))
    # Compare logits, not probabilities: ties stay ties even where exp() underflows to 0.
    threshold = np.take_along_axis(sorted_x, n_kept - 1, axis=-1)  # logit of the last kept token
    return np.where(x2 >= threshold, x2, -np.inf).reshape(x.shape)


def top_p_filter(logits: Any, p: float, min_tokens_to_keep: int = 1) -> np.ndarray:
    """Nucleus filter: keep the smallest set of most likely tokens whose probability adds up to >= ``p``.

    Sort descending; token ``i`` is kept if the mass of the tokens ranked above it is
    still < ``p`` (so the token that crosses ``p`` is kept), plus any token tied with
    the last one kept, and at least ``min_tokens_to_keep`` tokens. ``p`` in (0, 1];
    ``p = 1`` keeps every token.
    """
    x = _check_logits(logits)
    p = check_float("p", p, minimum=0.0, maximum=1.0, min_inclusive=False)
    return _top_p(x, p, _check_keep(min_tokens_to_keep))


def _min_p(x: np.ndarray, min_p: float, keep_n: int = 1) -> np.ndarray:
    probs = _softmax(x)
    threshold = min_p * probs.max(axis=-1, keepdims=True)
    kth = _kth_largest(x, min(keep_n, x.shape[-1]))  # min_tokens_to_keep, ties included
    return np.where((probs >= threshold) | (x >= kth), x, -np.inf)


def min_p_filter(logits: Any, min_p: float, min_tokens_to_keep: int = 1) -> np.ndarray:
    """Keep tokens whose probability is at least ``min_p`` times the top token's (``min_p`` in [0, 1])."""
    x = _check_logits(logits)
    min_p = check_float("min_p", min_p, minimum=0.0, maximum=1.0)
    return _min_p(x, min_p, _check_keep(min_tokens_to_keep))


def apply_repetition_penalty(logits: Any, previous_ids: Any, penalty: float) -> np.ndarray:
    """Make already-seen tokens less likely (CTRL, Keskar et al. 2019): divide positive logits by ``penalty``, multiply negative ones.

    ``previous_ids``: token ids seen so far, shape ``(n,)`` for logits ``(V,)`` or
    ``(B, n)`` for ``(B, V)``. ``penalty > 1`` discourages repeats; 1 changes nothing.
    """
    x = _check_logits(logits)
    penalty = check_float("penalty", penalty, minimum=0.0, min_inclusive=False)
    ids = np.asarray(previous_ids)
    rows = x.shape[0] if x.ndim == 2 else 1
    if ids.size and (ids.dtype.kind not in "iu" or ids.min() < 0 or ids.max() >= x.shape[-1]):
        raise ValueError(f"previous_ids must be integer token ids in [0, {x.shape[-1]}), got {ids.dtype} array")
    if ids.size % rows:
        raise ValueError(f"previous_ids must have shape (n,) for logits (V,) or (B, n) for (B, V); got {ids.shape}")
    x2, ids2 = np.atleast_2d(x), ids.reshape(rows, -1).astype(np.int64)
    seen = np.zeros(x2.shape, dtype=bool)
    np.put_along_axis(seen, ids2, True, axis=-1)
    out = np.where(seen, np.where(x2 < 0, x2 * penalty, x2 / penalty), x2)
    return out.reshape(x.shape)


def _check_strategy(temperature: Any, top_k: Any, top_p: Any, min_p: Any) -> tuple[float, Any, Any, Any]:
    t = _check_temperature(temperature)
    k = None if top_k is None else check_int("top_k", top_k, minimum=1)
    p = None if top_p is None else check_float("top_p", top_p, minimum=0.0, maximum=1.0, min_inclusive=False)
    mp = None if min_p is None else check_float("min_p", min_p, minimum=0.0, maximum=1.0)
    return t, k, p, mp


def process_logits(
    logits: Any,
    temperature: float = 1.0,
    top_k: int | None = None,
    top_p: float | None = None,
    min_p: float | None = None,
    *,
    repetition_penalty: float | None = None,
    previous_ids: Any = None,
) -> np.ndarray:
    """Apply repetition penalty -> temperature -> top-k -> top-p -> min-p (``None`` skips a step).

    ``temperature`` must be > 0 here (greedy needs no filtering: use :func:`greedy`).
    """
    x = _check_logits(logits)
    t, k, p, mp = _check_strategy(temperature, top_k, top_p, min_p)
    if t == 0.0:
        raise ValueError(
            "temperature must be > 0 to process logits; temperature 0 (greedy) is handled by sample()/filtered_probs()"
        )
    if repetition_penalty is not None:
        if previous_ids is None:
            raise ValueError("previous_ids is required when repetition_penalty is given")
        x = apply_repetition_penalty(x, previous_ids, repetition_penalty)
    return _process(x, t, k, p, mp)


def _process(x: np.ndarray, t: float, k: int | None, p: float | None, mp: float | None) -> np.ndarray:
    x = _divide(x, t)
    if k is not None:
        x = _top_k(x, k)
    if p is not None:
        x = _top_p(x, p)
    if mp is not None:
        x = _min_p(x, mp)
    return x


def filtered_probs(
    logits: Any,
    temperature: float = 1.0,
    top_k: int | None = None,
    top_p: float | None = None,
    min_p: float | None = None,
) -> np.ndarray:
    """The distribution :func:`sample` draws from: softmax of :func:`process_logits`, renormalised over the survivors.

    ``temperature=0`` returns the greedy limit (all mass on the maximum; no filter can remove it).
    """
    x = _check_logits(logits)
    t, k, p, mp = _check_strategy(temperature, top_k, top_p, min_p)
    return _softmax(x, 0.0) if t == 0.0 else _softmax(_process(x, t, k, p, mp))


# ------------------------------------------------------------------------ sampling
def greedy(logits: Any) -> int | np.ndarray:
    """Index of the largest logit (lowest index among ties): an ``int`` for ``(V,)``, an array ``(B,)`` for ``(B, V)``."""
    x = _check_logits(logits)
    idx = np.argmax(x, axis=-1)
    return int(idx) if x.ndim == 1 else idx


def _rng(generator: np.random.Generator | int | None) -> np.random.Generator:
    if generator is None or isinstance(generator, (int, np.integer)) and not isinstance(generator, bool):
        # An int seed goes through the book's seed offset; None draws fresh entropy.
        return np.random.default_rng(None) if generator is None else seeded_rng(int(generator))
    if isinstance(generator, np.random.Generator):
        return generator
    raise TypeError(f"generator must be a numpy Generator, an int seed or None, got {type(generator).__name__}")


def sample(
    logits: Any,
    temperature: float = 1.0,
    top_k: int | None = None,
    top_p: float | None = None,
    min_p: float | None = None,
    generator: np.random.Generator | int | None = None,
    num_samples: int | None = None,
) -> int | np.ndarray:
    """Draw token ids from :func:`filtered_probs` by inverse-CDF sampling.

    Draw ``u ~ Uniform[0, 1)`` and return the first token whose cumulative
    probability exceeds ``u``. ``temperature=0`` is greedy (argmax, no randomness).
    ``generator``: a ``numpy.random.Generator`` (advanced by the call) or an int seed.
    Returns an ``int`` for logits ``(V,)`` and an array ``(B,)`` for ``(B, V)``; with
    ``num_samples=n``, ``n`` independent draws per row: shape ``(n,)`` or ``(B, n)``.
    """
    x = _check_logits(logits)
    t, k, p, mp = _check_strategy(temperature, top_k, top_p, min_p)
    n = 1 if num_samples is None else check_int("num_samples", num_samples, minimum=1)
    rng = _rng(generator)
    x2 = np.atleast_2d(x)
    if t == 0.0:
        idx = np.repeat(np.argmax(x2, axis=-1)[:, None], n, axis=1)
    else:
        cdf = np.cumsum(_softmax(_process(x2, t, k, p, mp)), axis=-1)  # (B, V)
        u = rng.random((x2.shape[0], n)) * cdf[:, -1:]  # scaled by the total, which may be 1 - 1e-16
        # The number of tokens whose CDF is still <= u is the sampled index.
        idx = np.stack([np.searchsorted(c, row, side="right") for c, row in zip(cdf, u)])
    if num_samples is None:
        return int(idx[0, 0]) if x.ndim == 1 else idx[:, 0]
    return idx[0] if x.ndim == 1 else idx
