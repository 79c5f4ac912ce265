"""Trained models that ship with the book: ``names()``, ``load(name) -> (model, card)``, ``read_card``, ``build_model``.

A page trains its model live for a few seconds; the long run of the *same* code ships here as a
checkpoint, so the chapter can end with a model that works::

    from nlp_helpers import checkpoints

    checkpoints.names()                      # ['char_gpt', ...]
    model, card = checkpoints.load("char_gpt")  # model in eval mode, float32; card: a dict
    card["metric"]["value"], card["curve"]   # what the run reached, and how

**Layout.** Each checkpoint is two files in this folder: ``<name>.safetensors`` (the weights, float16
unless the card says otherwise) and ``<name>.json`` (its card). A card holds:

* ``model``: how to build the untrained model, ``{"factory": "nlp_helpers.<chapter>.<module>.<Class>",
  "config_class": "...Config" or null, "kwargs": {...}}``: ``factory(config_class(**kwargs))`` or
  ``factory(**kwargs)``. The factory must be a public name inside ``nlp_helpers``;
* ``weights``: ``file``, ``dtype``, ``sha256``, ``parameters``, ``bytes``;
* ``seed``, ``seed_offset``, ``data`` (the split and its sizes), ``training`` (the function and its
  arguments), ``steps``, ``curve`` (``every``, ``unit`` and ``rows`` of ``{step, train_loss, valid_loss}``,
  a classifier's also with ``valid_accuracy``), ``metric`` (``name``, ``split``, ``value`` from the stored
  weights, ``value_float32`` before rounding them, optionally ``more``: other numbers of the stored weights);
* ``provenance``: ``package_version``, ``git_commit``, ``command``, ``wall_seconds``, ``cpu_seconds``,
  ``machine``, ``created``.

Cards are written by ``python -m tools.train_checkpoint NAME`` from a recipe in
``tools/checkpoint_recipes/NAME.py``; see that package's docstring to add one. This package only
reads: loading imports ``safetensors`` and the model's own module, nothing used for training.

This ``__init__`` defines the package's four functions itself (an exception to the rule that
``__init__`` files hold only a docstring, recorded in ``tests/test_architecture.py``): the call a
page makes is ``checkpoints.load(name)``. The package is shared code and imports no chapter; a card
names its model's class, which is imported when that checkpoint is loaded.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from pathlib import Path
from typing import Any

DIRECTORY = Path(__file__).resolve().parent
CARD_FORMAT = 1


def names(directory: str | Path | None = None) -> list[str]:
    """The checkpoints that ship with the book (sorted), or those in ``directory``: every ``<name>.json`` card."""
    return sorted(p.stem for p in _directory(directory).glob("*.json"))


def read_card(name: str, directory: str | Path | None = None) -> dict[str, Any]:
    """The card of checkpoint ``name`` as a dict, without loading its weights."""
    return _read_card(_check_name(name, directory), _directory(directory))


def load(name: str, directory: str | Path | None = None):
    """``(model, card)``: the model of checkpoint ``name`` with its stored weights, float32, in eval mode.

    The weights file is checked against the card's sha256 first, so a truncated download or a Git LFS
    pointer gives a clear error instead of garbage. ``directory``: where the files are (default: the
    package's own checkpoints).
    """
    folder = _directory(directory)
    card = _read_card(_check_name(name, folder), folder)
    return _load(card, folder), card


def _directory(directory: str | Path | None) -> Path:
    if directory is None:
        return DIRECTORY
    if not isinstance(directory, (str, Path)):
        raise TypeError(f"directory must be a path or None, got {type(directory).__name__}")
    folder = Path(directory)
    if not folder.is_dir():
        raise FileNotFoundError(f"directory {str(folder)!r} is not a folder")
    return folder


def _check_name(name: str, directory: str | Path | None) -> str:
    if not isinstance(name, str):
        raise TypeError(f"name must be a str naming a checkpoint, got {type(name).__name__}")
    known = names(directory)
    if name not in known:
        raise ValueError(f"name: no checkpoint {name!r}; the checkpoints are {known}")
    return name


def _read_card(name: str, folder: Path) -> dict[str, Any]:
    card = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    missing = [k for k in ("format", "name", "model", "weights", "metric", "curve") if k not in card]
    if missing or card["format"] != CARD_FORMAT:
        raise ValueError(f"the card of {name!r} is not a format-{CARD_FORMAT} card (missing {missing})")
    return card


def _factory(dotted: str):
    """The public class or function ``nlp_helpers.<...>.<Name>`` named by a card."""
    module, _, attr = str(dotted).rpartition(".")
    if not module.startswith("nlp_helpers.") or not attr or attr.startswith("_"):
        raise ValueError(f"a card's factory must be a public name inside nlp_helpers, got {dotted!r}")
    return getattr(importlib.import_module(module), attr)


def build_model(spec: dict[str, Any]):
    """The untrained model a card's ``model`` entry describes (used by loading and by training alike)."""
    if not isinstance(spec, dict) or "factory" not in spec:
        raise ValueError(f"spec must be a card's model entry with a 'factory', got {spec!r}")
    factory, kwargs = _factory(spec["factory"]), dict(spec.get("kwargs", {}))
    if spec.get("config_class"):
        return factory(_factory(spec["config_class"])(**kwargs))
    return factory(**kwargs)


def _load(card: dict[str, Any], folder: Path):
    from safetensors.torch import load_model

    path = folder / card["weights"]["file"]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != card["weights"]["sha256"]:
        raise ValueError(
            f"{path.name} does not match its card (sha256 {digest[:12]}..., card {card['weights']['sha256'][:12]}...): "
            "a truncated file or a Git LFS pointer? Run `git lfs pull` or retrain it with tools/train_checkpoint"
        )
    model = build_model(card["model"])
    load_model(model, str(path), strict=True)  # float16 values are cast into the float32 parameters
    return model.eval()
