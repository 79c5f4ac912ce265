"""Training and evaluating LLMs: the helpers of the chapter ``book/llm_training/``.

One concept per module (import from the module itself; this file re-exports nothing):

* ``prompting``: any task as next-token prediction: chat prompts with demonstrations, label-word scores,
  and the stored zero- versus few-shot study.
* ``dpo``: preference pairs, answer log-probabilities, the DPO loss and its training loop, and the stored study.
* ``training_exercises``: the checkers of the training page's exercises.
* ``evaluation``: multiple-choice scoring by log-likelihood (with length normalisation), Wilson and bootstrap intervals.
* ``ratings``: pairwise comparisons to ratings: Elo, the Bradley–Terry fit.
* ``reasoning``: answering directly versus zero-shot chain-of-thought; greedy replies; the stored study.
* ``evaluation_items``: the small test sets of the evaluation page (multiple choice, facts, word problems).
* ``evaluation_exercises``: the checkers of the evaluation page's exercises.

The SmolLM2 helpers (``nlp_helpers.sampling.llm``) and TinyGPT (``nlp_helpers.llm.gpt``) come from earlier chapters.
"""
