"""Attention and the transformer: the helpers of the chapter ``book/attention/``.

One concept per module (import from the module itself; this file re-exports nothing):

* ``self_attention``: scaled dot-product and multi-head attention in numpy, masks.
* ``positional``: sinusoidal positional encodings and ALiBi biases.
* ``transformer``: layer norm, the position-wise feed-forward network, encoder and decoder layers in numpy.
* ``modern``: the block of today's LLMs (Llama, SmolLM2): RMSNorm, RoPE, SwiGLU, grouped-query attention.
* ``worked_example``: the worked example, one encoder layer on a six-word sentence.
* ``gpt``: TinyGPT, a character-level decoder-only transformer (GPT-2 layout) small enough to train on a laptop.
* ``recipe``: the training recipe of large models (warm-up and cosine schedule, scaled residual init) and its ablation.
* ``bpc``: bits per character of a TinyGPT on a long text (sliding windows), comparable with the n-gram and LSTM chapters.
* ``exercises``: the checkers of the chapter's exercises.
"""
