"""Direct preference optimisation (DPO) of a small character-level GPT on movie-review preference pairs.

DPO (Rafailov et al., 2023) trains a policy :math:`\\pi_\\theta` from pairs of answers to the same prompt, a
*chosen* :math:`y_w` and a *rejected* :math:`y_l`, against a frozen reference :math:`\\pi_{ref}`:

    margin = beta * [(log pi(y_w|x) - log ref(y_w|x)) - (log pi(y_l|x) - log ref(y_l|x))],
    loss   = -log sigmoid(margin), averaged over the pairs.

``beta * (log pi(y|x) - log ref(y|x))`` is the *implicit reward* of an answer; the margin is the chosen
answer's reward minus the rejected one's, and a held-out pair is ranked right when its margin is > 0.

The pairs (:func:`preference_pairs`) come from the sentence polarity corpus (Pang and Lee, 2005): snippets
that open with the same words form a prompt; a positive snippet's continuation is chosen, a negative one's
rejected. :func:`answer_log_probs` scores whole answers with a :class:`~nlp_helpers.llm.gpt.TinyGPT`,
:func:`train_dpo` is the training loop of the page ``book/llm_training/training.ipynb`` and
:func:`sample_continuations` draws the texts a judge then rates.

Left out: the supervised fine-tuning stage that usually comes first (the book's reviews checkpoint
``char_gpt_reviews`` plays its part), label smoothing (cDPO), IPO and other variants of the loss.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import torch
from torch.nn import functional as F

from nlp_helpers._checks import check_float, check_int, check_nonempty, check_text, check_type
from nlp_helpers.display import hide_progress
from nlp_helpers.seeds import torch_generator

__all__ = [
    "preference_pairs",
    "answer_log_probs",
    "reward_margins",
    "dpo_loss",
    "train_dpo",
    "sample_continuations",
    "dpo_study",
]

STUDY_FILE = Path(__file__).resolve().parent / "dpo_study.json"

_OPENING = re.compile(r"^[a-z']+( [a-z']+)* $")  # words only: no punctuation, digits or "-lrb-"


def preference_pairs(
    frame: pd.DataFrame, alphabet: Sequence[str], n_words: int = 2, max_chars: int = 40, min_chars: int = 20
) -> pd.DataFrame:
    """Preference pairs from labelled snippets: columns ``prompt``, ``chosen``, ``rejected`` (one row a pair).

    ``frame`` has columns ``text`` (str) and ``label`` (1 positive, 0 negative), e.g. a part of
    :func:`nlp_helpers.data.polarity.polarity_split`. A snippet's first ``n_words`` words plus a space are
    its prompt (only openings made of lower-case words and apostrophes); the next ``max_chars`` characters
    are its continuation (snippets whose continuation is shorter than ``min_chars`` are dropped, and so are
    snippets with a character outside ``alphabet``). Within each prompt, in sorted order, the i-th
    positive continuation is chosen over the i-th negative one; unmatched snippets are dropped.
    """
    check_type("frame", frame, pd.DataFrame)
    missing = {"text", "label"} - set(frame.columns)
    if missing:
        raise ValueError(f"frame must have the columns 'text' and 'label', missing {sorted(missing)}")
    alphabet = set(check_nonempty("alphabet", alphabet))
    n_words = check_int("n_words", n_words, minimum=1)
    max_chars = check_int("max_chars", max_chars, minimum=1)
    min_chars = check_int("min_chars", min_chars, minimum=1, maximum=max_chars)
    return _pairs(frame, alphabet, n_words, max_chars, min_chars)


def _pairs(frame: pd.DataFrame, alphabet: set[str], n_words: int, max_chars: int, min_chars: int) -> pd.DataFrame:
    by_prompt: dict[str, tuple[list[str], list[str]]] = {}  # prompt -> (negative, positive) continuations
    for text, label in zip(frame["text"], frame["label"]):
        words = str(text).split()
        prompt, rest = " ".join(words[:n_words]) + " ", " ".join(words[n_words:])[:max_chars]
        if len(rest) >= min_chars and _OPENING.match(prompt) and set(prompt + rest) <= alphabet:
            by_prompt.setdefault(prompt, ([], []))[int(label == 1)].append(rest)
    pairs = [(p, w, lo) for p in sorted(by_prompt) for lo, w in zip(*by_prompt[p])]
    return pd.DataFrame(pairs, columns=["prompt", "chosen", "rejected"])


def answer_log_probs(model: Any, tokenizer: Any, prompts: Sequence[str], answers: Sequence[str]) -> torch.Tensor:
    """``log P(answer | prompt)`` of each pair under a character model, summed over the answer: shape ``(B,)``.

    ``model`` maps ids ``(B, T)`` to logits ``(B, T, V)`` (a TinyGPT); the prompt and answer must fit in
    its ``block_size`` + 1 characters. Gradients flow to the model (wrap the call in ``torch.no_grad()``
    for a frozen reference). The batch is padded on the right, which a causal model never attends to.
    """
    prompts, answers = check_nonempty("prompts", prompts), check_nonempty("answers", answers)
    if len(prompts) != len(answers):
        raise ValueError(f"prompts and answers must have the same length, got {len(prompts)} and {len(answers)}")
    for name, texts in (("prompts", prompts), ("answers", answers)):
        if any(not isinstance(t, str) or not t for t in texts):
            raise ValueError(f"{name} must be non-empty strings")
    ids = [(tokenizer.encode(p), tokenizer.encode(a)) for p, a in zip(prompts, answers)]
    longest = max(len(p) + len(a) for p, a in ids)
    if longest - 1 > model.block_size:
        raise ValueError(f"a prompt and answer of {longest} characters do not fit the context of {model.block_size}")
    return _answer_log_probs(model, ids)


def _answer_log_probs(model: Any, ids: list[tuple[list[int], list[int]]]) -> torch.Tensor:
    length = max(len(p) + len(a) for p, a in ids)
    x = torch.zeros(len(ids), length, dtype=torch.long)
    mask = torch.zeros(len(ids), length - 1)  # mask[i, t] = 1 where position t predicts an answer character
    for i, (p, a) in enumerate(ids):
        x[i, : len(p) + len(a)] = torch.tensor(p + a)
        mask[i, len(p) - 1 : len(p) + len(a) - 1] = 1.0
    log_p = F.log_softmax(model(x[:, :-1]), dim=-1)  # (B, T - 1, V): position t predicts character t + 1
    return (log_p.gather(-1, x[:, 1:, None])[..., 0] * mask).sum(dim=1)


def reward_margins(
    policy_chosen: torch.Tensor,
    policy_rejected: torch.Tensor,
    ref_chosen: torch.Tensor,
    ref_rejected: torch.Tensor,
    beta: float,
) -> torch.Tensor:
    """``beta * [(pi_w - ref_w) - (pi_l - ref_l)]`` per pair: the chosen answer's implicit reward minus the rejected one's.

    The four arguments are sequence log-probabilities of the same shape ``(B,)``; ``beta`` > 0.
    """
    tensors = {
        "policy_chosen": policy_chosen,
        "policy_rejected": policy_rejected,
        "ref_chosen": ref_chosen,
        "ref_rejected": ref_rejected,
    }
    for name, value in tensors.items():
        check_type(name, value, torch.Tensor)
        if value.shape != policy_chosen.shape:
            raise ValueError(f"{name} must have the shape of policy_chosen {tuple(policy_chosen.shape)}")
    beta = check_float("beta", beta, minimum=0.0, min_inclusive=False)
    return beta * ((policy_chosen - ref_chosen) - (policy_rejected - ref_rejected))


def dpo_loss(
    policy_chosen: torch.Tensor,
    policy_rejected: torch.Tensor,
    ref_chosen: torch.Tensor,
    ref_rejected: torch.Tensor,
    beta: float,
) -> torch.Tensor:
    """The DPO loss, ``-log sigmoid(margin)`` averaged over the pairs (a scalar); see :func:`reward_margins`."""
    return -F.logsigmoid(reward_margins(policy_chosen, policy_rejected, ref_chosen, ref_rejected, beta)).mean()


def train_dpo(
    policy: Any,
    reference: Any,
    tokenizer: Any,
    pairs: pd.DataFrame,
    held_out: pd.DataFrame,
    beta: float = 0.1,
    lr: float = 1e-4,
    steps: int = 30,
    batch_size: int = 16,
    eval_every: int = 5,
    seed: int = 0,
    progress: bool = False,
) -> pd.DataFrame:
    """Train ``policy`` in place with DPO against the frozen ``reference``; return the history.

    Each step draws ``batch_size`` rows of ``pairs`` (columns ``prompt``, ``chosen``, ``rejected``) at
    random (``seed``, plus ``$NLP_SEED_OFFSET``) and takes one Adam step on their mean DPO loss. Every
    ``eval_every`` steps (and at step 0) the history records the mean training loss since the previous row
    (NaN at step 0) and, on ``held_out``, the DPO loss, the mean implicit reward margin and the share of
    pairs ranked right (margin > 0; a tie, as at step 0, counts half). Columns: ``step``, ``loss``,
    ``held-out loss``, ``held-out margin``, ``held-out ranked right``.
    """
    for name, frame in (("pairs", pairs), ("held_out", held_out)):
        check_type(name, frame, pd.DataFrame)
        if not {"prompt", "chosen", "rejected"} <= set(frame.columns) or frame.empty:
            raise ValueError(f"{name} must be a non-empty DataFrame with columns prompt, chosen, rejected")
    if policy is reference:
        raise ValueError("reference must be a frozen copy of the policy, not the policy itself")
    beta = check_float("beta", beta, minimum=0.0, min_inclusive=False)
    lr = check_float("lr", lr, minimum=0.0, min_inclusive=False)
    steps = check_int("steps", steps, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    eval_every = check_int("eval_every", eval_every, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    return _train(
        policy, reference, tokenizer, pairs, held_out, beta, lr, steps, batch_size, eval_every, seed, progress
    )


def _pair_log_probs(model: Any, tokenizer: Any, batch: pd.DataFrame) -> tuple[torch.Tensor, torch.Tensor]:
    prompts = batch["prompt"].tolist()
    chosen = answer_log_probs(model, tokenizer, prompts, batch["chosen"].tolist())
    return chosen, answer_log_probs(model, tokenizer, prompts, batch["rejected"].tolist())


def _train(policy, reference, tokenizer, pairs, held_out, beta, lr, steps, batch_size, eval_every, seed, progress):
    with torch.no_grad():  # the reference never changes: score the held-out pairs once
        held_ref_w, held_ref_l = _pair_log_probs(reference, tokenizer, held_out)

    def evaluate(step: int, loss: float) -> dict[str, float]:
        with torch.no_grad():
            margins = reward_margins(*_pair_log_probs(policy, tokenizer, held_out), held_ref_w, held_ref_l, beta)
        return {
            "step": step,
            "loss": loss,
            "held-out loss": -F.logsigmoid(margins).mean().item(),
            "held-out margin": margins.mean().item(),
            "held-out ranked right": ((margins > 0).float() + 0.5 * (margins == 0).float()).mean().item(),
        }

    optimiser = torch.optim.Adam(policy.parameters(), lr=lr)
    generator = torch_generator(seed)
    history, recent = [evaluate(0, float("nan"))], []
    bar = range(1, steps + 1)
    if progress and not hide_progress():
        from tqdm.auto import tqdm

        bar = tqdm(bar, desc="DPO", unit="step")
    for step in bar:
        batch = pairs.iloc[torch.randint(len(pairs), (batch_size,), generator=generator).numpy()]
        with torch.no_grad():
            ref_w, ref_l = _pair_log_probs(reference, tokenizer, batch)
        pi_w, pi_l = _pair_log_probs(policy, tokenizer, batch)
        loss = dpo_loss(pi_w, pi_l, ref_w, ref_l, beta)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        recent.append(loss.item())
        if step % eval_every == 0 or step == steps:
            history.append(evaluate(step, sum(recent) / len(recent)))
            recent = []
    return pd.DataFrame(history)


def sample_continuations(
    model: Any, tokenizer: Any, prompts: Sequence[str], n_samples: int, max_chars: int, seed: int = 0
) -> list[str]:
    """``n_samples`` continuations of at most ``max_chars`` characters of every prompt, sampled at temperature 1.

    Returns the ``len(prompts) * n_samples`` continuations (without their prompts), prompt by prompt, each cut
    at its first line break (where the snippet ends: the model writes one snippet a line). All rows run through
    the model together, padded on the right (a causal model never looks ahead, so each row's next character is
    read at its own last position). The draws come from ``torch_generator(seed)`` (plus ``$NLP_SEED_OFFSET``):
    two models given the same seed use the same random numbers.
    """
    prompts = check_nonempty("prompts", prompts)
    n_samples = check_int("n_samples", n_samples, minimum=1)
    max_chars = check_int("max_chars", max_chars, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    ids = [tokenizer.encode(check_text(f"prompts[{i}]", p, allow_empty=False)) for i, p in enumerate(prompts)]
    if max(map(len, ids)) + max_chars - 1 > model.block_size:
        raise ValueError(f"the longest prompt plus max_chars does not fit the context of {model.block_size}")
    return _sample(model, tokenizer, [row for row in ids for _ in range(n_samples)], max_chars, seed)


def _sample(model: Any, tokenizer: Any, rows: list[list[int]], max_chars: int, seed: int) -> list[str]:
    lengths = torch.tensor([len(r) for r in rows])
    x = torch.zeros(len(rows), int(lengths.max()) + max_chars, dtype=torch.long)
    for i, r in enumerate(rows):
        x[i, : len(r)] = torch.tensor(r)
    generator, everyone = torch_generator(seed), torch.arange(len(rows))
    with torch.no_grad():
        for t in range(max_chars):
            logits = model(x[:, : int(lengths.max()) + t])[everyone, lengths + t - 1]  # (N, V)
            probs = torch.softmax(logits.double(), dim=-1)
            x[everyone, lengths + t] = torch.multinomial(probs, 1, generator=generator)[:, 0]
    texts = [tokenizer.decode(x[i, lengths[i] : lengths[i] + max_chars].tolist()) for i in range(len(rows))]
    return [t.split("\n")[0] for t in texts]


def dpo_study() -> dict[str, Any]:
    """The study stored by ``benchmarks/sampling_dpo.py``: ``{"setup": dict, "runs": DataFrame}``, one row per seed.

    Columns of ``runs``: ``seed``; the held-out ``margin`` and share ``ranked right`` after the page's live
    steps and after all steps; for the ``reference`` and the ``DPO`` policy the share of sampled continuations
    the naive Bayes judge calls positive and their mean P(positive); ``cpu seconds``.
    """
    if not STUDY_FILE.is_file():
        raise FileNotFoundError(f"{STUDY_FILE} is missing: run python -m benchmarks.sampling_dpo")
    stored = json.loads(STUDY_FILE.read_text(encoding="utf-8"))
    return {"setup": stored["setup"], "runs": pd.DataFrame(stored["runs"])}
