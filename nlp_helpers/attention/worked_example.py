"""The lecture notes' worked example: one encoder layer on "when you play game of thrones", as printed.

The slides compute one post-norm encoder layer by hand with ``d_model = 6`` and
``d_k = 4``. Their tables were decoded into
``nlp_helpers/data/files/attention_encoder_worked_example.json`` (a copy of the
book's ``reference/encoder_worked_example.json``; rows are tokens throughout).
This module loads them and offers the two small tools the chapter needs to compare
its numbers with the printed ones:

* :func:`load_worked_example` - the tables as numpy arrays, plus tokens and notes;
* :func:`printed_agreement` - does a computed matrix round to the printed one? (half a
  unit in the last printed decimal, plus a hair for binary floating point);
* :func:`labelled` - a matrix as a pandas DataFrame with token rows and named columns.

The layer itself is computed with :mod:`nlp_helpers.attention.self_attention` and
:mod:`nlp_helpers.attention.transformer`; nothing here does arithmetic on the example.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from nlp_helpers._checks import check_array, check_int

__all__ = ["WorkedExample", "load_worked_example", "printed_agreement", "labelled"]

DATA_FILE = Path(__file__).parents[1] / "data" / "files" / "attention_encoder_worked_example.json"
_NOT_MATRICES = {"source", "tokens", "vocab_ids", "d_model", "d_k", "notes", "layer_norm_epsilon"}


# Reader-facing names of tables whose stored name records how they were decoded.
_ALIASES = {"b_ffn": "b_ffn_inferred", "E": "static_embedding_rows_are_tokens"}


@dataclass(frozen=True)
class WorkedExample:
    """The printed tables of the lecture notes (``tables[name]`` is a float array; see ``names``)."""

    tokens: tuple[str, ...]
    vocab_ids: tuple[int, ...]
    d_model: int
    d_k: int
    layer_norm_epsilon: float
    tables: dict[str, np.ndarray]
    notes: tuple[str, ...]

    @property
    def names(self) -> list[str]:
        return sorted(self.tables)

    def __getitem__(self, name: str) -> np.ndarray:
        name = _ALIASES.get(name, name)
        if name not in self.tables:
            raise KeyError(f"no table {name!r}; the tables are {self.names}")
        return self.tables[name].copy()


@functools.lru_cache(maxsize=1)
def _load(path: Path) -> WorkedExample:
    raw = json.loads(path.read_text(encoding="utf-8"))
    tables = {k: np.asarray(v, dtype=float) for k, v in raw.items() if k not in _NOT_MATRICES}
    return WorkedExample(
        tokens=tuple(raw["tokens"]),
        vocab_ids=tuple(raw["vocab_ids"]),
        d_model=int(raw["d_model"]),
        d_k=int(raw["d_k"]),
        layer_norm_epsilon=float(raw["layer_norm_epsilon"]),
        tables=tables,
        notes=tuple(raw["notes"]),
    )


def load_worked_example() -> WorkedExample:
    """The worked example of the lecture notes (cached; every access returns copies of the arrays)."""
    if not DATA_FILE.is_file():
        raise FileNotFoundError(f"the worked example is missing from the package: {DATA_FILE}")
    return _load(DATA_FILE)


def printed_agreement(computed, printed, decimals: int) -> float:
    """Largest ``|computed - printed|`` in units of the last printed decimal (``<= 0.5`` means "rounds to it").

    A value of 0.5 or less says the computed number rounds to the printed one (ties either way);
    the result is returned rather than asserted so the chapter can show it.
    """
    decimals = check_int("decimals", decimals, minimum=0, maximum=12)
    c = check_array("computed", computed)
    p = check_array("printed", printed)
    if c.shape != p.shape:
        raise ValueError(f"computed has shape {c.shape} but printed has shape {p.shape}")
    if c.size == 0:
        raise ValueError("computed and printed must not be empty: there is nothing to compare")
    return float(np.max(np.abs(c - p)) * 10**decimals)


def labelled(matrix, rows: Sequence[str], columns: Sequence[str] | str, decimals: int | None = None) -> pd.DataFrame:
    """``matrix`` ``(n, m)`` as a DataFrame; ``columns`` is a list of names or a prefix (``"d"`` -> d1, d2, ...)."""
    m = check_array("matrix", matrix, ndim=2)
    if len(rows) != m.shape[0]:
        raise ValueError(f"rows has {len(rows)} labels but matrix has {m.shape[0]} rows")
    if isinstance(columns, str):
        columns = [f"{columns}{j + 1}" for j in range(m.shape[1])]
    if len(columns) != m.shape[1]:
        raise ValueError(f"columns has {len(columns)} labels but matrix has {m.shape[1]} columns")
    df = pd.DataFrame(m, index=list(rows), columns=list(columns))
    return df.round(decimals) if decimals is not None else df
