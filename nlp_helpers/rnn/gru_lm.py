"""A character-level GRU language model beside the LSTM of :mod:`nlp_helpers.rnn.charlm`.

:class:`CharGRULM` is :class:`~nlp_helpers.rnn.charlm.CharLM` with ``nn.GRU`` layers instead of
``nn.LSTM``: the same tied embedding and output bias, so :func:`~nlp_helpers.rnn.charlm.train_lm`,
:func:`~nlp_helpers.rnn.charlm.char_logprobs` and :func:`~nlp_helpers.rnn.charlm.generate` work on
it unchanged. :func:`gru_lstm_study` reads the comparison that ``benchmarks/seed_study_rnn_gru.py``
stored (the two models at the chapter's settings, over several seeds).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
from torch import nn

from nlp_helpers.rnn.charlm import CharLM

__all__ = ["GRU_STUDY_FILE", "CharGRULM", "gru_lstm_study"]

GRU_STUDY_FILE = Path(__file__).with_name("gru_lstm_study.json")


class CharGRULM(CharLM):
    """Embedding → ``num_layers`` GRU layers → output scores (tied to the embedding by default).

    Arguments as for :class:`~nlp_helpers.rnn.charlm.CharLM`; a GRU layer has three gate blocks
    where an LSTM has four, so the model has about three quarters of the recurrent parameters.
    """

    def __init__(
        self,
        vocab_size: int,
        embedding_dim: int = 128,
        hidden_size: int = 128,
        num_layers: int = 1,
        tie_weights: bool = True,
    ) -> None:
        super().__init__(vocab_size, embedding_dim, hidden_size, num_layers, tie_weights)
        self.layers = nn.ModuleList(
            nn.GRU(embedding_dim if i == 0 else hidden_size, hidden_size, batch_first=True) for i in range(num_layers)
        )


def gru_lstm_study() -> pd.DataFrame:
    """The stored GRU-versus-LSTM comparison: one row per (model, seed).

    Columns: ``model`` ("LSTM" or "GRU"), ``seed``, ``parameters``, ``valid_perplexity`` (per
    character, on the chapter's validation text) and ``cpu_seconds`` (training, one thread).
    """
    if not GRU_STUDY_FILE.is_file():
        raise FileNotFoundError(f"{GRU_STUDY_FILE} is missing: run python -m benchmarks.seed_study_rnn_gru")
    return pd.DataFrame(json.loads(GRU_STUDY_FILE.read_text(encoding="utf-8"))["runs"])
