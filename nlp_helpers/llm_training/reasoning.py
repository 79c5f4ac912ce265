"""Prompting to reason: answering directly versus zero-shot chain-of-thought (Kojima et al., 2022).

Chain-of-thought prompting (Wei et al., 2022) lets a model write intermediate steps before its answer.
Kojima et al. (2022) found that one sentence, "Let's think step by step.", at the start of the answer
does it without any demonstration, in two stages: the model first writes its reasoning; then the prompt
so far, the reasoning and "Therefore, the answer (arabic numerals) is" are given back to it and the
number it writes next is the answer.

* :func:`greedy_reply`: greedy decoding with the key/value cache until the end-of-turn token or
  ``max_new_tokens``.
* :func:`first_number`: the first whole number in a text (``"1,200"`` is 1200), or ``None``.
* :func:`answer_directly` and :func:`answer_with_cot`: the two ways of asking SmolLM2-Instruct for the
  answer to a word problem (a chat, the assistant's turn started for it).
* :func:`cot_study`: the stored comparison of ``benchmarks/sampling_cot.py`` on
  :data:`nlp_helpers.llm_training.evaluation_items.ARITHMETIC`.

Left out: few-shot chain-of-thought with written-out demonstrations and self-consistency's sampling of
many reasoning paths (Wang et al., 2023), which cost many generations per problem.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from nlp_helpers._checks import check_int, check_text
from nlp_helpers.llm_training.prompting import chat_text
from nlp_helpers.sampling.llm import forward_with_cache

__all__ = [
    "ANSWER_TRIGGER",
    "COT_STUDY_FILE",
    "COT_TRIGGER",
    "DIRECT_TRIGGER",
    "answer_directly",
    "answer_with_cot",
    "cot_study",
    "first_number",
    "greedy_reply",
]

COT_TRIGGER = "Let's think step by step."
ANSWER_TRIGGER = "Therefore, the answer (arabic numerals) is"
DIRECT_TRIGGER = "The answer (arabic numerals) is"
COT_STUDY_FILE = Path(__file__).with_name("cot_study.json")  # written by benchmarks/sampling_cot.py
_NUMBER = re.compile(r"-?\d[\d,]*")


def greedy_reply(model: Any, tokenizer: Any, text: str, max_new_tokens: int = 64) -> str:
    """Greedy continuation of ``text`` (the whole prompt, chat template included) by a causal LM.

    Each step takes the most likely next token; the loop stops after ``max_new_tokens`` tokens or at the
    tokenizer's end-of-sequence token (SmolLM2-Instruct's ``<|im_end|>``), which is not returned.
    Returns the decoded new text.
    """
    text = check_text("text", text, allow_empty=False)
    max_new_tokens = check_int("max_new_tokens", max_new_tokens, minimum=1)
    return _greedy(model, tokenizer, text, max_new_tokens)


def _greedy(model: Any, tokenizer: Any, text: str, max_new_tokens: int) -> str:
    import torch

    ids = tokenizer(text, return_tensors="pt", add_special_tokens=False)["input_ids"]  # (1, T)
    stop, new, cache = tokenizer.eos_token_id, [], None
    with torch.no_grad():
        for _ in range(max_new_tokens):
            out, cache = forward_with_cache(model, ids, cache)
            token = int(out.logits[0, -1].argmax())
            if token == stop:
                break
            new.append(token)
            ids = torch.tensor([[token]])  # the cache holds everything before it
    return tokenizer.decode(new)


def first_number(text: str) -> int | None:
    """The first whole number written in digits in ``text`` (commas as thousands separators), else None."""
    text = check_text("text", text)
    match = _NUMBER.search(text)
    if match is None:
        return None
    return int(match.group().replace(",", ""))  # the match starts with a digit (after an optional minus)


def answer_directly(model: Any, tokenizer: Any, problem: str, max_new_tokens: int = 8) -> dict[str, Any]:
    """Ask for the answer at once: the assistant's turn starts with "The answer (arabic numerals) is".

    Returns ``{"prompt": str, "reply": str, "answer": int | None}`` (the first number of the reply).
    """
    problem = check_text("problem", problem, allow_empty=False)
    prompt = chat_text([{"role": "user", "content": problem}]) + DIRECT_TRIGGER
    reply = greedy_reply(model, tokenizer, prompt, max_new_tokens)
    return {"prompt": prompt, "reply": reply, "answer": first_number(reply)}


def answer_with_cot(
    model: Any, tokenizer: Any, problem: str, max_reasoning_tokens: int = 64, max_answer_tokens: int = 8
) -> dict[str, Any]:
    """Zero-shot chain-of-thought in Kojima et al.'s two stages.

    Stage 1: the assistant's turn starts with "Let's think step by step." and the model writes up to
    ``max_reasoning_tokens`` tokens of reasoning (greedy). Stage 2: "Therefore, the answer (arabic
    numerals) is" follows the reasoning, and the first number of the next ``max_answer_tokens`` tokens
    is the answer. Returns ``{"prompt", "reasoning", "reply", "answer"}``.
    """
    problem = check_text("problem", problem, allow_empty=False)
    max_reasoning_tokens = check_int("max_reasoning_tokens", max_reasoning_tokens, minimum=1)
    max_answer_tokens = check_int("max_answer_tokens", max_answer_tokens, minimum=1)
    prompt = chat_text([{"role": "user", "content": problem}]) + COT_TRIGGER
    reasoning = _greedy(model, tokenizer, prompt, max_reasoning_tokens)
    reply = _greedy(model, tokenizer, f"{prompt}{reasoning.rstrip()}\n{ANSWER_TRIGGER}", max_answer_tokens)
    return {"prompt": prompt, "reasoning": reasoning, "reply": reply, "answer": first_number(reply)}


def cot_study() -> dict[str, Any]:
    """The stored direct versus chain-of-thought comparison of ``benchmarks/sampling_cot.py``.

    Returns ``{"about": str, "setup": dict, "items": DataFrame}``; ``items`` has one row per problem:
    ``problem``, ``gold``, ``direct`` and ``cot`` (the parsed answers, None where no number came),
    ``direct reply``, ``reasoning`` and ``cot reply`` (the generated texts).
    """
    import pandas as pd

    if not COT_STUDY_FILE.is_file():
        raise FileNotFoundError(f"{COT_STUDY_FILE} is missing: run python -m benchmarks.sampling_cot")
    stored = json.loads(COT_STUDY_FILE.read_text(encoding="utf-8"))
    return stored | {"items": pd.DataFrame(stored["items"])}
