"""Attention and the transformer: the helpers of the chapter ``book/attention/``.

One concept per module (import from the module itself; this file re-exports nothing):

* ``self_attention``: scaled dot-product and multi-head attention in numpy, masks.
* ``positional``: sinusoidal positional encodings and ALiBi biases.
* ``transformer``: layer norm, the position-wise feed-forward network, encoder and decoder layers in numpy.
* ``worked_example``: the worked example, one encoder layer on a six-word sentence.
* ``exercises``, ``self_attention_exercises``, ``transformer_exercises``, ``positions_exercises``: the checkers
  of the chapter's exercises.

The GPT trained on Shakespeare and the block of today's LLMs are in ``nlp_helpers.llm`` (the next chapter).
"""
