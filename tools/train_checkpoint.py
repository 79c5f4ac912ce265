"""Train one of the book's checkpoints with the package's own code and write its weights and card.

    python -m tools.train_checkpoint NAME [--out DIR] [--steps N]
    python -m tools.train_checkpoint --list
    python -m tools.train_checkpoint --all           # what `make checkpoints` runs

``NAME`` is a recipe of ``tools/checkpoint_recipes/`` (one module per checkpoint, see its docstring);
the recipe calls exactly the functions and classes the page shows (``nlp_helpers.llm.gpt.train``
on a ``TinyGPT``, ...). The run writes ``<name>.safetensors`` (the weights, float16 unless the recipe
says otherwise) and ``<name>.json`` (the card, see :mod:`nlp_helpers.checkpoints`) into ``--out``
(default: ``nlp_helpers/checkpoints/``). ``--steps N`` trains a shorter run of the same recipe (a
trial: the card records the steps actually run).

One thread (``torch.set_num_threads(1)``): the run is then reproducible to the last bit on one machine
and kernel path, which is what the provenance tests (``tests/checkpoints/``) compare against; run it
with ``nohup ... &`` and a log, it takes minutes (``--list`` prints each recipe's measured time).
Seeds go through :mod:`nlp_helpers.seeds`, so ``$NLP_SEED_OFFSET`` is added and recorded in the card.
"""

from __future__ import annotations

import argparse
import copy
import datetime
import hashlib
import importlib
import json
import math
import os
import pkgutil
import platform
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RECIPES_PACKAGE = "tools.checkpoint_recipes"


@dataclass
class Recipe:
    """How one checkpoint is made: everything the card records comes from here or from the run.

    * ``data()`` -> a dict with at least ``"card"`` (a JSON-able description of the split for the
      card); the rest (tensors, vocabularies) is passed to the functions below.
    * ``model(data)`` -> the card's ``model`` entry (``factory``, ``config_class``, ``kwargs``).
    * ``train(model, data, seed, steps, stop_after)`` -> the curve: rows ``{step, train_loss, valid_loss}``
      every ``curve_every`` steps, row 0 before training; ``stop_after`` ends the run early with the
      schedule of the full run (the provenance test retrains that prefix).
    * ``evaluate(model, data)`` -> the card's metric (a float), on the split ``metric["split"]`` names.
    * ``more_metrics(model, data)`` (optional) -> other numbers of the stored weights for the card's
      ``metric["more"]``, e.g. ``{"dev accuracy": 0.73}`` beside a test accuracy.

    A curve row may also carry ``valid_accuracy`` (a classifier's accuracy on the validation split at
    that step); ``curve_unit`` names the unit of its losses.
    """

    name: str
    title: str
    page: str
    data: Callable[[], dict[str, Any]]
    model: Callable[[dict[str, Any]], dict[str, Any]]
    train: Callable[..., list[dict[str, float]]]
    evaluate: Callable[[Any, dict[str, Any]], float]
    training: dict[str, Any]  # the training function's dotted name and arguments, for the card
    metric: dict[str, Any]  # name, split, lower_is_better, function
    steps: int
    curve_every: int
    seed: int = 0
    dtype: str = "float16"  # "float16", "bfloat16" or "float32"
    prefix_steps: int = 0  # steps the provenance test retrains (a multiple of curve_every)
    prefix_tolerance: float = 0.0  # largest |difference| of the curve's losses allowed there (nats)
    metric_tolerance: float = 1e-3  # |evaluated - card| allowed for the stored weights
    minutes: str = ""  # measured wall time of the full run, for --list and the README
    notes: dict[str, Any] = field(default_factory=dict)  # anything else the card should say
    curve_unit: str = "nats per token"  # the unit of the curve's losses
    more_metrics: Callable[[Any, dict[str, Any]], dict[str, float]] | None = None


def recipes() -> dict[str, Recipe]:
    """Every recipe of ``tools/checkpoint_recipes/``, by name (the module defines ``RECIPE``)."""
    package = importlib.import_module(RECIPES_PACKAGE)
    found = {}
    for info in pkgutil.iter_modules(package.__path__):
        if not info.name.startswith("_"):
            recipe = importlib.import_module(f"{RECIPES_PACKAGE}.{info.name}").RECIPE
            if recipe.name != info.name:
                raise ValueError(f"{info.name}.py defines the recipe {recipe.name!r}: the names must agree")
            found[recipe.name] = recipe
    return dict(sorted(found.items()))


def recipe(name: str) -> Recipe:
    """The recipe ``name``, with a clear error listing the known ones."""
    known = recipes()
    if name not in known:
        raise ValueError(f"name: no recipe {name!r}; the recipes are {list(known)}")
    return known[name]


def git_commit() -> dict[str, Any]:
    """The commit of the working tree and whether it had uncommitted changes to the package or tools."""

    def git(*args: str) -> str:
        out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
        return out.stdout.strip() if out.returncode == 0 else ""

    commit = git("rev-parse", "HEAD") or "unknown"
    dirty = bool(git("status", "--porcelain", "--", "nlp_helpers", "tools", ":!nlp_helpers/checkpoints"))
    return {"git_commit": commit, "git_dirty": dirty}


def machine() -> dict[str, Any]:
    """What the card says about the machine: CPU, kernel path, threads, versions."""
    import numpy as np
    import torch

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "aten_cpu_capability": os.environ.get("ATEN_CPU_CAPABILITY") or torch.backends.cpu.get_cpu_capability(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "numpy": np.__version__,
    }


def _curve_row(row: dict[str, Any]) -> dict[str, Any]:
    def num(x: Any) -> float | None:
        return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(float(x), 6)

    out = {
        "step": int(row["step"]),
        "train_loss": num(row.get("train_loss")),
        "valid_loss": num(row.get("valid_loss")),
    }
    if "valid_accuracy" in row:  # a classifier's curve
        out["valid_accuracy"] = num(row["valid_accuracy"])
    return out


def save_weights(model, path: Path, dtype: str) -> dict[str, Any]:
    """Write ``model``'s floating-point weights in ``dtype`` to ``path`` (safetensors); the card's ``weights``."""
    import torch
    from safetensors.torch import save_model

    torch_dtype = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}[dtype]
    stored = copy.deepcopy(model).to(torch_dtype)  # .to(dtype) leaves integer buffers alone
    save_model(stored, str(path))  # tied weights are stored once
    data = path.read_bytes()
    return {
        "file": path.name,
        "dtype": dtype,
        "sha256": hashlib.sha256(data).hexdigest(),
        "parameters": sum(p.numel() for p in model.parameters()),
        "bytes": len(data),
    }


def run(rec: Recipe, out: Path, steps: int | None = None, command: str | None = None) -> dict[str, Any]:
    """Train ``rec`` (``steps`` overrides the recipe's), write ``<name>.safetensors`` and ``<name>.json`` to ``out``."""
    import torch

    from nlp_helpers import __version__, checkpoints, seeds

    torch.set_num_threads(1)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    source = git_commit()  # the code as the run starts
    data = rec.data()
    spec = rec.model(data)
    seeds.manual_seed(rec.seed)  # the initial weights
    model = checkpoints.build_model(spec)
    total = rec.steps if steps is None else int(steps)
    curve = rec.train(model, data, seed=rec.seed, steps=total, stop_after=None)
    train_wall, train_cpu = time.perf_counter() - start_wall, time.process_time() - start_cpu
    value32 = float(rec.evaluate(model, data))
    weights = save_weights(model, out / f"{rec.name}.safetensors", rec.dtype)
    stored, _ = _reload(rec, out, spec, weights)
    value = float(rec.evaluate(stored, data))
    more = (
        {} if rec.more_metrics is None else {k: round(float(v), 6) for k, v in rec.more_metrics(stored, data).items()}
    )
    card = {
        "format": checkpoints.CARD_FORMAT,
        "name": rec.name,
        "title": rec.title,
        "page": rec.page,
        "model": spec,
        "weights": weights,
        "seed": rec.seed,
        "seed_offset": seeds.seed_offset(),
        "data": data["card"],
        "training": {**rec.training, "steps": total},
        "steps": total,
        "curve": {"every": rec.curve_every, "unit": rec.curve_unit, "rows": [_curve_row(r) for r in curve]},
        "metric": {
            **rec.metric,
            "value": round(value, 6),
            "value_float32": round(value32, 6),
            **({"more": more} if more else {}),
        },
        "provenance": {
            "package_version": __version__,
            **source,
            "command": command or f"python -m tools.train_checkpoint {rec.name}",
            "train_wall_seconds": round(train_wall, 1),
            "train_cpu_seconds": round(train_cpu, 1),
            "wall_seconds": round(time.perf_counter() - start_wall, 1),
            "cpu_seconds": round(time.process_time() - start_cpu, 1),
            "machine": machine(),
            "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        },
        **({"notes": rec.notes} if rec.notes else {}),
    }
    (out / f"{rec.name}.json").write_text(json.dumps(card, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return card


def _reload(rec: Recipe, out: Path, spec: dict[str, Any], weights: dict[str, Any]):
    """The model as ``checkpoints.load`` will see it (rounded weights), before the card exists."""
    from safetensors.torch import load_model

    from nlp_helpers import checkpoints

    model = checkpoints.build_model(spec)
    load_model(model, str(out / weights["file"]), strict=True)
    return model.eval(), weights


def retrain_prefix(card: dict[str, Any], rec: Recipe, steps: int | None = None) -> list[dict[str, Any]]:
    """Retrain the first ``steps`` (default ``rec.prefix_steps``) of a card's run: its curve rows up to there.

    Uses the card's model, seed and total steps (the schedule of the full run), with the card's seed
    offset, whatever ``$NLP_SEED_OFFSET`` says.
    """
    import torch

    from nlp_helpers import checkpoints, seeds

    torch.set_num_threads(1)  # as the run: the order of float sums depends on the threads
    steps = rec.prefix_steps if steps is None else steps
    saved = os.environ.get(seeds.OFFSET_VARIABLE)
    os.environ[seeds.OFFSET_VARIABLE] = str(card["seed_offset"])
    try:
        data = rec.data()
        seeds.manual_seed(card["seed"])
        model = checkpoints.build_model(card["model"])
        curve = rec.train(model, data, seed=card["seed"], steps=card["steps"], stop_after=steps)
    finally:
        if saved is None:
            os.environ.pop(seeds.OFFSET_VARIABLE, None)
        else:
            os.environ[seeds.OFFSET_VARIABLE] = saved
    return [_curve_row(r) for r in curve if r["step"] <= steps]


def prefix_difference(card: dict[str, Any], rec: Recipe, steps: int | None = None) -> float:
    """Largest ``|retrained - stored|`` over the losses of the curve's first ``steps`` (see :func:`retrain_prefix`)."""
    again = retrain_prefix(card, rec, steps)
    stored = {r["step"]: r for r in card["curve"]["rows"]}
    gaps = [
        abs(r[k] - stored[r["step"]][k])
        for r in again
        for k in ("train_loss", "valid_loss")
        if r[k] is not None and stored[r["step"]][k] is not None
    ]
    if not gaps:
        raise ValueError(f"the card of {rec.name!r} has no curve rows to compare within the first steps")
    return max(gaps)


def _print_prefix_difference(rec: Recipe, out: Path) -> int:
    from nlp_helpers import checkpoints

    card = checkpoints.read_card(rec.name, out)
    kernel = os.environ.get("ATEN_CPU_CAPABILITY") or "native"
    print(f"{rec.name}: first {rec.prefix_steps} steps retrained ({kernel} kernels), largest loss difference "
          f"{prefix_difference(card, rec):.2e} nats (tolerance {rec.prefix_tolerance:g})")  # fmt: skip
    return 0


def _measured_time(rec: Recipe, out: Path) -> str:
    """The CPU and wall time of the shipped run, read from its card (the recipe's note where there is none)."""
    path = out / f"{rec.name}.json"
    if not path.exists():
        return rec.minutes
    p = json.loads(path.read_text(encoding="utf-8"))["provenance"]
    return f"{p['cpu_seconds'] / 60:.1f} min CPU, {p['wall_seconds'] / 60:.0f} min wall"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.train_checkpoint", description=__doc__.splitlines()[0])
    parser.add_argument("name", nargs="?", help="the checkpoint to train (see --list)")
    parser.add_argument("--all", action="store_true", help="train every recipe, one after the other")
    parser.add_argument("--list", action="store_true", help="list the recipes and their measured times")
    parser.add_argument("--out", type=Path, default=ROOT / "nlp_helpers" / "checkpoints", help="output folder")
    parser.add_argument("--steps", type=int, default=None, help="train this many steps instead (a trial run)")
    parser.add_argument(
        "--prefix", action="store_true", help="retrain the first steps of NAME's card and print the largest difference"
    )
    args = parser.parse_args(argv)
    if args.prefix:
        return _print_prefix_difference(recipe(args.name), args.out)
    if args.list:
        for rec in recipes().values():
            print(f"{rec.name:24s} {rec.steps:6d} steps  {_measured_time(rec, args.out):>28s}  {rec.title}")
        return 0
    if not args.all and not args.name:
        parser.error("give a NAME, --all or --list")
    todo = list(recipes().values()) if args.all else [recipe(args.name)]
    for rec in todo:
        command = "python -m tools.train_checkpoint " + shlex.join(
            [rec.name] + (["--steps", str(args.steps)] if args.steps else [])
        )
        print(f"training {rec.name}: {rec.title}", flush=True)
        card = run(rec, args.out, steps=args.steps, command=command)
        p = card["provenance"]
        print(
            f"{rec.name}: {card['metric']['name']} {card['metric']['value']:.4f} "
            f"(float32 {card['metric']['value_float32']:.4f}); {p['wall_seconds'] / 60:.1f} min wall, "
            f"{p['cpu_seconds'] / 60:.1f} min CPU; {card['weights']['bytes'] / 1e6:.2f} MB",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
