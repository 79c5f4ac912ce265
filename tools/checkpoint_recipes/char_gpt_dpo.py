"""``char_gpt_dpo``: ``char_gpt_reviews`` trained further with DPO on preference pairs of movie-review snippets.

The page ``book/llm_training/training.ipynb`` runs the DPO loop live for a few steps; this is the same loop
(``nlp_helpers.llm_training.dpo.train_dpo``) run for 300 steps. The policy starts from the stored weights of
``char_gpt_reviews`` and the reference is a frozen copy of them; beta 0.1, Adam at a constant learning rate of
1e-4, 8 pairs a step. Pairs (``preference_pairs``, 32 characters at most per answer): from the training snippets
of ``polarity_split()`` to train, from its test snippets held out. The curve's ``train_loss`` is the mean DPO
loss of the batches since the previous row, ``valid_loss`` the DPO loss on the held-out pairs and
``valid_accuracy`` the share of held-out pairs ranked right (implicit reward margin > 0).

The metric is the mean implicit reward margin on the held-out pairs (0 at the start). The same run with four
other seeds, and what a naive Bayes judge says of the two models' samples: ``benchmarks/sampling_dpo.py``.
"""

from __future__ import annotations

import copy
from typing import Any

from tools.train_checkpoint import Recipe

TRAINING = {"beta": 0.1, "lr": 1e-4, "batch_size": 8}
MAX_CHARS = 32
STEPS = 300
EVERY = 25


def data() -> dict[str, Any]:
    from nlp_helpers import checkpoints
    from nlp_helpers.data.polarity import polarity_split
    from nlp_helpers.llm.gpt import CharTokenizer
    from nlp_helpers.llm_training.dpo import preference_pairs

    chars = CharTokenizer(list(checkpoints.read_card("char_gpt_reviews")["data"]["alphabet"]))
    split = polarity_split()
    pairs = preference_pairs(split["train"], chars.chars, max_chars=MAX_CHARS)
    held_out = preference_pairs(split["test"], chars.chars, max_chars=MAX_CHARS)
    return {
        "chars": chars,
        "pairs": pairs,
        "held_out": held_out,
        "card": {
            "corpus": "sentence polarity dataset v1.0 (Pang and Lee, 2005), nlp_helpers.data.polarity.polarity_split()",
            "start": "the stored weights of the char_gpt_reviews checkpoint (also the frozen reference)",
            "train": f"preference_pairs(polarity_split()['train'], alphabet, max_chars={MAX_CHARS})",
            "valid": f"preference_pairs(polarity_split()['test'], alphabet, max_chars={MAX_CHARS})",
            "train_pairs": len(pairs),
            "valid_pairs": len(held_out),
            "alphabet": "".join(chars.chars),
        },
    }


def model(data: dict[str, Any]) -> dict[str, Any]:
    from nlp_helpers import checkpoints

    return checkpoints.read_card("char_gpt_reviews")["model"]


def reference_model():
    from nlp_helpers import checkpoints

    reference, _ = checkpoints.load("char_gpt_reviews")
    return reference.requires_grad_(False)


def train(net, data: dict[str, Any], seed: int, steps: int, stop_after: int | None) -> list[dict[str, float]]:
    from nlp_helpers.llm_training.dpo import train_dpo

    reference = reference_model()
    net.load_state_dict(copy.deepcopy(reference.state_dict()))  # the policy starts as the reference
    net.requires_grad_(True)
    history = train_dpo(
        net,
        reference,
        data["chars"],
        data["pairs"],
        data["held_out"],
        steps=steps if stop_after is None else stop_after,  # a constant learning rate: a prefix is a shorter run
        eval_every=EVERY,
        seed=seed,
        progress=stop_after is None,
        **TRAINING,
    )
    return [
        {
            "step": int(r["step"]),
            "train_loss": r["loss"],
            "valid_loss": r["held-out loss"],
            "valid_accuracy": r["held-out ranked right"],
        }
        for _, r in history.iterrows()
    ]


def _margins(net, data: dict[str, Any]):
    import torch

    from nlp_helpers.llm_training.dpo import answer_log_probs, reward_margins

    held, reference = data["held_out"], reference_model()
    args = (data["chars"], held["prompt"].tolist())
    with torch.no_grad():
        scores = [
            answer_log_probs(m, *args, held[k].tolist()) for m in (net, reference) for k in ("chosen", "rejected")
        ]
    return reward_margins(*scores, beta=TRAINING["beta"])


def evaluate(net, data: dict[str, Any]) -> float:
    return float(_margins(net, data).mean())


def more_metrics(net, data: dict[str, Any]) -> dict[str, float]:
    return {"held-out pairs ranked right": float((_margins(net, data) > 0).float().mean())}


RECIPE = Recipe(
    name="char_gpt_dpo",
    title="char_gpt_reviews after 300 steps of DPO on movie-review preference pairs",
    page="book/llm_training/training.ipynb",
    data=data,
    model=model,
    train=train,
    evaluate=evaluate,
    more_metrics=more_metrics,
    training={"function": "nlp_helpers.llm_training.dpo.train_dpo", "start": "char_gpt_reviews", **TRAINING},
    metric={
        "name": "mean implicit reward margin",
        "split": "valid",
        "lower_is_better": False,
        "function": "beta * ((log pi - log ref)(chosen) - (log pi - log ref)(rejected)), held-out pairs",
    },
    steps=STEPS,
    curve_every=EVERY,
    curve_unit="nats (DPO loss)",
    prefix_steps=EVERY,
    # Retraining the first 25 steps of the card, measured: 0 nats natively (AVX2) and with ATEN_CPU_CAPABILITY=default.
    prefix_tolerance=1e-3,
    minutes="0.8 min CPU, 12 min wall on a busy machine",
)
