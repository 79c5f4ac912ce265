"""``OptimiserPaths``: SGD, momentum and Adam walking down a 2-D loss surface, step by step.

The surfaces are quadratics :math:`f(\\theta) = \\tfrac12 \\theta^\\top H \\theta` with their minimum at
``(0, 0)``: a round bowl, a narrow valley (curvatures 0.5 and 50) and the same valley tilted by 30°. The
gradient is exact, :math:`\\nabla f(\\theta) = H\\theta` (full-batch descent: no mini-batch noise), and the
three update rules are those of the training page (:func:`optimiser_path`; the same as ``torch.optim.SGD``
without and with ``momentum=0.9`` and ``torch.optim.Adam``, which the tests check step by step).

``optimiser_paths.js`` recomputes the paths in the page from the few settings this class ships (the
surfaces' matrices, the start, each optimiser's learning rate), so the widget works on the static page with
no kernel, and draws:

* a contour map with each optimiser's path (colour and line style), the path up to the selected step in
  full and a marker at :math:`\\theta_t`; a click or tap on the map, a mouse drag or the arrow keys on the
  focused map move the start (a finger scrolling the page across the map moves nothing);
* the loss of each path at every step on a log scale, with the selected step marked;
* a table of the selected step's numbers (``data-testid`` ``op-theta-<k>`` with ``data-x``/``data-y`` at
  full precision, ``op-loss-<k>``, ``op-grad-<k>``, ``op-size-<k>``, ``op-reached-<k>``): the position, the
  loss, the gradient, the length of the last step and the first step whose loss is below 0.001.

A path that diverges stops at its first point farther than ``LIMIT`` from the minimum.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import anywidget
import numpy as np
import traitlets

from nlp_helpers._checks import check_array, check_choice, check_float, check_int, check_nonempty, check_text
from nlp_helpers.widgets.assets import load_css, load_esm

__all__ = [
    "LEARNING_RATES",
    "LIMIT",
    "OPTIMISERS",
    "SURFACES",
    "OptimiserPaths",
    "optimiser_path",
    "quadratic_loss",
    "valley",
]

OPTIMISERS = ("SGD", "momentum", "Adam")
# The learning rates the sliders offer (1, 2, 3, 5, 7 per decade): the same grid for the three optimisers.
LEARNING_RATES = (0.001, 0.002, 0.003, 0.005, 0.007, 0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0)
LIMIT = 1e4  # a path farther than this from the minimum has diverged
MAX_STEPS = 500
MAX_SURFACES = 6
DEFAULT_LR = {"SGD": 0.03, "momentum": 0.03, "Adam": 0.3}

_CSS = """
.nlpw-optpaths .nlpw-op-rows { display: grid; grid-template-columns: max-content minmax(0, 22rem); gap: 0.2rem 1rem; margin: 0.4rem 0; align-items: center; }
.nlpw-optpaths .nlpw-op-row { display: contents; }
.nlpw-optpaths .nlpw-op-row .nlpw-control:last-child { flex-wrap: nowrap; min-width: 0; }
.nlpw-optpaths .nlpw-op-row input[type="range"] { flex: 1 1 6rem; min-width: 5rem; }
.nlpw-optpaths .nlpw-op-row input[type="checkbox"] { width: 1.1rem; height: 1.1rem; margin: 0; }
.nlpw-optpaths .nlpw-op-row .nlpw-control:first-child label { display: inline-flex; align-items: center; gap: 0.3rem; min-height: 2rem; }
.nlpw-optpaths .nlpw-op-swatch { flex: none; }
.nlpw-optpaths .nlpw-op-panels { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: flex-start; }
.nlpw-optpaths .nlpw-op-panel { flex: 1 1 300px; max-width: 420px; min-width: 0; margin: 0.3rem 0; }
.nlpw-optpaths .nlpw-op-panel svg { display: block; width: 100%; height: auto; }
.nlpw-optpaths .nlpw-op-map { cursor: crosshair; touch-action: pan-y; }
.nlpw-optpaths .nlpw-op-map:focus-visible { outline: 3px solid var(--pst-color-primary, #0072b2); outline-offset: 2px; }
.nlpw-optpaths .nlpw-op-panel figcaption { text-align: left; color: inherit; }
.nlpw-optpaths .nlpw-op-table { contain: content; }
.nlpw-optpaths .nlpw-op-table table { margin-left: 0; }
.nlpw-optpaths .nlpw-op-table thead th { font-weight: 600; }
.nlpw-optpaths .nlpw-op-table thead th span { font-weight: 400; }
.nlpw-optpaths .nlpw-op-table td { font-variant-numeric: tabular-nums; }
.nlpw-optpaths .nlpw-op-table tbody th { text-align: left; }
"""


def valley(curvatures: Sequence[float] = (0.5, 50.0), angle: float = 0.0) -> np.ndarray:
    """The ``(2, 2)`` matrix ``H`` of a quadratic valley: curvatures along axes turned by ``angle`` degrees.

    ``H = R diag(curvatures) Rᵀ`` with ``R`` the rotation by ``angle``: the loss ``½ θᵀHθ`` curves by
    ``curvatures[0]`` along the direction ``(cos angle, sin angle)`` and by ``curvatures[1]`` across it.
    """
    c = check_array("curvatures", curvatures, shape=(2,))
    if np.any(c <= 0):
        raise ValueError(f"curvatures must be > 0 (a bowl with one minimum), got {c.tolist()}")
    a = math.radians(check_float("angle", angle))
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    h = rot @ np.diag(c) @ rot.T
    return (h + h.T) / 2  # exactly symmetric


SURFACES = {
    "narrow valley": valley(),
    "tilted valley": valley(angle=30.0),
    "round bowl": valley((1.0, 1.0)),
}


def _check_hessian(name: str, hessian: object) -> np.ndarray:
    h = check_array(name, hessian, shape=(2, 2))
    if h[0, 1] != h[1, 0]:
        raise ValueError(f"{name} must be symmetric, got {h.tolist()}")
    if np.linalg.eigvalsh(h)[0] <= 0:
        raise ValueError(f"{name} must be positive definite (one minimum at (0, 0)), got {h.tolist()}")
    return h


def quadratic_loss(hessian: object, theta: object) -> np.ndarray:
    """``½ θᵀHθ`` for one point ``theta`` of shape ``(2,)`` or for each row of an ``(n, 2)`` array."""
    h = _check_hessian("hessian", hessian)
    th = check_array("theta", theta, ndim=(1, 2))
    if th.shape[-1] != 2:
        raise ValueError(f"theta must have shape (2,) or (n, 2), got {th.shape}")
    return 0.5 * np.einsum("...i,ij,...j->...", th, h, th)


def _check_hyper(beta: float, betas: tuple[float, float], eps: float) -> dict[str, float]:
    if not isinstance(betas, (tuple, list)) or len(betas) != 2:
        raise TypeError(f"betas must be a pair (beta1, beta2), got {betas!r}")
    below_one = {"minimum": 0.0, "maximum": 1.0, "max_inclusive": False}
    return {
        "beta": check_float("beta", beta, **below_one),
        "beta1": check_float("betas[0]", betas[0], **below_one),
        "beta2": check_float("betas[1]", betas[1], **below_one),
        "eps": check_float("eps", eps, minimum=0.0),
    }


def _path(h, start, optimiser, lr, steps, beta, beta1, beta2, eps) -> np.ndarray:
    p = start.copy()
    v, m, s = np.zeros(2), np.zeros(2), np.zeros(2)
    path = [p]
    for t in range(1, steps + 1):
        g = np.array([h[0, 0] * p[0] + h[0, 1] * p[1], h[1, 0] * p[0] + h[1, 1] * p[1]])  # H θ
        if optimiser == "SGD":
            d = lr * g
        elif optimiser == "momentum":
            v = beta * v + g  # velocity
            d = lr * v
        else:
            m = beta1 * m + (1 - beta1) * g  # average gradient
            s = beta2 * s + (1 - beta2) * g * g  # average squared gradient
            d = lr * (m / (1 - beta1**t)) / (np.sqrt(s / (1 - beta2**t)) + eps)
        p = p - d
        path.append(p)
        if not math.hypot(p[0], p[1]) <= LIMIT:
            break
    return np.array(path)


def optimiser_path(
    hessian: object,
    start: Sequence[float],
    optimiser: str,
    lr: float,
    steps: int,
    *,
    beta: float = 0.9,
    betas: tuple[float, float] = (0.9, 0.999),
    eps: float = 1e-8,
) -> np.ndarray:
    """The points ``θ_0 = start, θ_1, …`` of ``optimiser`` on the loss ``½ θᵀHθ``, shape ``(k + 1, 2)``.

    ``optimiser`` is ``"SGD"`` (θ ← θ − η g), ``"momentum"`` (v ← β v + g, θ ← θ − η v) or ``"Adam"``
    (bias-corrected averages of g and g² with ``betas``, θ ← θ − η m̂ / (√v̂ + ε)), with the exact gradient
    g = Hθ. ``k = steps`` unless the path diverges: it then ends at its first point farther than
    :data:`LIMIT` from the minimum.
    """
    h = _check_hessian("hessian", hessian)
    p = check_array("start", start, shape=(2,))
    optimiser = check_choice("optimiser", optimiser, OPTIMISERS)
    lr = check_float("lr", lr, minimum=0.0, min_inclusive=False)
    steps = check_int("steps", steps, minimum=1, maximum=MAX_STEPS)
    hp = _check_hyper(beta, betas, eps)
    return _path(h, p.astype(float), optimiser, lr, steps, hp["beta"], hp["beta1"], hp["beta2"], hp["eps"])


class OptimiserPaths(anywidget.AnyWidget):
    """Paths of SGD, momentum and Adam on 2-D quadratic loss surfaces, with a learning-rate slider each.

    Parameters
    ----------
    surfaces:
        Mapping name -> ``(2, 2)`` symmetric positive definite matrix ``H`` (1 to 6 surfaces); default
        :data:`SURFACES` (a narrow valley, the same tilted, a round bowl).
    surface:
        The surface shown first (default: the first).
    start:
        The starting point ``(θ₁, θ₂)``, inside ``extent``.
    steps:
        Number of steps of each path (1 to 500).
    lr:
        Mapping optimiser -> initial learning rate, each one of ``learning_rates``; missing optimisers get
        the defaults (SGD 0.03, momentum 0.03, Adam 0.3).
    shown:
        The optimisers drawn first (a subset of ``OPTIMISERS``).
    step:
        The step selected first (default: the last).
    learning_rates:
        The learning rates the sliders offer, increasing, > 0 (default :data:`LEARNING_RATES`).
    extent:
        The map's window ``(θ₁ min, θ₁ max, θ₂ min, θ₂ max)``; it contains the minimum (0, 0) and is at most
        12 by 8 (the map is drawn at 30 px per unit, to fit a phone).
    beta, betas, eps:
        Momentum's β and Adam's (β₁, β₂) and ε.
    """

    _esm = load_esm("optimiser_paths.js")
    _css = load_css() + _CSS

    surfaces = traitlets.List(traitlets.Dict()).tag(sync=True)
    surface = traitlets.Unicode().tag(sync=True)
    start = traitlets.List(traitlets.Float()).tag(sync=True)
    initial_start = traitlets.List(traitlets.Float()).tag(sync=True)
    steps = traitlets.Int(100).tag(sync=True)
    lr = traitlets.Dict().tag(sync=True)
    shown = traitlets.List(traitlets.Unicode()).tag(sync=True)
    step = traitlets.Int(100).tag(sync=True)
    learning_rates = traitlets.List(traitlets.Float()).tag(sync=True)
    extent = traitlets.List(traitlets.Float()).tag(sync=True)
    hyper = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        surfaces: Mapping[str, object] | None = None,
        *,
        surface: str | None = None,
        start: Sequence[float] = (-4.0, 2.0),
        steps: int = 100,
        lr: Mapping[str, float] | None = None,
        shown: Sequence[str] = OPTIMISERS,
        step: int | None = None,
        learning_rates: Sequence[float] = LEARNING_RATES,
        extent: Sequence[float] = (-5.0, 5.0, -3.0, 3.0),
        beta: float = 0.9,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
    ) -> None:
        surfaces = SURFACES if surfaces is None else surfaces
        if not isinstance(surfaces, Mapping):
            raise TypeError(f"surfaces must be a mapping name -> 2 x 2 matrix, got {type(surfaces).__name__}")
        if not 1 <= len(surfaces) <= MAX_SURFACES:
            raise ValueError(f"surfaces must hold 1 to {MAX_SURFACES} surfaces, got {len(surfaces)}")
        table = [
            {
                "name": check_text("surfaces (a name)", name, allow_empty=False),
                "hessian": _check_hessian(f"surfaces[{name!r}]", h).tolist(),
            }
            for name, h in surfaces.items()
        ]
        grid = [float(x) for x in check_array("learning_rates", learning_rates, ndim=1)]
        if not grid or grid[0] <= 0 or any(b <= a for a, b in zip(grid, grid[1:])):
            raise ValueError(f"learning_rates must be increasing numbers > 0, got {grid}")
        if lr is not None and not isinstance(lr, Mapping):
            raise TypeError(f"lr must be a mapping optimiser -> learning rate, got {type(lr).__name__}")
        rates = {k: v if v in grid else grid[len(grid) // 2] for k, v in DEFAULT_LR.items()} | dict(lr or {})
        steps = check_int("steps", steps, minimum=1, maximum=MAX_STEPS)
        hyper = _check_hyper(beta, betas, eps)
        state = {
            "surfaces": table,
            "surface": table[0]["name"] if surface is None else surface,
            "start": [float(x) for x in check_array("start", start, shape=(2,))],
            "steps": steps,
            "lr": rates,
            "shown": check_nonempty("shown", shown),
            "step": steps if step is None else step,
            "learning_rates": grid,
            "extent": [float(x) for x in check_array("extent", extent, shape=(4,))],
            "hyper": hyper,
        }
        self._check_state(state)
        super().__init__(initial_start=state["start"], **state)

    @staticmethod
    def _check_state(st: dict) -> None:
        """Check settings that traits set later from Python can also break."""
        names = [s["name"] for s in st["surfaces"]]
        check_choice("surface", st["surface"], names)
        x0, x1, y0, y1 = st["extent"]
        if not (x0 < 0 < x1 and y0 < 0 < y1 and x1 - x0 <= 12 and y1 - y0 <= 8):
            raise ValueError(
                f"extent must be (x0, x1, y0, y1) around the minimum (0, 0), at most 12 by 8, got {st['extent']}"
            )
        sx, sy = st["start"]
        if not (x0 <= sx <= x1 and y0 <= sy <= y1):
            raise ValueError(f"start must lie inside extent {st['extent']}, got {st['start']}")
        if not isinstance(st["lr"], Mapping) or set(st["lr"]) != set(OPTIMISERS):
            raise ValueError(f"lr must give a learning rate to each of {OPTIMISERS}, got {st['lr']}")
        for name, rate in st["lr"].items():
            check_choice(f"lr[{name!r}]", rate, st["learning_rates"])
        if isinstance(st["shown"], str) or len(set(st["shown"])) != len(st["shown"]):
            raise ValueError(f"shown must be distinct optimiser names from {OPTIMISERS}, got {st['shown']!r}")
        for k, name in enumerate(st["shown"]):
            check_choice(f"shown[{k}]", name, OPTIMISERS)
        check_int("step", st["step"], minimum=0, maximum=st["steps"])

    def _state(self) -> dict:
        st = {
            k: getattr(self, k)
            for k in ("surfaces", "surface", "start", "steps", "lr", "shown", "step", "learning_rates", "extent")
        }
        self._check_state(st)
        return st

    def hessian(self) -> np.ndarray:
        """The ``(2, 2)`` matrix ``H`` of the surface shown."""
        st = self._state()
        return np.array(next(s["hessian"] for s in st["surfaces"] if s["name"] == st["surface"]))

    def paths(self) -> dict[str, np.ndarray]:
        """Each shown optimiser's path ``(k + 1, 2)`` for the current settings, as the widget draws it."""
        st = self._state()
        h, hp = self.hessian(), self.hyper
        return {
            name: optimiser_path(
                h,
                st["start"],
                name,
                st["lr"][name],
                st["steps"],
                beta=hp["beta"],
                betas=(hp["beta1"], hp["beta2"]),
                eps=hp["eps"],
            )
            for name in OPTIMISERS
            if name in st["shown"]
        }

    def losses(self) -> dict[str, np.ndarray]:
        """The loss at every point of each shown optimiser's path."""
        h = self.hessian()
        return {name: quadratic_loss(h, path) for name, path in self.paths().items()}
