"""OptimiserPaths: its paths equal torch.optim's on the same surface, step by step; hand-worked first steps;
its JavaScript (under Node) draws the same paths; bad input names the argument.

``tests/golden/optimiser_paths_widget.json`` holds what the widget must show after its controls are set (the
position, loss and first step below 0.001 of each optimiser at the selected step), computed here with
``torch.optim`` (not with the code under test). Regenerate with
``python -m tests.widgets.test_widgets_optimiser_paths``.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from nlp_helpers.widgets.optimiser_paths import (
    LEARNING_RATES,
    LIMIT,
    OPTIMISERS,
    SURFACES,
    OptimiserPaths,
    optimiser_path,
    quadratic_loss,
    valley,
)
from tests.widget_node import run_widget_js

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "optimiser_paths_widget.json"
START = (-4.0, 2.0)
TORCH = {
    "SGD": lambda ps, lr: torch.optim.SGD(ps, lr=lr),
    "momentum": lambda ps, lr: torch.optim.SGD(ps, lr=lr, momentum=0.9),
    "Adam": lambda ps, lr: torch.optim.Adam(ps, lr=lr),
}


def torch_path(hessian, start, optimiser: str, lr: float, steps: int) -> np.ndarray:
    """Reference: ``torch.optim`` on the loss ½ θᵀHθ (float64, gradient by autograd), all ``steps`` steps."""
    h = torch.tensor(np.asarray(hessian), dtype=torch.float64)
    theta = torch.tensor(start, dtype=torch.float64, requires_grad=True)
    opt = TORCH[optimiser]([theta], lr)
    out = [theta.detach().clone()]
    for _ in range(steps):
        opt.zero_grad()
        (0.5 * theta @ h @ theta).backward()
        opt.step()
        out.append(theta.detach().clone())
        if not torch.isfinite(theta).all() or theta.norm() > 1e12:
            break
    return torch.stack(out).numpy()


# ---- the paths against torch.optim ------------------------------------------------------------


@pytest.mark.parametrize("surface", sorted(SURFACES))
@pytest.mark.parametrize("optimiser", OPTIMISERS)
@pytest.mark.parametrize("lr", [0.003, 0.03, 0.3, 1.0])  # 1.0 diverges on the valleys
def test_paths_equal_torch_optim_step_by_step(surface, optimiser, lr):
    ours = optimiser_path(SURFACES[surface], START, optimiser, lr, 100)
    ref = torch_path(SURFACES[surface], START, optimiser, lr, 100)
    n = len(ours)
    # float64: the two differ by the order of a few roundings per step
    np.testing.assert_allclose(ours, ref[:n], rtol=1e-9, atol=1e-12)
    if n < 101:  # ours stopped: the reference is past LIMIT at the same step, and was not before
        assert np.linalg.norm(ref[n - 1]) > LIMIT >= np.linalg.norm(ref[n - 2])


def test_first_steps_worked_by_hand():
    h = np.diag([1.0, 4.0])  # g = (θ₁, 4 θ₂); from (1, 1) the first gradient is (1, 4)
    sgd = optimiser_path(h, (1.0, 1.0), "SGD", 0.1, 2)
    np.testing.assert_allclose(sgd[1], [0.9, 0.6])  # θ − 0.1 (1, 4)
    np.testing.assert_allclose(sgd[2], [0.81, 0.36], atol=1e-12)  # θ − 0.1 (0.9, 2.4)
    mom = optimiser_path(h, (1.0, 1.0), "momentum", 0.1, 2)
    np.testing.assert_allclose(mom[1], [0.9, 0.6])  # v = g
    np.testing.assert_allclose(mom[2], [0.72, 0.0], atol=1e-12)  # v = 0.9 (1, 4) + (0.9, 2.4) = (1.8, 6)
    adam = optimiser_path(h, (1.0, 1.0), "Adam", 0.1, 1)
    np.testing.assert_allclose(adam[1], [0.9, 0.9], atol=1e-8)  # m̂ = g, v̂ = g²: a step of η per coordinate
    assert quadratic_loss(h, [1.0, 1.0]) == pytest.approx(2.5)
    np.testing.assert_allclose(quadratic_loss(h, sgd), [2.5, 0.5 * 0.81 + 2 * 0.36, 0.5 * 0.81**2 + 2 * 0.36**2])


def test_sgd_diverges_above_two_over_the_largest_curvature():
    h = SURFACES["narrow valley"]  # curvatures 0.5 and 50: SGD is stable for η < 2 / 50 = 0.04
    assert len(optimiser_path(h, START, "SGD", 0.03, 100)) == 101
    path = optimiser_path(h, START, "SGD", 0.05, 100)
    assert len(path) < 101 and np.linalg.norm(path[-1]) > LIMIT >= np.linalg.norm(path[-2])


def test_valley_has_the_given_curvatures_along_the_turned_axes():
    h = valley((0.5, 50.0), angle=30.0)
    along = np.array([np.cos(np.pi / 6), np.sin(np.pi / 6)])
    np.testing.assert_allclose(h @ along, 0.5 * along, atol=1e-12)
    np.testing.assert_allclose(np.linalg.eigvalsh(h), [0.5, 50.0])
    assert h[0, 1] == h[1, 0]


# ---- the widget's Python side ------------------------------------------------------------------


def test_defaults_and_paths_follow_the_settings():
    w = OptimiserPaths()
    assert w.surface == "narrow valley" and w.start == [-4.0, 2.0] and w.step == w.steps == 100
    assert w.lr == {"SGD": 0.03, "momentum": 0.03, "Adam": 0.3} and w.shown == list(OPTIMISERS)
    assert [s["name"] for s in w.surfaces] == list(SURFACES) and w.learning_rates == list(LEARNING_RATES)
    paths = w.paths()
    for name in OPTIMISERS:
        np.testing.assert_array_equal(
            paths[name], optimiser_path(SURFACES["narrow valley"], START, name, w.lr[name], 100)
        )
    w.surface, w.shown, w.lr = "round bowl", ["Adam"], {**w.lr, "Adam": 0.1}
    assert list(w.paths()) == ["Adam"]
    np.testing.assert_allclose(
        w.losses()["Adam"], quadratic_loss(np.eye(2), torch_path(np.eye(2), START, "Adam", 0.1, 100))
    )


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"surfaces": {"flat": [[1.0, 0.0], [0.0, 0.0]]}}, ValueError, r"surfaces\['flat'\] must be positive definite"),
        ({"surfaces": {"skew": [[1.0, 0.5], [0.0, 1.0]]}}, ValueError, r"surfaces\['skew'\] must be symmetric"),
        ({"surfaces": {"wide": np.eye(3)}}, ValueError, r"surfaces\['wide'\] must have shape \(2, 2\)"),
        ({"surfaces": [np.eye(2)]}, TypeError, "surfaces must be a mapping"),
        ({"surfaces": {}}, ValueError, "surfaces must hold 1 to 6"),
        ({"surface": "bowl"}, ValueError, "surface must be one of"),
        ({"start": (9.0, 0.0)}, ValueError, "start must lie inside extent"),
        ({"start": (np.nan, 0.0)}, ValueError, "start must contain only finite"),
        ({"steps": 0}, ValueError, "steps must be >= 1"),
        ({"steps": 1000}, ValueError, "steps must be <= 500"),
        ({"lr": {"SGD": 0.04}}, ValueError, r"lr\['SGD'\] must be one of"),
        ({"lr": {"RMSprop": 0.01}}, ValueError, "lr must give a learning rate to each of"),
        ({"lr": 0.01}, TypeError, "lr must be a mapping"),
        ({"shown": "SGD"}, TypeError, "shown must be a sequence"),
        ({"shown": ["SGD", "SGD"]}, ValueError, "shown must be distinct"),
        ({"shown": ["sgd"]}, ValueError, r"shown\[0\] must be one of"),
        ({"step": 101}, ValueError, "step must be <= 100"),
        ({"learning_rates": [0.1, 0.01]}, ValueError, "learning_rates must be increasing"),
        ({"extent": (1.0, 5.0, -3.0, 3.0)}, ValueError, "extent must be"),
        ({"betas": (0.9, 1.0)}, ValueError, r"betas\[1\] must be < 1"),
        ({"eps": -1.0}, ValueError, "eps must be >= 0"),
    ],
)
def test_bad_settings_get_a_clear_error(kwargs, error, match):
    with pytest.raises(error, match=match):
        OptimiserPaths(**kwargs)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: optimiser_path(np.eye(2), START, "adam", 0.1, 10), ValueError, "optimiser must be one of"),
        (lambda: optimiser_path(np.eye(2), START, "Adam", 0.0, 10), ValueError, "lr must be > 0"),
        (lambda: optimiser_path(np.eye(2), (1.0,), "SGD", 0.1, 10), ValueError, r"start must have shape \(2\)"),
        (lambda: optimiser_path(np.eye(2), START, "SGD", 0.1, 2.5), TypeError, "steps must be an integer"),
        (lambda: optimiser_path(-np.eye(2), START, "SGD", 0.1, 10), ValueError, "hessian must be positive definite"),
        (lambda: optimiser_path(np.eye(2), START, "Adam", 0.1, 10, betas=0.9), TypeError, "betas must be a pair"),
        (lambda: optimiser_path(np.eye(2), START, "SGD", 0.1, 10, beta=1.0), ValueError, "beta must be < 1"),
        (lambda: quadratic_loss(np.eye(2), np.zeros((4, 3))), ValueError, r"theta must have shape \(2,\) or"),
        (lambda: valley((1.0, -1.0)), ValueError, "curvatures must be > 0"),
        (lambda: valley((1.0, 2.0), angle=np.inf), ValueError, "angle must be a finite"),
    ],
)
def test_bad_input_to_the_helpers_names_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_traits_set_later_are_checked_too():
    w = OptimiserPaths()
    w.step = 500
    with pytest.raises(ValueError, match="step must be <= 100"):
        w.paths()
    w.step, w.lr = 10, {**w.lr, "Adam": 0.25}
    with pytest.raises(ValueError, match=r"lr\['Adam'\] must be one of"):
        w.paths()


def test_the_widget_ships_its_module_with_the_test_ids():
    w = OptimiserPaths()
    for testid in (
        "op-root",
        "op-surface",
        "op-show-",
        "op-lr-",
        "op-step",
        "op-map",
        "op-chart",
        "op-start",
        "`op-${what}-",
    ):
        assert testid in w._esm


# ---- the golden file and the JavaScript under Node ----------------------------------------------

CASES = [  # (name, surface, learning rates, step)
    ("the page's settings, last step", "narrow valley", {"SGD": 0.03, "momentum": 0.03, "Adam": 0.3}, 100),
    ("SGD above 2 / 50 diverges, momentum too", "narrow valley", {"SGD": 0.05, "momentum": 0.1, "Adam": 0.3}, 40),
    ("the tilted valley: Adam is slow", "tilted valley", {"SGD": 0.03, "momentum": 0.03, "Adam": 0.3}, 50),
    ("the round bowl: SGD with η = 1 lands in one step", "round bowl", {"SGD": 1.0, "momentum": 0.01, "Adam": 0.7}, 7),
]


def _controls(surface: str, rates: dict, step: int) -> list[dict]:
    return (
        [{"testid": "op-surface", "value": surface}]
        + [{"testid": f"op-lr-{k}", "value": str(LEARNING_RATES.index(rates[n]))} for k, n in enumerate(OPTIMISERS)]
        + [{"testid": "op-step", "value": str(step)}]
    )


def _expected(surface: str, rates: dict, step: int) -> list[dict]:
    out = []
    for name in OPTIMISERS:
        path = torch_path(SURFACES[surface], START, name, rates[name], 100)
        norms = np.linalg.norm(path, axis=1)
        stop = int(np.argmax(norms > LIMIT)) if (norms > LIMIT).any() else 100  # where a diverging path ends
        i = min(step, stop)
        losses = [float(0.5 * p @ SURFACES[surface] @ p) for p in path[: stop + 1]]
        below = [j for j, f in enumerate(losses) if f < 1e-3]
        out.append(
            {
                "optimiser": name,
                "step": i,
                "theta": path[i].tolist(),
                "loss": losses[i],
                "reached": below[0] if below else -1,
                "diverged": stop < 100,
            }
        )
    return out


@functools.cache
def golden_data() -> dict:
    return {
        "about": "What OptimiserPaths must show after its controls are set in order: per optimiser k, the point "
        "theta_t in op-theta-k (data-x, data-y, data-step: a diverged path shows its last point), the loss in "
        "op-loss-k (data-value) and the first step with loss < 0.001 in op-reached-k (-1: none). Computed with "
        "torch.optim from the start (-4, 2). Regenerate: python -m tests.widgets.test_widgets_optimiser_paths",
        "page": "book/feedforward/training.html",
        "construct": {},
        "rtol": 1e-9,
        "cases": [
            {"name": name, "controls": _controls(s, rates, step), "expected": _expected(s, rates, step)}
            for name, s, rates, step in CASES
        ],
    }


def check_shown(out: dict, case: dict, rtol: float) -> None:
    """The numbers a rendered widget shows (``{testid: {attrs}}``) against a golden case."""
    for k, want in enumerate(case["expected"]):
        theta = out[f"op-theta-{k}"]["attrs"]
        got = [float(theta["data-x"]), float(theta["data-y"])]
        np.testing.assert_allclose(got, want["theta"], rtol=rtol, atol=1e-12, err_msg=f"{case['name']}: {k}")
        assert int(theta["data-step"]) == want["step"], case["name"]
        loss = float(out[f"op-loss-{k}"]["attrs"]["data-value"])
        assert loss == pytest.approx(want["loss"], rel=rtol, abs=1e-15), case["name"]
        assert int(out[f"op-reached-{k}"]["attrs"]["data-value"]) == want["reached"], case["name"]
        assert ("diverged" in out[f"op-theta-{k}"]["text"]) == (want["diverged"] and want["step"] < case_step(case))


def case_step(case: dict) -> int:
    return int(next(c["value"] for c in case["controls"] if c["testid"] == "op-step"))


def _state(w: OptimiserPaths) -> dict:
    return {k: v for k, v in w.get_state().items() if k not in ("_esm", "_css") and not k.startswith("_")}


def test_js_draws_the_golden_paths(tmp_path):
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for case in golden["cases"]:
        w = OptimiserPaths(**golden["construct"])
        out = run_widget_js(w._esm, _state(w), case["controls"], tmp_path)
        check_shown(out, case, golden["rtol"])
        assert out["__state"]["step"] == case_step(case)


def test_js_follows_the_checkboxes_and_the_keyboard_on_the_map(tmp_path):
    w = OptimiserPaths()
    out = run_widget_js(
        w._esm,
        _state(w),
        [
            {"testid": "op-show-0", "checked": False},
            {"testid": "op-map", "key": "ArrowRight"},
            {"testid": "op-map", "key": "ArrowUp"},
        ],
        tmp_path,
    )
    assert out["__state"]["shown"] == ["momentum", "Adam"] and "op-theta-0" not in out
    assert out["__state"]["start"] == [-3.75, 2.25]
    assert out["op-start"]["attrs"]["data-x"] == "-3.75"
    want = optimiser_path(SURFACES["narrow valley"], (-3.75, 2.25), "Adam", 0.3, 100)[-1]
    got = out["op-theta-2"]["attrs"]
    np.testing.assert_allclose([float(got["data-x"]), float(got["data-y"])], want, rtol=1e-9, atol=1e-12)


def test_golden_file_is_current():
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    fresh = golden_data()
    assert [c["controls"] for c in golden["cases"]] == [c["controls"] for c in fresh["cases"]]
    for g, f in zip(golden["cases"], fresh["cases"], strict=True):
        for a, b in zip(g["expected"], f["expected"], strict=True):
            assert (a["step"], a["reached"], a["diverged"]) == (b["step"], b["reached"], b["diverged"])
            np.testing.assert_allclose(a["theta"], b["theta"], rtol=1e-12)


def test_the_golden_cases_show_what_the_page_says():
    """The page's sentences about the widget: at its settings SGD does not reach a loss of 0.001 in 100
    steps while momentum and Adam do; at η = 0.05 SGD diverges; tilted, Adam no longer gets there."""
    cases = {c["name"]: {e["optimiser"]: e for e in c["expected"]} for c in golden_data()["cases"]}
    page = cases["the page's settings, last step"]
    assert page["SGD"]["reached"] == -1 and page["momentum"]["reached"] > 0 and page["Adam"]["reached"] > 0
    assert cases["SGD above 2 / 50 diverges, momentum too"]["SGD"]["diverged"]
    tilted = cases["the tilted valley: Adam is slow"]
    assert tilted["Adam"]["reached"] == -1 and tilted["momentum"]["reached"] > 0
    assert cases["the round bowl: SGD with η = 1 lands in one step"]["SGD"]["reached"] == 1


if __name__ == "__main__":
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(golden_data(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}", file=sys.stderr)
