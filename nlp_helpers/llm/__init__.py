"""Large language models: the helpers of the chapter ``book/llm/``.

One concept per module (import from the module itself; this file re-exports nothing):

* ``gpt``: TinyGPT, a character-level decoder-only transformer (GPT-2 layout) small enough to train on a laptop.
* ``recipe``: the training recipe of large models (warm-up and cosine schedule, scaled residual init) and its ablation.
* ``bpc``: bits per character of a TinyGPT on a long text (sliding windows), comparable with the n-gram and LSTM chapters.
* ``modern``: the block of today's LLMs (Llama, SmolLM2): RMSNorm, RoPE, SwiGLU, grouped-query attention.
* ``gpt_exercises``, ``modern_exercises``: the checkers of the chapter's exercises, one module per page.

The attention, heads, masks and layers these models are built from are in ``nlp_helpers.attention``.
"""
