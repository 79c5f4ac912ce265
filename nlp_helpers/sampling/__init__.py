"""LLM sampling and decoding: the helpers of the chapter ``book/sampling/``.

One concept per module (import from the module itself; this file re-exports nothing):

* ``distributions``: from logits to probabilities: temperature, top-k, top-p, min-p, repetition penalty, sampling.
* ``generate``: the autoregressive loop and measures of generated text (distinct-n, repetition).
* ``beam``: beam search, step for step as ``transformers``' ``generate(num_beams=k)``.
* the character-level decoder-only transformer (TinyGPT) lives in ``nlp_helpers.llm.gpt``.
* ``llm``: SmolLM2-135M-Instruct, offline, and helpers around its language-model head.
* ``prompting``: any task as next-token prediction: chat prompts with demonstrations, label-word scores.
* ``exercises``: the checkers of the chapter's exercises.
* ``evaluation``: multiple-choice scoring by log-likelihood (with length normalisation), Wilson and bootstrap intervals.
* ``ratings``: pairwise comparisons to ratings: Elo, the Bradley–Terry fit.
* ``reasoning``: answering directly versus zero-shot chain-of-thought; greedy replies; the stored study.
* ``evaluation_items``: the small test sets of the evaluation page (multiple choice, facts, word problems).
* ``evaluation_exercises``: the checkers of the evaluation page's exercises.
* ``penalties``: frequency and presence penalties (the decoding page, ``book/sampling/decoding.ipynb``).
* ``speculative``: speculative decoding: the greedy loop, the accept/reject rule, an early-exit draft, the expected speed-up.
* ``constrained``: constrained decoding with a character automaton masking the vocabulary.
* ``rerank``: choosing among samples: minimum-Bayes-risk scores with a bag-of-tokens F1.
* ``decoding_exercises``: the checkers of the decoding page's exercises.
"""
