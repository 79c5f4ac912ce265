"""Answering directly versus zero-shot chain-of-thought, SmolLM2-135M-Instruct on arithmetic word problems.

Every problem of :data:`nlp_helpers.llm_training.evaluation_items.ARITHMETIC` is asked twice with greedy
decoding: directly (:func:`nlp_helpers.llm_training.reasoning.answer_directly`, the assistant's turn started
with "The answer (arabic numerals) is") and with Kojima et al.'s two-stage zero-shot chain-of-thought
(:func:`nlp_helpers.llm_training.reasoning.answer_with_cot`, "Let's think step by step.", up to
``MAX_REASONING`` tokens of reasoning, then "Therefore, the answer (arabic numerals) is"). Greedy decoding
is deterministic: no seed is involved. It stores every reply and parsed answer.

It writes ``nlp_helpers/llm_training/cot_study.json``, which the page reads with
:func:`nlp_helpers.llm_training.reasoning.cot_study`.

Run: ``python -m benchmarks.sampling_cot`` (a few minutes of one CPU core).
"""

from __future__ import annotations

import json
import time

import torch

from nlp_helpers.data.smollm2 import load_smollm2
from nlp_helpers.llm_training.evaluation_items import ARITHMETIC
from nlp_helpers.llm_training.reasoning import COT_STUDY_FILE, answer_directly, answer_with_cot

MAX_REASONING = 64
MAX_ANSWER = 8


def main() -> None:
    torch.set_num_threads(1)
    model, tokenizer = load_smollm2()
    start = time.perf_counter()
    items = []
    for problem, gold in ARITHMETIC:
        direct = answer_directly(model, tokenizer, problem, MAX_ANSWER)
        cot = answer_with_cot(model, tokenizer, problem, MAX_REASONING, MAX_ANSWER)
        items.append(
            {
                "problem": problem,
                "gold": gold,
                "direct": direct["answer"],
                "cot": cot["answer"],
                "direct reply": direct["reply"],
                "reasoning": cot["reasoning"],
                "cot reply": cot["reply"],
            }
        )
        print({k: items[-1][k] for k in ("gold", "direct", "cot")}, repr(cot["reasoning"][:200]), flush=True)
    setup = {
        "model": "SmolLM2-135M-Instruct",
        "problems": len(items),
        "max reasoning tokens": MAX_REASONING,
        "max answer tokens": MAX_ANSWER,
        "decoding": "greedy",
        "seconds": round(time.perf_counter() - start, 1),
    }
    about = __doc__.split("\n\n")[0]
    COT_STUDY_FILE.write_text(json.dumps({"about": about, "setup": setup, "items": items}, indent=1) + "\n")
    right = {k: sum(i[k] == i["gold"] for i in items) for k in ("direct", "cot")}
    print(setup, right)


if __name__ == "__main__":
    main()
