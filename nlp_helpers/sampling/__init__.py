"""LLM sampling and decoding: the helpers of the chapter ``book/sampling/``.

One concept per module (import from the module itself; this file re-exports nothing):

* ``distributions``: from logits to probabilities: temperature, top-k, top-p, min-p, repetition penalty, sampling.
* ``generate``: the autoregressive loop and measures of generated text (distinct-n, repetition).
* ``beam``: beam search, step for step as ``transformers``' ``generate(num_beams=k)``.
* the character-level decoder-only transformer (TinyGPT) lives in ``nlp_helpers.llm.gpt``.
* ``llm``: SmolLM2-135M-Instruct, offline, and helpers around its language-model head.
* ``safety``: which generated samples a page shows: the first one free of offensive words.
* ``exercises``: the checkers of the sampling and generation pages' exercises.
* ``penalties``: frequency and presence penalties (the decoding page, ``book/sampling/decoding.ipynb``).
* ``speculative``: speculative decoding: the greedy loop, the accept/reject rule, an early-exit draft, the expected speed-up.
* ``constrained``: constrained decoding with a character automaton masking the vocabulary.
* ``rerank``: choosing among samples: minimum-Bayes-risk scores with a bag-of-tokens F1.
* ``decoding_exercises``: the checkers of the decoding page's exercises.

Prompting, DPO, evaluation and ratings belong to the next chapter, ``nlp_helpers.llm_training``.
"""
